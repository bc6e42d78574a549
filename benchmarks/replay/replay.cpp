// replay: runs a SimGrid SMPI time-independent trace (smpirun -trace-ti; format and reader in ti_trace.hpp) on the
// scenario's machine and stack. Every rank reads its own action file lazily, one action at a time, and runs it:
//   compute flops    World::compute for flops / flop_rate on the rank's core (NIC interrupts lengthen it; no MPI
//                    progress meanwhile), counted as compute time; sleep: simulated time passes, counted as compute.
//   send/isend/recv/irecv/sendRecv   the stack's start_send / start_recv (pml/ob1 over its BTLs, pml/cm over its MTL,
//                    a native or the loggp stack): MPI_BYTE payloads of count x datatype size on MPI_COMM_WORLD with
//                    the trace's tag (sendRecv: tag 0, as SMPI's replay). Blocking calls wait for their request.
//   wait/test/waitall   the requests of isend/irecv are kept per rank and found by (src, dst, tag), first posted
//                    first, as SMPI's replay does: wait blocks on the first match (none: nothing to wait for); test
//                    removes it if complete (it costs no time); waitall blocks on every request kept.
//   collectives      a schedule of the collectives registry over the stack's point-to-point path (ScheduleExec), on
//                    MPI_COMM_WORLD with an internal (negative) tag. The algorithm: the benchmark's per-collective
//                    choice ("algorithms"), else the decision library's ("collectives": tuned = coll/tuned v5.0.x,
//                    mpich) for the collective, communicator and message size, else the fallback of the collective
//                    (replay_tables.cpp fallback(): the one coll/base algorithm this project has, or coll/tuned's fixed rule for
//                    the barrier). An algorithm the decision names but this project lacks falls back too, and is
//                    reported. The communicator is node-aware when some node holds two or more ranks (the placement's
//                    nodes, split as MPICH's MPIR_Comm_create_subcomms does: coll::NodeLayout), so "mpich" runs its
//                    node-aware bcast composition with the stages its table picks, as osu_coll does.
//                    Collectives no library table covers are built here as coll/base's basic ones:
//                    alltoallv, gatherv and scatterv linear (every request at once, ompi_coll_base_*_intra_basic_
//                    linear), allgatherv a ring, reducescatter a reduce to rank 0 then a linear scatterv (coll/basic),
//                    scan and exscan a linear chain (coll/basic). A reduction's flops (the trace's comp_size) run on the
//                    rank's core after its data moved, inside the MPI call (as SMPI's replay does).
// Measured: per rank the end time (its last action), compute time and MPI time = end - compute (what an MPI
// profiler reports as time inside MPI); the replay's time is the last rank's end. Per collective: calls (summed over
// ranks), mean time per call, bytes; per message size (powers of two): point-to-point sends and bytes. Every rank's
// point-to-point sends and receives completed, with bytes (checked against the trace by tests/e2e/replay.sh). The
// protocol counters are the run's stats, as for every benchmark.
// LIMITATIONS: ranks start together at time 0 (SMPI starts its clock at MPI_Init); no communicator other than
// MPI_COMM_WORLD (the TI format records none); typed data is sent as bytes (no conversion between
// architectures); the v-collectives and scans are the basic algorithms named above whatever the library.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/coll_choice.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/replay/replay_tables.hpp"
#include "benchmarks/replay/ti_trace.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "benchmarks/task.hpp"
#include "collectives/decision.hpp"
#include "collectives/registry.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <optional>

