// A scenario file (scenarios/**/*.json): machine, stack, benchmark, placement and MCA overrides. It never carries
// physics of its own. This file loads and checks it (the "load" concern of the runner); run.hpp runs it, report.hpp
// shapes and writes its result, isolate.hpp runs work in a child process.
#pragma once
#include "benchmarks/driver.hpp"
#include "core/json_input.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ompisim {

struct Scenario {
  std::string file, id, description, expected, figure, paper;
  std::string plot;  // result field plotted by reproduce (default: latency_us or bandwidth_GBps)
  std::string machine, engine = "fluid";
  // "engine_window": the engine's solve window in seconds (0 = exact, the default); only an engine that takes a
  // window accepts one (checked when the run is prepared, after --engine).
  double engine_window = 0;
  // "engine_grid": the completion grid in seconds (0 = each callback at its flow's own date); negative when the
  // scenario does not set it (kDefaultEngineGrid on an engine that takes a grid). Only an engine that takes one
  // accepts it (checked with the window).
  double engine_grid = -1;
  // "packet_trains": the largest transfer between nodes, in bytes, timed as a packet train rather than a flow
  // (Fabric::set_packet_trains); 0 (the default): every transfer is a flow.
  double packet_trains = 0;
  std::string stack;  // its name: a preset name, or a label of the composed components (runner/stacks.hpp)
  Json stack_json;    // "stack" as given: a preset name or an object of components
  std::string machine_file;  // --machine-file: an explicit file the user chose, used instead of looking up `machine`
  std::string benchmark;     // the registered driver's name (benchmarks/driver.hpp)
  // The "benchmark" block, read by its driver. Shared between copies of the scenario and never changed through
  // them: a caller that narrows it (calibration, one value of the driver's axis) clones it first.
  std::shared_ptr<const bench::Driver> driver;
  Json benchmark_block = Json::object();  // the block as given (runner/estimate.hpp reads its loop counts)
  std::vector<long long> ranks;  // one entry, or a sweep
  int ranks_per_node = 1;
  std::vector<long long> nodes;
  Json mapping = Json::object();  // "map_by", "bind_to", "cpu_list" as given (read against the machine's node)
  std::string routing;  // route policy of this run ("" = the network's topology.routing)
  Json mca = Json::object();
  // "neighbour_job": another job's traffic on the network (platform/neighbour_job.hpp); checked against the machine
  // and the placement when the run is prepared. `neighbour_network`: its "network" ("" = the machine's only one).
  std::optional<NeighbourJob> neighbour;
  std::string neighbour_network;
};

// The keys a scenario file may have, with the JSON Schema of each value (`ompisim schema scenario` is built from these
// and from the benchmark registry's parameters; scenario_from_json refuses any other key).
struct ScenarioKey {
  const char* name;
  const char* schema;  // JSON Schema fragment (JSON text)
  const char* description;
  bool required = false;
};
const std::vector<ScenarioKey>& scenario_keys();

Scenario load_scenario(const std::string& file);
// An input file named on the command line that does not exist (here nor in the tool's data): InputError naming it with
// the closest .json file of the folder it names, else the file of that name (with .json added when left out) under
// scenarios/, as `ompisim list` prints it (a bare fig5_latency_2p_inter_openmpi.json: "no such file (did you mean
// 'scenarios/gemini/fig5_latency_2p_inter_openmpi.json'?)"). Returns when the file exists or nothing is close (the
// reader then says it cannot open it).
void refuse_missing_input(const std::string& name);
// A scenario's "paper" names a reference file, validation/reference/<paper>.json, whose points and captions its plots
// use: InputError (key 'paper', the close name and the list) when there is no such file. Checked where a user's
// scenario comes in (run, sweep's base), not where validate reads the reference's own scenarios; nothing is checked
// where the tool has no reference folder.
void check_paper_name(const Scenario& s);
// A machine file or a result given where a scenario belongs: InputError saying what the file is and which command
// takes it (`file` names it in errors, `name` as the user gave it). A sweep grid is the caller's to name.
void refuse_machine_or_result(const Json& j, const std::string& file, const std::string& name);
Scenario scenario_from_json(const Json& j, const std::string& file);  // `file` names it in errors
// The engine given on the command line (`--engine NAME`) in place of the scenario's "engine"; InputError naming the
// flag and the registered engines when none has that name. Empty: the scenario's own.
void set_engine(Scenario& s, const std::string& name);
// The field a scenario's "plot" names, in its result's points: InputError(s.file, "plot") naming the fields there are
// when the result has no such numeric field (found after the run, before anything is written).
void check_plot_field(const Scenario& s, const Json& result);
// --set key=value pairs: machine parameters ("nic.bte_bandwidth", "bte_bandwidth" or the long form
// "networks.gemini.nic.bte_bandwidth") or MCA parameters.
using Overrides = std::vector<std::pair<std::string, std::string>>;

}  // namespace ompisim
