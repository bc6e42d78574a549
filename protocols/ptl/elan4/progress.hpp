// How ptl/elan4 notices what the NIC did (paper §4.3, §6.4, Table 1), as plain C++ (no time, no engine):
//   basic        the main thread polls the receive queue's host event and the RDMA descriptors' host events;
//   interrupt    the main thread blocks on the receive queue's event as soon as it has nothing to do: the next
//                message costs an interrupt (the paper's "not really a workable strategy", measured to find the
//                interrupt's cost); its own outstanding RDMA descriptors' events are polled (a process cannot block
//                on many descriptors at once: Fig. 5(a));
//   one_thread   one progress thread per process waits on one shared queue (polling it for event_spin_time after
//                its last work, as a libelan wait does, then blocking: an interrupt wakes it): the receive queue, into which a QDMA
//                is chained to every RDMA (Fig. 6); it progresses the PTL and the PML and hands completed requests to
//                the main thread;
//   two_threads  two progress threads: one on the receive queue, one on a separate completion queue.
// Waiters: 0 = the rank's main thread, 1 = the thread on the receive (or shared) queue, 2 = the completion-queue thread.
#pragma once
#include <stdexcept>
#include <string>

namespace ompisim::ptl::elan4 {

enum class Progress { Basic = 0, Interrupt = 1, OneThread = 2, TwoThreads = 3 };
enum class CompletionQueue { None = 0, One = 1, Two = 2 };

struct ProgressPlan {
  Progress mode = Progress::Basic;
  CompletionQueue cq = CompletionQueue::None;

  // From the MCA choices (ptl_elan4_progress index, ptl_elan4_completion_queue index with 0 = auto). Throws
  // std::invalid_argument naming the contradiction (a thread mode without its queue).
  static ProgressPlan make(int progress, int completion_queue) {
    ProgressPlan p;
    p.mode = static_cast<Progress>(progress);
    if (completion_queue == 0)
      p.cq = p.mode == Progress::OneThread ? CompletionQueue::One
             : p.mode == Progress::TwoThreads ? CompletionQueue::Two
                                              : CompletionQueue::None;
    else
      p.cq = static_cast<CompletionQueue>(completion_queue - 1);
    if (p.mode == Progress::OneThread && p.cq != CompletionQueue::One)
      throw std::invalid_argument("one_thread progress blocks on one shared queue: it needs ptl_elan4_completion_queue one (or auto)");
    if (p.mode == Progress::TwoThreads && p.cq != CompletionQueue::Two)
      throw std::invalid_argument("two_threads progress has a thread per queue: it needs ptl_elan4_completion_queue two (or auto)");
    return p;
  }
  int threads() const { return mode == Progress::OneThread ? 1 : mode == Progress::TwoThreads ? 2 : 0; }
  // The queue a chained completion QDMA goes to: 0 (shared with the receive queue), 1 (its own), -1 (none: the
  // RDMA's own host event is watched).
  int completion_queue() const { return cq == CompletionQueue::One ? 0 : cq == CompletionQueue::Two ? 1 : -1; }
  // Who notices a message stored in queue q, and an RDMA host event.
  int waiter_for_queue(int q) const {
    if (mode == Progress::OneThread) return 1;
    if (mode == Progress::TwoThreads) return q == 0 ? 1 : 2;
    return 0;
  }
  // How many queue host events `waiter` reads per poll (paper §6.2: "using polling-based approach, the cost of checking
  // two eight-byte host-events is about the same as that of checking one"; about the same, not nothing): the main
  // thread of basic or interrupt progress reads the receive queue's event and, with a separate completion queue
  // (two-queue, Fig. 8), that queue's as well; a progress thread reads its own queue's only.
  int queues_polled(int waiter) const {
    if (threads() || waiter != 0) return 1;
    return cq == CompletionQueue::Two ? 2 : 1;
  }
  int waiter_for_event() const {
    if (threads()) throw std::logic_error("progress threads watch queues, not RDMA host events");
    return 0;
  }
  // A waiter whose context has been idle since `idle_since` notices something at `now` (`on_queue`: a message in a
  // queue; else an RDMA descriptor's host event): has it blocked, so that an interrupt must wake it? Polling never
  // blocks; the interrupt mode blocks at once on its queue and polls its RDMA events; a progress thread polls its
  // queue for `spin` seconds after its last work, then blocks.
  bool blocked(double now, double idle_since, double spin, bool on_queue = true) const {
    switch (mode) {
      case Progress::Basic: return false;
      case Progress::Interrupt: return on_queue && now > idle_since;
      default: return now - idle_since > spin;
    }
  }
};

}  // namespace ompisim::ptl::elan4
