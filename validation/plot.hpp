// gnuplot scripts for result plots (reproduce's figures and `run --plot`): SVG, log axes with readable tick labels
// (1 B, 4 B, ..., 1 KiB, 1 MiB for sizes in bytes: powers of four), axis names with units, the figure caption as title,
// and the paper's points in the colour of their curve with their own marker (filled circle, larger, no line).
// Paths inside a script are relative to the folder it is run in, so committed scripts hold no absolute paths.
#pragma once
#include "core/atomic_write.hpp"
#include "core/units.hpp"

#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ompisim::validation {

struct PlotCurve {
  std::string data;   // CSV file (relative), or "$name" for an inline datablock
  std::string label;
  std::string ref;    // the paper's points for this curve ("x,y" lines, relative path or "$name"); may be empty
  std::string interval = {};  // predicted points with their prediction intervals ("x,y,lo,hi" lines); may be empty
  std::string ref_source = "paper";  // what `ref` is, in its key entry ("paper", "public measurement")
  std::vector<double> peaks = {};    // reference peaks without a size: dashed horizontal lines in the curve's colour
  // The simulated (x, y) values when the script's writer knows them: curves equal at every x are said to coincide in
  // the caption and drawn with growing markers; when every curve is one point at the same x, the figure is drawn
  // as bars.
  std::vector<std::pair<double, double>> points = {};
  // The values behind `ref` ((x, y)) and `interval` ((x, y, lo, hi)) when the script's writer knows them. With
  // `points` (or the curve's inline datablock) they set the y range in numbers (plot_y_range); a curve whose values
  // are not known leaves the range to gnuplot's data range.
  std::vector<std::pair<double, double>> ref_points = {};
  std::vector<std::array<double, 4>> interval_points = {};
};

struct PlotSpec {
  std::string svg;    // output, relative to the folder the script runs in
  std::string title;
  std::string xcol, ycol;  // result fields
  std::vector<PlotCurve> curves;
  std::string inline_data;  // datablocks defined before the plot command (for `run --plot`)
  bool logx = true, logy = true;  // log axes (sizes, rank counts, times); false for a rank index or a share
  std::vector<std::string> caption = {};  // lines printed under the plot, outside the frame (what is overlaid)
};

std::string axis_label(const std::string& column);

// The y range of a plot whose values span [lo, hi] (lo <= hi): a margin of 5 % of the span on each side (of its
// logarithm on a log scale, where a span under a factor 1.25 is first widened to that factor about its geometric
// mean; on a linear scale a flat curve gets 5 % of its value), the bottom at 0 when `from_zero` or when the margin
// would take a non-negative bottom below 0 (linear), and the top stretched so that the data lie in the lower
// 1 - key_share of the frame (figures and sweeps pass 0: their key never needs room, key_place).
struct YRange {
  double lo = 0, hi = 1;
  bool log = false;
};
YRange plot_y_range(double lo, double hi, bool log, double key_share, bool from_zero = false);
// A plot's key (legend): inside the frame, in the first corner (top left, top right, bottom right, bottom left) whose
// box nothing drawn enters with the y range the data's own; below the frame, under the x axis's label, in as many
// columns as the canvas's width holds, when every corner holds data or the writer does not know what is drawn. The y
// range is never raised to make room for the key.
enum class KeyPlace { TopLeft, TopRight, BottomRight, BottomLeft, Below };
// What a plot draws, in fractions of its frame (x from the left, y from the bottom; 0 to 1 inside the frame).
struct FrameDrawing {
  std::vector<std::vector<std::pair<double, double>>> lines;  // polylines: a curve, an interval bar
  std::vector<std::pair<double, double>> marks;               // markers
  std::vector<double> levels;                                 // horizontal lines across the frame (peaks)
};
// gnuplot's fifth default colour, yellow #f0e442, barely shows on white: figures and sweeps draw it darker.
inline constexpr const char* kLinetype5 = "set linetype 5 lc rgb '#b08800'\n";
// The frame of a plot on the 900 px wide canvas, about: the y axis's tick labels and label left of it.
inline constexpr double kFrameWidthPx = 800.0;
// The size (width, height) in px of a key inside the frame with entries `titles` (font 9, spacing 0.9, boxed, the
// sample before the text), estimated from the characters of its longest title; a little over what gnuplot draws.
std::pair<double, double> key_box_px(const std::vector<std::string>& titles);
// The first corner whose box (`key_w` x `key_h`, fractions of the frame, with a marker's width around it) no line,
// marker or level of `d` enters; Below when there is none.
KeyPlace key_place(const FrameDrawing& d, double key_w, double key_h);
// The `set key` line for `where` and the px it adds to the canvas under the frame (0 inside the frame): below the
// frame its top is under the x axis's label, over `caption_px` of caption at the canvas's bottom, the canvas
// 600 + below_px + caption_px high and width_px wide: 900 px, or wider when the key's longest title would not fit in
// one column across 900 px (a sweep's curves named by several axes), so that no title runs off the canvas.
struct KeyLayout {
  std::string line;
  int below_px = 0;
  int width_px = 900;
};
KeyLayout key_layout(KeyPlace where, const std::vector<std::string>& titles, int caption_px);
// Tick marks for a log y axis over [lo, hi], `frame_px` high, that stay readable whatever its span: the densest of
// 1-1.5-2-3-4-5-7, 1-2-3-5, 1-2-5, 1-3 or 1 per decade (every k-th decade over more than about fourteen) whose closest
// two are 30 px apart; where that puts fewer than five in the range (under a decade or so), evenly spaced values, a
// step of 1, 2 or 5 times a power of ten (at most 7); a tick closer than 16 px to the one below it is left out.
std::vector<double> log_ticks(double lo, double hi, double frame_px = 430);
// Whether a quantity starts at zero meaningfully (a bandwidth, a rate, a share): a linear axis of it includes 0.
bool starts_at_zero(const std::string& column);

