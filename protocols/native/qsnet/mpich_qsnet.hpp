// native/mpich_qsnet: MPICH-QsNetII, the comparator of the qsnet-elan4 paper (§6.5, Fig. 10): MPICH's ADI over
// Quadrics Tport. Tport matches in the NIC: the Elan4 thread processor (a serial engine per NIC) walks the posted
// receives for every arriving 32-byte envelope and places the data in the user's buffer itself; the host only polls
// one completion word. Small messages (up to mpich_qsnet_eager_limit) travel inline with their envelope; larger ones
// are a rendezvous that the receiver's thread processor serves without the host: on a match it pulls the data with
// RDMA reads (Tport pipelines them: the NIC issues the next chunk while the previous one streams, so the message
// moves as one stream with no host step between chunks) and then tells the sender's NIC.
// An envelope that finds no posted receive waits in a host buffer (eager data copied out when the receive is posted;
// a large message's rendezvous is served then). Send requests complete when the target NIC has the data.
// LIMITATIONS: no per-chunk cost (the pipelining is taken as perfect); Tport's thresholds are assumptions (MCA);
// posted receives are walked in the NIC in posting order, without per-peer hashing.
#pragma once
#include "models/qsnet/elan4.hpp"
#include "mpi/match_queues.hpp"
#include "mpi/stack.hpp"
#include "protocols/native/qsnet/mpich_qsnet_mca.hpp"

#include <unordered_map>

namespace ompisim::native {

class MpichQsnet final : public Stack {
public:
  MpichQsnet(World& w, const MpichQsnetMca& mca, std::string name);
  std::string name() const override { return name_; }
  void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  StackStats stats() const override;

private:
  struct Env {
    int src, tag;
    std::uint64_t bytes, sid;
    bool big;
  };
  struct Posted {
    int src, tag;
    std::uint64_t rid;
  };
  struct RankState {
    pml::MatchQueues<Posted, Env> mq;  // the NIC's posted list and the host's unexpected list
    pml::PeerSeq seq;
  };
  RankState& rs(int r) { return ranks_[r]; }
  void arrive(int dst, std::uint32_t seq, const Env& e);  // at the destination NIC
  // The matched message's data reaches the receive buffer (eager: already there; big: pulled by the NIC).
  void deliver(int dst, std::uint64_t rid, const Env& e, bool host_copy);
  void host_done(int rank, std::uint64_t rid);

  World& w_;
  qsnet::Elan4 nic_;
  const qsnet::Elan4Params& p_;
  double overhead_;
  std::uint64_t eager_limit_;
  std::string name_;
  std::unordered_map<int, RankState> ranks_;
  std::unordered_map<std::uint64_t, Completion> sends_, recvs_;
  std::uint64_t next_ = 1, eager_ = 0, big_ = 0, unexpected_ = 0;
  StackStats st_;
};

}  // namespace ompisim::native
