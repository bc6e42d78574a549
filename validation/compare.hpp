// `ompisim compare`: regression of protocol choices. Two results (result JSON files, or folders of them paired by
// relative path) side by side: every metric of every point, and the run's statistics, with the ratio B/A, and each
// difference above a relative tolerance marked. `--against DIR` reruns the scenario of every result in DIR (its
// provenance.scenario_file) and compares the committed value with the new one (drift). Exit 1 when anything differs
// beyond the tolerance (or a file or point is on one side only), so a model change can be gated in CI.
//
// Points are paired by their axis fields (bytes, ranks, radix, algorithm, and any text field) when those identify
// them on both sides, else by position; metrics are the other numeric fields.
#pragma once
#include "core/json_input.hpp"
#include "runner/scenario.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ompisim::validation {

struct CompareRow {
  std::string file, point, metric;
  double a = 0, b = 0;
  bool beyond = false;  // |b - a| > tolerance * max(|a|, |b|)
};
// A protocol counter one result reports and the other does not, where the two ran different stacks (or machines):
// the other stack has no such counter, so it is listed, not compared against 0.
struct OneSideRow {
  std::string file, metric;
  char side = 'A';  // the result that reports it
  double value = 0;
};
struct Comparison {
  double tolerance = 0;
  std::vector<CompareRow> rows;
  std::vector<OneSideRow> one_side;
  std::vector<std::string> one_side_stacks;  // per file with one_side rows: "A: openmpi on cielo, B: native on cielo"
  std::vector<std::string> problems;  // a file, point or metric on one side only, a changed axis
  std::vector<std::string> notes;     // what was not compared and why (a validation table under --against)
  int files = 0;
  int beyond() const;
  bool ok() const { return beyond() == 0 && problems.empty(); }
};

// Adds the rows of one pair of results (`file`: their common name in the table).
void compare_results(const Json& a, const Json& b, const std::string& file, Comparison& out);
// A and B: both result JSON files or both folders (every result JSON below them, paired by relative path). InputError
// naming A or B when a path does not exist, is not a result, or the two are not of the same kind.
Comparison compare_paths(const std::string& a, const std::string& b, double tolerance);
// Reruns the scenario of every result below `dir` whose relative path contains `only` (empty: all), with `sets`,
// each in its own process, and compares. `progress(done, total, name)` before each scenario. A non-empty `engine`
// reruns every scenario on that engine (checked before any run: InputError naming --engine).
Comparison compare_against(const std::string& dir, double tolerance, const std::string& only, const Overrides& sets,
                           const std::function<void(std::size_t, std::size_t, const std::string&)>& progress = {},
                           const std::string& engine = "");
// The table: file, point, metric, A, B, B/A, '*' beyond the tolerance; `diff_only` keeps the marked rows.
std::string render_comparison(const Comparison& c, const std::string& name_a, const std::string& name_b, bool diff_only);
Json comparison_json(const Comparison& c, bool diff_only = false);
// The result files below `dir` (results and sweeps' tables; other JSON skipped), by path relative to it. The .json
// files that do not load (not JSON, above the input limit) go to `unreadable` with the reason, when given.
std::map<std::string, std::string> results_below(const std::string& dir,
                                                 std::map<std::string, std::string>* unreadable = nullptr);
// "0.02", "2%", "2 %": a relative tolerance >= 0. InputError("--tolerance", text, reason) otherwise.
double parse_tolerance(const std::string& text);

}  // namespace ompisim::validation
