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
#include "core/statistics.hpp"
#include "models/qsnet/elan4.hpp"
#include "platform/platform_parts.hpp"
#include "protocols/ptl/elan4/desc_pool.hpp"
#include "protocols/ptl/elan4/progress.hpp"
#include "protocols/ptl/elan4/ptl_elan4_mca.hpp"
#include "protocols/ptl/ptl.hpp"

#include <array>
#include <map>
#include <string>
#include <unordered_map>
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

private:
  // SendDone: a first fragment's QDMA has completed (completion queue); CtrlDone: a control message's QDMA has.
  enum class Kind : std::uint8_t { First, Ack, Fin, FinAck, RdmaDone, SendDone, CtrlDone };
  struct Item {
    Kind kind;
    MatchHeader h;
    std::uint64_t req = 0;  // the receive request (ACK, FIN, read done) or the send request (FIN_ACK, write done)
  };
  std::uint64_t put_item(Item it);
  void on_stored(int rank, int q);
  // The waiter notices an item now (the oldest message of queue q, or with q < 0 the item `item`): it wakes (an
  // interrupt) or polls, then handles it on its context.
  void notice(int rank, int waiter, std::uint64_t item, int q);
  void handle(int ctx, int rank, Item it);
  // Starts the RDMA of the rest of h's message from `rank` (read: rank is the receiver; write: the sender).
  void start_rdma(int ctx, int rank, const MatchHeader& h, std::uint64_t req, bool read);
  // A 64-byte control QDMA. One the host issues (`by_host`) reports its completion into the completion queue, if
  // any (a CtrlDone entry); one the NIC chains to an RDMA is covered by the RDMA's entry.
  void control(int from, int to, Kind k, const MatchHeader& h, std::uint64_t req, bool by_host = true);
  // The NIC's completion QDMA of `item` into rank's completion queue, chained to a descriptor's source event.
  Callback report_completion(int rank, std::uint64_t item);
  void rdma_done(int ctx, int rank, const Item& it);
  // The first fragment's QDMA once it has its descriptor (send() takes it).
  void start_first(int ctx, const MatchHeader& h);
  // Takes a descriptor of rank's `pool` for `work` (counted when it has to wait).
  void take(std::vector<DescPool>& pool, int rank, std::function<void()> work);

  Simulator& sim_;
  CpuTimeline& cpus_;
  qsnet::Elan4& nic_;
  const qsnet::Elan4Params& p_;
  const qsnet::SoftwareParams& sw_;
  ProgressPlan plan_;
  bool read_, inline_, chained_, datatype_, cq_qdma_;
  std::uint64_t first_frag_;
  std::vector<int> thread_ctx_;  // per rank x threads: the progress threads' contexts
  std::unordered_map<std::uint64_t, Item> items_;  // in flight, by QDMA payload id
  std::vector<DescPool> qdescs_, putget_;          // per rank
  Statistics<PtlStat, kPtlStatistics.size()> counters_{kPtlStatistics};
  std::uint64_t next_item_ = 1;
};

}  // namespace ompisim::ptl::elan4
