// Prediction intervals (validation/README.md, "Prediction intervals"): the dimensions validate samples for one
// reference document (each machine's estimate ranges, the directions the calibration leaves undetermined), their
// Latin-hypercube samples (seeded: the same samples on every run), and each predicted value's range and each claim's
// status over the samples. Running a sample is the caller's (validate.cpp's Runner): it evaluates the document's
// values and claims under the sample's overrides through a SampleEvaluator.
#pragma once
#include "core/json_input.hpp"
#include "runner/scenario.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ompisim::validation {

// Samples per reference file (0: none). Every prediction and held-out value gets "interval": [lo, hi], every claim
// "status" (holds / fails / undecided over the samples) and "holds_in".
constexpr int kDefaultIntervalSamples = 4;
void set_interval_samples(int n);
int interval_samples();

// One sample: per machine name, the overrides of its estimates and undetermined directions.
struct IntervalSample {
  std::map<std::string, Overrides> per_machine;
};

// What one evaluation gives: the value of every entry of `refs` (in order) and, when asked, whether each claim of the
// document holds (in order).
struct SampleValues {
  std::vector<double> values;
  std::vector<bool> holds;
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
Json sample_intervals(const Json& doc, const std::string& f, bool sample, const MachinePath& machine_path,
                      const SampleEvaluator& eval, const std::vector<Json*>& outs, Json& claims);

}  // namespace ompisim::validation
