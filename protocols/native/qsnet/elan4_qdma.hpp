// native/elan4_qdma: the raw libelan4 QDMA layer as a ping-pong program uses it (the paper's "QDMA Latency" of Fig. 9;
// Open MPI's early ptl/elan kept such test programs, src/mca/ptl/elan/tests/qsnet_qdma.c, hardware-sources.md §3):
// the sender writes a QDMA descriptor, the message lands in a slot of the receiver's queue, the receiver polls the
// queue's host event and reads the slot. No matching (messages are taken in arrival order per queue, then given to
// the receive that asks for them by the MPI rules only so that benchmark drivers can run it), no copies, no
// protocol: messages are at most one slot (elan4_qdma_extra_bytes + size <= 2 KB).
#pragma once
#include "models/qsnet/elan4.hpp"
#include "mpi/match_queues.hpp"
#include "mpi/stack.hpp"
#include "protocols/native/qsnet/mpich_qsnet_mca.hpp"

#include <unordered_map>

namespace ompisim::native {

class Elan4Qdma final : public Stack {
public:
  Elan4Qdma(World& w, const Elan4QdmaMca& mca, std::string name);
  std::string name() const override { return name_; }
  void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  StackStats stats() const override;

private:
  struct Msg {
    int src, tag;
  };
  struct Posted {
    int src, tag;
    std::uint64_t rid;
  };
  struct RankState {
    pml::MatchQueues<Posted, Msg> mq;
    pml::PeerSeq seq;
  };
  World& w_;
  qsnet::Elan4 nic_;
  const qsnet::Elan4Params& p_;
  double overhead_;
  std::uint32_t extra_;
  std::string name_;
  std::unordered_map<int, RankState> ranks_;
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, Msg>> in_flight_;  // payload id -> (seq, message)
  std::unordered_map<std::uint64_t, Completion> sends_, recvs_;
  std::uint64_t next_ = 1;
  StackStats st_;
};

}  // namespace ompisim::native
