// Quadrics QsNetII: the Elan4 NIC (QM-500) on PCI-X and the Elite-4 switch, and the per-message software costs of the
// MPI libraries measured on it. Every value comes from the machine file (models/qsnet/machines/*.json) with its source;
// hardware-sources.md §3 says which Elan4 numbers are published (few: link rate, PCI-X rate, MPI bandwidth) and which
// are gaps (QDMA/RDMA/chained-event/interrupt costs, Elite-4 switch latency): those are estimates or fitted.
// LIMITATIONS: see README.md in this folder.
#pragma once
#include "core/params.hpp"

namespace ompisim::qsnet {

struct Elan4Params {
  Sourced link_bandwidth;        // Elite-4 link, per direction, raw
  Sourced link_efficiency;       // payload / wire bytes on a link (packet headers, CRC)
  Sourced switch_hop_latency;    // one switch-to-switch link plus the Elite-4 it enters
  Sourced pcix_bandwidth;        // PCI-X 64-bit 133 MHz, theoretical
  Sourced pcix_efficiency;       // share of the PCI-X rate a DMA stream achieves
  Sourced nic_latency;           // NIC to NIC for a short packet: both PCI-X crossings, both NICs, the leaf switch
  Sourced cmd_issue_cost;        // host: write one DMA/QDMA descriptor to the command queue (PIO over PCI-X)
  Sourced nic_cmd_cost;          // NIC: command processor, per descriptor started (serial per NIC)
  Sourced mmu_translation_cost;  // NIC MMU: E4_Addr -> physical, per RDMA descriptor (both ends)
  Sourced event_fire_cost;       // NIC: an event reaching zero starts its chained operation (no host involved)
  Sourced local_qdma_latency;    // a QDMA into a queue of the same node (loopback through the NIC, no network)
  Sourced thread_proc_cost;      // Elan4 thread processor, per message it handles (Tport matching: per message)
  Sourced thread_proc_match_cost;// thread processor, per posted receive walked while matching (Tport)
  Sourced host_event_poll_cost;  // host: read one 8-byte host event word (polling)
  Sourced host_interrupt_cost;   // host: an event interrupt wakes a process blocked on it (kernel path, wake-up)
  Sourced event_spin_time;       // a progress thread polls its queue this long after its last work, then blocks
  Sourced qdma_slot_bytes;       // size of one receive-queue slot (QDMA message limit)
  Sourced qdma_slots;            // slots per receive queue
  Sourced qdma_retry_delay;      // a QDMA refused by a full queue is retried by the NIC after this
  Sourced flow_threshold;        // RDMA payloads above this move as shared flows (below: analytic)

