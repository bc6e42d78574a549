// barrier_loop: MPI_Barrier in a tight loop, average time per call (Gemini paper §VI.B: "we ran MPI_Barrier() in a
// tight loop and measured its execution time"). Each rank executes its schedule (collectives/) round by round on
// the stack (benchmarks/schedule_exec.hpp): Send/Recv through the stack's point-to-point path, Amo through the stack's remote atomics, WaitCounter
// by polling its own counter (the poll notices an update one cache-line hand-off after the NIC wrote it).
// Counters are cumulative over the calls, so a fast parent's update for call k+1 is never lost.
// Steady state ("steady_state": a relative tolerance, default 1e-9; 0 simulates every call): the calls run back to back
// with no synchronisation between them, so once the protocol state has settled the loop repeats with a period of one
// call or a few (a tree whose leaves alternate between two arrival orders repeats every two calls). After each call
// that rank 0 ends, the driver looks for a period p of 1 .. 4 calls: over the last kSteadyWindow calls (at least 2p),
// both the time between rank 0's ends of consecutive calls and the time between consecutive calls' last ends (over
// all ranks) equal their values p calls earlier within the tolerance. Then whole periods are cut out of the middle of
// the loop: every rank stops after fewer calls (at least the two under way, so the last calls and their stragglers
// are simulated as they are), and the end time moves by the cut periods' length measured at rank 0. A loop that never
// settles is simulated in full; so is the warm-up (periods are cut from the timed calls only). The point records
// "calls_simulated"; the stack's counters count the simulated calls only. With the default tolerance the cut loop's
// average is the full loop's to rounding: a settled loop's call durations differ in their last bits only (the same
// costs summed at a later simulated time).
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "collectives/barrier/barriers.hpp"
#include "collectives/decision.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <set>
#include <cmath>
#include <fmt/format.h>
#include <unordered_map>

namespace ompisim::bench {

namespace {
constexpr int kBarrierTag = 0x7ff0;
constexpr int kMaxPeriod = 4;          // the longest period (in calls) the steady-state test looks for
constexpr int kSteadyWindow = 8;       // the calls over which a period must hold (at least two periods)
constexpr double kBarrierSteadyMax = 0.5;  // the largest "steady_state" tolerance a block may give (its declared range)

const coll::CollRegistry& registry() { return coll::default_registry(); }

struct RankRun {
  std::uint32_t wait_target = 0;  // absolute counter value awaited (0: none)
  Completion wait_done;           // completion of the WaitCounter op being waited on
  std::uint32_t base = 0;         // counter value at the start of the current call
  std::uint32_t call_max = 0;     // this call's largest WaitCounter value
  long long call = 0;
};

// The calls of one rank run back to back through ScheduleExec (schedule_exec.hpp), which issues Send/Recv on the
// stack; Amo and WaitCounter are this loop's hooks.
class BarrierRun {
public:
  BarrierRun(World& w, Stack& s, coll::Generator gen, coll::AlgoParams p, long long calls, long long skip, double steady_tol)
      : w_(w), s_(s), gen_(gen), p_(p), calls_(calls), skip_(skip), steady_tol_(steady_tol),
        n_(static_cast<int>(w.contexts().ranks())), exec_(s, n_),
        runs_(static_cast<std::size_t>(n_)), counter_(static_cast<std::size_t>(n_), 0), finish_(static_cast<std::size_t>(n_), 0) {
    exec_.amo = [this](int r, const coll::Op& op, Completion done) {
      int t = op.peer;
      s_.amo_add(r, t, std::move(done), [this, t] { bump(t); }, static_cast<AmoVia>(op.value));
    };
    exec_.wait_counter = [this](int r, const coll::Op& op, Completion done) {
      RankRun& rr = runs_[static_cast<std::size_t>(r)];
      rr.wait_target = rr.base + op.value;
      rr.wait_done = std::move(done);
      check_wait(r);
    };
  }

