#include "validation/sweep_plot.hpp"

#include "core/atomic_write.hpp"
#include "core/safe_name.hpp"
#include "validation/plot.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace ompisim::validation {

namespace {
std::string text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : v.is_number_float() ? fmt::format("{:g}", v.get<double>()) : v.dump();
}
// A value of a column with its unit: byte sizes as 1 KiB, 32 KiB (the column's unit "B"), others as "4 GB/s".
// A point that leaves the axis to its base scenario, with no value recorded (merge_sweep): "base".
std::string with_unit(const Json& v, const std::string& col, const Json& units) {
  if (v.is_null()) return "base";
  if (!units.contains(col)) return text(v);
  if (units[col] == "B" && v.is_number()) return byte_label(v.get<double>());
  return text(v) + " " + units[col].get<std::string>();
}
}  // namespace

std::vector<double> sweep_x_positions(const std::vector<std::optional<double>>& values) {
  std::vector<double> at(values.size());
  bool numeric = values.size() > 1, positive = true;
  for (std::size_t i = 0; numeric && i < values.size(); ++i) {
    numeric = values[i].has_value() && std::isfinite(*values[i]) && (i == 0 || *values[i] > *values[i - 1]);
    positive = positive && numeric && *values[i] > 0;
  }
  const bool log = numeric && positive && values.back().value() / values.front().value() >= 4.0;
  for (std::size_t i = 0; i < values.size(); ++i)
    at[i] = !numeric ? static_cast<double>(i) : log ? std::log10(*values[i]) : *values[i];
  // Two values closer than 2 % of the axis's span (ranks 1024 and 1026 either side of an automatic limit's step)
  // would print their labels over one another: then the values go in grid order, each label readable.
  if (numeric && at.size() > 1) {
    const double span = at.back() - at.front();
    for (std::size_t i = 1; i < at.size(); ++i)
      if (at[i] - at[i - 1] < 0.02 * span) {
        for (std::size_t k = 0; k < at.size(); ++k) at[k] = static_cast<double>(k);
        break;
      }
  }
  return at;
}

std::pair<double, double> sweep_x_range(const std::vector<double>& at) {
  if (at.size() < 2) return {-0.5, 0.5};
  const double pad = 0.5 * (at.back() - at.front()) / static_cast<double>(at.size() - 1);
  return {at.front() - pad, at.back() + pad};
}

std::string sweep_metric(const Json& t) {
  const auto cols = t.at("columns").get<std::vector<std::string>>();
  const auto axes = t.at("axes").get<std::vector<std::string>>();
  auto has = [&](const std::string& c) { return std::find(cols.begin(), cols.end(), c) != cols.end(); };
  for (const char* c : {"latency_us", "bandwidth_GBps", "time_us", "time_s", "availability_pct", "messages_per_s"})
    if (has(c)) return c;
  std::string last;
  for (auto& c : cols) {
    if (c == "point" || std::find(axes.begin(), axes.end(), c) != axes.end()) continue;
    bool numeric = !t.at("rows").empty();
    for (auto& r : t.at("rows"))
      if (!r.contains(c) || !r[c].is_number()) numeric = false;
    if (numeric) last = c;
  }
  return last;
}

namespace {

// A fraction of its value by which the axis must move a curve to act on it: under 1 % a curve is flat on the plot
// (about 1 px on a log axis of two decades in a 450 px frame).
constexpr double kActs = 0.01;

// How much a curve changes along the axis: max / min - 1 of its values (0 when the axis does not act on it).
double spread(const std::vector<std::optional<double>>& ys) {
  double lo = 1e300, hi = -1e300;
  for (auto& y : ys)
    if (y) lo = std::min(lo, *y), hi = std::max(hi, *y);
  return lo > 0 && hi >= lo ? hi / lo - 1.0 : 0.0;
}
// Two curves lie on one another: the same points, each value within kActs of the other's.
bool coincide(const std::vector<std::optional<double>>& a, const std::vector<std::optional<double>>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) return false;
    if (a[i] && std::abs(*a[i] - *b[i]) > kActs * std::max(std::abs(*a[i]), std::abs(*b[i]))) return false;
  }
  return true;
}

// sweep_<axis> with every character that cannot stand in a file name made '_': "mca.btl_ugni_smsg_limit" ->
// sweep_mca_btl_ugni_smsg_limit.
std::string axis_stem(const std::string& axis) {
  std::string a;
  for (char c : axis) a += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return label_stem("sweep_" + a, "sweep", axis);
}

