// `ompisim sweep GRID.json`: a base scenario and axes over its keys or parameters, run point by point.
//   {"base": "scenarios/gemini/fig5_latency_2p_inter_openmpi.json" | {scenario object},
//    "axes": {"mca.btl_ugni_smsg_limit": [256, 1024], "nic.bte_bandwidth": ["4 GB/s", "6 GB/s"], "ranks": [2, 4],
//             "stack": ["openmpi", "native"], "benchmark.iterations": [10]},
//    "mode": "product" (default: every combination) | "list" (the i-th value of every axis together)}
// An axis key is a scenario key ("ranks", "stack", ...), "benchmark.<key>", "mca.<param>", or else a machine
// parameter given as with --set ("nic.bte_bandwidth", "bte_bandwidth"). Each point's resolved input (scenario JSON and
// overrides) is hashed; its result goes to OUT/points/<hash>.json, written whole (temporary + rename), and a point
// whose file exists is not run again: a sweep killed midway and rerun finishes the missing points only.
// Points are spread over `jobs` worker processes on this machine and over `shard_count` shards (--shard I/N, or a
// Slurm array's SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT): point k belongs to shard k mod N.
// `--merge` gathers OUT/points into one table: OUT/sweep.csv and OUT/sweep.json (one row per result point, with
// the point's axis values first).
// LIMITATIONS: no mpirun launcher (Open MPI is not a build dependency); no plot per axis yet.
#pragma once
#include "core/json_input.hpp"

#include <string>
#include <vector>

namespace ompisim {

struct SweepPoint {
  Json scenario;                                      // resolved scenario JSON
  std::vector<std::pair<std::string, std::string>> sets;  // machine-parameter overrides
  Json values;                                        // {axis key: value} of this point
  std::string hash;                                   // of the resolved input (16 hex digits)
};

struct SweepOptions {
  std::string out;        // folder (default: sweeps/<grid stem>)
  int jobs = 1;
  int shard = 0, shard_count = 1;
};

// Reads and checks the grid (InputError naming the grid file and the key), expands its points.
std::vector<SweepPoint> load_sweep(const std::string& grid_file);
// "I/N" with 0 <= I < N; InputError(option, text, reason) otherwise.
std::pair<int, int> parse_shard(const std::string& text, const std::string& option);
// Runs this shard's points that have no result yet. Returns {run, skipped (already done), of this shard}.
struct SweepRun {
  std::size_t ran = 0, skipped = 0, mine = 0, total = 0;
};
SweepRun run_sweep(const std::string& grid_file, const std::vector<SweepPoint>& points, const SweepOptions& o);
// Gathers OUT/points into OUT/sweep.csv and OUT/sweep.json; returns the number of rows. `expected`: the grid's
// points (missing ones are listed on stderr and make the return negative).
long long merge_sweep(const std::string& out, const std::vector<SweepPoint>& points);

}  // namespace ompisim
