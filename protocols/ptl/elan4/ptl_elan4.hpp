// ptl/elan4: Open MPI's PTL over Quadrics Elan4 (qsnet-elan4 paper §4-5), on the qsnet NIC model (models/qsnet).
//
//   first fragment  the PML's first fragment (64-byte match header + inline data, at most one 2 KB slot) is copied
//                   into a preallocated 2 KB send buffer and sent by QDMA into the peer's receive queue; an eager
//                   send completes there (the buffer is the PTL's).
//   RDMA read       (Fig. 4) the receiver, once its PML matched the rendezvous (ptl_matched), reads the rest; a
//                   FIN_ACK QDMA to the sender both acknowledges the rendezvous and signals completion; chained to
//                   the read's event (ptl_elan4_chained on), or sent by the host once it saw the completion.
//   RDMA write      (Fig. 3) the receiver answers with an ACK; the sender writes the rest, then a FIN (chained, or
//                   sent by the host) tells the receiver.
//   completion      of an RDMA: its host event (polled or waited on), or a QDMA chained to it into a shared
//                   completion queue (ptl_elan4_completion_queue one / two, Fig. 6): one entry per RDMA, chained to
//                   its completion (§4.3; a chained FIN/FIN_ACK is part of the RDMA's descriptor). ptl_elan4_cq_qdma
//                   on: QDMA descriptors report there too, as Open MPI's 2004 src/mca/ptl/elan/src/ptl_elan_priv.c
//                   does under OMPI_PTL_ELAN_COMP_QUEUE: a first fragment's or host-sent control message's QDMA has
//                   its source event copy a completion QDMA into the queue (mca_ptl_elan_init_qdma_desc,
//                   mca_ptl_elan_start_ack), and the send request progresses when that entry is handled
//                   (mca_ptl_elan_update_desc -> mca_ptl_elan_send_desc_done): an eager send completes then.
//   records         (elan4_frag.hpp) each first fragment at its sender and at its receiver, and each RDMA, is a
//                   record with an explicit state; each step is a member on_<event>(id) moving it by its table.
//   progress        progress.hpp: polling, interrupts, one or two progress threads (execution contexts bound to
//                   another core of the node, platform/contexts.hpp); a progress thread hands completed requests to
//                   the main thread.
//   descriptors     (desc_pool.hpp) a first fragment takes one of ptl_elan4_num_qdescs QDMA descriptors and holds it
//                   until its QDMA completed (eager) or its rendezvous was answered (FIN_ACK, or the ACK of the write
//                   scheme: mca_ptl_elan_last_frag_ack / mca_ptl_elan_ctrl_frag give it back); an RDMA takes one of
//                   ptl_elan4_num_putget until its initiator's host saw it complete. Work finding none waits in order.
// LIMITATIONS: one PTL module per process (one NIC); no multi-PTL scheduling of the rest of a message (the paper
// activates only the Elan4 PTLs); control messages sent by the host (ACK, unchained FIN / FIN_ACK) take no QDMA
// descriptor (the 2004 source takes them from the same tx_desc_free). Two progress threads share the node's other core
// (platform/cpu_timeline.hpp: they take turns and pay a context switch at each turn); the OS scheduler's own choices
// (migration, interrupt routing) are not modelled. Without a completion queue an eager send completes once its QDMA is
// issued and an RDMA's host event is set by the RDMA itself (the 2004 source sets it after the chained control QDMA:
// not modelled).
#pragma once
#include "core/slab.hpp"
#include "core/statistics.hpp"
#include "models/qsnet/elan4.hpp"
#include "platform/platform_parts.hpp"
#include "protocols/ptl/elan4/desc_pool.hpp"
#include "protocols/ptl/elan4/elan4_frag.hpp"
#include "protocols/ptl/elan4/progress.hpp"
#include "protocols/ptl/elan4/ptl_elan4_mca.hpp"
#include "protocols/ptl/ptl.hpp"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace ompisim::ptl::elan4 {