// `text` cut into lines of at most `width` characters.
std::vector<std::string> text_lines(const std::string& text, std::size_t width) {
  // A text too long for one line whose last parenthesis fits on a line of its own breaks before it, not inside it.
  std::vector<std::string> lines;
  const std::size_t open = text.rfind(" (");
  if (text.size() > width && open != std::string::npos && text.back() == ')' && text.size() - open - 1 <= width) {
    lines = wrap_words(text.substr(0, open), width);
    lines.push_back(text.substr(open + 1));
  } else {
    lines = wrap_words(text, width);
  }
  return lines;
}

// The result's own x of a row (message size, radix, process count): the columns that name it, and its words in a
// legend, "message size 8 KiB", "tree radix 4".
const std::vector<std::string> kSizeColumns = {"bytes", "radix", "ranks"};
std::string size_words(const Json& r, const std::vector<std::string>& size_cols) {
  std::string s;
  for (auto& c : size_cols) {
    if (!r.contains(c)) continue;
    std::string v = c == "bytes" && r[c].is_number() ? "message size " + byte_label(r[c].get<double>())
                    : c == "radix"                  ? "tree radix " + text(r[c])
                    : c == "ranks"                  ? text(r[c]) + " processes"
                                                    : c + " " + text(r[c]);
    s += (s.empty() ? "" : ", ") + v;
  }
  return s;
}

