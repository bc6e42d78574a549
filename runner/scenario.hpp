// A scenario file (scenarios/**/*.json): machine, stack, benchmark, placement and MCA overrides. It never carries
// physics of its own. `run_scenario` runs it and returns the result JSON (the `--json` schema).
#pragma once
#include "benchmarks/benchmarks.hpp"
#include "core/json_input.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ompisim {

struct Scenario {
  std::string file, id, description, expected, figure, paper;
  std::string plot;  // result field plotted by reproduce (default: latency_us or bandwidth_GBps)
  std::string machine, engine = "simgrid";
  std::string stack;  // its name: a preset name, or a label of the composed components (runner/stacks.hpp)
  Json stack_json;    // "stack" as given: a preset name or an object of components
  std::string machine_file;  // --machine-file: an explicit file the user chose, used instead of looking up `machine`
  std::string benchmark;
  bench::OsuConfig osu;
  bench::BarrierConfig barrier;
  bench::AppConfig app;  // app_skeleton (compute_per_step 0: fitted at run time, see run_scenario)
  std::vector<long long> ranks;  // one entry, or a sweep (barrier_loop)
  std::vector<int> radices;      // barrier_loop "radix": one entry, or a sweep (each rank count x each radix)
  int ranks_per_node = 1;
  std::vector<long long> nodes;
  Json mapping = Json::object();  // "map_by", "bind_to", "cpu_list" as given (read against the machine's node)
  std::string routing;  // route policy of this run ("" = the network's topology.routing)
  Json mca = Json::object();
};

Scenario load_scenario(const std::string& file);
Scenario scenario_from_json(const Json& j, const std::string& file);  // `file` names it in errors
// --set key=value pairs: machine parameters ("nic.bte_bandwidth", "bte_bandwidth" or the long form
// "networks.gemini.nic.bte_bandwidth") or MCA parameters.
using Overrides = std::vector<std::pair<std::string, std::string>>;
// Runs every rank count of the scenario (a sweep runs each count in its own process) and returns the result.
Json run_scenario(const Scenario& s, const Overrides& sets);
// Runs one rank count in this process (one SimGrid engine per process).
Json run_one(const Scenario& s, long long ranks, const Overrides& sets);
// Runs fn in a child process and returns what it printed (SimGrid allows one engine per process). Rethrows
// the child's InputError / runtime error text as std::runtime_error.
std::string run_isolated(const std::function<std::string()>& fn);
std::string git_describe();  // computed once per process
// `path` relative to the project root when it lies inside it (so results do not hold this machine's paths), else as given.
std::string repo_relative(const std::string& path);
// Writes `text` to `path` atomically (temporary file in the same directory, then rename).
void write_atomic(const std::string& path, const std::string& text);
// The result's points as CSV (one column per point field).
std::string result_csv(const Json& res);

}  // namespace ompisim