// ptl/elan4's statistics, declared once (add_counters reports all of them, then the NIC's; the registry entry and
// `ompisim describe ptl/elan4` list them).
enum class PtlStat : std::uint8_t {
  Eager, Rendezvous, Acks, Fins, FinAcks, RdmaCompletions, Interrupts, Polls, Handoffs, CqEntries, DescWaits,
  ContextSwitches
};
inline constexpr std::array<StatisticInfo, 12> kPtlStatistics{{
    {"ptl_elan4_eager", "messages", "first fragments carrying the whole message (QDMA, the PTL's send buffer)"},
    {"ptl_elan4_rendezvous", "messages", "first fragments of a rendezvous: the rest by RDMA read or write"},
    {"ptl_elan4_acks", "messages", "ACK QDMAs: the receiver asks the sender to RDMA-write the rest"},
    {"ptl_elan4_fins", "messages", "FIN QDMAs after an RDMA write (chained or sent by the host)"},
    {"ptl_elan4_fin_acks", "messages", "FIN_ACK QDMAs after an RDMA read (chained or sent by the host)"},
    {"ptl_elan4_rdma_completions", "transfers", "RDMA reads and writes completed"},
    {"ptl_elan4_interrupts", "events", "completions noticed by a blocked waiter through an interrupt"},
    {"ptl_elan4_polls", "events", "completions noticed by polling"},
    {"ptl_elan4_handoffs", "requests", "completions a progress thread handed to the rank's main thread"},
    {"ptl_elan4_cq_entries", "entries", "entries handled from the shared completion queue"},
    {"ptl_elan4_desc_waits", "operations", "first fragments and RDMAs that waited for a free descriptor "
     "(ptl_elan4_num_qdescs, ptl_elan4_num_putget)"},
    {"context_switches", "switches", "turns of a shared core from one execution context to another (platform CPU timelines)"},
}};

// Refuses MCA values it cannot run (a thread progress mode without its completion queue, a first fragment over one
// QDMA slot), before anything is simulated (ComponentInfo::check); the constructor refuses them too
// (std::invalid_argument). InputError with an empty file (the run names it).
void check_mca(const PtlElan4Mca& mca, const Machine& m);

class PtlElan4 final : public Ptl {
public:
  // Adds the progress threads to the job's contexts (PlatformParts::add_progress_thread, before the resources are
  // declared); keeps the engine and the CPU timelines. std::invalid_argument for contradicting MCA choices
  // (progress.hpp).
  PtlElan4(const PlatformParts& parts, qsnet::Elan4& nic, const PtlElan4Mca& mca);
  std::uint64_t first_frag_size() const override { return first_frag_; }
  bool inline_rendezvous() const override { return inline_; }
  double request_overhead() const override;
  void send(int ctx, const MatchHeader& h) override;
  void matched(int ctx, const MatchHeader& h, std::uint64_t recv_req) override;
  void complete_user(int ctx, int rank, std::function<void()> done) override;
  const ProgressPlan& plan() const { return plan_; }
  int context(int rank, int waiter) const;  // the execution context of a waiter of rank

