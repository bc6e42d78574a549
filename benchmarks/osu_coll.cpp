// OSU collective benchmarks (OMB 7.0.1: osu_alltoall, osu_bcast, osu_allgather, osu_gather, osu_scatter,
// osu_allreduce, osu_reduce) as general
// drivers: any algorithm the collectives registry has for the collective, on any stack, with host or device buffers.
// Each rank times every call (MPI_Wtime around the collective) and calls MPI_Barrier after it, as OMB's loop does;
// the reported latency is the average over ranks of each rank's average call time (OMB's "Avg Latency(us)").
// Defaults (OMB osu_util.c, status M: from memory of the source): sizes 1 B .. 1 MiB (powers of two); 1000 iterations
// with 200 warm-up calls up to 8 KiB, 100 with 10 above.
// osu_allreduce and osu_reduce reduce MPI_FLOAT vectors (osu_reduce.c: float buffers, root 0), so OMB starts their
// sizes at 4 B (status M).
// Steady state ("steady_state": a relative tolerance, default 1e-3; 0 simulates every call): the calls of one size
// start from the same global barrier, so once the protocol state has settled (handle caches filled, overflow buffers
// back) every call takes the same time. After each call the driver compares, rank by rank, the last two calls; when for
// every rank they agree within the tolerance (max - min <= tol * max), the calls left for that size are not
// simulated: the warm-up calls left are dropped and each timed call left counts as the mean of those two calls (per
// rank). Some series settle to a stationary mix instead, each call within a few per cent of the last but their mean
// steady (state carried from call to call: credits, queues, a random route; measured: the 8 B allreduce on 1,024 Titan
// ranks, rank-averaged calls within +-0.3 % of each other, single ranks 1 to 5 %). For them the driver also compares
// block means: the calls from the second on, in blocks of kBlockCalls; when the mean over ranks of the last two
// complete blocks agree within the tolerance, the calls left count as each rank's mean over those two blocks. The
// first such test is after call 2 x kBlockCalls + 1, so a series that the two-call rule settles earlier is unchanged.
// The calls before the steady state are all simulated and counted as they were (a first call that opens GPU IPC
// handles stays in the average when it is a timed call). A series that settles by neither rule is simulated in full.
// Each point records "calls_simulated", and "steady_state_rule": "block_means" where the block rule stopped it. The
// stack's counters (stats) count the simulated calls only.
// The algorithm is the scenario's "algorithm": an algorithm of the registry, or a library's decision per size
// ("tuned", "mpich"). A block that names none runs the stack preset's collective library (runner/stacks.hpp
// StackInfo::collectives) when it is one of those, else the registry's first algorithm for the collective.
// A reduction's arithmetic (osu_allreduce, osu_reduce: every Reduce of the schedule) is charged on the reducing rank's
// processor at its node type's arch.reduce_cost_per_element where the machine file gives one, and costs nothing where
// it does not (reduce_arithmetic, benchmarks/schedule_exec.hpp).
// LIMITATIONS: the barrier between calls is a zero-cost global synchronisation (not an MPI_Barrier on the stack). A
// reduction on device buffers is charged as on host buffers, with no staging copy (benchmarks/README.md).
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/coll_choice.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/osu_block.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "benchmarks/task.hpp"
#include "collectives/registry.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

