// ptl/elan4's MCA parameters: each design choice of the qsnet-elan4 paper as a run-time choice, declared beside the
// component as Open MPI's register functions declare theirs (name, default with its source, description). The
// defaults are the paper's "best options" of §6.5 (Fig. 10): RDMA read, chained completion, no shared completion
// queue, polling, rendezvous without inlined data, memcpy instead of the datatype engine (§6.1).
#pragma once
#include "core/params.hpp"

namespace ompisim::ptl::elan4 {

struct PtlElan4Mca : ParamTable<PtlElan4Mca> {
  Sourced ptl_elan4_rdma, ptl_elan4_inline, ptl_elan4_chained, ptl_elan4_completion_queue, ptl_elan4_progress,
      ptl_elan4_datatype, ptl_elan4_cq_qdma, ptl_elan4_first_frag_size, ptl_elan4_num_qdescs, ptl_elan4_num_putget;

  PtlElan4Mca() { set_defaults(); }
  static const ParamRows<PtlElan4Mca>& rows() {
    static const ParamRows<PtlElan4Mca> r{
        {&PtlElan4Mca::ptl_elan4_rdma, 0, "paper §4.2, §6.1: RDMA read saves a control packet; Table 1 and Fig. 10 "
         "use it",
         {"ptl_elan4_rdma", Dim::Count, "scheme after the rendezvous fragment (Fig. 3 / Fig. 4)", 0, 1, {"read",
          "write"}}},
        {&PtlElan4Mca::ptl_elan4_inline, 0, "paper §6.1: rendezvous packets without inlined data are faster (the best "
         "option, §6.5)",
         {"ptl_elan4_inline", Dim::Count, "rendezvous fragment carries first_frag_size bytes of data", 0, 1, {"off",
          "on"}}},
        {&PtlElan4Mca::ptl_elan4_chained, 1, "paper §4.2, §6.5: the last control message chained to the last RDMA",
         {"ptl_elan4_chained", Dim::Count, "FIN / FIN_ACK chained to the last RDMA (no host)", 0, 1, {"off", "on"}}},
        {&PtlElan4Mca::ptl_elan4_completion_queue, 0, "paper §4.3, §6.4: a shared completion queue only where a "
         "progress thread needs it (auto)",
         {"ptl_elan4_completion_queue", Dim::Count, "QDMA chained to every RDMA into a shared completion queue: none, "
          "one (the receive queue), two (its own); auto: one for one_thread, two for two_threads, none otherwise", 0,
          3, {"auto", "none", "one", "two"}}},
        {&PtlElan4Mca::ptl_elan4_progress, 0, "paper §6.5: polling-based progress (basic)",
         {"ptl_elan4_progress", Dim::Count, "how completions are noticed: polling, blocking with interrupts, progress "
          "threads", 0, 3, {"basic", "interrupt", "one_thread", "two_threads"}}},
        {&PtlElan4Mca::ptl_elan4_datatype, 0, "paper §6.1: the datatype engine replaced by memcpy() in the experiments",
         {"ptl_elan4_datatype", Dim::Count, "Open MPI's datatype engine instead of memcpy()", 0, 1, {"off", "on"}}},
        {&PtlElan4Mca::ptl_elan4_cq_qdma, 0, "paper §4.3: a completion QDMA is chained to every RDMA descriptor "
         "(off); on: to every QDMA descriptor too, as Open MPI's 2004 src/mca/ptl/elan does under "
         "OMPI_PTL_ELAN_COMP_QUEUE (ptl_elan_priv.c)",
         {"ptl_elan4_cq_qdma", Dim::Count, "with a completion queue, first fragments and host-sent control messages "
          "report their QDMA's completion there too (an eager send completes when its entry is handled)", 0, 1,
          {"off", "on"}}},
        {&PtlElan4Mca::ptl_elan4_first_frag_size, 1984, "paper §6.1: rendezvous threshold 1984 B (a 2 KB QDMA slot "
         "minus the 64-byte header)",
         {"ptl_elan4_first_frag_size", Dim::Bytes, "data bytes in a first fragment (eager limit / rendezvous "
          "threshold)", 0, 1984}},
        {&PtlElan4Mca::ptl_elan4_num_qdescs, 16, "Open MPI 2004 src/mca/ptl/elan/src/ptl_elan_priv.h "
         "OMPI_PTL_ELAN_NUM_QDESCS: tx_desc_free is filled once (ptl_elan_comm_init.c) and never grows "
         "(mca_ptl_elan_alloc_desc, ptl_elan_frag.c)",
         {"ptl_elan4_num_qdescs", Dim::Count, "QDMA send descriptors per process: a first fragment holds one until "
          "its QDMA completed (eager) or the rendezvous was answered (FIN_ACK / ACK); a send finding none waits", 1,
          4096}},
        {&PtlElan4Mca::ptl_elan4_num_putget, 16, "Open MPI 2004 src/mca/ptl/elan/src/ptl_elan_priv.h "
         "OMPI_PTL_ELAN_NUM_PUTGET (16 from October 2004; 8 in the September snapshots): put_desc_free and "
         "get_desc_free are filled once (ompi_ptl_elan_init_putget_ctrl) and never grow",
         {"ptl_elan4_num_putget", Dim::Count, "RDMA read (and write) descriptors per process: an RDMA holds one until "
          "the host saw its completion; an RDMA finding none waits", 1, 4096}},
    };
    return r;
  }
};

}  // namespace ompisim::ptl::elan4
