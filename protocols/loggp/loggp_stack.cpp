#include "protocols/loggp/loggp_stack.hpp"

#include <algorithm>

namespace ompisim::loggp {

LogGPStack::LogGPStack(World& w)
    : w_(w), p_(loggp::nic(w.machine()).p), lib_(w.ranks()), next_inject_(static_cast<std::size_t>(w.ranks()), 0.0) {}

StackStats LogGPStack::stats() const {
  StackStats s;
  lib_.report(s);
  s.amos = amos_;
  return s;
}

void LogGPStack::wire(int rank, int dst, std::uint64_t bytes, Completion injected, Completion arrived) {
  double b = static_cast<double>(bytes);
  w_.cpu(rank, p_.o + b / p_.O_bandwidth, [this, rank, dst, b, injected = std::move(injected), arrived = std::move(arrived)]() mutable {
    double& next = next_inject_[rank];
    double inject = std::max(w_.sim().now(), next);
    next = inject + std::max<double>(p_.g, b / p_.G_bandwidth);
    double arrive = inject + w_.wire_time(w_.node_of(rank), w_.node_of(dst), b);
    if (injected) w_.sim().at(inject, std::move(injected));
    w_.sim().at(arrive, std::move(arrived));
  }, "LogGP o (send)");
}

void LogGPStack::start_send(const mpi::P2P& p, Completion done) {
  const int rank = p.rank, dst = p.peer;
  const std::uint64_t bytes = p.bytes();
  const std::uint32_t ctx = p.comm.context_id;
  const mpi::RequestId sid = lib_.new_send(p, std::move(done)).first;
  std::uint32_t seq = lib_.next_send_seq(rank, ctx, dst);
  bool rndv = static_cast<double>(bytes) > p_.S;
  Msg m{rank, p.tag, bytes, sid, rndv};
  wire(rank, dst, rndv ? 0 : bytes, rndv ? Completion() : Completion([this, sid] { lib_.complete_send(sid); }),
       [this, dst, ctx, seq, m] {
         auto out = lib_.arrive(dst, ctx, seq, m);
         for (auto& x : out) deliver(x.recv.rid, dst, x.msg);
       });
}

void LogGPStack::start_recv(const mpi::P2P& p, Completion done) {
  const mpi::RequestId rid = lib_.new_recv(p, std::move(done)).first;
  auto m = lib_.post(p.rank, p.comm.context_id, mpi::Posted{p.peer, p.tag, rid});
  if (m) deliver(rid, p.rank, *m);
}

void LogGPStack::deliver(std::uint64_t rid, int dst, const Msg& m) {
  double b = static_cast<double>(m.bytes);
  lib_.matched(lib_.recv(rid), m.src, m.tag, m.bytes);
  if (!m.rndv) {
    w_.cpu(dst, p_.o + b / p_.O_bandwidth, [this, rid] { lib_.complete_recv(rid); }, "LogGP o (receive)");
    return;
  }
  // Rendezvous: the receiver answers CTS, the sender sends the data.
  int src = m.src;
  std::uint64_t sid = m.sid, bytes = m.bytes;
  wire(dst, src, 0, nullptr, [this, src, dst, sid, bytes, rid, b] {
    wire(src, dst, bytes, [this, sid] { lib_.complete_send(sid); },
         [this, dst, rid, b] { w_.cpu(dst, p_.o + b / p_.O_bandwidth, [this, rid] { lib_.complete_recv(rid); }, "LogGP o (receive)"); });
  });
}

void LogGPStack::amo_add(int rank, int target, Completion local_done, Completion at_target) {
  ++amos_;
  // A one-sided put of 8 bytes: o at the origin, L to the target (no target CPU), L back for the completion.
  w_.cpu(rank, p_.o, [this, rank, target, local_done = std::move(local_done), at_target = std::move(at_target)]() mutable {
    double l = w_.wire_time(w_.node_of(rank), w_.node_of(target), 8);
    w_.sim().after(l, std::move(at_target));
    w_.sim().after(2 * l, std::move(local_done));
  }, "LogGP o (AMO)");
}


}  // namespace ompisim::loggp
