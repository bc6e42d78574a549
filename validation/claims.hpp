// The papers' qualitative words, each with one numeric reading (validation/README.md, "Readings"), the input check of
// a reference file's claims (every key known, every scenario present, every gap signed and non-zero, every reading
// defined: an InputError naming the file and the key otherwise), and the test that a claim whose text gives a number
// is checked with that magnitude, not by an ordering alone.
#pragma once
#include "core/json_input.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ompisim::validation {

// One reading of the papers' words. `check`: the claim check kind it applies to ("gap", "within", "smoother").
// For "gap": the accepted magnitude of the model's gap, |gap| in [lo, hi] percent with the sign of the paper's gap
// (hi may be infinite: one-sided words). For "within": |a - b| <= hi % of b (lo unused). For "smoother": curve b's
// largest fall (the metric below its best at a smaller size, |ln ratio|) at least lo times curve a's.
struct Reading {
  std::string name, check;
  double lo, hi;
  std::string meaning;  // the reading in words, as in the README
};
const std::vector<Reading>& readings();
const Reading* find_reading(const std::string& name);  // nullptr when not defined
// The roughness a "smoother" check compares: the largest fall of `metric` below its best value at any smaller size
// (|ln ratio|) over the points (`bytes`, ascending) with bytes >= min_bytes. 0 for a curve that never falls.
double largest_fall(const Json& points, const std::string& metric, long long min_bytes);

// The accepted range of |model gap| for a paper gap (signed, per gap.hpp) and factor; a word reading replaces the
// factor rule by its own range.
std::pair<double, double> gap_range(double paper_pct, double factor, const Reading* r);

// The claim's text gives a number: a percentage, "twice", "half", "N times", a time or a bandwidth ("0.4 us",
// "by 5 us", "5 Mbit/s").
bool quantified_text(const std::string& text);
// The check carries a magnitude: a gap, a tolerance, a difference window, a less with a factor or margin, a less_all
// with a margin, an all_of with one sub-check that does (the sentence's number; its orders beside it). A plain ordering (less, less_all without either) does not.
bool has_magnitude(const Json& check);
// The ids of the claims of a reference document whose text gives a number while the check is an ordering without it.
std::vector<std::string> unquantified_orderings(const Json& doc);

// The phrases of the papers that each reading stands for ("comparable" -> "similar", "a slight advantage" ->
// "slightly"), longest first; the README's readings table lists the same.
const std::vector<std::pair<std::string, std::string>>& reading_phrases();
// The readings a claim's text calls for: each phrase of reading_phrases() found in the text (case-insensitive; a phrase
// inside a longer one that matched, "slight" in "very slight", counts once, as the longer).
std::vector<std::string> readings_in_text(const std::string& text);
// "id: reading" for each claim of a reference document whose text gives no value of its own (a percentage, a time, a
// bandwidth: where given, the value sets the check) and names a word of the readings table whose reading none of its
// checks uses.
std::vector<std::string> unread_words(const Json& doc);

// A quoted amount ("about 0.4 us", "around 18 us", "about 5 Mbit/s") is read one way in every paper
// (validation/README.md, the readings table): an amount by which two simulated values differ is a gap, accepted within
// kGapFactor of the paper's amount (as "X % better"); a value of one configuration is a point, accepted within
// kAmountTolerancePct of it. The ids (with the check's label) of a reference document's checks that read one
// otherwise: a claim's "difference" window over a - b whose max / min is not kGapFactor squared, one over a alone
// whose max / min is not (1 + t) / (1 - t), and a value check (table1, mechanism_checks) over a difference without
// "factor": kGapFactor.
constexpr double kGapFactor = 1.5;
constexpr double kAmountTolerancePct = 15;
std::vector<std::string> misread_amounts(const Json& doc);

// Every claim of a reference document checked before anything runs: known keys in each claim and check, scenarios
// that exist, gap checks with a numeric non-zero paper_gap_pct and a metric with a direction, readings that are defined
// and fit their check and their number. InputError naming the file and the key otherwise. `scenario_exists`: whether
// a scenario path (relative to the data directory) names a file.
void check_claims_input(const Json& doc, const std::string& file, bool (*scenario_exists)(const std::string&));

// The shape of a reference document's values before anything reads them: the document an object of known keys;
// "points" and "held_out" arrays of objects, each with a string id (no two alike across both), an existing scenario, a non-empty select
// of bytes / ranks (numbers) or peak (true / false), a string metric; a point's role "calibration" or "prediction"
// and a finite numeric value; optional numbers (bytes, ranks, tolerance_pct) numbers, optional texts strings.
// InputError naming the file and the key (e.g. "points[3].select.bytes") otherwise.
void check_points_input(const Json& doc, const std::string& file, bool (*scenario_exists)(const std::string&));

// A value reference {scenario, select, metric} as a claim check's a and b: known keys, a scenario inside the data
// folder that exists, a select of bytes / ranks / peak, a string metric. InputError naming the file and key otherwise.
void check_value_ref(const Json& ref, const std::string& file, const std::string& key,
                     bool (*scenario_exists)(const std::string&));

// Whether a reference's scenario path stays inside the data folder: relative, with no ".." part.
bool scenario_path_inside(const std::string& rel);

}  // namespace ompisim::validation
