// The gap between two values as the papers state it ("A is X % better than B", "X % worse"), read one way everywhere:
// the worse of the two costs (1 + X/100) times the better one. For a metric where lower is better (a latency, a run
// time), "a is X % better than b" means b = a (1 + X/100) and "a is X % worse than b" means a = b (1 + X/100); where
// higher is better (a bandwidth, a message rate), the same with the values' inverses. The gap is signed: positive when
// a is the better of the two, negative when b is, zero when they are equal; its magnitude is symmetric (a X % worse
// than b is b X % better than a).
#pragma once
#include <string>
#include <vector>

namespace ompisim::validation {

enum class Better { Lower, Higher };

// Signed gap in percent: +X when a is X % better than b, -X when a is X % worse than b. Both values must be > 0.
double gap_pct(double a, double b, Better better);

// A simulated gap reproduces the paper's when it has the paper's sign and its magnitude is within `factor` of the
// paper's (factor 1.5: a paper's 47 % holds for 31.3-70.5 %). A paper gap of 0 ("the same") is not a gap: use a
// tolerance check for it.
bool gap_holds(double model_pct, double paper_pct, double factor = 1.5);

// Several gaps read together ("overall A out-performs B", over four applications): the mean of their signed log
// ratios (each gap as +-ln(1 + |gap|/100)), turned back into a gap. So a +X % and a -X % gap cancel, and n equal gaps
// give that gap. Throws std::invalid_argument on an empty list.
double mean_gap_pct(const std::vector<double>& gaps_pct);

// "lower" / "higher" from a metric name: latencies and times are lower-is-better, bandwidths and rates higher.
// Throws std::invalid_argument for a metric it does not know (the caller names file and key).
Better better_of_metric(const std::string& metric);

// The range of gaps a check accepts, signed as the paper's gap: "+3.3 to +7.5 %", or "+10.0 % or beyond" when it has
// no upper bound (hi infinite); the detail of a gap check and the validation table both write it this way.
std::string accepted_gap_text(double paper_pct, double lo, double hi);

}  // namespace ompisim::validation
