// What reproduce's figure plots show beside the simulated curves (and `run --plot` of a committed scenario: its reference
// values, overlay_marks): the reference values of each scenario (the
// paper's numbers, or public measurements where the paper quotes none), prediction intervals that have a width, and a
// caption under the plot that says what is overlaid and what the paper says about the figure, with the model's
// verdict on each statement. Built from the reference files (validation/reference/*.json) and validate's result.
#pragma once
#include "core/json_input.hpp"
#include "validation/plot.hpp"  // wrap_words

#include <array>
#include <map>
#include <string>
#include <vector>

namespace ompisim::validation {

// One reference value of a scenario, as a plot shows it.
struct RefMark {
  std::string metric;  // the result field it is a value of ("latency_us", "peak_bandwidth_GBps", ...)
  double x = 0;        // message size or rank count (at least 1: log axes)
  double y = 0;
  bool line = false;   // a peak the source gives without a size: a horizontal line at y
  bool paper = true;   // false: a public measurement (the reference point's figure is "public"), not the paper's
  std::string axis;    // what x is: "bytes" or "ranks" ("" for a line)
};

// Reference marks per scenario id (the scenario file's stem) from the reference documents' "points". A point that
// selects a size or a rank count sits at that x; a peak sits at the size the source names ("bytes") or, without one,
// is a line. Held-out values are never read.
std::map<std::string, std::vector<RefMark>> reference_marks(const std::vector<Json>& reference_docs);

// The marks a plot of result field `ycol` shows: those of metric ycol, and peaks of it ("peak_" + ycol).
std::vector<RefMark> marks_for(const std::vector<RefMark>& marks, const std::string& ycol);

// Prediction intervals per scenario id: {x, simulated, lo, hi} of every prediction and held-out value of validate's
// result `v` that selects a size or a rank count and whose interval has a width (hi - lo above 1e-6 of the value):
// an interval of zero width (no sampled parameter moves the point) draws no bar.
std::map<std::string, std::vector<std::array<double, 4>>> interval_marks(const std::vector<Json>& reference_docs,
                                                                          const Json& v);

// What a figure's caption needs to know.
struct CaptionInput {
  std::vector<std::string> scenarios;  // the figure's scenario files ("scenarios/<paper>/<id>.json")
  std::string paper, figure;           // the scenarios' paper and figure ("slingshot-ex", "Fig. 7 D2D", "fig5")
  bool paper_figure = false;           // a figure or table of the paper (not a what-if or a public-data plot)
  bool paper_points = false;   // the paper's values at a size or rank count (filled circles)
  bool public_points = false;  // public measurements (filled circles, keyed "public measurement")
  bool peak_lines = false;     // peaks without a size (dashed lines)
  bool intervals = false;      // prediction intervals with a width (bars)
  std::vector<std::string> falls;  // curves whose latency falls with size (latency_falls), one phrase each
};

// A curve's reference marks of result field `ycol` (marks_for), as reproduce's figures and `run --plot` draw them: a
// peak without a size as a dashed line (pc.peaks), the others as filled circles (pc.ref_points), keyed "public
// measurement" when one of them is; the caption's flags set in `cap`. Returns the circles' "x,y" lines (the data
// pc.ref names), "" when there are none.
std::string overlay_marks(const std::vector<RefMark>& marks, const std::string& ycol, PlotCurve& pc, CaptionInput& cap);

// The caption lines (at most about `width` characters each): what the filled circles, dashed lines and bars are, "the
// paper gives no data points for this figure" where that holds, then every claim of the reference documents that names
// one of the figure's scenarios, with its status in `v` (holds / fails / undecided), and every other claim of the
// figure's paper whose text cites the figure ("(Fig. 4)", "(Figs. 7-11)"), as not checked on these curves; last, each
// curve whose latency falls with message size, pointing to the note that explains it. Empty when there is nothing
// to say.
std::vector<std::string> figure_caption(const CaptionInput& in, const std::vector<Json>& reference_docs, const Json& v,
                                        std::size_t width = 185);

// Where a latency curve falls from one message size to the next larger one by more than 2 % and 0.02 us (the
// criterion of tests/e2e/monotone_latency.sh): "4 KiB 14.67 us -> 8 KiB 6.97 us" per drop, joined by "; "; "" when
// it never does. `points` are a result's points (fields bytes, latency_us).
std::string latency_falls(const Json& points);

// The file stem of a figure's plot: readable, the number joined to its word and the other spaces as '_' ("Fig. 5 D2D
// inter-node" -> "fig5_d2d_inter-node", "What-if routing alltoall" -> "what-if_routing_alltoall", "Table 1" ->
// "table1"); an InputError naming `file` and key "figure" when no file can be named so (label_stem).
std::string figure_file_stem(const std::string& figure, const std::string& file);

// What the descriptions of a figure's scenarios share, for its title: their common leading ", "-separated segments,
// then the common leading words of the first segment that differs ("RDMA read with the FIN_ACK ..." and "RDMA read,
// ..." share "RDMA read"), where that is not the first segment only the words before a colon ("16 nodes: block" and
// "16 nodes: round robin" share "16 nodes"; "route policy minimal" and "route policy ugal" nothing); the one
// description itself when there is one; "" when they share nothing.
std::string common_description(const std::vector<std::string>& descriptions);


}  // namespace ompisim::validation
