// Prediction intervals (validation/README.md, "Prediction intervals"): the dimensions validate samples for one
// reference document (each machine's estimate ranges, the directions the calibration leaves undetermined, the estimate
// ranges of its scenarios' benchmarks: the application skeletons' guessed message sizes), their
// Latin-hypercube samples (seeded: the same samples on every run), and each predicted value's range and each claim's
// status over the samples. Running a sample is the caller's (validate.cpp's Runner): it evaluates the document's
// values and claims under the sample's overrides through a SampleEvaluator.
#pragma once
#include "core/json_input.hpp"
#include "platform/machine.hpp"
#include "runner/scenario.hpp"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ompisim::validation {

// Samples per reference file (0: none). Every prediction and held-out value gets "interval": [lo, hi], every claim
// "status" (holds / fails / undecided over the samples) and "holds_in".
constexpr int kDefaultIntervalSamples = 4;
void set_interval_samples(int n);
int interval_samples();

// The node allocations a scheduler that hands out nodes in its node-list order gives (ALPS on the Cray XT and XE
// machines, Catamount's allocator on Red Storm): "consecutive" (the first free nodes of an empty machine: nodes 0,
// 1, ...; a scenario without "nodes" runs there), "one_per_router" (one node per router, the rest of each router's
// nodes taken by other jobs: on a Gemini machine no two of the job's nodes share a Gemini), "spread" (the job's
// nodes evenly spaced over the whole node list, as on a busy machine whose free nodes are scattered). A kind that
// gives the same nodes as another on a machine (one_per_router with one node per router) is still sampled.
const std::vector<std::string>& placement_kinds();
// The first `need` nodes of that allocation on machine `m` (its first network's topology gives the routers); an
// empty list for "consecutive" (the scenario's own placement). std::invalid_argument for an unknown kind.
std::vector<long long> placement_nodes(const std::string& kind, const Machine& m, long long need);

// One sample: per machine name, the overrides of its estimates and undetermined directions; the placement kind its
// runs of `placed` scenarios take ("" or "consecutive": as the scenario says).
struct IntervalSample {
  std::map<std::string, Overrides> per_machine;
  // The benchmarks' estimates (Driver::estimates: an application skeleton's guessed message sizes), by their names
  // ("S3D.halo_bytes"): every scenario of the sample whose driver has one runs with the sampled value.
  Overrides estimates;
  std::string placement;
  std::set<std::string> placed;
};

// What one evaluation gives: the value of every entry of `refs` (in order) and, when asked, whether each claim of the
// document holds (in order).
struct SampleValues {
  std::vector<double> values;
  std::vector<bool> holds;
  std::vector<Json> measures;  // per claim, its "measures" (validate.cpp: each magnitude check's measured quantity)
};
// Evaluates the document under a sample, the fast way (nullptr: the nominal parameters); `claims`: also the claims.
using SampleEvaluator = std::function<SampleValues(const IntervalSample* sample, bool claims)>;
// The machine file to load for a machine name (the name itself, or validate --machine-file's path).
using MachinePath = std::function<std::string(const std::string& machine)>;

// The intervals of one reference document `doc` (named `f`: messages and the seed). `outs`: the output entries of its
// predictions and held-out values, each with "simulated" (the nominal value), in the order `eval` returns them; each
// gets "interval" (the range over the nominal value and the samples, a sample's value being the nominal value times
// its ratio to the nominal fast run). `claims`: the claims' output entries, in the document's order, with
// "holds" at the nominal parameters; each gets "status" and "holds_in". `sample`: false for a what-if table (no
// samples). Returns the "sampling" entries (one per sampled document: method, samples, dimensions).
// The names of the dimensions `sample_intervals` samples for `doc` ("<machine>: <parameter>", "<machine>: <direction
// label>", "benchmark: <estimate>"), in order.
std::vector<std::string> sample_dimension_names(const Json& doc, const MachinePath& machine_path);

// `jobs`: samples evaluated at once, each in a process of its own (eval runs there; the same intervals as one at a
// time).
Json sample_intervals(const Json& doc, const std::string& f, bool sample, const MachinePath& machine_path,
                      const SampleEvaluator& eval, const std::vector<Json*>& outs, Json& claims, int jobs = 1);

}  // namespace ompisim::validation
