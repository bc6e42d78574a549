#include "validation/sweep_plot.hpp"

#include "core/atomic_write.hpp"
#include "core/safe_name.hpp"
#include "validation/plot.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <map>

namespace ompisim::validation {

namespace {
std::string text(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }
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

std::vector<std::string> draw_sweep(const Json& t, const std::string& dir) {
  std::vector<std::string> wrote;
  const std::string metric = sweep_metric(t);
  if (metric.empty() || !have_gnuplot()) return wrote;
  const auto cols = t.at("columns").get<std::vector<std::string>>();
  const auto axes = t.at("axes").get<std::vector<std::string>>();
  for (auto& axis : axes) {
    // The axis's values in first-seen (grid) order, and the curves: every other column but the metric and the point.
    std::vector<std::string> xs;
    std::map<std::string, std::size_t> xi;
    std::vector<std::string> curve_names;
    std::map<std::string, std::vector<std::pair<std::size_t, double>>> curves;
    for (auto& r : t.at("rows")) {
      if (!r.contains(metric) || !r[metric].is_number()) continue;
      std::string x = text(r[axis]);
      if (!xi.count(x)) xi[x] = xs.size(), xs.push_back(x);
      std::string label;
      for (auto& c : cols) {
        if (c == axis || c == metric || c == "point") continue;
        bool is_axis = std::find(axes.begin(), axes.end(), c) != axes.end();
        // Other result columns that vary per row (message size, radix) name the curve; derived metrics do not.
        if (!is_axis && c != "bytes" && c != "radix" && c != "ranks") continue;
        if (!r.contains(c)) continue;
        label += (label.empty() ? "" : ", ") + c + "=" + text(r[c]);
      }
      if (!curves.count(label)) curve_names.push_back(label);
      curves[label].push_back({xi[x], r[metric].get<double>()});
    }
    if (xs.empty()) continue;
    std::string stem = label_stem("sweep_" + axis, "sweep", axis);
    std::string svg = stem + ".svg", script = stem + ".gp";
    std::size_t shown = std::min(curve_names.size(), kMaxSweepCurves);
    std::string gp = fmt::format("set terminal svg size 800,500 dynamic noenhanced background '#ffffff'\nset output {}\n", gp_quote(svg + ".tmp"));
    gp += fmt::format("set title {}\n", gp_quote(fmt::format("{} against {}{}", metric, axis,
                                                                 shown < curve_names.size()
                                                                     ? fmt::format(" (first {} of {} curves)", shown,
                                                                                   curve_names.size())
                                                                     : "")));
    gp += fmt::format("set xlabel {}\nset ylabel {}\nset logscale y\nset grid\nset key outside right\n",
                      gp_quote(axis), gp_quote(axis_label(metric)));
    gp += "set xtics (";
    for (std::size_t i = 0; i < xs.size(); ++i) gp += fmt::format("{}{} {}", i ? ", " : "", gp_quote(xs[i]), i);
    gp += fmt::format(")\nset xrange [-0.5:{}]\n", static_cast<double>(xs.size()) - 0.5);
    for (std::size_t k = 0; k < shown; ++k) {
      gp += fmt::format("$c{} << EOD\n", k);
      for (auto& [x, y] : curves[curve_names[k]]) gp += fmt::format("{} {}\n", x, y);
      gp += "EOD\n";
    }
    gp += "plot ";
    for (std::size_t k = 0; k < shown; ++k)
      gp += fmt::format("{}$c{} using 1:2 with linespoints title {}", k ? ", " : "", k,
                        gp_quote(curve_names[k].empty() ? metric : curve_names[k]));
    gp += "\n";
    write_file_atomic((std::filesystem::path(dir) / script).string(), gp);
    bool ok = run_gnuplot(dir, script, svg);
    std::filesystem::remove(std::filesystem::path(dir) / script);
    if (ok) wrote.push_back(svg);
  }
  return wrote;
}

}  // namespace ompisim::validation
