#include "validation/plot.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
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
  if (c == "ptl_us") return "latency at the PTL (us)";
  if (c == "pml_us") return "PML and above (us)";
  if (c == "t_avg_us") return "t_avg, IMB mean over the ranks (us)";
  if (c == "send_us") return "time to send completion (us)";
  // Other fields name their unit in a suffix: runtime_s, x_us, y_GBps, z_pct.
  for (const auto& [suffix, unit] : {std::pair<std::string, std::string>{"_us", "us"}, {"_s", "s"}, {"_GBps", "GB/s"},
                                     {"_pct", "%"}})
    if (c.size() > suffix.size() && c.ends_with(suffix)) {
      std::string name = c.substr(0, c.size() - suffix.size());
      std::replace(name.begin(), name.end(), '_', ' ');
      return fmt::format("{} ({})", name, unit);
    }
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

// Byte sizes as binary multiples, the way Open MPI and the OSU tables mean them: 1 KiB = 1024 B.
std::string byte_label(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (b >= 1024 && u < 3) b /= 1024, ++u;
  return fmt::format("{:g} {}", b, units[u]);
}

namespace {

// Explicit tick marks for a byte axis (powers of 4 from 1 B to 1 GiB; gnuplot keeps those inside the range).
std::string byte_tics(const char axis) {
  std::string t = fmt::format("set {}tics (", axis);
  for (int e = 0; e <= 30; e += 2) t += fmt::format("{}\"{}\" {:.0f}", e ? ", " : "", byte_label(std::ldexp(1.0, e)), std::ldexp(1.0, e));
  return t + ")\n";
}

// A title of more than one line at about `width` characters (gnuplot's double-quoted "\n"), so it stays in the frame.
std::string wrapped_title(const std::string& t, std::size_t width = 95) {
  std::string out = "\"", line;
  std::size_t start = 0;
  while (start < t.size()) {
    std::size_t end = t.size();
    if (end - start > width) {
      end = t.rfind(' ', start + width);
      if (end == std::string::npos || end <= start) end = std::min(t.size(), start + width);
    }
    for (std::size_t i = start; i < end; ++i) {
      const char c = t[i];
      if (c == '"' || c == '\\') out += '\\';
      out += c == '\n' ? ' ' : c;
    }
    start = end;
    while (start < t.size() && t[start] == ' ') ++start;
    if (start < t.size()) out += "\\n";
  }
  return out + "\"";
}

}  // namespace

