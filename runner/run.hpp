// Running a scenario (the runner's "run" concern): resolve its machine, MCA parameters, placement, route policy and
// stack, build the World, and let the benchmark's driver run on it; a sweep runs each point in its own process.
#pragma once
#include "core/trace.hpp"
#include "mpi/stack.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"

namespace ompisim {

// `run --trace`: the trace file (format from its extension, core/trace_file.hpp) and what it keeps. Written by the
// process that simulates (a child of the tool), whole or not at all.
struct TraceRequest {
  std::string path;
  TraceFilter filter;
  std::string ranks_text;  // --trace-ranks as given (for messages)
  // The job --trace-ranks is checked against: 0, the run's own; a scenario of several points, its largest (a point
  // with fewer ranks traces those of the listed ranks it has).
  long long largest_job = 0;
};

// Runs every rank count of the scenario (and every value of its driver's axis; a sweep runs each in its own process)
// and returns the result. With `trace`: one trace per point, at point_trace_paths(s, trace->path) (a scenario whose
// input is derived from runs of its own, app_skeleton's fitted compute, is refused: InputError naming --trace).
Json run_scenario(const Scenario& s, const Overrides& sets, const TraceRequest* trace = nullptr);
// The trace file of each point `run_scenario` runs, in its order: `path` itself for a scenario of one point, else
// beside it, its stem + "-ranks<N>" (where there are several rank counts) + "-<axis><value>" (several values of the
// driver's axis: "-radix8") + its extension ("t.json": "t-ranks64.json", "t-ranks64-radix8.json", "t-radix8.json").
std::vector<std::string> point_trace_paths(const Scenario& s, const std::string& path);
// Runs one rank count in this process (one SimGrid engine per process).
Json run_one(const Scenario& s, long long ranks, const Overrides& sets, const TraceRequest* trace = nullptr);
// Message conservation at a run's end: every send and receive posted completed. A request still live means the
// modelled protocol stalled (its figures are not results): std::runtime_error (exit 3) naming the scenario `id`, the
// incomplete counts and the --set values, else nothing.
void require_conservation(const StackStats& st, const std::string& id, const Overrides& sets);
// Everything a run decides from its input before simulating, for every rank count (machine, stack, MCA keys, --set
// parameters, placement, route policy): the InputErrors run_one would raise, without running.
void check_run_input(const Scenario& s, const Overrides& sets);
// `sets` with each machine parameter named by its path on the scenario's machine ("bte_bandwidth" and
// "networks.gemini.nic.bte_bandwidth" are "nic.bte_bandwidth"), MCA names as given: one what-if, one spelling.
Overrides canonical_sets(const Scenario& s, const Overrides& sets);
// The collective library of the scenario's stack as its machine resolves the preset (StackInfo::collectives; empty:
// none), and the scenario with the driver its runs use: a block that names no algorithm or library takes that library
// (Driver::with_stack_collectives), which the parse could not know for a preset defined per NIC kind ("native").
// For what a command says before running (the estimate's caveat, describe); run_one applies it itself.
CollLibrary machine_collectives(const Scenario& s);
void use_machine_collectives(Scenario& s);
// For `run`, which runs this one scenario: an MCA parameter in `sets` that no component of
// its stack reads is refused, as in the scenario's "mca" block (InputError("--set", "mca.<key>", reason)). Commands
// that apply one --set to many scenarios (validate, compare --against, sweep axes) leave it to the stacks that read it.
void check_sets_read(const Scenario& s, const Overrides& sets);
// MCA parameter names given on the command line (`option`: "--mca") checked against the scenario's stack before it
// runs: each is a parameter a component of the stack reads. InputError(option, "mca.<name>", reason) otherwise.
void check_mca_names(const Scenario& s, const std::vector<std::string>& names, const std::string& option);

}  // namespace ompisim
