// barrier_loop: MPI_Barrier in a tight loop, average time per call (Gemini paper §VI.B: "we ran MPI_Barrier() in a
// tight loop and measured its execution time"). Each rank executes its schedule (collectives/) round by round on
// the stack (benchmarks/schedule_exec.hpp): Send/Recv through the stack's point-to-point path, Amo through the stack's remote atomics, WaitCounter
// by polling its own counter (the poll notices an update one cache-line hand-off after the NIC wrote it).
// Counters are cumulative over the calls, so a fast parent's update for call k+1 is never lost.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "collectives/barrier/barriers.hpp"
#include "collectives/decision.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace ompisim::bench {

namespace {
constexpr int kBarrierTag = 0x7ff0;

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
  BarrierRun(World& w, Stack& s, coll::Generator gen, coll::AlgoParams p, long long calls)
      : w_(w), s_(s), gen_(gen), p_(p), calls_(calls), n_(static_cast<int>(w.contexts().ranks())), exec_(s, n_),
        runs_(static_cast<std::size_t>(n_)), counter_(static_cast<std::size_t>(n_), 0), finish_(static_cast<std::size_t>(n_), 0) {
    exec_.amo = [this](int r, const coll::Op& op, Completion done) {
      int t = op.peer;
      s_.amo_add(r, t, std::move(done), [this, t] { bump(t); });
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
    finish_[static_cast<std::size_t>(r)] = w_.sim().now();
    if (r == 0) mark.push_back(w_.sim().now());
    if (++rr.call < calls_) w_.sim().after(0, [this, r] { begin_call(r); });
  }

  World& w_;
  Stack& s_;
  coll::Generator gen_;
  coll::AlgoParams p_;
  long long calls_;
  int n_;
  ScheduleExec exec_;
  std::vector<RankRun> runs_;
  std::vector<std::uint32_t> counter_;
  std::vector<double> finish_;
};
}  // namespace

std::vector<std::string> barrier_algorithm_names() {
  std::vector<std::string> v{"tuned"};
  for (auto& a : registry().names("barrier")) v.push_back(a);
  return v;
}

Json run_barrier(World& w, Stack& s, const BarrierConfig& c, const std::string& file) {
  int n = static_cast<int>(w.contexts().ranks());
  std::string algo = c.algorithm;
  if (algo == "tuned") algo = coll::tuned_barrier_algorithm(n, coll::load_decision(data_dir() + "/collectives/decision/barrier_tuned.json"));
  const coll::AlgoInfo* info = registry().find("barrier", algo);
  if (!info) {
    auto names = barrier_algorithm_names();
    std::string hint = did_you_mean(algo, names);
    throw InputError(file, "benchmark.algorithm",
                     fmt::format("unknown barrier algorithm '{}'{} (known: {})", algo,
                                 hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
  }
  if (algo == "two_proc" && n != 2) throw InputError(file, "benchmark.algorithm", "two_proc needs exactly 2 ranks");
  coll::AlgoParams p;
  p.radix = c.radix;
  p.ranks_per_node = w.contexts().placement().ranks_per_node;
  BarrierRun run(w, s, info->make, p, c.iterations + c.skip);
  run.start();
  w.sim().run();
  double t_end = 0;
  for (int r = 0; r < n; ++r) t_end = std::max(t_end, run.finish_time(r));
  double t_start = c.skip > 0 ? run.mark.at(static_cast<std::size_t>(c.skip - 1)) : 0.0;
  double per_call = (t_end - t_start) / static_cast<double>(c.iterations);
  Json point{{"ranks", n}, {"latency_us", per_call * 1e6}, {"algorithm", algo}};
  if (info->reads_radix) point["radix"] = c.radix;
  return point;
}

namespace {

// barrier_loop with its "radix" list as the driver's own axis (each radix runs in its own process).
class BarrierDriver final : public ConfiguredDriver<BarrierDriver, BarrierConfig> {
public:
  BarrierDriver(BarrierConfig c, std::vector<int> radices) : ConfiguredDriver(std::move(c)), radices_(std::move(radices)) {}
  Json run(World& w, Stack& s, const std::string& file) const override {
    return Json::array({run_barrier(w, s, c_, file)});
  }
  std::string label() const override { return c_.algorithm; }
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
      text_key("algorithm", "name", "tuned", "barrier algorithm: 'tuned' (coll/tuned's decision table) or a registered one",
               barrier_algorithm_names),
      integer_key("radix", 2, 1024, 4, "tree radix of the Cheetah atomic and hierarchical barriers (the others have none)"),
      integer_key("iterations", 1, 100000000, 100, "timed barrier calls"),
      integer_key("skip", 0, 100000000, 10, "warm-up calls, not timed")};
  d.params[1].type += ", or a list (a sweep)";
  d.parse = [keys = d.params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    BarrierConfig c;
    std::vector<int> radices;
    c.algorithm = read_text(b, block_keys(ctx), "algorithm");
    // Cheetah's uGNI BCOL runs over a BTL with network atomics (MCA_BTL_FLAGS_ATOMIC_OPS off the node: btl/ugni).
    if (c.algorithm.rfind("cheetah", 0) == 0 && !ctx.network_atomics)
      b.fail("algorithm", fmt::format("the Cheetah barriers run on Open MPI's Cheetah uGNI BCOL (btl/ugni: stack 'openmpi' "
                                      "on a Gemini machine); stack '{}' has no Cheetah component", ctx.stack));
    if (b.has("radix") && b.raw("radix").is_array() && b.raw("radix").size() > limits::kMaxRadixList)
      b.fail("radix", fmt::format("{} radices, above the limit of {} per sweep", b.raw("radix").size(),
                                  limits::kMaxRadixList));
    if (b.has("radix") && b.raw("radix").is_array()) {
      const DriverParam::IntegerRange& r = integer_range(keys, "radix");
      for (long long x : b.int_list("radix", r.min, r.max)) radices.push_back(static_cast<int>(x));
      if (radices.empty()) b.fail("radix", "empty list");
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
    return std::make_unique<BarrierDriver>(std::move(c), std::move(radices));
  };
  d.table = barrier_table;
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