// Curves that lie on one another: `curves` (indices, two or more) have the same x values and y values within
// `rel_tol` of the first's at every x; `within` is the largest relative difference of any two of them at one x.
struct CoincidingCurves {
  std::vector<std::size_t> curves;
  double within = 0;
};
// The groups among `curves` (each curve's (x, y) points; curves without points are in none). The default tolerance,
// 2 %, is what a plot of about 450 px does not resolve on a log axis of two decades (under 2 px, less than a marker).
std::vector<CoincidingCurves> coinciding_curves(const std::vector<std::vector<std::pair<double, double>>>& curves,
                                                double rel_tol = 0.02);
// The part of each label that tells it from the others: the label without the leading words all labels share (the
// whole label when nothing is left), e.g. {"a b routing=minimal", "a b routing=ugal"} -> {"routing=minimal", ...}.
std::vector<std::string> label_tails(const std::vector<std::string>& labels);
// `text` cut at spaces into lines of at most `width` characters (a longer word stands alone).
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);
std::string gnuplot_script(const PlotSpec& p);
// The line style of the k-th curve (from 0): colour, dash and marker all change with k, so curves of neighbouring
// colours (gnuplot's 4th and 5th) still differ in print and where they lie on each other.
std::string curve_style(std::size_t k);
// Quotes for a gnuplot single-quoted string.
std::string gp_quote(const std::string& s);
// A gnuplot string expression of `lines`, one under the other: each line single-quoted (gp_quote), joined by "\n".
// Never a double-quoted string of the text: gnuplot runs a `backquoted` part of one as a shell command, and a title
// may hold a column name read from a file.
std::string gp_quote_lines(const std::vector<std::string>& lines);
// The plot files a run of the tool drew in a folder are listed in its `kPlotList` (one file name a line), so that a
// later run (reproduce, sweep) removes only stale plots a run drew, never a file of the user's. plots_listed: the
// names the folder's list holds (plain file names only, at most 100,000; none when there is no list);
// list_plots: writes the folder's list (`rel_dir` below `out`'s root) as `names`.
inline constexpr const char* kPlotList = "ompisim-plots.txt";
std::set<std::string> plots_listed(const std::string& dir);
void list_plots(const OutputDir& out, const std::string& rel_dir, const std::set<std::string>& names);
// Runs `gnuplot script` in `dir` (script and p.svg relative to it): the SVG is written to a temporary and renamed.
// Returns false when gnuplot is missing or fails; on SIGINT / SIGTERM removes the temporary and throws Interrupted.
bool run_gnuplot(const std::string& dir, const std::string& script, const std::string& svg);
// run_gnuplot, then the script removed (also when interrupted).
bool run_gnuplot_once(const std::string& dir, const std::string& script, const std::string& svg);
bool have_gnuplot();

}  // namespace ompisim::validation