// Sizes in their order, runs of consecutive ones written "a to b": "0 B to 128 B, 16 KiB to 4 MiB".
std::string size_runs(const std::vector<std::string>& all, const std::vector<bool>& pick, const std::string& prefix) {
  std::vector<std::string> runs;
  for (std::size_t i = 0; i < all.size();) {
    if (!pick[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < all.size() && pick[j + 1]) ++j;
    auto bare = [&](const std::string& s) { return s.starts_with(prefix) ? s.substr(prefix.size()) : s; };
    runs.push_back(j == i ? bare(all[i]) : bare(all[i]) + " to " + bare(all[j]));
    i = j + 1;
  }
  std::string out;
  for (std::size_t k = 0; k < runs.size(); ++k) out += (k ? ", " : "") + runs[k];
  return out;
}

struct SweepCurve {
  std::string label;
  std::vector<std::optional<double>> ys;  // per axis value
  double spread = 0;
  std::size_t order = 0;  // size first, then the other axes in grid order
  std::size_t size = 0;   // index of its size
};

using SizeCombo = std::pair<std::size_t, std::size_t>;  // (size, combination of the other axes)

// One axis's points: its values, the sizes and the other axes' combinations, each in first-seen (grid) order.
struct AxisPoints {
  std::vector<std::string> xs, sizes, others;
  std::vector<std::optional<double>> xv;  // per axis value, its number (a quantity axis), else none
  std::map<std::string, std::vector<std::string>> other_values;     // per other axis, its values in grid order
  std::map<SizeCombo, std::vector<std::optional<double>>> ys;       // per (size, combination), per axis value
  std::map<std::size_t, std::map<std::string, std::string>> combo_of;  // combination -> other axis -> value
};

AxisPoints gather_axis(const Json& t, const std::string& metric, const std::string& axis,
                       const std::vector<std::string>& axes, const Json& units,
                       const std::vector<std::string>& size_cols) {
  AxisPoints a;
  std::map<std::string, std::size_t> xi, si, oi;
  auto index = [](std::map<std::string, std::size_t>& m, std::vector<std::string>& v, const std::string& k) {
    if (!m.count(k)) m[k] = v.size(), v.push_back(k);
    return m[k];
  };
  struct Point { std::size_t x, s, o; double y; };
  std::vector<Point> pts;
  // An MCA axis whose value some run resolved to another (0 = auto by job size, a value capped) has the value each
  // run used in "<parameter> (effective)" (runner/sweep.cpp): such an axis value is not a quantity at its own place.
  const std::string eff_col = (axis.rfind("mca.", 0) == 0 ? axis.substr(4) : axis) + " (effective)";
  std::map<std::size_t, std::set<double>> used;  // per axis value that was not the one used, the values used
  for (auto& r : t.at("rows")) {
    if (!r.contains(metric) || !r[metric].is_number() || !r.contains(axis)) continue;
    const std::size_t x = index(xi, a.xs, with_unit(r[axis], axis, units));
    if (a.xv.size() < a.xs.size()) a.xv.push_back(r[axis].is_number() ? std::optional(r[axis].get<double>()) : std::nullopt);
    if (r.contains(eff_col) && r[eff_col].is_number() && r[axis].is_number() && r[eff_col] != r[axis])
      used[x].insert(r[eff_col].get<double>());
    const std::size_t s = index(si, a.sizes, size_words(r, size_cols));
    std::string okey;
    std::map<std::string, std::string> combo;
    for (auto& b : axes) {
      if (b == axis || !r.contains(b)) continue;
      const std::string v = with_unit(r[b], b, units);
      auto& vals = a.other_values[b];
      if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
      combo[b] = v;
      okey += b + "=" + v + "\x1f";
    }
    const std::size_t o = index(oi, a.others, okey);
    a.combo_of[o] = combo;
    pts.push_back({x, s, o, r[metric].get<double>()});
  }
  for (auto& p : pts) {
    auto& v = a.ys[{p.s, p.o}];
    v.resize(a.xs.size());
    v[p.x] = p.y;
  }
  // Such values are named with what ran ("0 B, ran 1 KiB"), and the axis becomes a list of its values in grid order
  // (sweep_x_positions): an "auto" 0 is not drawn at 0 bytes.
  for (auto& [x, vals] : used) {
    const std::string lo = with_unit(Json(*vals.begin()), eff_col, units), hi = with_unit(Json(*vals.rbegin()), eff_col, units);
    a.xs[x] += vals.size() == 1 ? ", ran " + lo : ", ran " + lo + " to " + hi;
    a.xv[x] = std::nullopt;
  }
  // A quantity axis is drawn in the order of its values, whatever order the grid met them in (a `points` grid meets
  // a parameter's default before the value a later point sets: 512 KiB, then 0 B).
  if (std::all_of(a.xv.begin(), a.xv.end(), [](const auto& v) { return v.has_value(); })) {
    std::vector<std::size_t> perm(a.xs.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
    std::stable_sort(perm.begin(), perm.end(), [&](std::size_t i, std::size_t j) { return *a.xv[i] < *a.xv[j]; });
    auto permute = [&](auto& v) {
      auto old = v;
      for (std::size_t i = 0; i < perm.size(); ++i) v[i] = old[perm[i]];
    };
    permute(a.xs);
    permute(a.xv);
    for (auto& [key, ys] : a.ys) permute(ys);
  }
  return a;
}

// The label of a group of curves that lie on one another at one size: of each other axis, the values they have when
// that is not all of them.
std::string group_label(const AxisPoints& a, std::size_t s, const std::vector<std::size_t>& g) {
  std::string label = a.sizes[s];
  std::size_t product = 1;
  std::string parts;
  for (auto& [b, vals] : a.other_values) {
    std::vector<std::string> have;
    for (auto& v : vals)
      for (auto o : g)
        if (a.combo_of.at(o).count(b) && a.combo_of.at(o).at(b) == v) {
          have.push_back(v);
          break;
        }
    product *= have.size();
    if (have.size() == vals.size()) continue;  // every value of b gives this curve
    std::string one = b + "=";
    for (std::size_t k = 0; k < have.size(); ++k) one += (k ? " or " : "") + have[k];
    parts += (parts.empty() ? "" : ", ") + one;
  }
  if (product != g.size()) {  // not every combination of those values: name each curve's own
    parts.clear();
    for (std::size_t k = 0; k < g.size(); ++k) {
      std::string c;
      for (auto& [b, v] : a.combo_of.at(g[k])) c += (c.empty() ? "" : " ") + b + "=" + v;
      parts += (k ? " or " : "") + c;
    }
  }
  if (!parts.empty()) label += (label.empty() ? "" : ", ") + parts;
  return label;
}

// The curves of the sizes drawn (those the axis acts on; all when it acts on none), curves that lie on one another
// drawn once.
std::vector<SweepCurve> sweep_curves(const AxisPoints& a, const std::vector<bool>& acts, std::size_t n_acting,
                                     const std::string& metric, bool& merged_any) {
  std::vector<SweepCurve> curves;
  merged_any = false;
  for (std::size_t s = 0; s < a.sizes.size(); ++s) {
    if (n_acting && !acts[s]) continue;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t o = 0; o < a.others.size(); ++o) {
      auto it = a.ys.find({s, o});
      if (it == a.ys.end()) continue;
      bool placed = false;
      for (auto& g : groups)
        if (coincide(a.ys.at({s, g[0]}), it->second)) g.push_back(o), placed = true;
      if (!placed) groups.push_back({o});
    }
    for (auto& g : groups) {
      merged_any = merged_any || g.size() > 1;
      std::string label = group_label(a, s, g);
      if (label.empty()) label = axis_label(metric);
      curves.push_back({label, a.ys.at({s, g[0]}), spread(a.ys.at({s, g[0]})), curves.size(), s});
    }
  }
  return curves;
}

// "2nd", "3rd", "4th", ... (k >= 2).
std::string ordinal(std::size_t k) {
  const char* suffix = (k % 100 >= 11 && k % 100 <= 13) ? "th" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : k % 10 == 1 ? "st" : "th";
  return fmt::format("{}{}", k, suffix);
}

// At most kMaxSweepCurves: every k-th of the sizes drawn and the size of the curve the axis changes most (the one the
// title's spread quotes; the smallest k that fits, so the drawn sizes span the range where the axis acts), then, if
// one size alone has more, the curves the axis changes most. Returns the sizes thinned out and sets n_curves to the
// count before the second cut, every to the step k, n_all to the curves every size would take and largest_size to
// the size kept beside every k-th one (n_sizes when it is one of them or none was thinned).
std::vector<bool> thin_curves(std::vector<SweepCurve>& curves, std::size_t n_sizes, std::size_t& n_curves,
                              std::size_t& every, std::size_t& n_all, std::size_t& largest_size) {
  n_all = curves.size();
  every = 1;
  largest_size = n_sizes;
  std::vector<std::size_t> drawn_sizes;
  for (auto& c : curves)
    if (drawn_sizes.empty() || drawn_sizes.back() != c.size) drawn_sizes.push_back(c.size);
  std::size_t top = n_sizes;  // the size of the curve with the largest spread
  double top_spread = -1;
  for (auto& c : curves)
    if (c.spread > top_spread) top_spread = c.spread, top = c.size;
  std::vector<bool> thinned(n_sizes, false);
  for (std::size_t k = 1; k <= drawn_sizes.size(); ++k) {
    std::vector<bool> keep(n_sizes, false);
    for (std::size_t i = 0; i < drawn_sizes.size(); i += k) keep[drawn_sizes[i]] = true;
    if (k > 1 && top < n_sizes && !keep[top]) keep[top] = true, largest_size = top;
    else largest_size = n_sizes;
    const auto n = std::count_if(curves.begin(), curves.end(), [&](auto& c) { return keep[c.size]; });
    if (static_cast<std::size_t>(n) <= kMaxSweepCurves || k == drawn_sizes.size()) {
      every = k;
      for (auto s : drawn_sizes) thinned[s] = !keep[s];
      std::erase_if(curves, [&](auto& c) { return !keep[c.size]; });
      break;
    }
  }
  n_curves = curves.size();
  if (curves.size() > kMaxSweepCurves) {
    std::stable_sort(curves.begin(), curves.end(), [](auto& a, auto& b) { return a.spread > b.spread; });
    curves.resize(kMaxSweepCurves);
    std::sort(curves.begin(), curves.end(), [](auto& a, auto& b) { return a.order < b.order; });
  }
  return thinned;
}

// What the plot of one axis says about itself: its title and the caption under the frame.
struct AxisText {
  std::string title;
  std::vector<std::string> caption;
};

AxisText axis_text(const std::string& metric, const std::string& axis, const std::vector<std::string>& sizes,
                   const std::vector<bool>& acts, std::size_t n_acting, double largest, bool has_sizes,
                   const std::string& size_prefix, bool merged_any, const std::vector<bool>& thinned,
                   std::size_t n_drawn, std::size_t n_curves, std::size_t every, std::size_t n_all,
                   std::size_t largest_size) {
  AxisText at;
  const bool counts = !sizes.empty() && std::all_of(sizes.begin(), sizes.end(), [](const std::string& x) {
    return x.ends_with(" processes");  // size_words of the process count alone
  });
  const bool radices = !sizes.empty() && std::all_of(sizes.begin(), sizes.end(), [](const std::string& x) {
    return x.starts_with("tree radix ") && x.find(", ") == std::string::npos;  // size_words of the radix alone
  });
  // what the curves are, plural and singular
  const auto [size_word, size_one] = !size_prefix.empty() ? std::pair{"message sizes", "message size"}
                                     : counts             ? std::pair{"process counts", "process count"}
                                     : radices            ? std::pair{"radices", "radix"}
                                                          : std::pair{"curves", "curve"};
  at.title =
      n_acting == 0
          ? fmt::format("{} against {}: {} moves no value by over {:g} % (largest spread, max / min - 1: {:.1f} %)",
                        axis_label(metric), axis, axis, 100 * kActs, 100 * largest)
      : !has_sizes
          ? fmt::format("{} against {} (largest spread, max / min - 1: {:.1f} %)", axis_label(metric), axis,
                        100 * largest)
          : fmt::format("{} against {}: the {} it moves by over {:g} % ({} of {}; largest spread, max / min - 1: "
                        "{:.1f} %)",
                        axis_label(metric), axis, size_word, 100 * kActs, n_acting, sizes.size(), 100 * largest);
  auto& caption = at.caption;
  if (n_acting && n_acting < sizes.size()) {
    std::vector<bool> out(sizes.size());
    for (std::size_t s = 0; s < sizes.size(); ++s) out[s] = !acts[s];
    for (auto& l : wrap_words(fmt::format("Left out, as {} moves them by under {:g} %: {} {}.", axis, 100 * kActs,
                                          size_word, size_runs(sizes, out, size_prefix)),
                              145))
      caption.push_back(l);
  }
  if (merged_any)
    caption.push_back(fmt::format("Curves within {:g} % of one another are drawn once; a label that leaves out an "
                                  "axis holds for each of its values.",
                                  100 * kActs));
  if (std::count(thinned.begin(), thinned.end(), true))
    for (auto& l : wrap_words(fmt::format("{} not drawn: every {} would take {} curves, so every {}{} is drawn (at "
                                          "most {} curves): {} {}.",
                                          n_acting ? fmt::format("Also moved by over {:g} % but", 100 * kActs)
                                                   : std::string("Sizes"),
                                          size_one, n_all, ordinal(every),
                                          largest_size < sizes.size()
                                              ? fmt::format(" and {}, where the spread is largest,",
                                                            sizes[largest_size])
                                              : std::string(),
                                          kMaxSweepCurves, size_word, size_runs(sizes, thinned, size_prefix)),
                              145))
      caption.push_back(l);
  if (n_drawn < n_curves)
    caption.push_back(fmt::format("Drawn: the {} of {} curves {} changes most.", n_drawn, n_curves, axis));
  return at;
}

// The y range of a plot of curves: the data's own (plot_y_range), a log scale when the data span more than a decade
// (linear otherwise, and whenever a value is not positive).
YRange y_range(const std::vector<SweepCurve>& curves) {
  double lo = 1e300, hi = -1e300;
  for (auto& c : curves)
    for (auto& y : c.ys)
      if (y) lo = std::min(lo, *y), hi = std::max(hi, *y);
  if (lo > hi) return {};  // no point: gnuplot's default
  return plot_y_range(lo, hi, lo > 0 && hi / lo > 10.0, 0.0);
}

// The gnuplot script of one axis's plot. The key in a corner of the frame the curves leave free, below the frame
// otherwise (key_place); a caption under the frame (the canvas grows by its lines); the y range the data's own
// (y_range).
std::string sweep_script(const std::string& metric, const std::string& axis, const Json& units,
                         const std::vector<std::string>& xs, const std::vector<double>& xp,
                         const std::vector<SweepCurve>& curves, const AxisText& at, const std::string& svg) {
  const auto& caption = at.caption;
  const int caption_px = 14 * static_cast<int>(caption.size());
  const std::vector<std::string> title_text = text_lines(at.title, 95);
  const std::string title_q = gp_quote_lines(title_text);
  const auto title_lines = static_cast<double>(std::max<std::size_t>(title_text.size(), 1));
  const double frame_px = 450.0 - 16.0 * (title_lines - 1.0);
  const YRange yr = y_range(curves);
  std::vector<std::string> titles;
  for (auto& c : curves) titles.push_back(c.label);
  // The curves in fractions of the frame: the axis's values at their positions xp (sweep_x_positions) in [x0, x1].
  const auto [x0, x1] = sweep_x_range(xp);
  FrameDrawing d;
  for (auto& c : curves) {
    std::vector<std::pair<double, double>> line;
    for (std::size_t x = 0; x < xs.size(); ++x)
      if (c.ys[x] && (!yr.log || *c.ys[x] > 0))
        line.push_back({(xp[x] - x0) / (x1 - x0),
                        yr.log ? std::log(*c.ys[x] / yr.lo) / std::log(yr.hi / yr.lo)
                               : (*c.ys[x] - yr.lo) / (yr.hi - yr.lo)}),
            d.marks.push_back(line.back());
    d.lines.push_back(line);
  }
  const auto [kw, kh] = key_box_px(titles);
  const KeyLayout key = key_layout(key_place(d, kw / kFrameWidthPx, kh / frame_px), titles, caption_px);
  const int below_px = key.below_px + caption_px;
  std::string gp = std::string(kLinetype5) + key.line;
  gp += yr.log ? "set logscale y\n" : "unset logscale y\n";
  gp += fmt::format("set yrange [{:.6g} : {:.6g}]\nset grid\n", yr.lo, yr.hi);
  if (yr.log) {  // ticks that read at the data's span (log_ticks), not only whole decades
    std::string t = "set ytics (";
    for (double v : log_ticks(yr.lo, yr.hi, frame_px - 20.0))
      t += fmt::format("{}{:g}", t.ends_with("(") ? "" : ", ", v);
    gp += t + ")\n";
  }
  gp += fmt::format("set title {}\nset xlabel {}\nset ylabel {}\n", title_q,
                    gp_quote(units.contains(axis) ? fmt::format("{} ({})", axis, units[axis].get<std::string>()) : axis),
                    gp_quote(axis_label(metric)));
  if (below_px > 0) gp += fmt::format("set bmargin {}\n", 4 + (below_px + 15) / 16);
  for (std::size_t i = 0; i < caption.size(); ++i)
    gp += fmt::format("set label {} {} at screen 0.012, screen {:.4f} left front font ',9'\n", 100 + i,
                      gp_quote(caption[i]),
                      (static_cast<double>(caption_px) - 14.0 * static_cast<double>(i) - 4.0) /
                          static_cast<double>(600 + below_px));
  gp += "set xtics (";
  for (std::size_t i = 0; i < xs.size(); ++i) gp += fmt::format("{}{} {:.9g}", i ? ", " : "", gp_quote(xs[i]), xp[i]);
  gp += fmt::format(")\nset xrange [{:.9g}:{:.9g}]\n", x0, x1);
  for (std::size_t k = 0; k < curves.size(); ++k) {
    gp += fmt::format("$c{} << EOD\n", k);
    for (std::size_t x = 0; x < xs.size(); ++x)
      if (curves[k].ys[x]) gp += fmt::format("{:.9g} {}\n", xp[x], *curves[k].ys[x]);
    gp += "EOD\n";
  }
  std::string plot = "plot ";
  for (std::size_t k = 0; k < curves.size(); ++k)
    plot += fmt::format("{}$c{} using 1:2 with linespoints {} ps 0.8 title {}", k ? ", " : "", k, curve_style(k),
                        gp_quote(curves[k].label));
  gp += fmt::format("set terminal svg size {},{} dynamic noenhanced font 'sans,11' background '#ffffff'\n"
                    "set output {}\n",
                    key.width_px, 600 + below_px, gp_quote(svg + ".tmp"));
  return gp + plot + "\n";
}

}  // namespace

