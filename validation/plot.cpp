#include "validation/plot.hpp"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>

namespace ompisim::validation {

std::string axis_label(const std::string& c) {
  if (c == "bytes") return "message size (bytes)";
  if (c == "ranks") return "processes";
  if (c == "radix") return "tree radix";
  if (c == "latency_us") return "latency (us)";
  if (c == "bandwidth_GBps") return "bandwidth (GB/s)";
  if (c == "availability_pct") return "CPU availability (%)";
  if (c == "messages_per_s") return "message rate (messages/s)";
  if (c == "overhead_us") return "overhead (us)";
  if (c == "runtime_s") return "run time (s)";
  if (c == "rank") return "rank (MPI_COMM_WORLD)";
  if (c == "time_s") return "time (s)";
  return c;
}

std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out + "'";
}

static std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string gnuplot_script(const PlotSpec& p) {
  // Tick labels: sizes in bytes as powers of two with binary prefixes (%b%B: 1ki, 1Mi), counts as plain integers.
  auto fmt_of = [](const std::string& c) {
    if (c == "bytes") return std::string("%.0b%B");
    if (c == "ranks" || c == "radix" || c == "rank") return std::string("%.0f");
    return std::string("%g");
  };
  std::string gp = fmt::format(
      "set terminal svg size 900,600 dynamic noenhanced background '#ffffff'\nset output {}\n"
      "set datafile separator ','\nset key top left\n{}{}set grid\n"
      "set format x {}\nset format y {}\nset title {}\nset xlabel {}\nset ylabel {}\n",
      gp_quote(p.svg + ".tmp"), p.logx ? "set logscale x 2\n" : "", p.logy ? "set logscale y\n" : "",
      gp_quote(fmt_of(p.xcol)), gp_quote(fmt_of(p.ycol)), gp_quote(p.title),
      gp_quote(axis_label(p.xcol)), gp_quote(axis_label(p.ycol)));
  gp += p.inline_data;
  std::vector<std::string> parts;
  int lc = 1;
  for (auto& c : p.curves) {
    std::string src = c.data.starts_with("$") ? c.data : gp_quote(c.data);
    parts.push_back(fmt::format("{} using (column({})):(column({})) with linespoints lc {} pt 1 ps 0.6 title {}", src,
                                gp_quote(p.xcol), gp_quote(p.ycol), lc, gp_quote(c.label + " (simulated)")));
    if (!c.ref.empty()) {
      std::string rsrc = c.ref.starts_with("$") ? c.ref : gp_quote(c.ref);
      parts.push_back(fmt::format("{} using 1:2 with points lc {} pt 7 ps 1.6 title {}", rsrc, lc,
                                  gp_quote(c.label + " (paper)")));
    }
    if (!c.interval.empty())
      parts.push_back(fmt::format("{} using 1:2:3:4 with yerrorbars lc {} pt 6 ps 1.2 title {}", gp_quote(c.interval), lc,
                                  gp_quote(c.label + " (prediction interval)")));
    ++lc;
  }
  gp += "plot ";
  for (std::size_t i = 0; i < parts.size(); ++i) gp += (i ? ", \\\n  " : "") + parts[i];
  return gp + "\n";
}

bool have_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

bool run_gnuplot(const std::string& dir, const std::string& script, const std::string& svg) {
  std::string cmd = fmt::format("cd {} && gnuplot {} 2>/dev/null && mv -f {} {}", shell_quote(dir), shell_quote(script),
                                shell_quote(svg + ".tmp"), shell_quote(svg));
  return std::system(cmd.c_str()) == 0;
}

}  // namespace ompisim::validation
