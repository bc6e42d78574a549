// The skeleton every MPI library model shares: request tables, request completion with MPI_Status, the per-rank
// matching engine (posted and unexpected queues per communicator, per-peer sequence numbers created on first contact)
// and the request counters of StackStats. pml/ob1, pml/teg, loggp and the native comparators (Cray MPT over uGNI,
// MPICH-QsNetII over Tport, the raw Elan4 QDMA program) are Library<SendReq, RecvReq, Msg>; pml/cm, whose MTL does the matching (mtl/portals for Open MPI's CM and for Cray MPI
// over Portals), is Library<Req, Req, void>: requests only.
//
//   start:    new_send / new_recv (counted as posted) -> a request id that travels in the stack's headers;
//   order:    next_send_seq(rank, ctx, peer) numbers sends per (communicator, destination);
//   match:    post(rank, ctx, {src, tag, rid}) takes an unexpected message or queues the receive;
//             arrive(rank, ctx, seq, msg) matches messages in each source's send order;
//             matched(recv, src, tag, bytes) records the envelope (MPI_Status) and counts MPI_ERR_TRUNCATE;
//   complete: complete_send / complete_recv erase the request, count it, fill the caller's status, then run the
//             completion (after the erase, so it may start new requests); finish_send / finish_recv return the
//             completion instead of running it.
#pragma once
#include "mpi/match_engine.hpp"
#include "mpi/request.hpp"
#include "mpi/stack.hpp"

#include <vector>

namespace ompisim::mpi {

// A posted receive in a matching queue.
struct Posted {
  int src, tag;
  RequestId rid;
};

template <class SendReq, class RecvReq, class Msg = void>
class Library;

// Requests only (the transport matches).
template <class SendReq, class RecvReq>
class Library<SendReq, RecvReq, void> {
public:
  std::pair<RequestId, SendReq&> new_send(const P2P& m, Completion done) {
    ++st_.sends_posted;
    auto [id, r] = sends_.create();
    r.set(m, std::move(done));
    return {id, r};
  }
  std::pair<RequestId, RecvReq&> new_recv(const P2P& m, Completion done) {
    ++st_.recvs_posted;
    auto [id, r] = recvs_.create();
    r.set(m, std::move(done));
    return {id, r};
  }
  SendReq& send(RequestId id) { return sends_.at(id); }
  RecvReq& recv(RequestId id) { return recvs_.at(id); }
  // The envelope of the message a receive matched: MPI_Status at completion; true when it is longer than the receive.
  bool matched(RecvReq& r, int src, int tag, std::uint64_t msg_bytes) {
    r.peer = src, r.tag = tag, r.msg_bytes = msg_bytes;
    const bool trunc = msg_bytes > r.bytes;
    truncated_ += trunc;
    return trunc;
  }
  void complete_send(RequestId id) {
    if (Completion done = finish_send(id)) done();
  }
  void complete_recv(RequestId id) {
    if (Completion done = finish_recv(id)) done();
  }
  // The same without running the completion: it is returned for the stack to run where the user sees it (a PTL
  // whose progress thread completed the request hands it to the rank's main thread).
  Completion finish_send(RequestId id) {
    SendReq r = sends_.take(id);
    ++st_.sends_completed;
    return std::move(r.done);
  }
  Completion finish_recv(RequestId id) {
    RecvReq r = recvs_.take(id);
    ++st_.recvs_completed;
    if (r.status && r.matched()) *r.status = Status{r.peer, r.tag, r.msg_bytes, r.msg_bytes > r.bytes};
    return std::move(r.done);
  }
  // Request counters and live requests into `s` (the stack adds its own counters).
  void report(StackStats& s) const {
    s.sends_posted = st_.sends_posted, s.sends_completed = st_.sends_completed;
    s.recvs_posted = st_.recvs_posted, s.recvs_completed = st_.recvs_completed;
    s.live_requests = sends_.size() + recvs_.size();
  }
  std::size_t live(int rank) const { return sends_.live(rank) + recvs_.live(rank); }
  std::uint64_t truncated() const { return truncated_; }

protected:
  RequestTable<SendReq> sends_;
  RequestTable<RecvReq> recvs_;
  StackStats st_;
  std::uint64_t truncated_ = 0;
};

template <class SendReq, class RecvReq, class Msg>
class Library : public Library<SendReq, RecvReq, void> {
public:
  using Engine = MatchEngine<Posted, Msg>;
  using Matched = typename Engine::Matched;
  using MatchedList = typename Engine::MatchedList;
  explicit Library(int ranks) : ranks_(static_cast<std::size_t>(ranks)) {}
  std::uint32_t next_send_seq(int rank, std::uint32_t ctx, int peer) { return ranks_[rank].next_send_seq(ctx, peer); }
  std::optional<Msg> post(int rank, std::uint32_t ctx, const Posted& p) { return ranks_[rank].post(ctx, p); }
  MatchedList arrive(int rank, std::uint32_t ctx, std::uint32_t seq, const Msg& m,
                        std::vector<Msg>* went_unexpected = nullptr) {
    return ranks_[rank].arrive(ctx, seq, m, went_unexpected);
  }
  bool early(int rank, std::uint32_t ctx, int src, std::uint32_t seq) { return ranks_[rank].early(ctx, src, seq); }
  void report(StackStats& s) const {
    Library<SendReq, RecvReq, void>::report(s);
    s.unexpected_now = s.posted_now = 0;
    for (const Engine& e : ranks_) s.unexpected_now += e.unexpected_size(), s.posted_now += e.posted_size();
  }
  const Engine& rank(int r) const { return ranks_[r]; }

private:
  std::vector<Engine> ranks_;
};

}  // namespace ompisim::mpi