  void start() {
    for (int r = 0; r < n_; ++r) begin_call(r);
  }
  double finish_time(int r) const { return finish_[static_cast<std::size_t>(r)]; }
  long long calls_simulated() const { return calls_; }
  double time_cut() const { return time_cut_; }  // the simulated time of the periods cut out (0: none)
  std::vector<double> mark;  // time at which rank 0 finished each call (for skipping warm-up calls)

private:
  void begin_call(int r) {
    RankRun& rr = runs_[static_cast<std::size_t>(r)];
    coll::Schedule sched = gen_(r, n_, p_);
    rr.call_max = 0;
    for (auto& rd : sched.rounds)
      for (auto& op : rd.ops)
        if (op.kind == coll::OpKind::WaitCounter) rr.call_max = std::max(rr.call_max, op.value);
    exec_.start(r, std::move(sched), kBarrierTag, Group{0, 1, n_}, [this, r] { end_call(r); });
  }
  void bump(int t) {
    ++counter_[static_cast<std::size_t>(t)];
    check_wait(t);
  }
  void check_wait(int r) {
    RankRun& rr = runs_[static_cast<std::size_t>(r)];
    if (rr.wait_target == 0 || counter_[static_cast<std::size_t>(r)] < rr.wait_target) return;
    rr.wait_target = 0;
    // The polling CPU sees the NIC's write one cache-line hand-off later (a write into the core's own NUMA node).
    w_.cpus().cpu(r, w_.contexts().node_type(r).links().cache_line_same_numa.value, std::move(rr.wait_done), "barrier flag poll");
  }
  void end_call(int r) {
    RankRun& rr = runs_[static_cast<std::size_t>(r)];
    rr.base += rr.call_max;
    const double now = w_.sim().now();
    finish_[static_cast<std::size_t>(r)] = now;
    if (static_cast<std::size_t>(rr.call) >= call_end_.size()) call_end_.resize(static_cast<std::size_t>(rr.call) + 1, 0.0);
    call_end_[static_cast<std::size_t>(rr.call)] = std::max(call_end_[static_cast<std::size_t>(rr.call)], now);
    if (r == 0) {
      mark.push_back(now);
      if (steady_tol_ > 0 && !cut_) cut_if_steady();
    }
    if (++rr.call < calls_) w_.sim().after(0, [this, r] { begin_call(r); });
  }
  // Called when rank 0 has ended call c = mark.size() - 1. Every rank has then entered call c, so every rank has ended
  // call c - 1 (call_end_ is complete up to c - 1) and none has begun call c + 2 (ending call c + 1 needs rank 0 in it).
  void cut_if_steady() {
    const long long c = static_cast<long long>(mark.size()) - 1;
    if (c + 1 < skip_) return;  // the warm-up is simulated in full (its last end starts the timed calls)
    for (int p = 1; p <= kMaxPeriod; ++p) {
      const long long window = std::max(kSteadyWindow, 2 * p);
      if (!periodic(mark, c, p, window) || !periodic(call_end_, c - 1, p, window)) continue;
      const long long keep = c + 2;  // the calls under way are simulated as they are
      const long long periods = (calls_ - keep) / p;
      if (periods <= 0) return;
      cut_ = true;
      time_cut_ = static_cast<double>(periods) * (mark[static_cast<std::size_t>(c)] - mark[static_cast<std::size_t>(c - p)]);
      calls_ -= periods * p;
      return;
    }
  }
  // True when in `t` (times of consecutive calls' ends) each of the `window` intervals ending at index `last` equals
  // the one p calls earlier within the tolerance.
  bool periodic(const std::vector<double>& t, long long last, int p, long long window) const {
    if (last - window - p < 0) return false;
    for (long long k = last - window + 1; k <= last; ++k) {
      const auto i = static_cast<std::size_t>(k);
      const double a = t[i] - t[i - 1], b = t[i - static_cast<std::size_t>(p)] - t[i - static_cast<std::size_t>(p) - 1];
      if (std::abs(a - b) > steady_tol_ * std::max(std::abs(a), std::abs(b))) return false;
    }
    return true;
  }