namespace ompisim::bench {

namespace {
namespace fs = std::filesystem;
using ti::Kind;

constexpr int kCollTag = -31;  // internal: never matches a trace's tag (>= 0) nor MPI_ANY_TAG
using replay::fallback;
using replay::registry_colls;
using replay::replay_table;
using replay::size_class;

struct ReplayConfig {
  std::string index;                // resolved path of the index file
  std::vector<std::string> files;   // per rank
  double flop_rate = 0;             // flop/s
  std::string collectives = "tuned";
  Json lib, barrier_rule;           // decision library ({} for "fixed"), coll/tuned's barrier rule
  std::map<std::string, std::string> algorithms;  // per-collective choice
};

double parse_flop_rate(ObjectReader& b) {
  const Json& v = b.raw("flop_rate");
  double x = 0;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    std::string s = v.get<std::string>();
    std::size_t i = 0;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' ||
                            s[i] == 'E' || s[i] == '+' || s[i] == '-'))
      ++i;
    auto [p, ec] = std::from_chars(s.data(), s.data() + i, x);
    if (ec != std::errc() || p != s.data() + i || i == 0)
      b.fail("flop_rate", fmt::format("'{}' is not a rate (expected e.g. \"1 Gf/s\")", s));
    std::string unit = s.substr(i);
    unit.erase(0, unit.find_first_not_of(' '));
    static const std::map<std::string, double> units{
        {"f/s", 1},     {"kf/s", 1e3},     {"Mf/s", 1e6},     {"Gf/s", 1e9},     {"Tf/s", 1e12},     {"Pf/s", 1e15},
        {"flop/s", 1},  {"kflop/s", 1e3},  {"Mflop/s", 1e6},  {"Gflop/s", 1e9},  {"Tflop/s", 1e12},  {"Pflop/s", 1e15},
        {"f", 1},       {"kf", 1e3},       {"Mf", 1e6},       {"Gf", 1e9},       {"Tf", 1e12},       {"Pf", 1e15}};
    auto it = units.find(unit);
    if (it == units.end())
      b.fail("flop_rate", fmt::format("unknown unit '{}' (known: f/s, kf/s, Mf/s, Gf/s, Tf/s, Pf/s, or flop/s forms)", unit));
    x *= it->second;
  } else {
    b.fail("flop_rate", "expected a rate such as \"1 Gf/s\"");
  }
  if (!std::isfinite(x) || x < 1 || x > 1e18) b.fail("flop_rate", "expected a rate between 1 f/s and 1e18 f/s");
  return x;
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

struct RankState;
struct Req {
  int src, dst, tag;
  bool done = false, waited = false;
  RankState* rs;
  mpi::Status status{};
};

struct RankState {
  ti::RankReader reader;
  std::vector<std::unique_ptr<Req>> reqs;  // isend/irecv requests not yet waited, in posting order
  int blocked = 0;
  std::coroutine_handle<> waiter;
  double compute = 0, end = -1;
  std::uint64_t sends = 0, send_bytes = 0, recvs = 0, recv_bytes = 0, actions = 0;
  Kind last = Kind::Init;
  std::uint64_t last_line = 0;
  std::uint64_t coll_next = 0;  // the index of the rank's next collective call
  std::map<std::tuple<int, int, int>, std::uint64_t> tested;  // (src, dst, tag) of requests a test completed
};

// A send not yet received: its line in the sender's trace.
struct InFlight {
  std::uint64_t bytes, line;
};