  void add_counters(std::map<std::string, std::uint64_t>& c) const;
  std::uint64_t count(PtlStat s) const { return counters_[s]; }
  // Send and receive fragments and RDMA operations in flight.
  std::size_t records_in_flight() const { return sends_.size() + recvs_.size() + rdmas_.size(); }

private:
  // The steps of the records (elan4_frag.hpp): each applies its event to its record and starts what the new state
  // needs. Those taking `ctx` run on the context of the waiter that handled a queue entry or a host event.
  void on_qdesc(std::uint32_t id);                // QDESC_READY: a QDMA descriptor for the send fragment
  void on_copied(std::uint32_t id);               // COPIED: the inline data is in the send buffer
  void on_first_issued(std::uint32_t id);         // ISSUED_*: the QDMA descriptor written, the first fragment leaves
  void on_qdma_done(std::uint32_t id);            // QDMA_DONE: an eager fragment's QDMA completed
  void on_cq_entry(int ctx, std::uint32_t id);    // CQ_ENTRY: an eager fragment's completion entry handled
  void on_fin_ack(int ctx, std::uint32_t id);     // FIN_ACK_ARRIVED at the sender (read scheme)
  void on_ack(int ctx, std::uint32_t id);         // ACK_ARRIVED at the sender (write scheme)
  void on_first(int ctx, std::uint32_t id);       // ARRIVED_*: the first fragment handled at the receiver
  void on_ack_issued(std::uint32_t id);           // ACK_ISSUED: the receiver's host wrote the ACK (write scheme)
  void on_fin(int ctx, std::uint32_t id);         // FIN_ARRIVED at the receiver (write scheme)
  void start_rdma(std::uint32_t id);              // START: the RDMA operation asks for an RDMA descriptor
  void on_putget(std::uint32_t id);               // PUTGET_READY
  void on_rdma_issued(std::uint32_t id);          // ISSUED: the RDMA command written, the NIC moves the data
  void on_rdma_done(int ctx, std::uint32_t id);   // DONE_*: the initiator's host saw the RDMA complete
  void on_control_issued(int ctx, std::uint32_t id);  // CONTROL_ISSUED: the host sent the FIN / FIN_ACK
  void issue(int ctx, Callback fn, const char* what);  // ptl_elan4_overhead + cmd_issue_cost on ctx, then fn
  // The initiator's request progresses once its RDMA is done (read: the receive; write: the send).
  void rdma_progress(int ctx, const RdmaOp& o);

  void on_stored(int rank, int q);
  // The waiter notices an entry now (the oldest message of queue q, or with q < 0 the entry `payload`): it wakes (an
  // interrupt) or polls, then handles it on its context (dispatch).
  void notice(int rank, int waiter, std::uint64_t payload, int q);
  void dispatch(int ctx, std::uint64_t payload);
  // A 64-byte control QDMA of kind k answering `record`. One the host issues (`by_host`) reports its completion into
  // the completion queue with ptl_elan4_cq_qdma (a DESC_REPORT entry); one the NIC chains to an RDMA is covered by the
  // RDMA's entry.
  void control(int from, int to, Entry k, std::uint32_t record, bool by_host);
  // The NIC's completion QDMA of entry `payload` into rank's completion queue, once a descriptor's source event fired.
  void report(int rank, std::uint64_t payload);
  // Takes a descriptor of rank's `pool` for `work` (counted when it has to wait).
  void take(std::vector<DescPool>& pool, int rank, std::function<void()> work);
  DescPool& pool(std::vector<DescPool>& p, int rank) { return p[static_cast<std::size_t>(rank)]; }

  Simulator& sim_;
  CpuTimeline& cpus_;
  qsnet::Elan4& nic_;
  const qsnet::Elan4Params& p_;
  const qsnet::SoftwareParams& sw_;
  ProgressPlan plan_;
  bool read_, inline_, chained_, datatype_, cq_qdma_;
  std::uint64_t first_frag_;
  std::vector<int> thread_ctx_;  // per rank x threads: the progress threads' contexts
  Slab<SendFrag> sends_;  // first fragments at their senders, from ptl_send to their answer or QDMA completion
  Slab<RecvFrag> recvs_;  // first fragments at their receivers, from the QDMA's issue to the match (or the FIN)
  Slab<RdmaOp> rdmas_;    // RDMA reads and writes, from the descriptor wait to the initiator's progress
  std::vector<DescPool> qdescs_, putget_;  // per rank
  Statistics<PtlStat, kPtlStatistics.size()> counters_{kPtlStatistics};
};

}  // namespace ompisim::ptl::elan4