  template <class V>
  void visit(V&& v) {
    v(link_bandwidth, {"link_bandwidth", Dim::Rate, "Elite-4 link bandwidth per direction, raw", 1e6, 1e12});
    v(link_efficiency, {"link_efficiency", Dim::Ratio, "payload bytes / wire bytes on a link", 0.01, 1});
    v(switch_hop_latency, {"switch_hop_latency", Dim::Time, "one switch-to-switch link and the Elite-4 it enters", 0, 1e-5});
    v(pcix_bandwidth, {"pcix_bandwidth", Dim::Rate, "PCI-X bus rate, theoretical (shared by both directions)", 1e6, 1e12});
    v(pcix_efficiency, {"pcix_efficiency", Dim::Ratio, "share of the PCI-X rate a DMA stream achieves", 0.01, 1});
    v(nic_latency, {"nic_latency", Dim::Time, "NIC-to-NIC short-packet latency incl. PCI-X and the leaf switch", 0, 1e-4});
    v(cmd_issue_cost, {"cmd_issue_cost", Dim::Time, "host cost of writing one descriptor to the NIC command queue", 0, 1e-4});
    v(nic_cmd_cost, {"nic_cmd_cost", Dim::Time, "NIC command processor time per descriptor (serial)", 0, 1e-4});
    v(mmu_translation_cost, {"mmu_translation_cost", Dim::Time, "NIC MMU translation per RDMA descriptor", 0, 1e-4});
    v(event_fire_cost, {"event_fire_cost", Dim::Time, "NIC time for an event to start its chained operation", 0, 1e-4});
    v(local_qdma_latency, {"local_qdma_latency", Dim::Time, "QDMA into a queue of the same node (NIC loopback)", 0, 1e-4});
    v(thread_proc_cost, {"thread_proc_cost", Dim::Time, "Elan4 thread processor time per message handled", 0, 1e-4});
    v(thread_proc_match_cost, {"thread_proc_match_cost", Dim::Time, "thread processor time per posted receive walked", 0, 1e-5});
    v(host_event_poll_cost, {"host_event_poll_cost", Dim::Time, "host cost of reading one host event word", 0, 1e-5});
    v(host_interrupt_cost, {"host_interrupt_cost", Dim::Time, "interrupt + wake-up of a process blocked on an event", 0, 1e-3});
    v(event_spin_time, {"event_spin_time", Dim::Time, "a progress thread polls its queue this long before blocking", 0, 1e-2});
    v(qdma_slot_bytes, {"qdma_slot_bytes", Dim::Bytes, "receive-queue slot size (QDMA message limit)", 64, 1 << 20});
    v(qdma_slots, {"qdma_slots", Dim::Count, "slots per QDMA receive queue", 1, 1 << 20});
    v(qdma_retry_delay, {"qdma_retry_delay", Dim::Time, "retry interval of a QDMA refused by a full queue", 1e-9, 1e-2});
    v(flow_threshold, {"flow_threshold", Dim::Bytes, "RDMA payload size above which data moves as a shared flow", 0, 1e12});
  }
  double dma_bandwidth() const { return pcix_bandwidth * pcix_efficiency; }
};

// Per-message software costs on the host (3.0 GHz Xeon), per side unless said otherwise.
struct SoftwareParams {
  Sourced pml_teg_overhead;          // pml/teg request, matching and scheduling, per message per side
  Sourced ptl_elan4_overhead;        // ptl/elan4 fragment handling per fragment per side
  Sourced datatype_engine_overhead;  // Open MPI's datatype engine (convertor) set-up per request, vs a plain memcpy
  Sourced thread_handoff_cost;       // a progress thread hands a completed request to the main thread (cond. signal)
  Sourced mpich_qsnet_overhead;      // MPICH-QsNetII (ADI over Tport) host cost per message per side
  Sourced mpich_qsnet_eager_rate;    // MPICH-QsNetII inline (eager) path: per-byte cost as a rate (sender's host, at post)
  Sourced elan4_qdma_overhead;       // the raw libelan4 QDMA test program's host cost per message per side

  template <class V>
  void visit(V&& v) {
    v(pml_teg_overhead, {"pml_teg_overhead", Dim::Time, "pml/teg software per message per side", 0, 1e-4});
    v(ptl_elan4_overhead, {"ptl_elan4_overhead", Dim::Time, "ptl/elan4 software per fragment per side", 0, 1e-4});
    v(datatype_engine_overhead, {"datatype_engine_overhead", Dim::Time, "datatype engine set-up per request", 0, 1e-4});
    v(thread_handoff_cost, {"thread_handoff_cost", Dim::Time, "progress thread -> main thread hand-off", 0, 1e-3});
    v(mpich_qsnet_overhead, {"mpich_qsnet_overhead", Dim::Time, "MPICH-QsNetII host software per message per side", 0, 1e-4});
    v(mpich_qsnet_eager_rate, {"mpich_qsnet_eager_rate", Dim::Rate,
                                "MPICH-QsNetII inline (eager) sends: per-byte host cost as a rate", 1e6, 1e15});
    v(elan4_qdma_overhead, {"elan4_qdma_overhead", Dim::Time, "raw libelan4 QDMA program host cost per side", 0, 1e-4});
  }
};

}  // namespace ompisim::qsnet