// The sends of one (src, dst, tag) not yet received, oldest first: a vector read from `head`, emptied but not freed
// when the last is received, so a pair that has one message in flight at a time allocates once for the whole run.
struct SendFifo {
  std::vector<InFlight> q;
  std::size_t head = 0;
  bool empty() const { return head == q.size(); }
  const InFlight& front() const { return q[head]; }
  void pop() {
    if (++head == q.size()) {
      q.clear(), head = 0;
    } else if (head >= 64 && 2 * head >= q.size()) {  // a queue that never drains: drop what was read
      q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
  }
};
using MsgKey = std::tuple<int, int, int>;  // (src, dst, tag)

// The sends not yet received, by (src, dst, tag): open addressing (linear probing, a power-of-two table at most half
// full) with each pair's FIFO in its slot, so a receive's completion reads one slot. A pair keeps its slot once its
// FIFO empties (a trace's pairs are few and recur).
class SendsInFlight {
public:
  void push(const MsgKey& k, InFlight f) {
    find(k, true)->fifo.q.push_back(f);
    ++count_;
  }
  void pop(const MsgKey& k) {
    Slot* s = find(k, false);
    if (s && !s->fifo.empty()) s->fifo.pop(), --count_;
  }
  std::uint64_t size() const { return count_; }
  // The least (src, dst, tag) with a send not received, and its oldest such send (size() > 0).
  std::pair<MsgKey, InFlight> first() const {
    const Slot* best = nullptr;
    for (const Slot& s : slots_)
      if (s.used && !s.fifo.empty() && (!best || s.key < best->key)) best = &s;
    return {best->key, best->fifo.front()};
  }

private:
  struct Slot {
    MsgKey key{};
    bool used = false;
    SendFifo fifo;
  };
  static std::size_t hash(const MsgKey& k) {
    auto [a, b, c] = k;
    std::uint64_t h = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b)) ^
                      static_cast<std::uint64_t>(static_cast<std::uint32_t>(c)) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ (h >> 31)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  Slot* find(const MsgKey& k, bool add) {
    if (add && 2 * (used_ + 1) > slots_.size()) grow();
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.used && s.key == k) return &s;
      if (!s.used) {
        if (!add) return nullptr;
        s.used = true, s.key = k, ++used_;
        return &s;
      }
    }
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(old.empty() ? 1024 : 2 * old.size());
    const std::size_t mask = slots_.size() - 1;
    for (Slot& o : old) {
      if (!o.used) continue;
      std::size_t i = hash(o.key) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = std::move(o);
    }
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::uint64_t count_ = 0;
};

// The first rank's call of one collective (by its index in every rank's sequence), checked against the others'.
struct CollCall {
  Kind kind;
  int root, rank;
  std::uint64_t send_bytes, recv_bytes, line;
  std::vector<std::uint64_t> counts;  // allgatherv, reducescatter: the counts every rank gives alike
  int seen;                           // ranks that reached it
};

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

struct CollStat {
  std::uint64_t calls = 0, bytes = 0;
  double time = 0;
};

struct Run {
  World& w;
  Stack& s;
  const ReplayConfig& c;
  int n;
  ScheduleExec exec;
  std::vector<RankState> ranks;
  std::map<std::string, CollStat> colls;              // by collective
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> sizes;  // p2p sends by size class: (messages, bytes)
  // A collective's algorithm for one size; a node-aware composition also carries its stages' choice.
  struct Choice {
    const coll::AlgoInfo* info = nullptr;
    coll::StageChooser stages;
  };
  std::map<std::pair<std::string, std::uint64_t>, Choice> algo_cache;
  std::map<std::string, std::uint64_t> used;          // "allreduce recursive_doubling" -> calls on rank 0
  std::uint64_t fallbacks = 0;
  std::exception_ptr error;  // the first rank's input error: every rank stops at its next action, then it is thrown
  std::optional<coll::NodeLayout> layout;  // MPI_COMM_WORLD's nodes (set before the run)
  std::map<std::string, CollChoice> choices;  // per collective: the decision table that picks a composition's stages
  SendsInFlight inflight;  // sends not yet received
  std::deque<CollCall> coll_calls;  // collectives some rank called and not every rank reached yet
  std::uint64_t coll_first = 0;     // the index of coll_calls.front()

