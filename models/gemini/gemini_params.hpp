// Cray Gemini NIC and network parameters (XE6/XK6/XK7). One Gemini ASIC serves two nodes: two NICs and a 48-port
// router. Sources: each value's "source" in models/gemini/machines/*.json; README.md §References.
// LIMITATIONS: no BTE channel contention model (one BTE resource per node); no adaptive routing; SMSG, control
// messages and AMOs are timed analytically (no bandwidth sharing); only RDMA data and large copies are flows.
#pragma once
#include "core/params.hpp"

namespace ompisim::gemini {

struct GeminiParams {
  Sourced router_hop_latency;
  Sourced link_bandwidth_x, link_bandwidth_y, link_bandwidth_z;
  Sourced packet_payload_efficiency;
  Sourced packet_payload_bytes;  // payload of one Gemini network packet: an SMSG that fits is one packet (analytic)
  Sourced nic_latency;          // NIC to NIC for a small packet, excluding router hops
  Sourced smsg_cpu_overhead;    // host CPU per SMSG send (GNI_SmsgSendWTag) or receive (CQ poll + SmsgGetNextWTag)
  Sourced fma_pio_bandwidth;    // rate at which the CPU pushes SMSG/FMA payload through the FMA window
  Sourced fma_issue_overhead;   // host CPU to post one FMA PUT/GET/AMO descriptor
  Sourced bte_post_latency;     // BTE descriptor post to first byte
  Sourced bte_bandwidth;        // one BTE transfer's sustained rate
  Sourced nic_ht_capacity;      // host interface throughput of one NIC, shared by its transmit and receive streams
  Sourced amo_latency;          // NIC-side execution of a remote atomic (fetch/add at the target NIC), excl. wire
  Sourced registration_cost;    // GNI_MemRegister of one buffer (cache miss)
  Sourced max_registrations;    // memory registrations available per NIC
  Sourced endpoint_connect_time;// GNI_EpBind + mailbox exchange for a new peer (first message)

  template <class V>
  void visit(V&& v) {
    v(router_hop_latency, {"router_hop_latency", Dim::Time, "latency through one Gemini router hop", 0, 1e-5});
    v(link_bandwidth_x, {"link_bandwidth_x", Dim::Rate, "raw X link bandwidth per direction", 1e6, 1e12});
    v(link_bandwidth_y, {"link_bandwidth_y", Dim::Rate, "raw Y link bandwidth per direction", 1e6, 1e12});
    v(link_bandwidth_z, {"link_bandwidth_z", Dim::Rate, "raw Z link bandwidth per direction", 1e6, 1e12});
    v(packet_payload_efficiency, {"packet_payload_efficiency", Dim::Ratio, "payload bytes / wire bytes", 0.01, 1});
    v(packet_payload_bytes, {"packet_payload_bytes", Dim::Bytes,
                             "payload of one network packet: an SMSG of at most this many bytes (header included) is "
                             "one packet, timed analytically; a larger one moves as a shared flow", 8, 4096});
    v(nic_latency, {"nic_latency", Dim::Time, "NIC-to-NIC small-packet latency excluding hops", 0, 1e-4});
    v(smsg_cpu_overhead, {"smsg_cpu_overhead", Dim::Time, "host CPU per SMSG send or receive", 0, 1e-4});
    v(fma_pio_bandwidth, {"fma_pio_bandwidth", Dim::Rate, "CPU to FMA window payload rate (SMSG, FMA put)", 1e6, 1e12});
    v(fma_issue_overhead, {"fma_issue_overhead", Dim::Time, "host CPU to post one FMA descriptor", 0, 1e-4});
    v(bte_post_latency, {"bte_post_latency", Dim::Time, "BTE post to first byte", 0, 1e-4});
    v(bte_bandwidth, {"bte_bandwidth", Dim::Rate, "sustained rate of one BTE transfer", 1e6, 1e12});
    v(nic_ht_capacity, {"nic_ht_capacity", Dim::Rate, "NIC host interface throughput (tx + rx)", 1e6, 1e12});
    v(amo_latency, {"amo_latency", Dim::Time, "remote atomic executed by the target NIC, excl. wire", 0, 1e-4});
    v(registration_cost, {"registration_cost", Dim::Time, "memory registration of one buffer", 0, 1e-2});
    v(max_registrations, {"max_registrations", Dim::Count, "memory registrations per NIC", 1, 1e9});
    v(endpoint_connect_time, {"endpoint_connect_time", Dim::Time, "endpoint bind + mailbox setup", 0, 1e-2});
  }
};

// Per-message software costs of the MPI libraries on this machine's CPU (fitted), and Cray MPT's per-path costs: MPT
// is a closed black box (protocols/native/README.md), so each of its paths has its own fitted cost per message and per
// byte (a rate: bytes / rate of CPU time), fitted to the paper's numbers about MPT, comparisons included.
struct SoftwareParams {
  Sourced pml_ob1_overhead;   // pml/ob1 + BTL path, per message per side
  Sourced btl_ugni_overhead;  // btl/ugni's own work around each SMSG it sends or receives, per side (not btl/vader's)
  Sourced mpich_sw_overhead;  // Cray MPT (MPICH2 CH3/Nemesis) path, per message per side
  Sourced mpt_shm_eager_cost;  // on-node eager-contig path (above the eager-short size): sender CPU at post
  Sourced mpt_lmt_cost, mpt_lmt_rate;              // on-node XPMEM LMT: receiver CPU at match, before the attach/copy
  Sourced mpt_smsg_rate;       // MPT's SMSG payload rate into the FMA window (its sends; in place of fma_pio_bandwidth)
  Sourced mpt_rndv_send_rate;  // rendezvous: sender CPU per byte at post (before registration and the RTS)
  Sourced mpt_rndv_recv_rate;  // rendezvous: receiver CPU per byte at match (before registration and the GET)

  template <class V>
  void visit(V&& v) {
    v(pml_ob1_overhead, {"pml_ob1_overhead", Dim::Time, "Open MPI ob1+BTL software cost per message per side", 0, 1e-4});
    v(btl_ugni_overhead, {"btl_ugni_overhead", Dim::Time, "btl/ugni software per SMSG per side (fragment, pending-SMSG table, mailbox dispatch and release)", 0, 1e-4});
    v(mpich_sw_overhead, {"mpich_sw_overhead", Dim::Time, "Cray MPT software cost per message per side", 0, 1e-4});
    v(mpt_shm_eager_cost, {"mpt_shm_eager_cost", Dim::Time, "Cray MPT on-node eager-contig path (payload after the CH3 header): cost per message (sender)", 0, 1e-4});
    v(mpt_lmt_cost, {"mpt_lmt_cost", Dim::Time, "Cray MPT on-node LMT: cost per message (receiver, at match)", 0, 1e-3});
    v(mpt_lmt_rate, {"mpt_lmt_rate", Dim::Rate, "Cray MPT on-node LMT: per-byte cost as a rate (receiver, at match)", 1e6, 1e15});
    v(mpt_smsg_rate, {"mpt_smsg_rate", Dim::Rate, "Cray MPT SMSG sends: payload rate into the FMA window", 1e6, 1e12});
    v(mpt_rndv_send_rate, {"mpt_rndv_send_rate", Dim::Rate, "Cray MPT rendezvous: per-byte cost as a rate (sender, at post)", 1e6, 1e15});
    v(mpt_rndv_recv_rate, {"mpt_rndv_recv_rate", Dim::Rate, "Cray MPT rendezvous: per-byte cost as a rate (receiver, at match)", 1e6, 1e15});
  }
};

}  // namespace ompisim::gemini