std::string gnuplot_script(const PlotSpec& p) {
  // Tick labels: sizes in bytes as 1 KiB, 32 KiB (explicit tics), counts as plain integers.
  auto fmt_of = [](const std::string& c) {
    if (c == "ranks" || c == "radix" || c == "rank") return std::string("%.0f");
    return std::string("%g");
  };
  auto tics = [&](const std::string& c, char axis) {
    return c == "bytes" ? byte_tics(axis) : fmt::format("set format {} {}\n", axis, gp_quote(fmt_of(c)));
  };
  // The key inside the frame, top left, markers before the text (never clipped by the frame's right edge), boxed
  // and opaque so a curve under it stays readable; curves differ in dash and marker as well as colour, so two that lie
  // on each other both show.
  // A caption under the frame: the canvas grows by one line of the caption's font per line, the bottom margin with it.
  const int caption_px = 14 * static_cast<int>(p.caption.size());
  const std::string title = wrapped_title(p.title);
  // Points at the first and last x are drawn whole (2 % of the width either side).
  std::string gp = fmt::format(
      "set datafile separator ','\nset key top left reverse Left box opaque font ',9' spacing 0.9\n{}{}set grid\n"
      "set offsets graph 0.02, graph 0.02, 0, 0\n{}{}set title {}\nset xlabel {}\nset ylabel {}\n",
      p.logx ? "set logscale x 2\n" : "", p.logy ? "set logscale y\n" : "", tics(p.xcol, 'x'), tics(p.ycol, 'y'), title,
      gp_quote(axis_label(p.xcol)), gp_quote(axis_label(p.ycol)));
  if (!p.caption.empty()) {
    gp += fmt::format("set bmargin {}\n", 4 + (caption_px + 15) / 16);  // character heights of the 11 pt font
    for (std::size_t i = 0; i < p.caption.size(); ++i)
      gp += fmt::format("set label {} {} at screen 0.012, screen {:.4f} left front font ',9'\n", 100 + i,
                        gp_quote(p.caption[i]), (static_cast<double>(caption_px) - 14.0 * static_cast<double>(i) - 4.0) /
                                                    static_cast<double>(600 + caption_px));
  }
  gp += p.inline_data;
  std::vector<std::string> parts;
  int lc = 1;
  static const int kPoints[] = {1, 2, 4, 6, 8, 10, 12, 3};
  for (auto& c : p.curves) {
    std::string src = c.data.starts_with("$") ? c.data : gp_quote(c.data);
    const int pt = kPoints[(lc - 1) % 8];
    parts.push_back(fmt::format("{} using (column({})):(column({})) with linespoints lc {} dt {} pt {} ps 0.7 title {}",
                                src, gp_quote(p.xcol), gp_quote(p.ycol), lc, 1 + (lc - 1) % 5, pt,
                                gp_quote(c.label + " (simulated)")));
    if (!c.ref.empty()) {
      std::string rsrc = c.ref.starts_with("$") ? c.ref : gp_quote(c.ref);
      parts.push_back(fmt::format("{} using 1:2 with points lc {} pt 7 ps 1.6 title {}", rsrc, lc,
                                  gp_quote(c.label + " (" + c.ref_source + ")")));
    }
    for (double y : c.peaks)
      parts.push_back(fmt::format("{} with lines lc {} dt 4 lw 1.5 title {}", y, lc,
                                  gp_quote(fmt::format("{} ({}: peak {:g})", c.label, c.ref_source, y))));
    if (!c.interval.empty())
      parts.push_back(fmt::format("{} using 1:2:3:4 with yerrorbars lc {} pt 6 ps 1.2 title {}", gp_quote(c.interval), lc,
                                  gp_quote(c.label + " (prediction interval: bars, see below)")));
    ++lc;
  }
  gp += "set terminal unknown\nplot ";
  for (std::size_t i = 0; i < parts.size(); ++i) gp += (i ? ", \\\n  " : "") + parts[i];
  // The key's rows stay clear of the data: the y range found by this first pass is stretched upwards so that the
  // data lie below the fraction of the frame the key takes (about 11 px a row, 14 px of box, in a frame of about
  // 450 px less 16 px per title line).
  const double frame_px = 450.0 - 16.0 * static_cast<double>(std::count(title.begin(), title.end(), '\\'));
  const double f = std::min(0.6, (11.0 * static_cast<double>(parts.size()) + 14.0) / frame_px);
  gp += fmt::format("\ny0 = GPVAL_Y_MIN; y1 = GPVAL_Y_MAX\nset yrange [y0 : {}]\n",
                    p.logy ? fmt::format("y0 * (y1 / y0) ** (1.0 / {:.4f})", 1.0 - f)
                           : fmt::format("y0 + (y1 - y0) / {:.4f}", 1.0 - f));
  gp += fmt::format("set terminal svg size 900,{} dynamic noenhanced font 'sans,11' background '#ffffff'\n"
                    "set output {}\nreplot\n",
                    600 + caption_px, gp_quote(p.svg + ".tmp"));
  return gp;
}

bool have_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

bool run_gnuplot(const std::string& dir, const std::string& script, const std::string& svg) {
  std::string cmd = fmt::format("cd {} && gnuplot {} 2>/dev/null && mv -f {} {}", shell_quote(dir), shell_quote(script),
                                shell_quote(svg + ".tmp"), shell_quote(svg));
  return std::system(cmd.c_str()) == 0;
}

}  // namespace ompisim::validation
