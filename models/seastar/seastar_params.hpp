// Cray SeaStar / SeaStar 2.1 NIC and network parameters (XT3, XT3+ Red Storm, XT4 Jaguar) running Portals 3.3 under
// Catamount. One SeaStar per node: a HyperTransport interface to the Opteron, an embedded PowerPC 440 that runs the
// Portals firmware, DMA engines and a 7-port router (6 torus/mesh links). Sources: each value's "source" in
// models/seastar/machines/*.json; README.md §References; hardware-sources.md §4.
// LIMITATIONS: the PowerPC is one serial resource per node shared by transmit and receive processing; the Catamount
// interrupt is taken by the target rank's core; no adaptive routing; header packets are timed analytically, payload
// above `flow_threshold` moves as a shared flow over HT and links.
#pragma once
#include "core/params.hpp"

namespace ompisim::seastar {

struct SeaStarParams {
  Sourced router_hop_latency;   // per router traversed
  Sourced link_bandwidth;       // per direction, raw
  Sourced packet_payload_efficiency;
  Sourced ht_bandwidth;         // HyperTransport injection / ejection, per direction (DMA payload rate)
  Sourced nic_latency;          // NIC to NIC for a header packet, excluding router hops and firmware
  Sourced fw_message_cost;      // PowerPC firmware per message (command or header processing, DMA set-up)
  Sourced match_entry_cost;     // firmware per match entry walked
  Sourced host_interrupt_cost;  // Catamount interrupt + generic-mode Portals processing per incoming message
  Sourced portals_call_cost;    // host side of one Portals call that reaches the NIC (PtlPut, PtlGet, PtlMD*, PtlME*)
  Sourced eq_poll_cost;         // host PtlEQGet of one event
  Sourced header_bytes;         // Portals header on the wire
  Sourced flow_threshold;       // payloads above this move as shared flows (below: analytic)

  template <class V>
  void visit(V&& v) {
    v(router_hop_latency, {"router_hop_latency", Dim::Time, "latency through one SeaStar router hop", 0, 1e-5});
    v(link_bandwidth, {"link_bandwidth", Dim::Rate, "raw link bandwidth per direction", 1e6, 1e12});
    v(packet_payload_efficiency, {"packet_payload_efficiency", Dim::Ratio, "payload bytes / wire bytes", 0.01, 1});
    v(ht_bandwidth, {"ht_bandwidth", Dim::Rate, "NIC HyperTransport DMA rate per direction", 1e6, 1e12});
    v(nic_latency, {"nic_latency", Dim::Time, "NIC-to-NIC header latency excluding hops and firmware", 0, 1e-4});
    v(fw_message_cost, {"fw_message_cost", Dim::Time, "PowerPC firmware cost per message handled", 0, 1e-4});
    v(match_entry_cost, {"match_entry_cost", Dim::Time, "firmware cost per match entry walked", 0, 1e-5});
    v(host_interrupt_cost, {"host_interrupt_cost", Dim::Time, "host interrupt + Portals processing per incoming message", 0, 1e-4});
    v(portals_call_cost, {"portals_call_cost", Dim::Time, "host cost of one Portals API call into the NIC", 0, 1e-4});
    v(eq_poll_cost, {"eq_poll_cost", Dim::Time, "host cost of one PtlEQGet that returns an event", 0, 1e-4});
    v(header_bytes, {"header_bytes", Dim::Bytes, "Portals header bytes on the wire", 0, 4096});
    v(flow_threshold, {"flow_threshold", Dim::Bytes, "payload size above which data moves as a shared flow", 0, 1e9});
  }
};

// Per-message software costs of the MPI libraries on the Catamount Opteron (per message per side, excluding the
// Portals calls, which are counted per call with nic.portals_call_cost).
struct SoftwareParams {
  Sourced pml_cm_overhead;      // pml/cm request management + mtl/portals bookkeeping
  Sourced pml_ob1_overhead;     // pml/ob1 matching, request and scheduling
  Sourced btl_portals_overhead; // btl/portals descriptor and receive-block management
  Sourced mpich_overhead;       // Cray MPI (MPICH2 CH3 over Portals)
  // Cray MPI's per-path costs, a closed black box fitted to the paper's numbers about Cray MPI (protocols/native/README.md,
  // "Cray MPI on the SeaStar: per-path costs"). Eager path (up to MPICH_MAX_SHORT_MSG_SIZE): a cost per byte (written
  // as a rate: bytes / rate of CPU time) on the sender's CPU at post. Unexpected short path: a cost per message and
  // per byte on the receiver's CPU when a receive matches a message already in the unexpected buffer. Pre-posted
  // receive path: a cost per receive posted as a match entry, on the receiver's CPU once its entry is linked.
  Sourced craympi_eager_rate, craympi_unex_cost, craympi_unex_rate, craympi_post_cost;

  template <class V>
  void visit(V&& v) {
    v(pml_cm_overhead, {"pml_cm_overhead", Dim::Time, "pml/cm + mtl/portals software per message per side", 0, 1e-4});
    v(pml_ob1_overhead, {"pml_ob1_overhead", Dim::Time, "pml/ob1 software per message per side", 0, 1e-4});
    v(btl_portals_overhead, {"btl_portals_overhead", Dim::Time, "btl/portals software per fragment per side", 0, 1e-4});
    v(mpich_overhead, {"mpich_overhead", Dim::Time, "Cray MPI software per message per side", 0, 1e-4});
    v(craympi_eager_rate, {"craympi_eager_rate", Dim::Rate, "Cray MPI eager path: per-byte cost as a rate (sender, at post)", 1e6, 1e15});
    v(craympi_unex_cost, {"craympi_unex_cost", Dim::Time, "Cray MPI unexpected short path: cost per message (receiver, at match)", 0, 1e-4});
    v(craympi_unex_rate, {"craympi_unex_rate", Dim::Rate, "Cray MPI unexpected short path: per-byte cost as a rate (receiver, at match)", 1e6, 1e15});
    v(craympi_post_cost, {"craympi_post_cost", Dim::Time, "Cray MPI pre-posted receive path: cost per receive posted as a match entry (receiver, at post)", 0, 1e-4});
  }
};

}  // namespace ompisim::seastar
