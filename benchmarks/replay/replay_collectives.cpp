// The replay's collectives: MPI's same-collectives-in-the-same-order check, the choice of each collective's algorithm
// (the scenario's, the decision library's, else the fallback) and the translation of a collective action into the
// rank's schedule (from the collectives registry, or built here as coll/base's basic algorithms). See replay_state.hpp.
#include "benchmarks/replay/replay_state.hpp"
#include "benchmarks/replay/replay_tables.hpp"
#include "collectives/decision.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ompisim::bench::replay {

namespace {
using ti::Kind;


std::string describe(Kind k, int root, std::uint64_t sb, std::uint64_t rb, bool rooted) {
  std::string s = ti::kind_name(k);
  if (rooted) s += fmt::format(" root {}", root);
  if (k == Kind::Barrier) return s;
  if (k == Kind::Allgatherv || k == Kind::ReduceScatter) return s + " (its counts)";
  if (k == Kind::Alltoall || k == Kind::Allgather || k == Kind::Gather || k == Kind::Scatter)
    return s + fmt::format(" of {} B sent, {} B received", sb, rb);
  return s + fmt::format(" of {} B", sb);
}

}  // namespace

// MPI's rule: every rank calls the same collectives in the same order, with the same root and compatible sizes.
void Run::check_collective(int me, const ti::Action& a) {
  RankState& rs = ranks[static_cast<std::size_t>(me)];
  const std::uint64_t idx = rs.coll_next++;
  const bool same_counts = a.kind == Kind::Allgatherv || a.kind == Kind::ReduceScatter;
  const bool rooted = a.kind == Kind::Bcast || a.kind == Kind::Reduce || a.kind == Kind::Gather ||
                      a.kind == Kind::Scatter || a.kind == Kind::Gatherv || a.kind == Kind::Scatterv;
  if (idx - coll_first == coll_calls.size()) {
    coll_calls.push_back(CollCall{a.kind, rooted ? a.root : 0, me, a.send_bytes, a.recv_bytes, rs.last_line,
                                  same_counts ? a.counts_recv : std::vector<std::uint64_t>{}, 0});
  }
  CollCall& first = coll_calls[idx - coll_first];
  auto refuse = [&](const std::string& what) {
    throw InputError(rs.reader.path(), "",
                     fmt::format("line {}: rank {}'s collective #{} is {} where rank {}'s (line {} of {}) is {}: "
                                 "every rank calls the same collectives in the same order with the same root and "
                                 "sizes",
                                 rs.last_line, me, idx + 1, what, first.rank, first.line,
                                 ranks[static_cast<std::size_t>(first.rank)].reader.path(),
                                 describe(first.kind, first.root, first.send_bytes, first.recv_bytes, rooted)));
  };
  if (first.kind != a.kind) refuse(fmt::format("{}", ti::kind_name(a.kind)));
  // The sizes every rank gives alike (a rooted collective's non-root side of gather/scatter is the rank's block).
  bool sizes_differ = false;
  switch (a.kind) {
    case Kind::Bcast: case Kind::Reduce: case Kind::Allreduce: case Kind::Scan: case Kind::Exscan: case Kind::Gather:
      sizes_differ = first.send_bytes != a.send_bytes;
      break;
    case Kind::Scatter: sizes_differ = first.recv_bytes != a.recv_bytes; break;
    case Kind::Alltoall: case Kind::Allgather:
      sizes_differ = first.send_bytes != a.send_bytes || first.recv_bytes != a.recv_bytes;
      break;
    case Kind::Allgatherv: case Kind::ReduceScatter: sizes_differ = first.counts != a.counts_recv; break;
    default: break;
  }
  if ((rooted && first.root != a.root) || sizes_differ)
    refuse(describe(a.kind, a.root, a.send_bytes, a.recv_bytes, rooted));
  if (++first.seen == n)
    while (!coll_calls.empty() && coll_calls.front().seen == n) coll_calls.pop_front(), ++coll_first;
}

const Run::Choice& Run::algorithm(const std::string& coll, std::uint64_t bytes) {
  auto key = std::make_pair(coll, coll == "barrier" ? 0 : bytes);
  if (auto it = algo_cache.find(key); it != algo_cache.end()) return it->second;
  std::string name;
  std::uint32_t segsize = 0;
  if (auto it = c.algorithms.find(coll); it != c.algorithms.end()) {
    name = it->second;
  } else if (coll == "barrier" && !c.barrier_rule.is_null()) {
    name = coll::tuned_barrier_algorithm(n, c.barrier_rule);
  } else if (c.lib.is_object() && c.lib.contains(coll)) {
    try {
      const coll::Decision d = coll::decide(c.lib, coll, coll::CommShape{n, layout->node_aware()}, bytes);
      name = d.algorithm, segsize = d.segsize;
    } catch (const std::invalid_argument&) {
      name.clear();  // no row for this size: the fallback below
    }
  } else {
    name = fallback().at(coll);
  }
  Choice ch;
  ch.info = coll::default_registry().find(coll, name);
  ch.segsize = segsize;
  if (ch.info && ch.info->composition) {  // its stages, from the table's "stages"; one it lacks falls back
    CollChoice& cc = choices.try_emplace(coll).first->second;
    cc.coll = coll, cc.algorithm = cc.rules = c.collectives, cc.lib = c.lib;
    try {  // the stages' choices for this layout and size, made once (coll::memoise_stages)
      ch.stages = coll::memoise_stages(cc.stages_for(bytes, c.index), *layout, cc.stages());
    } catch (const InputError&) {
      ch = Choice{};
    }
  }
  if (!ch.info) {
    ++fallbacks;
    ch.info = coll::default_registry().find(coll, fallback().at(coll));
    ch.segsize = 0;
  }
  return algo_cache[key] = std::move(ch);
}