  World& w_;
  Stack& s_;
  coll::Generator gen_;
  coll::AlgoParams p_;
  long long calls_;  // the calls each rank runs: the scenario's, fewer once periods are cut
  long long skip_;
  double steady_tol_;
  bool cut_ = false;
  double time_cut_ = 0;
  int n_;
  ScheduleExec exec_;
  std::vector<RankRun> runs_;
  std::vector<std::uint32_t> counter_;
  std::vector<double> finish_;
  std::vector<double> call_end_;  // per call: the latest end over all ranks
};
}  // namespace

std::vector<std::string> barrier_algorithm_names() {
  std::vector<std::string> v{"tuned"};
  for (auto& a : registry().names("barrier")) v.push_back(a);
  return v;
}

// A barrier algorithm no registry entry (nor "tuned") has: the names there are, the nearest as a hint.
[[noreturn]] static void unknown_barrier_algorithm(const std::string& file, const std::string& key, const std::string& algo) {
  const auto names = barrier_algorithm_names();
  const std::string hint = did_you_mean(algo, names);
  throw InputError(file, key, fmt::format("unknown barrier algorithm '{}'{} (known: {})", algo,
                                          hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
}

// coll/tuned's barrier for `n` ranks: the "barrier" table of the stack's Open MPI library where it has one (v4.1-v5.0,
// collectives/decision/ompi_v5_tuned.json), else ompi_coll_tuned_barrier_intra_dec_fixed of v1.7-v4.0
// (collectives/decision/barrier_tuned.json).
static std::string tuned_barrier(const BarrierConfig& c, int n) {
  if (c.library.starts_with("tuned"))
    if (const Json lib = coll::load_library(data_dir(), c.library); lib.contains("barrier"))
      return coll::decide_algorithm(lib, "barrier", n, 0);
  return coll::tuned_barrier_algorithm(n, coll::load_decision(data_dir() + "/collectives/decision/barrier_tuned.json"));
}

Json run_barrier(World& w, Stack& s, const BarrierConfig& c, const std::string& file) {
  int n = static_cast<int>(w.contexts().ranks());
  std::string algo = c.algorithm;
  if (algo == "tuned") algo = tuned_barrier(c, n);
  const coll::AlgoInfo* info = registry().find("barrier", algo);
  if (!info) unknown_barrier_algorithm(file, "benchmark.algorithm", algo);
  if (std::string why = coll::ranks_rule_violation(*info, n); !why.empty())
    throw InputError(file, "benchmark.algorithm", why);
  coll::AlgoParams p;
  p.radix = c.radix;
  p.ranks_per_node = w.contexts().placement().ranks_per_node;
  const coll::NodeLayout layout = placement_layout(w.contexts());
  p.layout = &layout;  // the placement's nodes (cheetah-hierarchical's UMA subgroups)
  BarrierRun run(w, s, info->make, p, c.iterations + c.skip, c.skip, c.steady_tol);
  run.start();
  w.sim().run();
  double t_end = 0;
  for (int r = 0; r < n; ++r) t_end = std::max(t_end, run.finish_time(r));
  t_end += run.time_cut();
  double t_start = c.skip > 0 ? run.mark.at(static_cast<std::size_t>(c.skip - 1)) : 0.0;
  double per_call = (t_end - t_start) / static_cast<double>(c.iterations);
  Json point{{"ranks", n}, {"latency_us", per_call * 1e6}, {"algorithm", algo}};
  if (info->reads_radix) point["radix"] = c.radix;
  if (c.steady_tol > 0) point["calls_simulated"] = run.calls_simulated();
  return point;
}

namespace {

// Cheetah's uGNI BCOL runs over a BTL with network atomics (MCA_BTL_FLAGS_ATOMIC_OPS off the node: btl/ugni).
void require_cheetah_stack(const std::string& algorithm, const DriverContext& ctx) {
  if (algorithm.rfind("cheetah", 0) == 0 && !ctx.network_atomics)
    throw InputError(ctx.file, "benchmark.algorithm",
                     fmt::format("the Cheetah barriers run on Open MPI's Cheetah uGNI BCOL (btl/ugni: stack 'openmpi' "
                                 "on a Gemini machine); stack '{}' has no Cheetah component{}", ctx.stack,
                                 ctx.machine.empty() ? "" : " on " + ctx.machine));
}

// barrier_loop with its "radix" list as the driver's own axis (each radix runs in its own process).
class BarrierDriver final : public ConfiguredDriver<BarrierDriver, BarrierConfig> {
public:
  BarrierDriver(BarrierConfig c, std::vector<int> radices) : ConfiguredDriver(std::move(c)), radices_(std::move(radices)) {}
  Json run(World& w, Stack& s, const std::string& file) const override {
    return Json::array({run_barrier(w, s, c_, file)});
  }
  std::string label() const override { return c_.algorithm; }
  // "tuned" decides by the stack's own coll/tuned version (BarrierConfig::library).
  std::unique_ptr<Driver> with_stack_collectives(const std::string& lib) const override {
    if (c_.algorithm != "tuned" || lib == c_.library) return nullptr;
    BarrierConfig c = c_;
    c.library = lib;
    return std::make_unique<BarrierDriver>(std::move(c), radices_);
  }
  // Again once the machine has resolved the stack: a preset name ("openmpi") has network atomics on one NIC kind
  // (Gemini's btl/ugni) and none on another (Open MPI 1.1 over openib and gm).
  void check(const DriverContext& ctx) const override { require_cheetah_stack(c_.algorithm, ctx); }
  std::string axis() const override { return "radix"; }
  std::vector<Json> axis_values() const override { return {radices_.begin(), radices_.end()}; }
  void select(std::size_t k) override { c_.radix = radices_.at(k); }

private:
  std::vector<int> radices_;
};

std::string barrier_table(const Json& res) {
  const Json& pts = res["points"];
  std::string out;
  if (res.contains("radix")) {  // a radix sweep
    out += fmt::format("# {:<10}{:>8}{:>16}\n", "Ranks", "Radix", "Latency (us)");
    for (auto& p : pts)
      out += fmt::format("{:<12}{:>8}{:>16.2f}\n", p["ranks"].get<long long>(), p["radix"].get<int>(),
                         p["latency_us"].get<double>());
  } else if (std::any_of(pts.begin(), pts.end(), [&](const Json& p) { return p.value("algorithm", "") != pts[0].value("algorithm", ""); })) {
    // "tuned" over a list of rank counts: coll/tuned picks by communicator size, so each row names its algorithm
    out += fmt::format("# {:<10}{:>16}  {}\n", "Ranks", "Latency (us)", "Algorithm");
    for (auto& p : pts)
      out += fmt::format("{:<12}{:>16.2f}  {}\n", p["ranks"].get<long long>(), p["latency_us"].get<double>(),
                         p.value("algorithm", ""));
  } else {
    out += fmt::format("# {:<10}{:>16}\n", "Ranks", "Latency (us)");
    for (auto& p : pts) out += fmt::format("{:<12}{:>16.2f}\n", p["ranks"].get<long long>(), p["latency_us"].get<double>());
  }
  return out;
}

}  // namespace

void register_barrier_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "barrier_loop";
  d.family = "collective loop";
  d.description = "MPI_Barrier in a tight loop, average time per call (Gemini paper Fig. 7): the algorithm's schedule "
                  "from collectives/ run on the stack";
  d.params = {
      text_key("algorithm", "name", "tuned",
               "barrier algorithm: 'tuned' (coll/tuned's decision: the stack's Open MPI version's, v5's table on the "
               "Open MPI 5 stacks, else v1.7-v4.0's rule) or a registered one",
               barrier_algorithm_names),
      integer_key("radix", 2, 1024, 4, "tree radix of the Cheetah atomic and hierarchical barriers (the others have none)"),
      integer_key("iterations", 1, 100000000, 100, "timed barrier calls"),
      integer_key("skip", 0, 100000000, 10, "warm-up calls, not timed"),
      text_key("steady_state", fmt::format("number 0 .. {}", kBarrierSteadyMax), "1e-09",
               "relative tolerance of the steady-state cutoff: once the loop repeats, whole periods are not simulated "
               "(0: simulate every call)")};
  d.params[1].type += ", or a list (a sweep)";
  d.parse = [keys = d.params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    BarrierConfig c;
    std::vector<int> radices;
    c.algorithm = read_text(b, block_keys(ctx), "algorithm");
    // The name first: the rules below (a Cheetah stack, a radix) would otherwise report a misspelled name as another
    // fault.
    if (const auto names = barrier_algorithm_names(); std::find(names.begin(), names.end(), c.algorithm) == names.end())
      unknown_barrier_algorithm(ctx.file, "benchmark.algorithm", c.algorithm);
    require_cheetah_stack(c.algorithm, ctx);
    if (b.has("radix") && b.raw("radix").is_array() && b.raw("radix").size() > limits::kMaxRadixList)
      b.fail("radix", fmt::format("{} radices, above the limit of {} per sweep", b.raw("radix").size(),
                                  limits::kMaxRadixList));
    if (b.has("radix") && b.raw("radix").is_array()) {
      const DriverParam::IntegerRange& r = integer_range(keys, "radix");
      for (long long x : b.int_list("radix", r.min, r.max)) radices.push_back(static_cast<int>(x));
      if (radices.empty()) b.fail("radix", "empty list");
      std::set<int> seen;  // each radix is a run of its own: one given twice would run twice
      for (std::size_t i = 0; i < radices.size(); ++i)
        if (!seen.insert(radices[i]).second)
          b.fail(fmt::format("radix[{}]", i), fmt::format("radix {} is in the list twice (each radix runs once)", radices[i]));
    } else {
      radices = {static_cast<int>(*read_integer(b, keys, "radix"))};
    }
    c.radix = radices.front();
    if (b.has("radix")) {  // a radix the algorithm does not read would be ignored silently
      const coll::AlgoInfo* info = registry().find("barrier", c.algorithm);
      if (info == nullptr || !info->reads_radix) {
        std::vector<std::string> with_radix;
        for (const coll::AlgoInfo& a : registry().all())
          if (a.coll == "barrier" && a.reads_radix) with_radix.push_back(a.algo);
        b.fail("radix", fmt::format("barrier algorithm '{}' has no radix ({}); only {} read it: remove \"radix\" or "
                                    "choose one of those", c.algorithm,
                                    info != nullptr ? info->description : "coll/tuned picks a radix-free algorithm",
                                    fmt::join(with_radix, ", ")));
      }
    }
    c.iterations = *read_integer(b, keys, "iterations");
    c.skip = *read_integer(b, keys, "skip");
    c.steady_tol = b.has("steady_state") ? b.number("steady_state", 0.0, kBarrierSteadyMax)
                                         : std::stod(declared_default(block_keys(ctx), "steady_state"));
    return std::make_unique<BarrierDriver>(std::move(c), std::move(radices));
  };
  d.table = barrier_table;
  // The fewest calls it simulates: a period of one found at call kSteadyWindow + 2 (the window's intervals of every
  // call's last end need the call before it), and the two calls under way.
  d.steady_state = DriverInfo::SteadyStateCutoff{"steady_state", kSteadyWindow + 4};
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
