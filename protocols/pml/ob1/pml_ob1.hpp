// pml/ob1: MPI matching and protocol selection in the host library, over the BTLs chosen by bml/r2 (self for the
// rank itself, the shared-memory BTL for peers on the node, the network BTL otherwise). Message sequences:
//   eager:  MATCH(data) ------------------------------------------------> match, copy out, complete
//   RGET:   RGET(hdr, registered buffer) -> match, register, BTL GET <-- data; FIN ----------------> sender complete
//   RNDV:   RNDV(first bytes) -> match; <- ACK; FRAG ... FRAG -> receiver complete when every byte arrived
// Unexpected eager data is copied into a PML buffer on arrival and out of it at match time (two copies).
#pragma once
#include "protocols/btl/btl.hpp"
#include "mpi/match_queues.hpp"
#include "protocols/pml/ob1/requests.hpp"

#include <array>
#include <memory>
#include <unordered_map>

namespace ompisim::pml::ob1 {

class Ob1 final : public Stack, public btl::FragSink {
public:
  // `sw_overhead`: software cost per message per side (machine's software section).
  Ob1(World& w, double sw_overhead, btl::Btl* self, btl::Btl* sm, btl::Btl* net, std::string name = "openmpi");
  std::string name() const override { return name_; }
  void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  void amo_add(int rank, int target, Completion local_done, Completion at_target) override;
  StackStats stats() const override;
  void on_frag(const btl::Frag& f) override;
  // Remote atomics come from a BCOL, not from ob1 (Cheetah's uGNI BCOL talks to uGNI directly).
  std::function<void(int, int, Completion, Completion)> amo_provider;
  btl::Btl& bml_select(int rank, int peer);  // bml/r2

private:
  struct PostedRecv {
    int src, tag;
    std::uint64_t id;
  };
  struct Unexpected {
    int src, tag;
    btl::Frag frag;
  };
  struct RankState {
    MatchQueues<PostedRecv, Unexpected> mq;
    PeerSeq send_seq;  // per peer, created on first send
  };
  void handle(const btl::Frag& f);
  void matched(std::uint64_t rid, const btl::Frag& f, bool was_unexpected);
  void complete_send(std::uint64_t sid);
  void complete_recv(std::uint64_t rid);
  void send_ctrl(Hdr h, int from, int to, std::uint64_t sreq, std::uint64_t rreq);

  World& w_;
  double sw_;
  btl::Btl *self_, *sm_, *net_;
  std::string name_;
  std::vector<RankState> ranks_;
  std::unordered_map<std::uint64_t, SendRequest> sends_;
  std::unordered_map<std::uint64_t, RecvRequest> recvs_;
  std::uint64_t next_id_ = 1;
  StackStats st_;
  // Counters kept as integers on the message path; stats() names them.
  std::array<std::uint64_t, 8> hdr_sent_{};  // by Hdr
  std::uint64_t unexpected_short_ = 0, unexpected_long_ = 0, unexpected_copies_ = 0, rget_fallbacks_ = 0,
                truncate_errors_ = 0;
};

}  // namespace ompisim::pml::ob1
