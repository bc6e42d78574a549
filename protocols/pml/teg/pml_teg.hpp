// pml/teg: Open MPI's 2004 point-to-point management layer over PTLs (Woodall et al., EuroPVM/MPI 2004; qsnet-elan4
// paper §2.2). It matches in the host with the shared MPI skeleton (mpi/match_queues.hpp: posted and unexpected
// queues, per-peer sequence numbers), schedules the first fragment of every message to the PTL (eager up to the PTL's
// first_frag_size, else a rendezvous with or without inlined data), copies inlined data into the receive buffer,
// calls ptl_matched for a rendezvous, and completes requests from the PTL's progress reports.
// Layer timing (paper §6.3, Fig. 9): per rank, the time from the PTL handing a fragment up for matching to the
// PML's next ptl_send is accumulated as "PML and above" (counters layer_pml_ns, layer_pml_count).
// LIMITATIONS: one PTL (no multi-PTL scheduling of the rest of a message); the per-message software cost is one
// machine parameter (software.pml_teg_overhead) per send, receive post and match.
#pragma once
#include "mpi/match_queues.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"
#include "protocols/ptl/ptl.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace ompisim::pml::teg {

class PmlTeg final : public Stack, public ptl::PmlUpcalls {
public:
  PmlTeg(World& w, ptl::Ptl& ptl, double overhead, std::string name);
  std::string name() const override { return name_; }
  void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  StackStats stats() const override;
  std::function<void(std::map<std::string, std::uint64_t>&)> extra_counters;  // the PTL's

  void match(int ctx, int rank, const ptl::MatchHeader& h) override;
  void send_progress(int ctx, int rank, std::uint64_t send_req, std::uint64_t bytes) override;
  void recv_progress(int ctx, int rank, std::uint64_t recv_req, std::uint64_t bytes) override;

private:
  struct Req {
    int rank = -1;
    std::uint64_t left = 0;
    bool known = false;  // receive: matched (left is the message's size)
    Completion done;
  };
  struct Posted {
    int src, tag;
    std::uint64_t rid;
  };
  struct Msg {
    int src, tag;
    ptl::MatchHeader h;
  };
  struct RankState {
    MatchQueues<Posted, Msg> mq;
    PeerSeq send_seq;
  };
  RankState& rs(int rank);
  void on_matched(int ctx, int rank, std::uint64_t rid, const Msg& m);
  void finish(std::unordered_map<std::uint64_t, Req>& table, std::uint64_t id, std::uint64_t& count, int ctx);

  World& w_;
  ptl::Ptl& ptl_;
  double overhead_;
  std::string name_;
  std::unordered_map<int, RankState> ranks_;  // created on first use
  std::unordered_map<std::uint64_t, Req> sends_, recvs_;
  std::vector<double> up_at_;  // per rank: when a fragment went up to the PML (-1: none pending)
  std::uint64_t next_ = 1;
  StackStats st_;
  double layer_pml_s_ = 0;
  std::uint64_t layer_pml_count_ = 0, unexpected_ = 0;
};

}  // namespace ompisim::pml::teg
