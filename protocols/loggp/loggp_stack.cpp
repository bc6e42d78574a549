#include "protocols/loggp/loggp_stack.hpp"

#include <algorithm>

namespace ompisim::loggp {

LogGPStack::LogGPStack(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const Fabric& fabric)
    : sim_(sim), ctx_(contexts), cpus_(cpus), fabric_(fabric), p_(loggp::nic(contexts.machine()).p),
      lib_(contexts.ranks()), send_gap_(static_cast<std::size_t>(contexts.ranks())),
      recv_gap_(static_cast<std::size_t>(contexts.ranks())) {}

StackStats LogGPStack::stats() const {
  StackStats s;
  lib_.report(s);
  s.amos = amos_;
  auto own = counters_;
  own.set(LogGPStat::TruncateErrors, lib_.truncated());
  own.report(s.counters);
  return s;
}

bool LogGPStack::gap_busy(const Gap& g) const { return g.head < g.queue.size() || g.next > sim_.now(); }

double LogGPStack::recv_overhead(double bytes) const {
  const double extra = std::max(0.0, bytes - 1);
  return p_.o + std::max(extra / p_.O_bandwidth, extra / p_.G_bandwidth);
}

void LogGPStack::enqueue(int rank, Gap& g, Job j, const char* what) {
  g.queue.push_back(std::move(j));
  pump(rank, g, what);
}

void LogGPStack::pump(int rank, Gap& g, const char* what) {
  while (g.head < g.queue.size()) {
    const double now = sim_.now();
    if (g.next > now) {
      // The gap is not over: the CPU stays free for other work until then (LogGOPSim reinserts the operation at
      // max(nexto, nextg)).
      if (!g.armed) {
        g.armed = true;
        sim_.at(g.next, [this, rank, &g, what] {
          g.armed = false;
          pump(rank, g, what);
        });
      }
      return;
    }
    Job j = std::move(g.queue[g.head++]);
    if (g.head == g.queue.size()) {
      g.queue.clear();
      g.head = 0;
    }
    // Both free: the message starts when the CPU frees (CpuTimeline::cpu queues work in order on a rank's own core).
    const double start = std::max(now, cpus_.cpu_free_at(rank));
    g.next = start + j.gap;
    cpus_.cpu(rank, j.cpu, std::move(j.cpu_done), what);
    if (j.started) j.started(start);
  }
}

void LogGPStack::wire(int rank, int dst, std::uint64_t bytes, Completion injected, Completion arrived) {
  // LogGOPSim (Hoefler et al. 2010, LogGOPSim.cpp, OP_SEND): the send starts when both the CPU (o) and the send gap
  // are free; the CPU is then busy o + (s-1)O, the first byte leaves after o, the send gap lasts g + (s-1)G, and the
  // first byte arrives L after it left.
  const double extra = std::max(0.0, static_cast<double>(bytes) - 1);
  Gap& gap = send_gap_[static_cast<std::size_t>(rank)];
  if (gap_busy(gap)) counters_.add(LogGPStat::SendGapWaits);
  auto started = [this, rank, dst, injected = std::move(injected), arrived = std::move(arrived)](double start) mutable {
    const double inject = start + p_.o;
    if (injected) sim_.at(inject, std::move(injected));
    sim_.at(inject + fabric_.wire_time(ctx_.node_of(rank), ctx_.node_of(dst), 1), std::move(arrived));
  };
  enqueue(rank, gap,
          Job{p_.o + extra / p_.O_bandwidth, p_.g + extra / p_.G_bandwidth, [] {}, std::move(started)},
          "LogGP o + (s-1)O (send)");
}

void LogGPStack::receive(int rank, double bytes, Completion done) {
  // LogGOPSim (OP_MSG): the message is taken when both the CPU and the receive gap are free (from its first byte's
  // arrival); the CPU pays o + max((s-1)O, (s-1)G), the receive gap lasts g + (s-1)G.
  const double extra = std::max(0.0, bytes - 1);
  Gap& gap = recv_gap_[static_cast<std::size_t>(rank)];
  if (gap_busy(gap)) counters_.add(LogGPStat::RecvGapWaits);
  enqueue(rank, gap, Job{recv_overhead(bytes), p_.g + extra / p_.G_bandwidth, std::move(done), nullptr},
          "LogGP o (receive)");
}

void LogGPStack::start_send(const mpi::P2P& p, Completion done) {
  const int rank = p.rank, dst = p.peer;
  const std::uint64_t bytes = p.bytes();
  const std::uint32_t ctx = p.comm.context_id;
  const mpi::RequestId sid = lib_.new_send(p, std::move(done)).first;
  std::uint32_t seq = lib_.next_send_seq(rank, ctx, dst);
  bool rndv = static_cast<double>(bytes) > p_.S;
  counters_.add(rndv ? LogGPStat::RndvSends : LogGPStat::EagerSends);
  counters_.add(LogGPStat::Bytes, bytes);
  Msg m{rank, p.tag, bytes, sid, rndv};
  wire(rank, dst, rndv ? 0 : bytes, rndv ? Completion() : Completion([this, sid] { lib_.complete_send(sid); }),
       [this, dst, ctx, seq, m] {
         auto match = [this, dst, ctx, seq, m] {
           auto out = lib_.arrive(dst, ctx, seq, m);
           for (auto& x : out) deliver(x.recv.rid, dst, x.msg);
         };
         // An eager message costs the receiver o + max((s-1)O, (s-1)G) from its first byte (LogGOPSim, OP_MSG),
         // matched or not; a request-to-send costs it nothing until it answers.
         if (m.rndv) match();
         else receive(dst, static_cast<double>(m.bytes), std::move(match));
       });
}

void LogGPStack::start_recv(const mpi::P2P& p, Completion done) {
  const mpi::RequestId rid = lib_.new_recv(p, std::move(done)).first;
  auto m = lib_.post(p.rank, p.comm.context_id, mpi::Posted{p.peer, p.tag, rid});
  if (m) deliver(rid, p.rank, *m);
}

void LogGPStack::deliver(std::uint64_t rid, int dst, const Msg& m) {
  lib_.matched(lib_.recv(rid), m.src, m.tag, m.bytes);
  if (!m.rndv) {
    // The receiver's CPU has absorbed the message on arrival (see start_send): the receive completes when it is free.
    cpus_.cpu(dst, 0, [this, rid] { lib_.complete_recv(rid); }, "LogGP receive complete");
    return;
  }
  // Rendezvous: the receiver answers CTS, the sender sends the data.
  int src = m.src;
  std::uint64_t sid = m.sid, bytes = m.bytes;
  wire(dst, src, 0, nullptr, [this, src, dst, sid, bytes, rid] { on_cts(src, dst, sid, bytes, rid); });
}

void LogGPStack::on_cts(int src, int dst, std::uint64_t sid, std::uint64_t bytes, std::uint64_t rid) {
  const double b = static_cast<double>(bytes);
  wire(src, dst, bytes, [this, sid] { lib_.complete_send(sid); },
       [this, dst, rid, b] { receive(dst, b, [this, rid] { lib_.complete_recv(rid); }); });
}

void LogGPStack::amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia) {
  ++amos_;
  // A one-sided put of 8 bytes: o at the origin, L to the target (no target CPU), L back for the completion.
  cpus_.cpu(rank, p_.o, [this, rank, target, local_done = std::move(local_done), at_target = std::move(at_target)]() mutable {
    double l = fabric_.wire_time(ctx_.node_of(rank), ctx_.node_of(target), 8);
    sim_.after(l, std::move(at_target));
    sim_.after(2 * l, std::move(local_done));
  }, "LogGP o (AMO)");
}


}  // namespace ompisim::loggp