namespace ompisim::bench {

namespace {
constexpr int kOsuCollTag = 0x7e00;

struct CollKind {
  std::string name, coll, description;
  std::uint64_t min_bytes = 1;  // the smallest default size (an element of the benchmark's datatype)
  MessageCount messages = {};   // per rank and call: 1 + ceil(log2 P) for a tree, P - 1 for a block to every rank
};

struct OsuCollConfig {
  std::string name;
  CollChoice algo;  // the collective and its algorithm (or decision table)
  bool algo_named = false;  // the block names it; else the stack's library, or the registry's first (stack_default)
  std::string stack_lib;    // the stack's collective library (DriverContext::stack_collectives), when not named
  std::vector<std::uint64_t> sizes;
  long long iterations = -1, skip = -1;
  MemKind buffer = MemKind::Host;
  int root = 0;
  double steady_tol = 1e-3;  // 0: simulate every call
  std::uint32_t elem_bytes = 1;  // one element of the benchmark's datatype (CollKind::min_bytes)
};

void coll_loop(const OsuCollConfig& c, std::uint64_t size, long long& iters, long long& skip) {
  bool large = size > 8192;
  iters = c.iterations > 0 ? c.iterations : large ? 100 : 1000;
  skip = c.skip >= 0 ? c.skip : large ? 10 : 200;
}

// The decision tables an OSU collective's "algorithm" may name.
const std::vector<std::string> kOsuTables{"tuned", "mpich", "tuned-v1.3", "tuned-r26242"};
// A block without "algorithm": the stack's library (DriverContext::stack_collectives) where it is one of kOsuTables
// with a table for the collective, else the registry's first algorithm.
CollChoice osu_default_choice(const std::string& coll, const std::string& stack_lib) {
  return CollChoice::stack_default(coll, stack_lib, coll::default_registry().nameable(coll).front(), kOsuTables);
}

constexpr int kSteadyCalls = 2;  // consecutive calls that must agree
constexpr int kBlockCalls = 8;   // calls per block of the block-means rule
constexpr double kSteadyStateMax = 0.5;  // the largest "steady_state" tolerance a block may give (its declared range)

struct CollCtx {
  World& w;
  const OsuCollConfig& c;
  std::vector<coll::Generator> gen;  // per size
  coll::NodeLayout layout;           // the placement's nodes, as MPICH's sub-communicators split MPI_COMM_WORLD
  std::vector<coll::StageChooser> stages;  // per size: a node-aware composition's stages (empty otherwise)
  GlobalSync sync;
  ScheduleExec exec;
  int n;
  // Per rank, the durations of the last kSteadyCalls calls of the current size (ring by call index).
  std::vector<double> recent = std::vector<double>(static_cast<std::size_t>(n) * kSteadyCalls, 0.0);
  // Per rank, the sums of its call durations over the block under way and the last complete block (block means).
  std::vector<double> block_now = std::vector<double>(static_cast<std::size_t>(n), 0.0);
  std::vector<double> block_last = std::vector<double>(static_cast<std::size_t>(n), 0.0);
  long long decided_call = -1;  // the (size, call) whose steady-state test was evaluated last
  bool steady = false, by_blocks = false;
  std::vector<long long> calls_simulated{};
  std::vector<char> settled_by_blocks{};
  std::vector<std::uint32_t> segsize{};  // per size: the library's segment size (0: one segment)
  // Called by every rank after the barrier that follows call i (all ranks have recorded call i): true when the
  // last kSteadyCalls calls agree for every rank, or the last two blocks' means over ranks agree. Evaluated once per
  // call.
  bool is_steady(std::size_t k, long long i) {
    long long key = static_cast<long long>(k) * (1LL << 40) + i;
    if (decided_call == key) return steady;
    decided_call = key;
    steady = false;
    by_blocks = false;
    if (c.steady_tol <= 0) return false;
    steady = calls_agree(i) || blocks_agree(i);
    return steady;
  }
  bool calls_agree(long long i) const {
    if (i + 1 < kSteadyCalls) return false;
    for (int r = 0; r < n; ++r) {
      const double* d = &recent[static_cast<std::size_t>(r) * kSteadyCalls];
      double lo = *std::min_element(d, d + kSteadyCalls), hi = *std::max_element(d, d + kSteadyCalls);
      if (hi - lo > c.steady_tol * hi) return false;
    }
    return true;
  }
  // Call i joins its block (calls 1 .. kBlockCalls are the first); at a block's end its mean over ranks is compared
  // with the block before's.
  bool blocks_agree(long long i) {
    if (i == 0) {  // a new size
      std::fill(block_now.begin(), block_now.end(), 0.0);
      std::fill(block_last.begin(), block_last.end(), 0.0);
      return false;
    }
    const auto slot = static_cast<std::size_t>(i % kSteadyCalls);
    for (int r = 0; r < n; ++r) block_now[static_cast<std::size_t>(r)] += recent[static_cast<std::size_t>(r) * kSteadyCalls + slot];
    if (i % kBlockCalls != 0) return false;
    const double now = mean_of(block_now), last = mean_of(block_last);
    if (i >= 2 * kBlockCalls && std::abs(now - last) <= c.steady_tol * std::max(now, last)) {
      by_blocks = true;
      return true;
    }
    block_last.swap(block_now);
    std::fill(block_now.begin(), block_now.end(), 0.0);
    return false;
  }
  double mean_of(const std::vector<double>& sums) const {
    double s = 0;
    for (double v : sums) s += v;
    return s / (static_cast<double>(n) * kBlockCalls);
  }
  double steady_value(int r) const {
    const auto i = static_cast<std::size_t>(r);
    if (by_blocks) return (block_now[i] + block_last[i]) / (2.0 * kBlockCalls);
    const double* d = &recent[i * kSteadyCalls];
    double sum = 0;
    for (int k = 0; k < kSteadyCalls; ++k) sum += d[k];
    return sum / kSteadyCalls;
  }
};

// The ranks a composition's stage runs on (its node stages: the root's node's).
int stage_ranks(const coll::NodeLayout& l, coll::Stage st, int root) {
  switch (st) {
    case coll::Stage::Roots: return l.nnodes();
    case coll::Stage::Node: case coll::Stage::NodeAfter: return l.node_size(l.node(root));
    case coll::Stage::Comm: case coll::Stage::CommAfter: return l.nranks();
  }
  return l.nranks();
}

Task coll_rank(CollCtx& x, int me, std::vector<std::vector<double>>& out) {
  for (std::size_t k = 0; k < x.c.sizes.size(); ++k) {
    long long iters, skip;
    coll_loop(x.c, x.c.sizes[k], iters, skip);
    coll::AlgoParams p;
    p.bytes = static_cast<std::uint32_t>(x.c.sizes[k]);
    p.elem_bytes = x.c.elem_bytes;
    p.root = x.c.root;
    p.segsize = x.segsize[k];
    if (!x.c.algo.rules.empty()) p.radix = x.c.algo.lib.value("radix", 4);  // the decision table's radix
    p.roots_radix = x.c.algo.stage_radix(coll::Stage::Roots);  // a library tunable's, where its table names one
    p.node_radix = x.c.algo.stage_radix(coll::Stage::Node);
    // A communicator that is not node-aware runs the roots' tree alone (every rank its node's leader).
    if (!x.stages[k] && !x.layout.node_aware() && p.roots_radix > 0) p.radix = p.roots_radix;
    p.layout = &x.layout;
    if (x.stages[k]) p.stages = &x.stages[k];
    co_await x.sync.arrive();
    double acc = 0;
    for (long long i = 0; i < iters + skip; ++i) {
      double t0 = x.w.sim().now();
      Pending done;
      x.exec.start(me, x.gen[k](me, x.n, p), kOsuCollTag, Group{0, 1, x.n}, done.add());
      co_await done;
      double d = x.w.sim().now() - t0;
      if (i >= skip) acc += d;
      x.recent[static_cast<std::size_t>(me) * kSteadyCalls + static_cast<std::size_t>(i % kSteadyCalls)] = d;
      co_await x.sync.arrive();  // MPI_Barrier after each call
      if (x.is_steady(k, i)) {
        long long timed_left = iters - std::max<long long>(0, i + 1 - skip);
        acc += static_cast<double>(timed_left) * x.steady_value(me);
        if (me == 0) {
          x.calls_simulated[k] = i + 1;
          x.settled_by_blocks[k] = x.by_blocks;
        }
        break;
      }
      if (me == 0) x.calls_simulated[k] = i + 1;
    }
    out[k][static_cast<std::size_t>(me)] = acc / static_cast<double>(iters);
  }
}

class OsuCollDriver final : public ConfiguredDriver<OsuCollDriver, OsuCollConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  std::string label() const override { return c_.name + " " + c_.algo.algorithm; }
  void check(const DriverContext& ctx) const override {
    for (long long n : ctx.ranks)
      for (auto size : c_.sizes)
        for (bool node_aware : {false, true}) (void)c_.algo.find(static_cast<int>(n), size, ctx.file, node_aware);
  }
  bool narrow_for_calibration(const Json& sel) override { return narrow_sizes(c_.sizes, sel); }
  std::unique_ptr<Driver> with_stack_collectives(const std::string& lib) const override {
    if (c_.algo_named) return nullptr;
    CollChoice a = osu_default_choice(c_.algo.coll, lib);
    if (a.algorithm == c_.algo.algorithm && lib == c_.stack_lib) return nullptr;
    OsuCollConfig c = c_;  // another choice, or the same one under a library its note must name
    c.algo = std::move(a);
    c.algo.elem_bytes = c.elem_bytes;
    c.stack_lib = lib;
    return std::make_unique<OsuCollDriver>(c);
  }
  // A block that names no algorithm on a stack whose library has no table for the collective: coll/base's algorithm
  // runs at every size, which the table's header says (the library's own choices are not modelled).
  std::string collectives_note() const override {
    if (c_.algo_named || !c_.algo.rules.empty()) return {};
    return fmt::format("collective {}: no decision table of the stack's library ({}) covers it here, so '{}' (the "
                       "collective's first registered algorithm) runs at every size; name an algorithm or a table "
                       "(\"algorithm\": {}) to choose another",
                       c_.algo.coll, c_.stack_lib.empty() ? std::string("none declared") : "'" + c_.stack_lib + "'",
                       c_.algo.algorithm, fmt::format("{}", fmt::join(kOsuTables, ", ")));
  }
  // The block names one algorithm (not a library, whose decision table picks per size and communicator).
  bool names_algorithm() const { return c_.algo_named && c_.algo.rules.empty(); }
  // The calls a size simulates at most: its iterations and warm-up, kSteadyCalls with the steady-state cutoff on.
  double calls_at_most(std::uint64_t size) const {
    long long iters, skip;
    coll_loop(c_, size, iters, skip);
    return std::min<double>(static_cast<double>(iters + skip), c_.steady_tol > 0 ? kSteadyCalls : HUGE_VAL);
  }
  double calls_at_most() const {  // over all sizes
    double calls = 0;
    for (auto size : c_.sizes) calls += calls_at_most(size);
    return calls;
  }
  // The run's messages from each size's own algorithm: the sends of its schedule (the generator the run calls) at up
  // to 64 ranks spread over the communicator, scaled to all ranks, times the calls the size simulates. Nothing for a
  // composition (its stages are chosen per sub-communicator when the run lays it out) or a size whose algorithm
  // cannot be read: the declared count then.
  std::optional<InputMessages> schedule_messages(double ranks) const {
    const int n = static_cast<int>(ranks);
    if (n < 2) return std::nullopt;
    try {
      const coll::NodeLayout layout = coll::NodeLayout::block(n, 1);
      const int samples = std::min(n, n > 65536 ? 16 : 64);
      double total = 0;
      std::vector<std::pair<std::string, int>> per_call;  // "<algorithm> <sends>", over how many consecutive sizes
      for (auto size : c_.sizes) {
        const coll::AlgoInfo* a = c_.algo.find(n, size, "", false);
        if (a == nullptr || a->composition || a->make == nullptr) return std::nullopt;
        coll::AlgoParams p;
        p.bytes = static_cast<std::uint32_t>(size);
        p.elem_bytes = c_.elem_bytes;
        p.root = c_.root;
        p.segsize = c_.algo.decide(n, size).segsize;
        p.layout = &layout;
        double sends = 0;
        for (int i = 0; i < samples; ++i) {
          const coll::Schedule sch = a->make(static_cast<int>(static_cast<long long>(i) * n / samples), n, p);
          for (const auto& r : sch.rounds)
            sends += static_cast<double>(std::count_if(r.ops.begin(), r.ops.end(),
                                                       [](const coll::Op& o) { return o.kind == coll::OpKind::Send; }));
        }
        total += sends / samples * n * calls_at_most(size);
        const std::string each = fmt::format("{} {:g}", a->algo, sends / samples);
        if (per_call.empty() || per_call.back().first != each) per_call.emplace_back(each, 0);
        ++per_call.back().second;
      }
      std::vector<std::string> words;
      for (const auto& [each, sizes] : per_call)
        words.push_back(sizes > 1 ? fmt::format("{} ({} sizes)", each, sizes) : each);
      return InputMessages{total, fmt::format("{} ranks x each size's calls x its algorithm's sends per rank and call, "
                                              "from its schedule at {} ranks: {}",
                                              n, samples, fmt::join(words, ", "))};
    } catch (const std::exception&) {  // an input the run itself refuses, naming why
      return std::nullopt;
    }
  }
  std::string estimate_caveat(long long ranks) const override {
    for (auto size : c_.sizes) {
      const coll::AlgoInfo* a = nullptr;
      try {
        a = c_.algo.find(static_cast<int>(ranks), size, "", false);
      } catch (const InputError&) {
        continue;  // the run itself says why
      }
      if (a->all_at_once && size > 0 && ranks > 2)
        return fmt::format("{} '{}' at {} B posts every request of a call at once, so all of its flows are in flight "
                           "together: counting messages underestimates such a run by two orders of magnitude or more "
                           "(bench/README.md, \"Every request at once\": 512 ranks of 64 KiB on a dragonfly, 22.5 s "
                           "of CPU; 192 ranks on a 3-D torus, 19 s, growing as P^5)",
                           c_.name, a->algo, size);
    }
    return {};
  }
  Json run(World& w, Stack& s, const std::string& file) const override {
    OsuCollConfig c = c_;
    c.algo.tunables = s.coll_tunables();  // the library's documented cut-offs and radices, as the stack declares them
    if (c.buffer == MemKind::Device)
      for (long long node : w.contexts().placement().nodes)
        if (w.machine().node_type(node).gpus().empty())
          throw InputError(file, "benchmark.buffer",
                           fmt::format("device buffers need a GPU, but a {} node has none (machine file {})",
                                       w.machine().name, repo_relative(w.machine().file)));
    int n = static_cast<int>(w.contexts().ranks());
    const coll::NodeLayout layout = placement_layout(w.contexts());
    std::vector<coll::Generator> gens;
    std::vector<coll::StageChooser> stages;
    for (auto size : c.sizes) {
      const coll::AlgoInfo* a = c.algo.find(n, size, file, layout.node_aware());
      gens.push_back(a->make);
      stages.emplace_back();
      if (!a->composition) continue;
      // The stages' choices for this layout and size, made (and an unimplemented one failing) here, not per rank.
      stages.back() = coll::memoise_stages(c.algo.stages_for(size, file), layout, c.algo.stages());
    }
    CollCtx x{w, c, gens, std::move(layout), std::move(stages), GlobalSync(w.sim(), n), ScheduleExec(s, n), n};
    x.exec.buffer = c.buffer;
    // Each reduction's arithmetic (MPI_FLOAT elements) at the rank's processor's cost, where the machine gives one.
    x.exec.reduce = reduce_arithmetic(w, c.elem_bytes);
    x.calls_simulated.assign(c.sizes.size(), 0);
    for (auto size : c.sizes) x.segsize.push_back(c.algo.decide(n, size, x.layout.node_aware()).segsize);
    x.settled_by_blocks.assign(c.sizes.size(), 0);
    std::vector<std::vector<double>> out(c.sizes.size(), std::vector<double>(static_cast<std::size_t>(n), 0.0));
    for (int r = 0; r < n; ++r) coll_rank(x, r, out);
    w.sim().run();
    Json pts = Json::array();
    for (std::size_t k = 0; k < c.sizes.size(); ++k) {
      double sum = 0, lo = 1e300, hi = 0;
      for (double t : out[k]) {
        sum += t;
        lo = std::min(lo, t);
        hi = std::max(hi, t);
      }
      Json pt{{"bytes", c.sizes[k]}, {"latency_us", sum / n * 1e6}, {"min_latency_us", lo * 1e6},
              {"max_latency_us", hi * 1e6}};
      if (c.steady_tol > 0) pt["calls_simulated"] = x.calls_simulated[k];
      if (x.settled_by_blocks[k]) pt["steady_state_rule"] = "block_means";
      // the algorithm every point ran: a decision table's choice, the block's, or (no table covers the collective)
      // the one coll/base runs at every size, which the table's header and the plots then name too
      pt["algorithm"] = c.algo.decide(n, c.sizes[k], x.layout.node_aware()).algorithm;
      if (x.segsize[k] > 0) pt["segsize"] = x.segsize[k];
      if (x.stages[k]) {  // a composition: what its stages ran (the node stages: on the root's node)
        pt["stages"] = Json::object();
        for (coll::Stage st : c.algo.stages()) {
          const coll::Decision d = c.algo.stage_decision(st, stage_ranks(x.layout, st, c.root), c.sizes[k]);
          pt["stages"][coll::to_string(st)] = d.algorithm;
          if (d.segsize > 0) pt["stage_segsizes"][coll::to_string(st)] = d.segsize;
        }
      }
      pts.push_back(pt);
    }
    return pts;
  }
};

std::vector<std::uint64_t> coll_default_sizes(std::uint64_t min_bytes) {
  std::vector<std::uint64_t> s;
  for (std::uint64_t b = min_bytes; b <= (1u << 20); b *= 2) s.push_back(b);
  return s;
}
}  // namespace