  // MPI's rule: every rank calls the same collectives in the same order, with the same root and compatible sizes.
  void check_collective(int me, const ti::Action& a) {
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
  static std::string describe(Kind k, int root, std::uint64_t sb, std::uint64_t rb, bool rooted) {
    std::string s = ti::kind_name(k);
    if (rooted) s += fmt::format(" root {}", root);
    if (k == Kind::Barrier) return s;
    if (k == Kind::Allgatherv || k == Kind::ReduceScatter) return s + " (its counts)";
    if (k == Kind::Alltoall || k == Kind::Allgather || k == Kind::Gather || k == Kind::Scatter)
      return s + fmt::format(" of {} B sent, {} B received", sb, rb);
    return s + fmt::format(" of {} B", sb);
  }
  // After every rank ended: a send that no receive matched is an error, as MPI_Finalize with a pending message is.
  void check_unmatched() const {
    const std::uint64_t more = inflight.size();
    if (more == 0) return;
    const auto [key, f] = inflight.first();
    auto [src, dst, tag] = key;
    throw InputError(ranks[static_cast<std::size_t>(src)].reader.path(), "",
                     fmt::format("line {}: rank {}'s send to rank {} (tag {}, {} B) is never received: no receive in "
                                 "rank {}'s trace matches it ({} unmatched send{} in all)",
                                 f.line, src, dst, tag, f.bytes, dst, more, more == 1 ? "" : "s"));
  }
  // A receive request r completed: its send is no longer in flight, the rank's counters grow, then r is done.
  void received(Req* r) {
    const mpi::Status& st = r->status;
    inflight.pop({st.source, r->dst, st.tag});
    ++r->rs->recvs;
    r->rs->recv_bytes += st.bytes;
    done(r);
  }
  // r completed: the rank resumes when it was the last request the rank waits for.
  static void done(Req* r) {
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
  void block_on(RankState& rs, Req* r) {
    if (r->done) return;
    r->waited = true;
    ++rs.blocked;
  }
  // blocking: MPI_Send (the trace's send, and sendRecv's send: Open MPI's MPI_Sendrecv is an irecv then a blocking
  // send, ompi/mpi/c/sendrecv.c), which a stack may complete at once (mtl/ofi's fi_tinject); isend: MPI_Isend.
  Req* post_send(int me, int dst, int tag, std::uint64_t bytes, bool blocking) {
    RankState& rs = ranks[static_cast<std::size_t>(me)];
    auto* r = new Req{me, dst, tag, false, false, &rs};
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
  Req* post_recv(int me, int src, int tag, std::uint64_t bytes) {
    RankState& rs = ranks[static_cast<std::size_t>(me)];
    auto* r = new Req{src, me, tag, false, false, &rs};
    s.start_recv(mpi::P2P{me, src, tag == -1 ? kAnyTag : tag, bytes, mpi::kByte, mpi::kCommWorld,
                          Buffer{(static_cast<std::uint64_t>(me) << 36) + (1ull << 35), true}, &r->status},
                 [this, r] { received(r); });
    return r;
  }

  const Choice& algorithm(const std::string& coll, std::uint64_t bytes) {
    auto key = std::make_pair(coll, coll == "barrier" ? 0 : bytes);
    if (auto it = algo_cache.find(key); it != algo_cache.end()) return it->second;
    std::string name;
    if (auto it = c.algorithms.find(coll); it != c.algorithms.end()) {
      name = it->second;
    } else if (coll == "barrier" && !c.barrier_rule.is_null()) {
      name = coll::tuned_barrier_algorithm(n, c.barrier_rule);
    } else if (c.lib.is_object() && c.lib.contains(coll)) {
      try {
        name = coll::decide_algorithm(c.lib, coll, coll::CommShape{n, layout->node_aware()}, bytes);
      } catch (const std::invalid_argument&) {
        name.clear();  // no row for this size: the fallback below
      }
    } else {
      name = fallback().at(coll);
    }
    Choice ch;
    ch.info = coll::default_registry().find(coll, name);
    if (ch.info && ch.info->composition) {  // its stages, from the table's "stages"; one it lacks falls back
      CollChoice& cc = choices.try_emplace(coll).first->second;
      cc.coll = coll, cc.algorithm = cc.rules = c.collectives, cc.lib = c.lib;
      try {  // the stages' choices for this layout and size, made once (coll::memoise_stages)
        ch.stages = coll::memoise_stages(cc.stages_for(bytes, c.index), *layout);
      } catch (const InputError&) {
        ch = Choice{};
      }
    }
    if (!ch.info) {
      ++fallbacks;
      ch.info = coll::default_registry().find(coll, fallback().at(coll));
    }
    return algo_cache[key] = std::move(ch);
  }

  coll::Schedule schedule(int me, const ti::Action& a) {
    coll::AlgoParams p;
    p.root = a.root;
    auto from_registry = [&](const char* coll, std::uint64_t bytes) {
      if (bytes > 0xffffffffull)
        throw InputError(c.index, "", fmt::format("a {} of {} B per block is beyond the collectives' 4 GiB bound", coll, bytes));
      p.bytes = static_cast<std::uint32_t>(bytes);
      const Choice& ch = algorithm(coll, bytes);
      if (me == 0) ++used[std::string(coll) + " " + ch.info->algo];
      if (ch.stages) p.layout = &*layout, p.stages = &ch.stages;
      return ch.info->make(me, n, p);
    };
    auto u32 = [&](std::uint64_t b) {
      if (b > 0xffffffffull) throw InputError(c.index, "", fmt::format("a collective block of {} B is beyond 4 GiB", b));
      return static_cast<std::uint32_t>(b);
    };
    coll::Schedule s;
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
      case Kind::Gatherv:
        s.round();
        if (me == a.root) {
          for (int k = 0; k < n; ++k)
            if (k != me && a.counts_recv[static_cast<std::size_t>(k)]) s.recv(k, u32(a.counts_recv[static_cast<std::size_t>(k)]));
        } else if (a.send_bytes) {
          s.send(a.root, u32(a.send_bytes));
        }
        break;
      case Kind::Scatterv:
        s.round();
        if (me == a.root) {
          for (int k = 0; k < n; ++k)
            if (k != me && a.counts_send[static_cast<std::size_t>(k)]) s.send(k, u32(a.counts_send[static_cast<std::size_t>(k)]));
        } else if (a.recv_bytes) {
          s.recv(a.root, u32(a.recv_bytes));
        }
        break;
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
        s.round();
        if (me == 0) {
          for (int k = 1; k < n; ++k)
            if (a.counts_recv[static_cast<std::size_t>(k)]) s.send(k, u32(a.counts_recv[static_cast<std::size_t>(k)]));
        } else if (a.counts_recv[static_cast<std::size_t>(me)]) {
          s.recv(0, u32(a.counts_recv[static_cast<std::size_t>(me)]));
        }
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
};

std::string coll_stat_name(Kind k) { return ti::kind_name(k); }

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
      case Kind::Compute: {
        double t0 = x.w.sim().now();
        co_await Work{x.w, me, a.amount / x.c.flop_rate};
        rs.compute += x.w.sim().now() - t0;
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
        std::uint64_t b = a.send_bytes;
        for (auto v : a.counts_send) b += v;
        if (a.counts_send.empty())
          for (auto v : a.counts_recv) b += v;
        st.bytes += b;
        break;
      }
    }
  }
  } catch (...) {  // an exception cannot leave a coroutine resumed from the engine's callbacks
    if (!x.error) x.error = std::current_exception();
  }
  if (!x.error) rs.end = x.w.sim().now();
}

