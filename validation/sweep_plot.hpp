// A sweep's plots (`ompisim sweep`, `--merge`): for each axis, the main metric against that axis's values (in grid
// order, labelled with the unit of a quantity axis, "4 GB/s", or as written, "openmpi"; an MCA value that ran as another, such
// as an automatic 0, named with what ran, "0 B, ran 1 KiB", its axis then in grid order), one curve per size of the
// result's own x (message size, radix, process count) among the sizes the axis moves by over 1 %, keyed "message size
// 8 KiB"; curves of other axes' values that lie on one another (within 1 %) drawn once, a curve's key naming only the
// other axes' values that tell it apart. At most kMaxSweepCurves curves (every k-th size when more); the caption under
// the frame names the sizes left out because the axis does not move them, and those not drawn for room. The y axis
// spans the curves' own values with a 5 % margin (log when they span over a decade, linear otherwise); the key sits in
// a corner of the frame the curves leave free, or below the frame (validation/plot.hpp, key_place).
#pragma once
#include "core/json_input.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ompisim::validation {

inline constexpr std::size_t kMaxSweepCurves = 12;

// The metric plotted: the first of latency_us, bandwidth_GBps, time_us, time_s, availability_pct, messages_per_s
// present in the table, else its last numeric result column; "" when there is none.
std::string sweep_metric(const Json& table);
// Where an axis's values sit along x: at their numbers when every value is a number and they rise in grid order (on
// a log scale, log10, when they are positive and the last is at least 4 x the first: radix 2..8, sizes, limits), so that
// 4, 4.74, 6 and 8 GB/s are spaced as their values; else at 0, 1, 2, ... in grid order (stacks, engines, a list out
// of order, or two values closer than 2 % of the axis's span, whose labels would overlap: ranks 1024 and 1026). The x range: the positions with half the mean spacing beyond each end.
std::vector<double> sweep_x_positions(const std::vector<std::optional<double>>& values);
std::pair<double, double> sweep_x_range(const std::vector<double>& at);
// Writes sweep_<axis>.svg (the axis with '.' and other non-name characters as '_') into `dir` for every axis with two
// values or more (gnuplot; a temporary script removed afterwards) and returns the file names written; empty when
// gnuplot is missing or the table has no metric. `why_not`, when given, gets one sentence per plot not drawn: gnuplot
// missing, no metric, an axis whose points all have one value (a one-point sweep), an axis with one value that has
// a result.
std::vector<std::string> draw_sweep(const Json& table, const std::string& dir,
                                    std::vector<std::string>* why_not = nullptr);

}  // namespace ompisim::validation