void register_osu_coll_drivers(DriverRegistry& reg) {
  const std::vector<CollKind> kinds{
      {"osu_alltoall", "alltoall", "OSU MPI_Alltoall latency (per-peer block of the given size)", 1, {0, 0, 1}},
      {"osu_bcast", "bcast", "OSU MPI_Bcast latency (root 0)"},
      {"osu_allgather", "allgather", "OSU MPI_Allgather latency (block per rank of the given size)", 1, {0, 0, 1}},
      {"osu_gather", "gather", "OSU MPI_Gather latency (root 0, block per rank)"},
      {"osu_scatter", "scatter", "OSU MPI_Scatter latency (root 0, block per rank)"},
      {"osu_allreduce", "allreduce",
       "OSU MPI_Allreduce latency (MPI_FLOAT, MPI_SUM; vector of the given size; each reduction at the node type's "
       "arch.reduce_cost_per_element where the machine gives one)",
       4},
      {"osu_reduce", "reduce",
       "OSU MPI_Reduce latency (MPI_FLOAT, MPI_SUM, root 0; vector of the given size; each reduction at the node "
       "type's arch.reduce_cost_per_element where the machine gives one)",
       4}};
  for (const auto& k : kinds) {
    std::string coll = k.coll;
    auto algos = [coll] { return coll::default_registry().nameable(coll); };
    std::vector<DriverParam> params{
        {"sizes", "list of sizes (bytes or \"8 KiB\")",
         fmt::format("{} sizes: powers of two {} B .. 1 MiB (OSU)", coll_default_sizes(k.min_bytes).size(),
                     k.min_bytes),
         "message sizes"},
        integer_key("iterations", 1, 100000000, std::nullopt, "timed calls per size",
                    "1000 up to 8 KiB, 100 above (OSU)"),
        integer_key("skip", 0, 100000000, std::nullopt, "warm-up calls per size, not timed",
                    "200 up to 8 KiB, 10 above (OSU)"),
        text_key("buffer", "host | device", "host", "where the buffers live (OSU's -d rocm D D)"),
        {"algorithm", "name | tuned | mpich | tuned-v1.3 | tuned-r26242",
         fmt::format("the stack preset's collective library where it is tuned, mpich, tuned-v1.3 or tuned-r26242 "
                     "(`ompisim list` names each preset's), else {} (the registry's first {} algorithm)",
                     algos().empty() ? "none" : algos().front(), coll),
         "the collective's algorithm; tuned / mpich / tuned-v1.3 / tuned-r26242: chosen per size (and segment size) "
         "by coll/tuned v5.0.x's fixed decision / MPICH's defaults / coll/tuned v1.3's fixed rules / those of the "
         "Gemini paper's trunk r26242 (collectives/decision/*.json)",
         [algos] {
           auto v = algos();
           v.insert(v.end(), kOsuTables.begin(), kOsuTables.end());
           return v;
         }},
        text_key("steady_state", fmt::format("number 0 .. {}", kSteadyStateMax), "0.001",
                 fmt::format("relative tolerance of the steady-state cutoff: a size's loop ends once two "
                             "consecutive calls agree within it for every rank, or the means of two consecutive "
                             "blocks of {} calls do (0: simulate every call)",
                             kBlockCalls))};
    DriverInfo d{k.name, "osu-collective", k.description, params,
             [k, algos, params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
               OsuCollConfig c;
               c.name = k.name;
               c.sizes = read_sizes(b, coll_default_sizes(k.min_bytes));
               c.iterations = read_integer(b, params, "iterations").value_or(-1);  // -1: OSU's rule per size
               c.skip = read_integer(b, params, "skip").value_or(-1);
               c.steady_tol = b.has("steady_state") ? b.number("steady_state", 0.0, kSteadyStateMax)
                                                    : std::stod(declared_default(block_keys(ctx), "steady_state"));
               const std::string v = read_text(b, block_keys(ctx), "buffer");
               if (v != "host" && v != "device") b.fail("buffer", "expected 'host' or 'device'");
               c.buffer = v == "device" ? MemKind::Device : MemKind::Host;
               if (algos().empty()) b.fail("name", "no algorithm registered for " + k.coll);
               c.algo_named = b.has("algorithm");
               c.algo = c.algo_named ? CollChoice::read(b, k.coll, algos().front(), kOsuTables)
                                     : osu_default_choice(k.coll, ctx.stack_collectives);
               if (!c.algo_named) c.stack_lib = ctx.stack_collectives;
               c.elem_bytes = static_cast<std::uint32_t>(k.min_bytes);
               c.algo.elem_bytes = c.elem_bytes;
               for (auto s : c.sizes) {
                 if (s > 0xffffffffull) b.fail("sizes", "a collective block above 4 GiB is not supported");
                 if (s % k.min_bytes != 0)  // OSU loops over element counts: a size is count x the element's size
                   b.fail("sizes", fmt::format("{} B is not a whole number of the benchmark's {}-byte elements (OSU "
                                               "sends a count of elements)", s, k.min_bytes));
               }
               return std::make_unique<OsuCollDriver>(c);
             },
             [](const Json& res) {
               std::string out = fmt::format("{:<10}{:>18}{:>18}{:>18}\n", "# Size", "Avg Latency(us)",
                                             "Min Latency(us)", "Max Latency(us)");
               for (auto& p : res["points"])
                 out += fmt::format("{:<10}{:>18.2f}{:>18.2f}{:>18.2f}\n", p["bytes"].get<long long>(),
                                    p["latency_us"].get<double>(), p["min_latency_us"].get<double>(),
                                    p["max_latency_us"].get<double>());
               return out;
             }};
    d.messages = k.messages;
    // A block that names its algorithm: that algorithm's own count where the declared one is off by over 2 x (a ring
    // allreduce sends 2 (P - 1) a rank and call, not 1 + ceil(log2 P)); the declared count, which the measured runs of
    // runner/tests/test_estimate.cpp check, otherwise.
    d.messages.from_input = [declared = k.messages](const Driver& parsed, double ranks) -> std::optional<InputMessages> {
      const auto* o = dynamic_cast<const OsuCollDriver*>(&parsed);
      if (o == nullptr || !o->names_algorithm()) return std::nullopt;
      const std::optional<InputMessages> own = o->schedule_messages(ranks);
      const double calls = o->calls_at_most();
      const double by_declared = ranks * declared.at(ranks) * calls;
      if (!own || calls <= 0 || (own->messages <= 2 * by_declared && 2 * own->messages >= by_declared)) return std::nullopt;
      return own;
    };
    d.steady_state = DriverInfo::SteadyStateCutoff{"steady_state", kSteadyCalls};
    reg.add(std::move(d));
  }
}

}  // namespace ompisim::bench
