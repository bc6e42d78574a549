// barrier_loop: MPI_Barrier in a tight loop, average time per call (Gemini paper §VI.B: "we ran MPI_Barrier() in a
// tight loop and measured its execution time"). Each rank executes its schedule (collectives/) round by round on
// the stack (benchmarks/schedule_exec.hpp): Send/Recv through the stack's point-to-point path, Amo through the stack's remote atomics, WaitCounter
// by polling its own counter (the poll notices an update one cache-line hand-off after the NIC wrote it).
// Counters are cumulative over the calls, so a fast parent's update for call k+1 is never lost.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "collectives/barrier/barriers.hpp"
#include "collectives/decision.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace ompisim::bench {

namespace {
constexpr int kCollTag = 0x7ff0;

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
      : w_(w), s_(s), gen_(gen), p_(p), calls_(calls), n_(static_cast<int>(w.ranks())), exec_(s, n_),
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
    exec_.start(r, std::move(sched), kCollTag, Group{0, 1, n_}, [this, r] { end_call(r); });
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
    w_.cpu(r, w_.node_type(r).links().cache_line_same_numa.value, std::move(rr.wait_done));
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
  int n = static_cast<int>(w.ranks());
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
  p.ranks_per_node = w.placement().ranks_per_node;
  BarrierRun run(w, s, info->make, p, c.iterations + c.skip);
  run.start();
  w.sim().run();
  double t_end = 0;
  for (int r = 0; r < n; ++r) t_end = std::max(t_end, run.finish_time(r));
  double t_start = c.skip > 0 ? run.mark.at(static_cast<std::size_t>(c.skip - 1)) : 0.0;
  double per_call = (t_end - t_start) / static_cast<double>(c.iterations);
  return Json{{"ranks", n}, {"latency_us", per_call * 1e6}, {"algorithm", algo}, {"radix", c.radix}};
}

}  // namespace ompisim::bench
