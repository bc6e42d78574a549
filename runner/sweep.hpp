// Parameter sweeps (`ompisim sweep GRID.json`): a base scenario and axes over any scenario key, benchmark key, MCA
// parameter or machine parameter; every point runs in its own process, its result stored under a hash of its resolved
// input, so a rerun skips finished points and a killed sweep resumes. Points are split into shards: -j N processes on
// this machine, `--shard I/N` or a Slurm array (SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT), or one shard per process
// under mpirun / srun (the tool built with MPI: MPI_Comm_rank / _size and a barrier before rank 0 merges, see
// tools/ompisim/mpi_launch.hpp; without MPI the launcher's rank and size from its environment, sweep_shard below).
// `--merge` gathers one table (CSV and JSON) and a plot per axis.
//
// Grid file:
//   {"base": "scenarios/gemini/fig5_latency_2p_inter_openmpi.json" | {inline scenario},   (a file: beside the grid
//                                     first, then from the current folder, then from the data folder; sweep.cpp)
//    "axes": {"stack": ["openmpi", "native"], "nic.bte_bandwidth": ["4 GB/s", "6 GB/s"],
//             "benchmark.sizes": [[1, 1024]], "ranks": [2]},
//    (an MCA axis, "mca.btl_ugni_smsg_limit": [256, 1024], applies to every point: every stack of the grid must read
//    it; scenarios/examples/grid_*.json are grids to copy, run by the suite)
//    "combine": "product" | "zip",                 (default product; zip: every axis has the same length)
//    "points": [{"stack": "native", "ranks": 4}]}  (instead of "axes": an explicit list of points)
// Axis keys: "mca.<name>" (the scenario's "mca" block), "benchmark.<key>" (its "benchmark" block), a top-level
// scenario key (machine, stack, engine, ranks, ranks_per_node, nodes, map_by, bind_to, rank_by, cpu_list, gpu_list,
// routing), anything else a machine or MCA parameter as `run --set` takes it. Axes are ordered by key.
#pragma once
#include "core/json_input.hpp"
#include "runner/scenario.hpp"

#include <set>
#include <string>
#include <vector>

namespace ompisim {

struct SweepPoint {
  Json values = Json::object();  // axis key -> value of this point
  Json scenario;                 // the resolved scenario (base with the scenario-key axes applied)
  Overrides sets;                // machine / MCA parameters set on this point
  std::string hash;              // 16 hex digits of FNV-1a over the canonical input (and the tool's version)
};

struct SweepGrid {
  std::string file;
  std::string base_file;  // where the base came from (the grid file for an inline base)
  std::vector<std::string> axes;
  std::vector<SweepPoint> points;
  Overrides sets;      // `sweep --set`: applied to every point after its axes' parameters
  std::string engine;  // `sweep --engine`: every point's engine ("": each point's scenario's own)
  std::string machine_file;  // `sweep --machine-file`: every point's machine file ("": its machine by name)
};

// Scenario keys an axis may set directly (the rest of a scenario describes it and does not change a run).
const std::set<std::string>& sweep_scenario_axes();
// The units merge_sweep shows a quantity axis in (GB/s, us, B).
std::vector<const char*> sweep_axis_display_units();
// The keys of a grid file (any other is refused).
const std::vector<std::string>& sweep_grid_keys();

// Loads and checks a grid: every point's scenario must load, and every parameter axis must name a parameter of the
// point's machine; errors are InputErrors naming the grid file and "axes.<key>" / "points[i].<key>".
// `sets` and `engine` (`sweep --set`, `--engine`) apply to every point, with run's checks (an unknown parameter, an MCA
// parameter no component of a point's stack reads, an unknown engine: InputError naming the option); a --set of a key
// the grid varies (an axis, "mca.<name>" or the name itself) and --engine with an "engine" axis are refused. They are
// part of each point's input (its hash), so a merge needs the same ones. `machine_file` (`sweep --machine-file`) is every
// point's machine, as `run --machine-file` gives a run's; its contents are part of each point's hash.
SweepGrid load_sweep_grid(const std::string& file, const Overrides& sets = {}, const std::string& engine = "",
                          const std::string& machine_file = "");

struct Shard {
  int index = 0, count = 1;
  std::string from;  // "--shard", "SLURM_ARRAY_TASK_ID", "OMPI_COMM_WORLD_RANK", ... or "" (the whole sweep)
};
// The shard of this process: `--shard I/N` when given (InputError on a bad spec), else a Slurm array task, else the
// rank of an MPI launcher (Open MPI, MPICH/Hydra PMI, Slurm srun), else 0/1.
Shard sweep_shard(const std::string& option);

struct SweepOptions {
  std::string out_dir;  // the sweep's folder: points/<hash>.json, sweep.csv, sweep.json, sweep_<axis>.svg
  int jobs = 1;
  Shard shard;
  bool progress = false;  // a progress line on stderr
};
// Runs this shard's points that have no result yet (-j jobs at a time, each in its own process) and returns how many
// ran. Throws InputError when a point's run refuses its input, std::runtime_error when a point process failed.
int run_sweep(const SweepGrid& grid, const SweepOptions& opt);
// Points of the grid with a stored result.
int sweep_points_done(const SweepGrid& grid, const std::string& out_dir);
// Gathers every point's result into one table, a row per (grid point, result point) in grid order: the axis values,
// then the result point's fields, each quantity once: a field that is an axis's own ("radix" under the axis
// "benchmark.radix", "ranks" under "ranks") is left to the axis's column when it equals the axis's value on every row, else
// named "result.<field>" ({"grid", "axes", "columns", "units", "rows", "provenance"}: the sweep's --set
// overrides as [key, value] pairs and its --engine, null when not given); InputError naming the folder when
// points are missing. Axis values written with a unit ("4 GB/s") are numbers in the table, in the unit "units" names
// for that axis (GB/s, us or B; an axis of plain numbers over an MCA parameter declared as a byte size is in B and
// its plot's ticks read 256 B, 1 KiB); sweep_csv puts the unit in the column's header ("nic.bte_bandwidth (GB/s)"). The tool writes it as sweep.json and sweep.csv and draws a plot per axis.
Json merge_sweep(const SweepGrid& grid, const std::string& out_dir);
// Whether a table's column is one of its point's run, repeated on each of the point's rows: the run's mailbox memory
// ("mailbox_memory.<field>") and what it timed as packet trains ("packet_trains.<field>").
bool sweep_run_column(const std::string& column);
std::string sweep_csv(const Json& table);

}  // namespace ompisim
