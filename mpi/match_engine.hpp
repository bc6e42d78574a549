// One rank's MPI matching state over all its communicators (ob1's mca_pml_ob1_comm_t, one per communicator, each with
// its per-peer mca_pml_ob1_comm_proc_t): posted and unexpected queues, the expected sequence number of each source and
// the next send sequence number towards each destination. A communicator's state is created the first time the rank
// sends or receives on it, and a peer's the first time it is seen (PeerSeq): a rank that never communicates costs one
// empty vector, a rank in a whole-machine barrier a few peers. Messages on different communicators never match each
// other: each communicator has its own queues.
#pragma once
#include "mpi/match_queues.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace ompisim::mpi {

template <class Recv, class Msg>  // Recv: .src .tag (may be wildcards); Msg: .src .tag
class MatchEngine {
public:
  using Matched = typename MatchQueues<Recv, Msg>::Matched;
  using MatchedList = typename MatchQueues<Recv, Msg>::MatchedList;
  // A receive on communicator `ctx` is posted: the unexpected message it takes, if any (else it is queued).
  std::optional<Msg> post(std::uint32_t ctx, const Recv& r) { return comm(ctx).queues.post(r); }
  // Message `m` with sequence `seq` from m.src arrives on `ctx` (see MatchQueues::arrive).
  MatchedList arrive(std::uint32_t ctx, std::uint32_t seq, const Msg& m,
                     std::vector<Msg>* went_unexpected = nullptr) {
    return comm(ctx).queues.arrive(seq, m, went_unexpected);
  }
  // Whether message `seq` from `src` on `ctx` would arrive ahead of an earlier one (see MatchQueues::early).
  bool early(std::uint32_t ctx, int src, std::uint32_t seq) { return comm(ctx).queues.early(src, seq); }
  // The sequence number of the next send to `peer` on `ctx` (0 on first contact).
  std::uint32_t next_send_seq(std::uint32_t ctx, int peer) { return comm(ctx).send_seq[peer]++; }
  std::size_t posted_size() const { return sum(&MatchQueues<Recv, Msg>::posted_size); }
  std::size_t unexpected_size() const { return sum(&MatchQueues<Recv, Msg>::unexpected_size); }
  std::size_t held_size() const { return sum(&MatchQueues<Recv, Msg>::held_size); }
  std::size_t communicators() const { return comms_.size(); }

private:
  struct PerComm {
    std::uint32_t ctx;
    MatchQueues<Recv, Msg> queues;
    PeerSeq send_seq;
  };
  PerComm& comm(std::uint32_t ctx) {
    for (PerComm& c : comms_)
      if (c.ctx == ctx) return c;
    comms_.push_back(PerComm{ctx, {}, {}});
    return comms_.back();
  }
  std::size_t sum(std::size_t (MatchQueues<Recv, Msg>::*f)() const) const {
    std::size_t n = 0;
    for (const PerComm& c : comms_) n += (c.queues.*f)();
    return n;
  }
  std::vector<PerComm> comms_;
};

}  // namespace ompisim::mpi