coll::Schedule Run::schedule(int me, const ti::Action& a) {
  coll::AlgoParams p;
  p.root = a.root;
  auto from_registry = [&](const char* coll, std::uint64_t bytes) {
    if (bytes > 0xffffffffull)
      throw InputError(c.index, "", fmt::format("a {} of {} B per block is beyond the collectives' 4 GiB bound", coll, bytes));
    p.bytes = static_cast<std::uint32_t>(bytes);
    const Choice& ch = algorithm(coll, bytes);
    if (me == 0) ++used[std::string(coll) + " " + ch.info->algo];
    if (ch.stages) p.layout = &*layout, p.stages = &ch.stages;
    p.segsize = ch.segsize;
    return ch.info->make(me, n, p);
  };
  auto u32 = [&](std::uint64_t b) {
    if (b > 0xffffffffull) throw InputError(c.index, "", fmt::format("a collective block of {} B is beyond 4 GiB", b));
    return static_cast<std::uint32_t>(b);
  };
  coll::Schedule s;
  // A linear rooted v-collective in one round: the root receives (gather) or sends (scatter) counts[k] bytes from or
  // to every other rank k with any; every other rank sends or receives its own `mine` bytes, if any, to or from it.
  auto linear_v = [&](int root, const std::vector<std::uint64_t>& counts, std::uint64_t mine, bool gather) {
    s.round();
    if (me == root) {
      for (int k = 0; k < n; ++k) {
        const std::uint64_t b = counts[static_cast<std::size_t>(k)];
        if (k == me || !b) continue;
        if (gather) s.recv(k, u32(b));
        else s.send(k, u32(b));
      }
    } else if (mine) {
      if (gather) s.send(root, u32(mine));
      else s.recv(root, u32(mine));
    }
  };
  switch (a.kind) {
    case Kind::Barrier: return from_registry("barrier", 0);
    case Kind::Bcast: return from_registry("bcast", a.send_bytes);
    case Kind::Reduce: return from_registry("reduce", a.send_bytes);
    case Kind::Allreduce: return from_registry("allreduce", a.send_bytes);
    case Kind::Alltoall: return from_registry("alltoall", a.send_bytes);
    case Kind::Gather: return from_registry("gather", std::max(a.send_bytes, me == a.root ? a.recv_bytes : 0));
    case Kind::Allgather: return from_registry("allgather", a.send_bytes);
    case Kind::Scatter: return from_registry("scatter", std::max(a.recv_bytes, me == a.root ? a.send_bytes : 0));
    case Kind::Alltoallv:  // linear: every receive and send at once
      s.round();
      for (int k = 1; k < n; ++k) {
        int from = (me - k + n) % n, to = (me + k) % n;
        if (a.counts_recv[static_cast<std::size_t>(from)]) s.recv(from, u32(a.counts_recv[static_cast<std::size_t>(from)]));
        if (a.counts_send[static_cast<std::size_t>(to)]) s.send(to, u32(a.counts_send[static_cast<std::size_t>(to)]));
      }
      break;
    case Kind::Gatherv: linear_v(a.root, a.counts_recv, a.send_bytes, true); break;
    case Kind::Scatterv: linear_v(a.root, a.counts_send, a.recv_bytes, false); break;
    case Kind::Allgatherv:  // ring: in step k pass on the block of rank me - k
      for (int k = 0; k + 1 < n; ++k) {
        s.round();
        std::uint64_t out = a.counts_recv[static_cast<std::size_t>((me - k + n) % n)];
        std::uint64_t in = a.counts_recv[static_cast<std::size_t>((me - k - 1 + 2 * n) % n)];
        if (in) s.recv((me - 1 + n) % n, u32(in));
        if (out) s.send((me + 1) % n, u32(out));
      }
      break;
    case Kind::ReduceScatter: {  // coll/basic: reduce of the whole vector to rank 0, then a linear scatterv
      std::uint64_t total = 0;
      for (auto b : a.counts_recv) total += b;
      p.root = 0;
      s = from_registry("reduce", total);
      linear_v(0, a.counts_recv, a.counts_recv[static_cast<std::size_t>(me)], false);
      break;
    }
    case Kind::Scan: case Kind::Exscan:  // linear chain: receive the prefix from me - 1, pass it to me + 1
      if (me > 0) s.round().recv(me - 1, u32(a.send_bytes));
      if (me + 1 < n) s.round().send(me + 1, u32(a.send_bytes));
      break;
    default: break;
  }
  return s;
}

}  // namespace ompisim::bench::replay