Json replay_run(World& w, Stack& s, const ReplayConfig& c) {
  const int n = static_cast<int>(w.ranks());
  if (n != static_cast<int>(c.files.size()))
    throw InputError(c.index, "", fmt::format("the trace has {} ranks, the run {}", c.files.size(), n));
  Run x{w, s, c, n, ScheduleExec(s, n), {}, {}, {}, {}, {}, 0, nullptr, std::nullopt, {}, {}, {}, 0};
  std::vector<long long> node_key(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) node_key[static_cast<std::size_t>(r)] = w.node_of(r);
  x.layout.emplace(node_key);
  const std::size_t chunk = std::clamp<std::size_t>((128u << 20) / static_cast<std::size_t>(n), 1024, 65536);
  x.ranks.reserve(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) x.ranks.push_back(RankState{ti::RankReader(c.files[static_cast<std::size_t>(r)], r, n, chunk), {}, 0, nullptr});
  // The local reductions' arithmetic is the trace's own flops (charged after the collective), not a per-element cost.
  x.exec.reduce = [](int, const coll::Op&, Completion done) { done(); };
  for (int r = 0; r < n; ++r) replay_rank(x, r);
  w.sim().run();
  if (x.error) std::rethrow_exception(x.error);
  double total = 0;
  for (int r = 0; r < n; ++r) {
    const RankState& rs = x.ranks[static_cast<std::size_t>(r)];
    if (rs.end < 0)
      throw InputError(rs.reader.path(), "",
                       fmt::format("line {}: rank {} never completed '{}' (deadlock: no rank's trace matches it)",
                                   rs.last_line, r, ti::kind_name(rs.last)));
    total = std::max(total, rs.end);
  }
  x.check_unmatched();
  auto row = [](const std::string& kind, const std::string& name) {
    return Json{{"row", kind}, {"name", name}, {"rank", nullptr}, {"calls", nullptr}, {"bytes", nullptr},
                {"time_s", nullptr}, {"compute_s", nullptr}, {"mpi_s", nullptr}, {"mpi_pct", nullptr},
                {"sends", nullptr}, {"send_bytes", nullptr}, {"recvs", nullptr}, {"recv_bytes", nullptr}};
  };
  Json pts = Json::array();
  double comp_sum = 0, mpi_sum = 0, pct_sum = 0;
  std::uint64_t actions = 0, sends = 0, sbytes = 0, recvs = 0, rbytes = 0;
  Json per_rank = Json::array();
  for (int r = 0; r < n; ++r) {
    const RankState& rs = x.ranks[static_cast<std::size_t>(r)];
    double mpi = rs.end - rs.compute;
    double pct = rs.end > 0 ? 100.0 * mpi / rs.end : 0.0;
    comp_sum += rs.compute, mpi_sum += mpi, pct_sum += pct;
    actions += rs.actions, sends += rs.sends, sbytes += rs.send_bytes, recvs += rs.recvs, rbytes += rs.recv_bytes;
    Json p = row("rank", std::to_string(r));
    p["rank"] = r;
    p["calls"] = rs.actions;
    p["time_s"] = rs.end;
    p["compute_s"] = rs.compute;
    p["mpi_s"] = mpi;
    p["mpi_pct"] = pct;
    p["sends"] = rs.sends, p["send_bytes"] = rs.send_bytes, p["recvs"] = rs.recvs, p["recv_bytes"] = rs.recv_bytes;
    per_rank.push_back(std::move(p));
  }
  Json t = row("total", "replay");
  t["calls"] = actions;
  t["time_s"] = total;
  t["compute_s"] = comp_sum / n;
  t["mpi_s"] = mpi_sum / n;
  t["mpi_pct"] = pct_sum / n;
  t["sends"] = sends, t["send_bytes"] = sbytes, t["recvs"] = recvs, t["recv_bytes"] = rbytes;
  t["bytes"] = sbytes;
  pts.push_back(t);
  for (auto& [name, st] : x.colls) {
    Json p = row("collective", name);
    p["calls"] = st.calls;
    p["bytes"] = st.bytes;
    p["time_s"] = st.calls ? st.time / static_cast<double>(st.calls) : 0.0;
    pts.push_back(std::move(p));
  }
  for (auto& [name, calls] : x.used) {
    Json p = row("algorithm", name);
    p["calls"] = calls;
    pts.push_back(std::move(p));
  }
  if (x.fallbacks) {
    Json p = row("algorithm", "fallback (decision named an algorithm not implemented here)");
    p["calls"] = x.fallbacks;
    pts.push_back(std::move(p));
  }
  for (auto& [k, v] : x.sizes) {
    Json p = row("size", size_class(k));
    p["sends"] = v.first;
    p["send_bytes"] = v.second;
    pts.push_back(std::move(p));
  }
  for (auto& p : per_rank) pts.push_back(std::move(p));
  return pts;
}

