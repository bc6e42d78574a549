// The replay interpreter: each rank's coroutine reads its action file one action at a time and runs it (replay_rank);
// point-to-point requests are posted to the stack and matched by (src, dst, tag) as SMPI's replay does; replay_run
// starts every rank, runs the simulation and checks that every rank ended and every send was received. The actions'
// meaning is described in replay_state.hpp.
#include "benchmarks/replay/replay_state.hpp"
#include "benchmarks/task.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <string>
#include <vector>

namespace ompisim::bench::replay {

namespace {

// A collective call's bytes as its row counts them: the rank's send buffer, one rule for every collective: an
// alltoall's P blocks, a v-collective's send counts, the vector of a bcast, reduce, allreduce or scan, the block of
// an (all)gather(v) or scatter, and a reduce_scatter's vector (the sum of its receive counts), so that the same traffic
// written as alltoall or alltoallv counts the same.
std::uint64_t send_buffer_bytes(const ti::Action& a, int ranks) {
  if (a.kind == ti::Kind::Alltoall) return a.send_bytes * static_cast<std::uint64_t>(ranks);
  std::uint64_t b = 0;
  if (!a.counts_send.empty()) {
    for (auto v : a.counts_send) b += v;
    return b;
  }
  if (a.kind == ti::Kind::ReduceScatter)
    for (auto v : a.counts_recv) b += v;
  return a.send_bytes + b;
}
using ti::Kind;

constexpr int kCollTag = -31;  // internal: never matches a trace's tag (>= 0) nor MPI_ANY_TAG

// Resumes the rank when the last request it blocks on completes.
struct Block {
  RankState& rs;
  bool await_ready() const noexcept { return rs.blocked == 0; }
  void await_suspend(std::coroutine_handle<> h) { rs.waiter = h; }
  void await_resume() const noexcept {}
};

struct Sleep {
  Simulator& sim;
  double seconds;
  bool await_ready() const noexcept { return seconds <= 0; }
  void await_suspend(std::coroutine_handle<> h) { sim.after(seconds, [h] { h.resume(); }); }
  void await_resume() const noexcept {}
};

std::string coll_stat_name(Kind k) { return ti::kind_name(k); }

}  // namespace

// The simulation ended with ranks that never completed an action: a deadlock. The rank named is the likeliest cause,
// a rank blocked in a point-to-point action (a receive or wait that no send matches) rather than one of those that wait
// for it in a collective, with how many ranks are blocked in each kind of action.
void Run::check_blocked() const {
  const RankState* cause = nullptr;
  std::map<std::string, int> kinds;
  int blocked = 0;
  for (const RankState& rs : ranks) {
    if (rs.end >= 0) continue;
    ++blocked, ++kinds[ti::kind_name(rs.last)];
    if (!cause || (ti::is_collective(cause->last) && !ti::is_collective(rs.last))) cause = &rs;
  }
  if (!cause) return;
  std::vector<std::string> by_kind;
  for (const auto& [k, m] : kinds) by_kind.push_back(fmt::format("{} in '{}'", m, k));
  throw InputError(cause->reader.path(), "",
                   fmt::format("line {}: rank {} never completed '{}' (deadlock: no rank's trace matches it; {} rank{} "
                               "blocked: {})",
                               cause->last_line, cause - ranks.data(), ti::kind_name(cause->last), blocked,
                               blocked == 1 ? "" : "s", fmt::join(by_kind, ", ")));
}
// After every rank ended: a send that no receive matched is an error, as MPI_Finalize with a pending message is.
void Run::check_unmatched() const {
  const std::uint64_t more = inflight.size();
  if (more == 0) return;
  const auto [key, f] = inflight.first();
  auto [src, dst, tag] = key;
  throw InputError(ranks[static_cast<std::size_t>(src)].reader.path(), "",
                   fmt::format("line {}: rank {}'s send to rank {} (tag {}, {} B) is never received: no receive in "
                               "rank {}'s trace matches it ({} unmatched send{} in all)",
                               f.line, src, dst, tag, f.bytes, dst, more, more == 1 ? "" : "s"));
}
void Run::check_unreceived() const {
  std::uint64_t open = 0;
  const Req* first = nullptr;
  for (const RankState& rs : ranks)
    for (const auto& r : rs.reqs)
      if (!r->done && r->dst == static_cast<int>(&rs - ranks.data())) open += 1, first = first ? first : r.get();
  if (!first) return;
  throw InputError(first->rs->reader.path(), "",
                   fmt::format("line {}: rank {}'s receive from rank {} (tag {}) is never matched: no send in rank {}'s "
                               "trace is left for it, and the trace ends without waiting for it ({} such receive{} in "
                               "all)",
                               first->line, first->dst, first->src, first->tag, first->src, open, open == 1 ? "" : "s"));
}
// A receive request r completed: its send is no longer in flight, the rank's counters grow, then r is done.
// A message longer than its receive buffer is MPI_ERR_TRUNCATE, which MPI reports as an error (fatal under the default
// error handler): the trace's error, stopped as an input error naming the receive's line and the send's.
void Run::received(Req* r) {
  const mpi::Status& st = r->status;
  if (const auto f = inflight.pop({st.source, r->dst, st.tag}); f && f->bytes > r->bytes && !error)
    error = std::make_exception_ptr(InputError(
        r->rs->reader.path(), "",
        fmt::format("line {}: rank {}'s receive from rank {} (tag {}) of {} B takes a send of {} B (line {} of rank "
                    "{}'s trace): a message longer than its receive buffer is MPI_ERR_TRUNCATE, an error in MPI",
                    r->line, r->dst, st.source, st.tag, r->bytes, f->bytes, f->line, st.source)));
  ++r->rs->recvs;
  r->rs->recv_bytes += st.bytes;
  done(r);
}
// r completed: the rank resumes when it was the last request the rank waits for.
void Run::done(Req* r) {
  r->done = true;
  if (!r->waited) return;
  r->waited = false;
  RankState* rs = r->rs;
  if (--rs->blocked == 0 && rs->waiter) {
    auto h = rs->waiter;
    rs->waiter = nullptr;
    h.resume();
  }
}
void Run::block_on(RankState& rs, Req* r) {
  if (r->done) return;
  r->waited = true;
  ++rs.blocked;
}
// blocking: MPI_Send (the trace's send, and sendRecv's send: Open MPI's MPI_Sendrecv is an irecv then a blocking
// send, ompi/mpi/c/sendrecv.c), which a stack may complete at once (mtl/ofi's fi_tinject); isend: MPI_Isend.
Req* Run::post_send(int me, int dst, int tag, std::uint64_t bytes, bool blocking) {
  RankState& rs = ranks[static_cast<std::size_t>(me)];
  auto* r = new Req{me, dst, tag, false, false, &rs, {}, rs.last_line, bytes};
  ++rs.sends;
  rs.send_bytes += bytes;
  inflight.push({me, dst, tag}, InFlight{bytes, rs.last_line});
  auto& sz = sizes[bytes == 0 ? -1 : static_cast<int>(std::bit_width(bytes - 1))];
  ++sz.first, sz.second += bytes;
  mpi::P2P m{me, dst, tag, bytes, mpi::kByte, mpi::kCommWorld, Buffer{static_cast<std::uint64_t>(me) << 36, true}, nullptr};
  m.blocking = blocking;
  s.start_send(m, [r] { done(r); });
  return r;
}
Req* Run::post_recv(int me, int src, int tag, std::uint64_t bytes) {
  RankState& rs = ranks[static_cast<std::size_t>(me)];
  auto* r = new Req{src, me, tag, false, false, &rs, {}, rs.last_line, bytes};
  s.start_recv(mpi::P2P{me, src, tag == -1 ? kAnyTag : tag, bytes, mpi::kByte, mpi::kCommWorld,
                        Buffer{(static_cast<std::uint64_t>(me) << 36) + (1ull << 35), true}, &r->status},
               [this, r] { received(r); });
  return r;
}

namespace {

Task replay_rank(Run& x, int me) {
  RankState& rs = x.ranks[static_cast<std::size_t>(me)];
  ti::Action a;
  try {
  while (!x.error && rs.reader.next(a)) {
    ++rs.actions;
    rs.last = a.kind;
    rs.last_line = rs.reader.line();
    switch (a.kind) {
      case Kind::Init: case Kind::NoOp: break;
      case Kind::Finalize: break;
      case Kind::Compute: {  // timed from when the core is free: MPI work already queued on it is not compute
        co_await Work{x.w, me, a.amount / x.c.flop_rate, &rs.compute};
        break;
      }
      case Kind::Sleep: {
        double t0 = x.w.sim().now();
        co_await Sleep{x.w.sim(), a.amount};
        rs.compute += x.w.sim().now() - t0;
        break;
      }
      case Kind::Send: case Kind::Recv: {
        Req* r = a.kind == Kind::Send ? x.post_send(me, a.peer, a.tag, a.send_bytes, true)
                                      : x.post_recv(me, a.peer, a.tag, a.recv_bytes);
        x.block_on(rs, r);
        co_await Block{rs};
        delete r;
        break;
      }
      case Kind::Isend:
        rs.reqs.emplace_back(x.post_send(me, a.peer, a.tag, a.send_bytes, false));
        break;
      case Kind::Irecv:
        rs.reqs.emplace_back(x.post_recv(me, a.peer, a.tag, a.recv_bytes));
        break;
      case Kind::SendRecv: {
        Req* rr = x.post_recv(me, a.peer2, 0, a.recv_bytes);
        Req* sr = x.post_send(me, a.peer, 0, a.send_bytes, true);
        x.block_on(rs, rr);
        x.block_on(rs, sr);
        co_await Block{rs};
        delete rr;
        delete sr;
        break;
      }
      case Kind::Wait: case Kind::Test: {
        auto it = std::find_if(rs.reqs.begin(), rs.reqs.end(), [&](const std::unique_ptr<Req>& r) {
          return r->src == a.peer && r->dst == a.peer2 && r->tag == a.tag;
        });
        if (it == rs.reqs.end()) {
          // Completed by an earlier test (SMPI's replay does the same), or a request with no peer (SMPI writes
          // MPI_UNDEFINED); otherwise MPI would wait on a request that does not exist.
          auto t = rs.tested.find({a.peer, a.peer2, a.tag});
          if (t != rs.tested.end()) {
            if (--t->second == 0) rs.tested.erase(t);
          } else if (a.peer >= -1 && a.peer2 >= 0) {
            throw InputError(rs.reader.path(), "",
                             fmt::format("line {}: {} on a request (src {}, dst {}, tag {}) that rank {} has not posted "
                                         "with isend/irecv, or has already waited for",
                                         rs.last_line, ti::kind_name(a.kind), a.peer, a.peer2, a.tag, me));
          }
          break;
        }
        if (a.kind == Kind::Test) {
          if ((*it)->done) {
            ++rs.tested[{a.peer, a.peer2, a.tag}];
            rs.reqs.erase(it);
          }
          break;
        }
        std::unique_ptr<Req> r = std::move(*it);
        rs.reqs.erase(it);
        x.block_on(rs, r.get());
        co_await Block{rs};
        break;
      }
      case Kind::Waitall: {
        for (auto& r : rs.reqs) x.block_on(rs, r.get());
        co_await Block{rs};
        rs.reqs.clear();
        break;
      }
      default: {  // collectives
        x.check_collective(me, a);
        double t0 = x.w.sim().now();
        coll::Schedule sched = x.schedule(me, a);
        co_await CollAwait{&x.exec, me, &sched, kCollTag, Group{0, 1, x.n}};
        if (a.amount > 0) co_await Work{x.w, me, a.amount / x.c.flop_rate};
        CollStat& st = x.colls[coll_stat_name(a.kind)];
        ++st.calls;
        st.time += x.w.sim().now() - t0;
        st.bytes += send_buffer_bytes(a, x.n);
        break;
      }
    }
  }
  } catch (...) {  // an exception cannot leave a coroutine resumed from the engine's callbacks
    if (!x.error) x.error = std::current_exception();
  }
  if (!x.error) rs.end = x.w.sim().now();
}

}  // namespace

Json replay_run(World& w, Stack& s, const ReplayConfig& c) {
  const int n = static_cast<int>(w.contexts().ranks());
  if (n != static_cast<int>(c.files.size()))
    throw InputError(c.index, "", fmt::format("the trace has {} ranks, the run {}", c.files.size(), n));
  Run x{w, s, c, n, ScheduleExec(s, n), {}, {}, {}, {}, {}, 0, nullptr, std::nullopt, {}, {}, {}, 0};
  std::vector<long long> node_key(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) node_key[static_cast<std::size_t>(r)] = w.contexts().node_of(r);
  x.layout.emplace(node_key);
  const std::size_t chunk = std::clamp<std::size_t>((128u << 20) / static_cast<std::size_t>(n), 1024, 65536);
  x.ranks.reserve(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    x.ranks.push_back(RankState{.reader = ti::RankReader(c.files[static_cast<std::size_t>(r)], r, n, chunk)});
  // The local reductions' arithmetic is the trace's own flops (charged after the collective), not a per-element cost.
  x.exec.reduce = [](int, const coll::Op&, Completion done) { done(); };
  for (int r = 0; r < n; ++r) replay_rank(x, r);
  w.sim().run();
  if (x.error) std::rethrow_exception(x.error);
  double total = 0;
  for (int r = 0; r < n; ++r) total = std::max(total, x.ranks[static_cast<std::size_t>(r)].end);
  x.check_blocked();
  x.check_unmatched();
  x.check_unreceived();
  return replay_points(x, total);
}

}  // namespace ompisim::bench::replay