std::vector<std::string> draw_sweep(const Json& t, const std::string& dir, std::vector<std::string>* why_not) {
  std::vector<std::string> wrote;
  auto skip = [why_not](std::string why) {
    if (why_not != nullptr) why_not->push_back(std::move(why));
  };
  const std::string metric = sweep_metric(t);
  if (metric.empty()) skip("no plot: the points' rows have no numeric result column to plot");
  else if (!have_gnuplot()) skip("no plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
  if (metric.empty() || !have_gnuplot()) return wrote;
  const auto cols = t.at("columns").get<std::vector<std::string>>();
  // Rows of different kinds (a trace replay's total, collective, algorithm and per-rank rows) are no curve over a size:
  // a plot would join unlike rows and label them as message sizes.
  if (std::find(cols.begin(), cols.end(), "row") != cols.end()) {
    skip("no plot: the points are rows of different kinds (a replay's total, collective and per-rank rows), not a curve "
         "over a message size; sweep.csv has them side by side");
    return wrote;
  }
  const auto axes = t.at("axes").get<std::vector<std::string>>();
  const Json units = t.value("units", Json::object());  // an axis of quantities: its values' unit (merge_sweep)
  std::vector<std::string> size_cols;
  // A size column an axis sets ("radix" under the axis "benchmark.radix") is that axis, not a size of its own.
  auto set_by_axis = [&](const std::string& c) {
    return std::any_of(axes.begin(), axes.end(), [&](const std::string& a) { return a == c || a.ends_with("." + c); });
  };
  for (auto& c : kSizeColumns)
    if (std::find(cols.begin(), cols.end(), c) != cols.end() && !set_by_axis(c)) size_cols.push_back(c);
  const std::string size_prefix = size_cols.size() == 1 && size_cols[0] == "bytes" ? "message size " : "";
  // The axes with more than one value: a key every point of a list sets alike is no axis to plot against, nor a
  // word of a curve's label.
  std::vector<std::string> moving;
  for (auto& axis : axes) {
    std::vector<Json> seen;
    for (auto& r : t.at("rows"))
      if (Json v = r.contains(axis) ? r[axis] : Json(); std::find(seen.begin(), seen.end(), v) == seen.end())
        seen.push_back(std::move(v));
    if (seen.size() > 1) moving.push_back(axis);
    else if (seen.empty() || seen[0].is_null())
      skip(fmt::format("no plot against {}: no point has a value of it", axis));
    else
      skip(fmt::format("no plot against {}: every point has {} = {}{}, and a plot needs two values of it", axis, axis,
                       seen[0].is_string() ? seen[0].get<std::string>() : seen[0].dump(),
                       units.contains(axis) ? " " + units[axis].get<std::string>() : ""));
  }
  for (auto& axis : moving) {
    const AxisPoints a = gather_axis(t, metric, axis, moving, units, size_cols);
    if (a.xs.size() < 2) {
      skip(fmt::format("no plot against {}: only one of its values has a {} to plot", axis, metric));
      continue;
    }
    // Per size: how much the axis moves it (the largest change of any curve at that size).
    std::vector<double> size_spread(a.sizes.size(), 0.0);
    for (auto& [k, v] : a.ys) size_spread[k.first] = std::max(size_spread[k.first], spread(v));
    std::vector<bool> acts(a.sizes.size());
    for (std::size_t s = 0; s < a.sizes.size(); ++s) acts[s] = size_spread[s] > kActs;
    const std::size_t n_acting = static_cast<std::size_t>(std::count(acts.begin(), acts.end(), true));
    const double largest = *std::max_element(size_spread.begin(), size_spread.end());
    bool merged_any = false;
    std::vector<SweepCurve> curves = sweep_curves(a, acts, n_acting, metric, merged_any);
    std::size_t n_curves = 0, every = 1, n_all = 0, largest_size = a.sizes.size();
    const std::vector<bool> thinned = thin_curves(curves, a.sizes.size(), n_curves, every, n_all, largest_size);
    AxisText at = axis_text(metric, axis, a.sizes, acts, n_acting, largest, !size_cols.empty(), size_prefix,
                            merged_any, thinned, curves.size(), n_curves, every, n_all, largest_size);
    // A list of points where no two differ in this axis alone (the native stack's point sets no ugni limit that an
    // Open MPI point sets): no curve has two of its values, so "moves no value" would claim what was not measured.
    const bool comparable = std::any_of(a.ys.begin(), a.ys.end(), [](const auto& kv) {
      return std::count_if(kv.second.begin(), kv.second.end(), [](const auto& y) { return y.has_value(); }) > 1;
    });
    if (!comparable)
      at.title = fmt::format("{} against {}: no two points differ in {} alone, so no curve compares its values",
                             axis_label(metric), axis, axis);
    const std::string stem = axis_stem(axis);
    const std::string svg = stem + ".svg", script = stem + ".gp";
    write_file_atomic((std::filesystem::path(dir) / script).string(),
                      sweep_script(metric, axis, units, a.xs, sweep_x_positions(a.xv), curves, at, svg));
    if (run_gnuplot_once(dir, script, svg)) wrote.push_back(svg);
  }
  return wrote;
}

}  // namespace ompisim::validation
