// HPE Slingshot-11: the Cassini NIC (200 Gb/s, PCIe Gen4 host interface, hardware tag matching, inline "IDC" commands)
// and the Rosetta switch (64 x 200 Gb/s ports, dragonfly). Physical values of the "nic" section of a machine file
// (models/slingshot/machines/*.json), each with its source; hardware-sources.md §2a-2c.
// The "software" section holds what the libfabric providers and MPI libraries installed on the machine do per message
// (the providers' and libraries' software settings are MCA parameters of their components: protocols/ofi/cxi/cxi_mca.hpp).
// LIMITATIONS: one NIC model for every port; no per-port or per-link timeline inside the NIC (bandwidth sharing is the
// platform's fabric: flows over the host interface of each end and the dragonfly links); no congestion management
// protocol; no virtual channels; Rosetta's port-to-port latency has no primary source (an estimate).
#pragma once
#include "core/params.hpp"

namespace ompisim::slingshot {

struct CassiniParams {
  Sourced link_bandwidth;             // Slingshot link rate per direction: the NIC's link and a group's local links
  Sourced global_link_bandwidth;      // a global (group-to-group) link's rate per direction
  Sourced packet_payload_efficiency;  // payload bytes / wire bytes for long transfers
  Sourced switch_port_latency;        // Rosetta, port to port, per switch-to-switch link traversed
  Sourced nic_latency;                // NIC to NIC for a small packet through the edge switch, no further hops
  Sourced host_interface_bandwidth;   // Cassini's PCIe Gen4 x16 host interface, per direction
  Sourced dma_read_latency;           // the NIC fetches a payload from memory (a command above the inline size)
  Sourced device_access_latency;      // extra latency when the NIC reads or writes GPU memory (PCIe peer to peer)
  Sourced inject_size;                // inline (IDC) payload limit: no DMA read of the payload
  Sourced max_active_transfers;       // bulk transfers one port's DMA engine works on at once; the rest wait (FIFO); 0: no bound

  template <class V>
  void visit(V&& v) {
    v(link_bandwidth, {"link_bandwidth", Dim::Rate, "Slingshot link rate per direction (NIC and local links)", 1e6, 1e12});
    v(global_link_bandwidth, {"global_link_bandwidth", Dim::Rate, "global (group-to-group) link rate per direction",
                              1e6, 1e12});
    v(packet_payload_efficiency, {"packet_payload_efficiency", Dim::Ratio, "payload bytes / wire bytes", 0.01, 1});
    v(switch_port_latency, {"switch_port_latency", Dim::Time, "Rosetta port-to-port latency per switch hop", 0, 1e-5});
    v(nic_latency, {"nic_latency", Dim::Time, "NIC to NIC small packet through the edge switch", 0, 1e-4});
    v(host_interface_bandwidth, {"host_interface_bandwidth", Dim::Rate, "NIC host interface rate per direction", 1e6, 1e12});
    v(dma_read_latency, {"dma_read_latency", Dim::Time, "NIC DMA read of a payload above the inline size", 0, 1e-4});
    v(device_access_latency, {"device_access_latency", Dim::Time, "extra NIC latency to GPU memory", 0, 1e-4});
    v(inject_size, {"inject_size", Dim::Bytes, "inline (IDC) payload limit, CXIP_INJECT_SIZE", 0, 4096});
    v(max_active_transfers, {"max_active_transfers", Dim::Count,
                             "bulk transfers a port's DMA engine works on at once (0: no bound)", 0, 1e6});
  }
};

// Per-message software costs and the libfabric providers' defaults on a Slingshot machine.
struct SoftwareParams {
  // The CXI provider's FI_CXI_* settings, the shm provider's inject size and the MPI libraries' fi_tinject choice are
  // MCA parameters of the components that read them (protocols/ofi/cxi/cxi_mca.hpp, ofi/shm/shm_mca.hpp,
  // mtl/ofi/mtl_ofi_mca.hpp); a machine sets other values through "mca_defaults".
  Sourced fc_recovery_time;        // flow-control recovery after overflow exhaustion (drop, side-band, re-send)
  // per message per side
  Sourced cxi_overhead;            // CXI provider host work: command issue or event read
  Sourced shm_overhead;            // libfabric shm provider: command queue entry, poll
  Sourced gpu_ipc_open_cost;       // hipIpcOpenMemHandle on first use of a peer's GPU buffer (then cached)
  Sourced gpu_copy_latency;        // launch + completion of one GPU copy (hipMemcpyAsync on the IPC mapping)
  Sourced linkx_overhead;          // LINKx, per call: provider choice and queue insert; a receive's match and CQ write
  Sourced pml_cm_overhead;         // pml/cm + mtl/ofi request management, fi_tsend/fi_trecv, CQ read
  Sourced mpich_overhead;          // Cray MPICH (CH4, OFI netmod / shm) per message
  // Cray MPICH's own on-node path (closed: a black box whose costs are fitted, protocols/native/README.md)
  Sourced mpich_smp_single_copy_size;  // MPICH_SMP_SINGLE_COPY_SIZE: smallest on-node message sent by single copy
  Sourced mpich_shm_overhead;      // per message per side on its on-node path (in place of the shm provider's)
  Sourced mpich_shm_eager_rate;    // eager (copy in, copy out): per-byte cost as a rate, sender at post
  Sourced mpich_shm_eager_cost_max;  // eager: the per-byte cost reaches at most this per message
  Sourced mpich_shm_copy_cost;     // single copy: per message, receiver at match, before the copy

  template <class V>
  void visit(V&& v) {
    v(fc_recovery_time, {"fc_recovery_time", Dim::Time, "CXI flow-control recovery after overflow exhaustion", 0, 1});
    v(cxi_overhead, {"cxi_overhead", Dim::Time, "CXI provider host cost per message per side", 0, 1e-4});
    v(shm_overhead, {"shm_overhead", Dim::Time, "shm provider host cost per message per side", 0, 1e-4});
    v(gpu_ipc_open_cost, {"gpu_ipc_open_cost", Dim::Time, "GPU IPC handle open, first use of a peer buffer", 0, 1});
    v(gpu_copy_latency, {"gpu_copy_latency", Dim::Time, "GPU copy launch and completion", 0, 1e-3});
    v(linkx_overhead, {"linkx_overhead", Dim::Time,
                       "LINKx per call (send/recv post; a received message's match and shared CQ write)", 0, 1e-4});
    v(pml_cm_overhead, {"pml_cm_overhead", Dim::Time, "pml/cm + mtl/ofi per message per side", 0, 1e-4});
    v(mpich_overhead, {"mpich_overhead", Dim::Time, "Cray MPICH per message per side", 0, 1e-4});
    v(mpich_smp_single_copy_size, {"mpich_smp_single_copy_size", Dim::Bytes,
                                   "Cray MPICH: smallest on-node message sent by single copy (below: eager)", 1, 1e12});
    v(mpich_shm_overhead, {"mpich_shm_overhead", Dim::Time, "Cray MPICH on-node path per message per side", 0, 1e-4});
    v(mpich_shm_eager_rate, {"mpich_shm_eager_rate", Dim::Rate, "Cray MPICH on-node eager: per-byte cost as a rate",
                             1e6, 1e15});
    v(mpich_shm_eager_cost_max, {"mpich_shm_eager_cost_max", Dim::Time,
                                 "Cray MPICH on-node eager: largest per-byte cost of one message", 0, 1e-4});
    v(mpich_shm_copy_cost, {"mpich_shm_copy_cost", Dim::Time, "Cray MPICH on-node single copy: per message", 0, 1e-3});
  }
};

}  // namespace ompisim::slingshot
