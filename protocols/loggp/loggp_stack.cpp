#include "protocols/loggp/loggp_stack.hpp"

#include <algorithm>

namespace ompisim::loggp {

LogGPStack::LogGPStack(World& w) : w_(w), p_(loggp::nic(w.machine()).p), ranks_(static_cast<std::size_t>(w.ranks())) {}

StackStats LogGPStack::stats() const {
  StackStats s = st_;
  s.live_requests = sends_.size() + recvs_.size();
  for (auto& r : ranks_) s.unexpected_now += r.mq.unexpected_size(), s.posted_now += r.mq.posted_size();
  return s;
}

void LogGPStack::wire(int rank, int dst, std::uint64_t bytes, Completion injected, Completion arrived) {
  double b = static_cast<double>(bytes);
  w_.cpu(rank, p_.o + b / p_.O_bandwidth, [this, rank, dst, b, injected = std::move(injected), arrived = std::move(arrived)]() mutable {
    RankState& rs = ranks_[rank];
    double inject = std::max(w_.sim().now(), rs.next_inject);
    rs.next_inject = inject + std::max<double>(p_.g, b / p_.G_bandwidth);
    double arrive = inject + w_.wire_time(w_.node_of(rank), w_.node_of(dst), b);
    if (injected) w_.sim().at(inject, std::move(injected));
    w_.sim().at(arrive, std::move(arrived));
  });
}

void LogGPStack::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer, Completion done) {
  ++st_.sends_posted;
  std::uint64_t sid = next_++;
  sends_[sid] = std::move(done);
  send_rank_[sid] = rank;
  std::uint32_t seq = ranks_[rank].seq[dst]++;
  bool rndv = static_cast<double>(bytes) > p_.S;
  Msg m{rank, tag, bytes, sid, rndv};
  wire(rank, dst, rndv ? 0 : bytes, rndv ? Completion() : Completion([this, sid] { complete_request(sends_, sid, st_.sends_completed); }),
       [this, dst, seq, m] {
         auto out = ranks_[dst].mq.arrive(seq, m);
         for (auto& x : out) deliver(x.recv.rid, dst, x.msg);
       });
}

void LogGPStack::irecv(int rank, int src, int tag, std::uint64_t, Buffer, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t rid = next_++;
  recvs_[rid] = std::move(done);
  auto m = ranks_[rank].mq.post(Posted{src, tag, rid});
  if (m) deliver(rid, rank, *m);
}

void LogGPStack::deliver(std::uint64_t rid, int dst, const Msg& m) {
  double b = static_cast<double>(m.bytes);
  if (!m.rndv) {
    w_.cpu(dst, p_.o + b / p_.O_bandwidth, [this, rid] { complete_request(recvs_, rid, st_.recvs_completed); });
    return;
  }
  // Rendezvous: the receiver answers CTS, the sender sends the data.
  int src = m.src;
  std::uint64_t sid = m.sid, bytes = m.bytes;
  wire(dst, src, 0, nullptr, [this, src, dst, sid, bytes, rid, b] {
    wire(src, dst, bytes, [this, sid] { complete_request(sends_, sid, st_.sends_completed); },
         [this, dst, rid, b] { w_.cpu(dst, p_.o + b / p_.O_bandwidth, [this, rid] { complete_request(recvs_, rid, st_.recvs_completed); }); });
  });
}

void LogGPStack::amo_add(int rank, int target, Completion local_done, Completion at_target) {
  ++st_.amos;
  // A one-sided put of 8 bytes: o at the origin, L to the target (no target CPU), L back for the completion.
  w_.cpu(rank, p_.o, [this, rank, target, local_done = std::move(local_done), at_target = std::move(at_target)]() mutable {
    double l = w_.wire_time(w_.node_of(rank), w_.node_of(target), 8);
    w_.sim().after(l, std::move(at_target));
    w_.sim().after(2 * l, std::move(local_done));
  });
}


}  // namespace ompisim::loggp
