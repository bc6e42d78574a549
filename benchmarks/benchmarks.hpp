// Benchmark drivers: the OSU micro-benchmarks (v5.x semantics and defaults) and an MPI_Barrier loop running the
// collective schedules of collectives/. Each driver runs the ranks' programs on a Stack and returns result points.
#pragma once
#include "core/json_input.hpp"
#include "runtime/world.hpp"

#include <string>
#include <vector>

namespace ompisim::bench {

struct OsuConfig {
  std::string name;                 // osu_latency, osu_multi_lat, osu_bw, osu_bibw, osu_mbw_mr
  std::vector<std::uint64_t> sizes;
  long long iterations = -1, skip = -1, window = 64;  // -1: OSU's defaults (small / large message)
  std::uint64_t buffer_offset = 0;  // added to buffer addresses (0: page aligned, as OSU allocates)
  // smb_overhead only
  std::string side = "recv";        // which side's CPU availability is measured: "send" or "recv"
  double threshold_pct = 10;        // work grows until the iteration is this much longer than without work
};

struct BarrierConfig {
  std::string algorithm = "cheetah-atomic";
  int radix = 4;
  long long iterations = 100, skip = 10;
};

bool is_latency_benchmark(const std::string& name);
const std::vector<std::string>& benchmark_names();
std::vector<std::uint64_t> osu_default_sizes(const std::string& name);
// OSU defaults: iterations and skip for a message size.
void osu_loop(const std::string& name, std::uint64_t size, long long& iters, long long& skip);

// Runs the benchmark and returns the points ({"bytes", "latency_us"} or {"bytes", "bandwidth_GBps", ...}).
Json run_osu(World& w, Stack& s, const OsuConfig& c);
// One barrier_loop point: {"ranks", "latency_us", "algorithm"}.
Json run_barrier(World& w, Stack& s, const BarrierConfig& c, const std::string& file);
std::vector<std::string> barrier_algorithm_names();
// Sandia SMB overhead benchmark (post-work-wait): {"bytes", "side", "availability_pct", "overhead_us", "work_us",
// "iteration_us"} per size.
Json run_smb(World& w, Stack& s, const OsuConfig& c);

}  // namespace ompisim::bench
