#include "validation/sweep_plot.hpp"

#include "core/atomic_write.hpp"
#include "core/safe_name.hpp"
#include "validation/plot.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <map>

namespace ompisim::validation {

namespace {
std::string text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : v.is_number_float() ? fmt::format("{:g}", v.get<double>()) : v.dump();
}
// A value of a column with its unit: byte sizes as 1 KiB, 32 KiB (the column's unit "B"), others as "4 GB/s".
std::string with_unit(const Json& v, const std::string& col, const Json& units) {
  if (!units.contains(col)) return text(v);
  if (units[col] == "B" && v.is_number()) return byte_label(v.get<double>());
  return text(v) + " " + units[col].get<std::string>();
}
}  // namespace

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

// A curve's label: the other axes' values and the result's own x (message size, radix, rank count), sizes as 1 KiB.
std::string curve_label(const Json& r, const std::vector<std::string>& cols, const std::vector<std::string>& axes,
                        const std::string& axis, const std::string& metric, const Json& units) {
  std::string label;
  for (auto& c : cols) {
    if (c == axis || c == metric || c == "point" || !r.contains(c)) continue;
    const bool is_axis = std::find(axes.begin(), axes.end(), c) != axes.end();
    // Other result columns that vary per row (message size, radix) name the curve; derived metrics do not.
    if (!is_axis && c != "bytes" && c != "radix" && c != "ranks") continue;
    std::string v = c == "bytes" && r[c].is_number() ? byte_label(r[c].get<double>())
                                                      : c + "=" + with_unit(r[c], c, units);
    label += (label.empty() ? "" : ", ") + v;
  }
  return label;
}

// How much a curve changes along the axis: max / min - 1 of its values (0 when the axis does not act on it).
double spread(const std::vector<std::pair<std::size_t, double>>& pts) {
  double lo = 1e300, hi = -1e300;
  for (auto& [x, y] : pts) lo = std::min(lo, y), hi = std::max(hi, y);
  return lo > 0 ? hi / lo - 1.0 : 0.0;
}

// sweep_<axis> with every character that cannot stand in a file name made '_': "mca.btl_ugni_smsg_limit" ->
// sweep_mca_btl_ugni_smsg_limit.
std::string axis_stem(const std::string& axis) {
  std::string a;
  for (char c : axis) a += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return label_stem("sweep_" + a, "sweep", axis);
}

}  // namespace

std::vector<std::string> draw_sweep(const Json& t, const std::string& dir) {
  std::vector<std::string> wrote;
  const std::string metric = sweep_metric(t);
  if (metric.empty() || !have_gnuplot()) return wrote;
  const auto cols = t.at("columns").get<std::vector<std::string>>();
  const auto axes = t.at("axes").get<std::vector<std::string>>();
  const Json units = t.value("units", Json::object());  // an axis of quantities: its values' unit (merge_sweep)
  for (auto& axis : axes) {
    // The axis's values in first-seen (grid) order, and the curves: every other column but the metric and the point.
    std::vector<std::string> xs;
    std::map<std::string, std::size_t> xi;
    std::vector<std::string> curve_names;
    std::map<std::string, std::vector<std::pair<std::size_t, double>>> curves;
    for (auto& r : t.at("rows")) {
      if (!r.contains(metric) || !r[metric].is_number()) continue;
      std::string x = with_unit(r[axis], axis, units);
      if (!xi.count(x)) xi[x] = xs.size(), xs.push_back(x);
      std::string label = curve_label(r, cols, axes, axis, metric, units);
      if (!curves.count(label)) curve_names.push_back(label);
      curves[label].push_back({xi[x], r[metric].get<double>()});
    }
    if (xs.empty()) continue;
    // The curves where this axis acts most (a size where a BTE bandwidth does nothing would be a flat line), shown
    // in their first-seen order.
    std::vector<std::size_t> order(curve_names.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return spread(curves[curve_names[a]]) > spread(curves[curve_names[b]]);
    });
    // Curves the axis moves by less than 0.1 % are left out unless it moves none.
    const double largest = order.empty() ? 0.0 : spread(curves[curve_names[order[0]]]);
    std::size_t acting = 0;
    while (acting < order.size() && spread(curves[curve_names[order[acting]]]) > 1e-3) ++acting;
    const std::size_t shown = std::min(acting ? acting : curve_names.size(), kMaxSweepCurves);
    order.resize(shown);
    std::sort(order.begin(), order.end());
    std::string stem = axis_stem(axis);
    std::string svg = stem + ".svg", script = stem + ".gp";
    std::string what = largest <= 0 ? fmt::format("{} changes no value", axis)
                       : shown < curve_names.size()
                           ? fmt::format("the {} of {} curves {} changes most (up to {:+.1f} %; {} change by over 0.1 %)",
                                         shown, curve_names.size(), axis, 100 * largest, acting)
                           : fmt::format("{} curves (largest change {:+.1f} %)", shown, 100 * largest);
    std::string gp = fmt::format(
        "set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'\nset output {}\n",
        gp_quote(svg + ".tmp"));
    gp += fmt::format("set title {}\n", gp_quote(fmt::format("{} against {}: {}", axis_label(metric), axis, what)));
    // The key in up to 4 rows at the canvas's bottom edge, under a bottom margin that holds it (gnuplot's "key below"
    // with maxrows draws the x label over the key).
    gp += fmt::format("set xlabel {}\nset ylabel {}\nset logscale y\nset grid\n"
                      "set bmargin 9\nset key at screen 0.5, screen 0.01 center bottom horizontal font ',9' maxrows 4\n",
                      gp_quote(units.contains(axis) ? fmt::format("{} ({})", axis, units[axis].get<std::string>()) : axis),
                      gp_quote(axis_label(metric)));
    gp += "set xtics (";
    for (std::size_t i = 0; i < xs.size(); ++i) gp += fmt::format("{}{} {}", i ? ", " : "", gp_quote(xs[i]), i);
    gp += fmt::format(")\nset xrange [-0.5:{}]\n", static_cast<double>(xs.size()) - 0.5);
    for (std::size_t k = 0; k < shown; ++k) {
      gp += fmt::format("$c{} << EOD\n", k);
      for (auto& [x, y] : curves[curve_names[order[k]]]) gp += fmt::format("{} {}\n", x, y);
      gp += "EOD\n";
    }
    gp += "plot ";
    for (std::size_t k = 0; k < shown; ++k)
      gp += fmt::format("{}$c{} using 1:2 with linespoints title {}", k ? ", " : "", k,
                        gp_quote(curve_names[order[k]].empty() ? metric : curve_names[order[k]]));
    gp += "\n";
    write_file_atomic((std::filesystem::path(dir) / script).string(), gp);
    if (run_gnuplot_once(dir, script, svg)) wrote.push_back(svg);
  }
  return wrote;
}

}  // namespace ompisim::validation