class ReplayDriver final : public ConfiguredDriver<ReplayDriver, ReplayConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  std::string label() const override { return "replay " + fs::path(c_.index).filename().string(); }
  void check(const DriverContext& ctx) const override {
    if (ctx.ranks.size() != 1 || ctx.ranks[0] != static_cast<long long>(c_.files.size()))
      throw InputError(ctx.file, "ranks",
                       fmt::format("the trace {} has {} ranks: give exactly that rank count", repo_relative(c_.index),
                                   c_.files.size()));
  }
  Json run(World& w, Stack& s, const std::string&) const override { return replay_run(w, s, c_); }
};

}  // namespace

void register_replay_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "replay";
  d.family = "trace replay";
  d.description = "replays a SimGrid SMPI time-independent trace (smpirun -trace-ti) on the machine and stack";
  d.params = {
      {"trace", "path", "(required)",
       "the trace's index file (smpirun's tracing/filename), relative to the scenario file; one action file per rank"},
      {"flop_rate", "rate (\"1 Gf/s\")", "(required: no node model gives a compute rate yet)",
       "the rate at which each rank runs the trace's compute actions (flops)"},
      {"collectives", "tuned | mpich | fixed", "tuned",
       "whose decision picks each collective's algorithm by communicator and message size (coll/tuned v5.0.x, MPICH's "
       "defaults; fixed: the fallbacks only)"},
      {"algorithms", "object {collective: algorithm}", "{}",
       "a fixed algorithm per collective (barrier, bcast, reduce, allreduce, alltoall, gather, allgather, scatter), "
       "over the decision"}};
  d.parse = [](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    ReplayConfig c;
    std::string given = b.str("trace");
    if (given.empty() || given.size() > 4096 || given.find('\0') != std::string::npos)
      b.fail("trace", "expected the path of a trace index file");
    fs::path p(given);
    if (p.is_relative()) p = fs::path(ctx.file).parent_path() / p;
    c.index = p.lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(c.index, ec))
      b.fail("trace", fmt::format("'{}' is not a file (looked for {}; relative paths are relative to the scenario file)",
                                  given, c.index));
    c.files = ti::read_index(c.index, 1 << 22);
    if (!b.has("flop_rate"))
      b.fail("flop_rate", "required: no node model of this project gives a compute rate yet (e.g. \"1 Gf/s\", the "
                          "speed of the hosts of the platform the trace was recorded on)");
    c.flop_rate = parse_flop_rate(b);
    c.collectives = b.opt_str("collectives").value_or("tuned");
    if (c.collectives != "fixed") {
      std::string f = coll::decision_file(c.collectives);
      if (f.empty() || c.collectives == "tuned-v1.1") b.fail("collectives", "expected 'tuned', 'mpich' or 'fixed'");
      c.lib = load_json_file(data_dir() + "/" + f);
      if (c.collectives == "tuned") c.barrier_rule = coll::load_decision(data_dir() + "/collectives/decision/barrier_tuned.json");
    }
    if (b.has("algorithms")) {
      ObjectReader a = b.object("algorithms");
      for (const auto& coll : registry_colls()) {
        if (!a.has(coll)) continue;
        std::string name = a.str(coll);
        const coll::AlgoInfo* info = coll::default_registry().find(coll, name);
        if (!info) {
          auto names = coll::default_registry().names(coll);
          a.fail(coll, fmt::format("no {} algorithm '{}' (known: {})", coll, name, fmt::join(names, ", ")));
        }
        if (info->composition)
          a.fail(coll, fmt::format("{} '{}' is a node-aware composition whose stages a library's decision table "
                                   "chooses: name that library in \"collectives\" instead",
                                   coll, name));
        c.algorithms[coll] = name;
      }
      a.finish();
    }
    return std::make_unique<ReplayDriver>(std::move(c));
  };
  d.table = replay_table;
  d.curve = false;
  d.row_plot = DriverInfo::RowPlot{"rank", "rank", {{"compute_s", "compute"}, {"mpi_s", "MPI"}}};
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
