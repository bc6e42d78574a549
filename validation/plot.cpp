#include "validation/plot.hpp"

#include "core/signals.hpp"
#include "core/subprocess.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>

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

YRange plot_y_range(double lo, double hi, bool log, double key_share, bool from_zero) {
  constexpr double kMargin = 0.05, kMinFactor = 1.25;
  YRange r;
  r.log = log && lo > 0;
  const double keep = 1.0 / (1.0 - std::clamp(key_share, 0.0, 0.9));
  if (r.log) {
    if (hi / lo < kMinFactor) {
      const double mid = std::sqrt(lo * hi);
      lo = mid / std::sqrt(kMinFactor), hi = mid * std::sqrt(kMinFactor);
    }
    const double m = std::pow(hi / lo, kMargin);
    r.lo = lo / m;
    r.hi = r.lo * std::pow(hi * m / r.lo, keep);
  } else {
    const double m = hi > lo ? kMargin * (hi - lo) : kMargin * std::max(std::abs(hi), 1e-12);
    r.lo = from_zero && lo >= 0 ? 0.0 : lo >= 0 ? std::max(0.0, lo - m) : lo - m;
    r.hi = r.lo + (hi + m - r.lo) * keep;
  }
  return r;
}

std::vector<double> log_ticks(double lo, double hi, double frame_px) {
  std::vector<double> t;
  if (!(lo > 0) || !(hi > lo)) return t;
  const double decades = std::log10(hi / lo);
  // m * 10^e, rounded to 12 significant digits so that a label reads 0.3, not 0.30000000000000004.
  auto at = [](double m, int e) { return std::stod(fmt::format("{:.12g}", m * std::pow(10.0, e))); };
  const int e0 = static_cast<int>(std::floor(std::log10(lo))) - 1, e1 = static_cast<int>(std::ceil(std::log10(hi))) + 1;
  // Per decade: the densest of these mantissa sets whose closest two ticks are 30 px apart, then every k-th decade.
  const double per_decade = frame_px / decades;
  const std::vector<std::vector<double>> sets = {{1, 1.5, 2, 3, 4, 5, 7}, {1, 2, 3, 5}, {1, 2, 5}, {1, 3}, {1}};
  const std::vector<double> gaps = {std::log10(5.0 / 4.0), std::log10(3.0 / 2.0), std::log10(2.0),
                                    std::log10(10.0 / 3.0), 1.0};
  {
    std::size_t i = 0;
    while (i + 1 < sets.size() && gaps[i] * per_decade < 30.0) ++i;
    const int k = std::max(1, static_cast<int>(std::ceil(30.0 / per_decade)));
    for (int e = e0 - ((e0 % k) + k) % k; e <= e1; e += k)
      for (double m : sets[i]) t.push_back(at(m, e));
  }
  // Under five of those in the range (less than a decade or so): evenly spaced values instead, the smallest step of
  // 1, 2 or 5 times a power of ten with at most 7 in the range.
  if (std::count_if(t.begin(), t.end(), [&](double v) { return v >= lo && v <= hi; }) < 5) {
    t.clear();
    for (int e = e0 - 2; e <= e1 && t.empty(); ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        const double step = at(m, e);
        if (std::floor(hi / step) - std::ceil(lo / step) + 1 > 7) continue;
        for (double k = std::ceil(lo / step); k * step <= hi * (1 + 1e-12); ++k)
          t.push_back(std::stod(fmt::format("{:.12g}", k * step)));
        break;
      }
  }
  std::vector<double> kept;
  auto px = [&](double v) { return frame_px * std::log(v / lo) / std::log(hi / lo); };
  for (double v : t)
    if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12) && (kept.empty() || px(v) - px(kept.back()) >= 16.0))
      kept.push_back(v);
  return kept;
}

namespace {
// A key row is about 12.5 px at font 9 and spacing 0.9; a character of its titles at most about 6.2 px, the sample
// and the box's padding about 60 px; the box and its gap to the frame about 10 px.
constexpr double kKeyRowPx = 12.5, kKeyCharPx = 6.2, kKeySamplePx = 60.0, kKeyPadPx = 10.0;
// Around a key box, what a marker (ps 1.6, about 8 px in radius) needs to stay clear of it.
constexpr double kMarkerPx = 8.0;

double key_column_px(const std::vector<std::string>& titles) {
  std::size_t chars = 0;
  for (const auto& t : titles) chars = std::max(chars, t.size());
  return kKeyCharPx * static_cast<double>(chars) + kKeySamplePx;
}

// Whether the segment a-b enters the rectangle [x0, x1] x [y0, y1] (Liang-Barsky clipping).
bool segment_enters(std::pair<double, double> a, std::pair<double, double> b, double x0, double x1, double y0,
                    double y1) {
  double t0 = 0, t1 = 1;
  const double dx = b.first - a.first, dy = b.second - a.second;
  for (auto [p, q] : {std::pair{-dx, a.first - x0}, {dx, x1 - a.first}, {-dy, a.second - y0}, {dy, y1 - a.second}}) {
    if (p == 0) {
      if (q < 0) return false;
      continue;
    }
    const double r = q / p;
    if (p < 0) t0 = std::max(t0, r);
    else t1 = std::min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}
}  // namespace

std::pair<double, double> key_box_px(const std::vector<std::string>& titles) {
  return {key_column_px(titles) + kKeyPadPx, kKeyRowPx * static_cast<double>(titles.size()) + kKeyPadPx};
}

KeyPlace key_place(const FrameDrawing& d, double key_w, double key_h) {
  const double mx = kMarkerPx / kFrameWidthPx, my = kMarkerPx / 450.0;
  for (KeyPlace k : {KeyPlace::TopLeft, KeyPlace::TopRight, KeyPlace::BottomRight, KeyPlace::BottomLeft}) {
    const bool left = k == KeyPlace::TopLeft || k == KeyPlace::BottomLeft;
    const bool top = k == KeyPlace::TopLeft || k == KeyPlace::TopRight;
    const double x0 = left ? -1.0 : 1.0 - key_w - mx, x1 = left ? key_w + mx : 2.0;
    const double y0 = top ? 1.0 - key_h - my : -1.0, y1 = top ? 2.0 : key_h + my;
    if (key_w + mx > 1.0 || key_h + my > 1.0) break;
    bool clear = true;
    for (const auto& l : d.lines)
      for (std::size_t i = 0; clear && i < l.size(); ++i)
        clear = !segment_enters(l[i], l[i + 1 < l.size() ? i + 1 : i], x0, x1, y0, y1);
    for (const auto& [x, y] : d.marks) clear = clear && !(x >= x0 && x <= x1 && y >= y0 && y <= y1);
    for (double y : d.levels) clear = clear && !(y >= y0 && y <= y1);
    if (clear) return k;
  }
  return KeyPlace::Below;
}

KeyLayout key_layout(KeyPlace where, const std::vector<std::string>& titles, int caption_px) {
  const std::string style = "reverse Left box opaque font ',9' spacing 0.9";
  switch (where) {
    case KeyPlace::TopLeft: return {"set key top left " + style + "\n", 0};
    case KeyPlace::TopRight: return {"set key top right " + style + "\n", 0};
    case KeyPlace::BottomRight: return {"set key bottom right " + style + "\n", 0};
    case KeyPlace::BottomLeft: return {"set key bottom left " + style + "\n", 0};
    case KeyPlace::Below: break;
  }
  // Below the frame: as many columns as the canvas's width (900 px less a margin) holds, rows filled first; a column
  // wider than that widens the canvas.
  const std::size_t n = std::max<std::size_t>(1, titles.size());
  const double column = key_column_px(titles);
  const int width = std::max(900, static_cast<int>(std::ceil(column + 20.0)));
  const auto cols = std::clamp<std::size_t>(static_cast<std::size_t>((width - 20.0) / column), 1, n);
  const std::size_t rows = (n + cols - 1) / cols;
  const int below = static_cast<int>(std::ceil(kKeyRowPx * static_cast<double>(rows) + kKeyPadPx)) + 6;
  const double top = static_cast<double>(caption_px + below) / static_cast<double>(600 + below + caption_px);
  return {fmt::format("set key at screen {:.4g}, screen {:.4f} left top {} maxrows {}\n", 10.8 / width, top, style,
                      rows),
          below, width};
}

bool starts_at_zero(const std::string& c) {
  return c.starts_with("bandwidth") || c.ends_with("_GBps") || c.ends_with("_pct") || c == "messages_per_s";
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

std::string gp_quote_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? ".\"\\n\"." : "") + gp_quote(lines[i]);
  return out.empty() ? gp_quote("") : out;
}

// Byte sizes as binary multiples, the way Open MPI and the OSU tables mean them: 1 KiB = 1024 B. A size goes up a
// unit only where it is a whole number of hundredths of it (1536 B -> 1.5 KiB), so a limit one byte short of a
// power of two reads as itself (4095 B), not as 3.99902 KiB.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) lines.push_back(line), line.clear();
    if (!word.empty()) line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<CoincidingCurves> coinciding_curves(const std::vector<std::vector<std::pair<double, double>>>& curves,
                                                double rel_tol) {
  // The largest relative difference of two curves at one x; infinite when their x values differ.
  auto diff = [](const auto& a, const auto& b) {
    double d = a.empty() || a.size() != b.size() ? INFINITY : 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      const double m = std::max(std::abs(a[i].second), std::abs(b[i].second));
      if (a[i].first != b[i].first) return static_cast<double>(INFINITY);
      if (m > 0) d = std::max(d, std::abs(a[i].second - b[i].second) / m);
    }
    return d;
  };
  std::vector<CoincidingCurves> groups;
  std::vector<bool> taken(curves.size(), false);
  for (std::size_t i = 0; i < curves.size(); ++i) {
    if (taken[i]) continue;
    CoincidingCurves g{{i}, 0.0};
    for (std::size_t j = i + 1; j < curves.size(); ++j)
      if (!taken[j] && diff(curves[i], curves[j]) <= rel_tol) g.curves.push_back(j), taken[j] = true;
    for (std::size_t a = 0; a < g.curves.size(); ++a)
      for (std::size_t b = a + 1; b < g.curves.size(); ++b)
        g.within = std::max(g.within, diff(curves[g.curves[a]], curves[g.curves[b]]));
    if (g.curves.size() > 1) groups.push_back(g);
  }
  return groups;
}

std::vector<std::string> label_tails(const std::vector<std::string>& labels) {
  std::size_t shared = std::string::npos;  // characters of the common leading words, up to and with a space
  for (const auto& l : labels) {
    std::size_t n = 0;
    while (n < l.size() && n < labels[0].size() && l[n] == labels[0][n]) ++n;
    shared = std::min(shared, n);
  }
  std::vector<std::string> out;
  for (const auto& l : labels) {
    std::size_t cut = labels.size() < 2 || shared == std::string::npos ? 0 : shared;
    while (cut > 0 && l[cut - 1] != ' ') --cut;  // whole words only
    out.push_back(cut < l.size() ? l.substr(cut) : l);
  }
  return out;
}

namespace {

// Explicit tick marks for a byte axis (powers of 4 from 1 B to 1 GiB, or of 2 with `every_power` for sizes that span
// a few of them; gnuplot keeps those inside the range).
std::string byte_tics(const char axis, bool every_power = false) {
  std::string t = fmt::format("set {}tics (", axis);
  for (int e = 0; e <= 30; e += every_power ? 1 : 2)
    t += fmt::format("{}\"{}\" {:.0f}", e ? ", " : "", byte_label(std::ldexp(1.0, e)), std::ldexp(1.0, e));
  return t + ")\n";
}

// A tick value as a short label: 0.5, 300, 20000, 3e5, 1e-5 (from 100000 up in powers of ten: 3e5 beside 1e6).
std::string tick_label(double v) {
  if (v >= 1e5) {
    const int e = static_cast<int>(std::floor(std::log10(v) + 1e-9));
    return fmt::format("{:.6g}e{}", v / std::pow(10.0, e), e);
  }
  std::string s = fmt::format("{:g}", v);
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exp = s.substr(e + 1);
  const bool neg = exp[0] == '-';
  exp.erase(0, 1);
  while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
  return s.substr(0, e + 1) + (neg ? "-" : "") + exp;
}

// `t` cut at spaces into lines of at most `width` characters: a title of more than one line (gp_quote_lines) stays in
// the frame.
std::vector<std::string> title_lines(const std::string& t, std::size_t width = 95) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < t.size()) {
    std::size_t end = t.size();
    if (end - start > width) {
      end = t.rfind(' ', start + width);
      if (end == std::string::npos || end <= start) end = std::min(t.size(), start + width);
    }
    lines.push_back(t.substr(start, end - start));
    start = end;
    while (start < t.size() && t[start] == ' ') ++start;
  }
  return lines;
}

}  // namespace

namespace {

// The one x value of all curves when each curve is one point there (the figure of one size, drawn as bars: a line
// through one point shows nothing).
std::optional<double> single_x(const PlotSpec& p) {
  std::optional<double> x;
  for (const auto& c : p.curves) {
    if (c.points.size() != 1 || (x && *x != c.points[0].first)) return std::nullopt;
    x = c.points[0].first;
  }
  return x;
}

// Caption lines naming the curves drawn on one another (coinciding_curves) by what tells their labels apart, with how
// close they are; `grow[i]` is how many curves of its group come before curve i (its marker grows with it, so all
// show).
std::vector<std::string> coincidence_lines(const PlotSpec& p, std::vector<int>& grow) {
  std::vector<std::vector<std::pair<double, double>>> pts;
  std::vector<std::string> labels;
  for (const auto& c : p.curves) pts.push_back(c.points), labels.push_back(c.label);
  const std::vector<std::string> names = label_tails(labels);
  grow.assign(p.curves.size(), 0);
  std::vector<std::string> lines;
  for (const auto& g : coinciding_curves(pts)) {
    std::string which;
    for (std::size_t k = 0; k < g.curves.size(); ++k) {
      grow[g.curves[k]] = static_cast<int>(k);
      which += (k == 0 ? "" : k + 1 == g.curves.size() ? " and " : ", ") + ("\"" + names[g.curves[k]] + "\"");
    }
    const std::string close =
        g.within == 0 ? "equal at every point" : fmt::format("within {:.2g} % at every point", 100 * g.within);
    const std::string line =
        fmt::format("Curves {} coincide ({}; each later one drawn with a larger marker).", which, close);
    for (auto& l : wrap_words(line, 150))
      lines.push_back(l);
  }
  return lines;
}

// The plot command's parts for each curve: simulated values as lines and points (a curve of one point, which draws no
// line, with a marker twice the size), or as bars at x = 1, 2, ... with
// their values written inside at half height, clear of reference points and intervals at the top (`bars`); the
// paper's points, peaks and intervals in the curve's colour.
std::vector<std::string> curve_parts(const PlotSpec& p, bool bars, const std::vector<int>& grow) {
  static const int kPoints[] = {1, 2, 4, 6, 8, 10, 12, 3};
  std::vector<std::string> parts;
  int lc = 1;
  for (const auto& c : p.curves) {
    const std::string src = c.data.starts_with("$") ? c.data : gp_quote(c.data);
    const std::string x = bars ? fmt::format("({})", lc) : fmt::format("(column({}))", gp_quote(p.xcol));
    const std::string y = fmt::format("(column({}))", gp_quote(p.ycol));
    const std::string sim = gp_quote(c.label + " (simulated)");
    if (bars) {
      parts.push_back(fmt::format("{} using {}:{} with boxes lc {} fs solid 0.4 border title {}", src, x, y, lc, sim));
      parts.push_back(fmt::format("{} using {}:({} / 2):(sprintf('%.4g', {})) with labels font ',10' notitle", src, x,
                                  y, y));
    } else {
      parts.push_back(fmt::format("{} using {}:{} with linespoints lc {} dt {} pt {} ps {:g} title {}", src, x, y, lc,
                                  1 + (lc - 1) % 5, kPoints[(lc - 1) % 8],
                                  (c.points.size() == 1 ? 1.4 : 0.7) + 0.6 * grow[lc - 1], sim));
    }
    const std::string rx = bars ? x : "1";
    if (!c.ref.empty())
      parts.push_back(fmt::format("{} using {}:2 with points lc {} pt 7 ps 1.6 title {}",
                                  c.ref.starts_with("$") ? c.ref : gp_quote(c.ref), rx, lc,
                                  gp_quote(c.label + " (" + c.ref_source + ")")));
    for (double v : c.peaks)
      parts.push_back(fmt::format("{} with lines lc {} dt 4 lw 1.5 title {}", v, lc,
                                  gp_quote(fmt::format("{} ({}: peak {:g})", c.label, c.ref_source, v))));
    if (!c.interval.empty())
      parts.push_back(fmt::format("{} using {}:2:3:4 with yerrorbars lc {} pt 6 ps 1.2 title {}", gp_quote(c.interval),
                                  rx, lc, gp_quote(c.label + " (prediction interval: bars, see below)")));
    ++lc;
  }
  return parts;
}

// A curve's simulated (x, y) values: its `points`, or those of its inline datablock of p.inline_data ("$name << EOD",
// a header naming the columns, rows, "EOD"); nullopt when the writer does not know them (a CSV without `points`).
std::optional<std::vector<std::pair<double, double>>> curve_values(const PlotSpec& p, const PlotCurve& c) {
  std::vector<std::pair<double, double>> pts = c.points;
  if (!pts.empty()) return pts;
  if (!c.data.starts_with("$")) return std::nullopt;
  const std::size_t at = p.inline_data.find(c.data + " << EOD\n");
  if (at == std::string::npos) return std::nullopt;
  std::size_t pos = p.inline_data.find('\n', at) + 1;
  int xi = -1, yi = -1;
  for (bool header = true; pos < p.inline_data.size(); header = false) {
    const std::size_t end = std::min(p.inline_data.find('\n', pos), p.inline_data.size());
    const std::string line = p.inline_data.substr(pos, end - pos);
    pos = end + 1;
    if (line == "EOD") break;
    std::vector<std::string> cells;
    for (std::size_t a = 0, b; a <= line.size(); a = b + 1) {
      b = std::min(line.find(',', a), line.size());
      cells.push_back(line.substr(a, b - a));
    }
    if (header) {
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == p.xcol) xi = static_cast<int>(i);
        if (cells[i] == p.ycol) yi = static_cast<int>(i);
      }
      if (xi < 0 || yi < 0) return std::nullopt;
      continue;
    }
    if (std::max(xi, yi) >= static_cast<int>(cells.size())) continue;
    char* e1 = nullptr;
    char* e2 = nullptr;
    const double x = std::strtod(cells[xi].c_str(), &e1), y = std::strtod(cells[yi].c_str(), &e2);
    if (e1 != cells[xi].c_str() && e2 != cells[yi].c_str()) pts.push_back({x, y});
  }
  return pts;
}

// The smallest and largest y value a plot draws (simulated points, reference points, interval ends, peak lines), where
// its scales draw them (x > 0 on a log x axis, y > 0 on a log y axis); nullopt when a curve's values are not known to
// the script's writer (a CSV without `points`, a reference or interval file without its values) or none is drawn.
std::optional<std::pair<double, double>> y_extent(const PlotSpec& p, bool logy) {
  double lo = INFINITY, hi = -INFINITY;
  auto add = [&](double x, double y) {
    if ((p.logx && !(x > 0)) || (logy && !(y > 0)) || !std::isfinite(y)) return;
    lo = std::min(lo, y), hi = std::max(hi, y);
  };
  for (const auto& c : p.curves) {
    const auto pts = curve_values(p, c);
    if (!pts) return std::nullopt;
    for (auto& [x, y] : *pts) add(x, y);
    if (!c.ref.empty() && c.ref_points.empty()) return std::nullopt;
    for (auto& [x, y] : c.ref_points) add(x, y);
    if (!c.interval.empty() && c.interval_points.empty()) return std::nullopt;
    for (auto& [x, y, l, h] : c.interval_points) add(x, y), add(x, l), add(x, h);
    for (double v : c.peaks) add(1, v);
  }
  if (lo > hi) return std::nullopt;
  return std::pair{lo, hi};
}

// What a figure of curves (not bars) whose values the writer knows draws, in fractions of its frame: the x range the
// values' own widened by 2 % either side (set autoscale xfix, set offsets), y in `r`.
FrameDrawing figure_drawing(const PlotSpec& p, const YRange& r) {
  const auto fx = [&](double x) { return p.logx ? std::log2(x) : x; };
  const auto drawn = [&](double x, double y) { return (!p.logx || x > 0) && (!r.log || y > 0) && std::isfinite(y); };
  double x_lo = INFINITY, x_hi = -INFINITY;
  auto see = [&](double x, double y) {
    if (drawn(x, y)) x_lo = std::min(x_lo, fx(x)), x_hi = std::max(x_hi, fx(x));
  };
  std::vector<std::vector<std::pair<double, double>>> values;
  for (const auto& c : p.curves) {
    values.push_back(curve_values(p, c).value_or(std::vector<std::pair<double, double>>{}));
    for (auto& [x, y] : values.back()) see(x, y);
    for (auto& [x, y] : c.ref_points) see(x, y);
    for (auto& [x, y, l, h] : c.interval_points) see(x, y);
  }
  const double span = x_hi > x_lo ? x_hi - x_lo : 1.0;
  const double x0 = x_hi > x_lo ? x_lo - 0.02 * span : x_lo - 0.5, width = x_hi > x_lo ? 1.04 * span : 1.0;
  const auto X = [&](double x) { return (fx(x) - x0) / width; };
  const auto Y = [&](double y) {
    return r.log ? std::log(y / r.lo) / std::log(r.hi / r.lo) : (y - r.lo) / (r.hi - r.lo);
  };
  FrameDrawing d;
  for (std::size_t i = 0; i < p.curves.size(); ++i) {
    const auto& c = p.curves[i];
    std::vector<std::pair<double, double>> line;
    for (auto& [x, y] : values[i])
      if (drawn(x, y)) line.push_back({X(x), Y(y)}), d.marks.push_back(line.back());
    d.lines.push_back(line);
    for (auto& [x, y] : c.ref_points)
      if (drawn(x, y)) d.marks.push_back({X(x), Y(y)});
    for (auto& [x, y, l, h] : c.interval_points)
      if (drawn(x, y)) {
        d.marks.push_back({X(x), Y(y)});
        if (drawn(x, l) && drawn(x, h)) d.lines.push_back({{X(x), Y(l)}, {X(x), Y(h)}});
      }
    for (double v : c.peaks)
      if (!r.log || v > 0) d.levels.push_back(Y(v));
  }
  return d;
}

// How many powers of two the curves' x values span (points with x > 0; 99 when no curve knows its points).
int x_powers(const PlotSpec& p) {
  double lo = INFINITY, hi = 0;
  for (const auto& c : p.curves)
    for (auto& [x, y] : c.points)
      if (x > 0) lo = std::min(lo, x), hi = std::max(hi, x);
  return hi > 0 ? static_cast<int>(std::lround(std::log2(hi / lo))) : 99;
}

// The distance between the smallest and the largest x the curves draw (0 with none).
double x_span(const PlotSpec& p) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& c : p.curves)
    for (auto& [x, y] : c.points) lo = std::min(lo, x), hi = std::max(hi, x);
  return hi >= lo ? hi - lo : 0.0;
}

// The x axis of a figure of one size: one tick per curve, named by what tells its label apart, the size in the label.
// The y axis from 0 to gnuplot's top, 6 % of the frame above the highest bar, point or interval end first, so that
// none touches the frame.
std::string bar_axis(const PlotSpec& p, double x) {
  std::vector<std::string> labels;
  for (const auto& c : p.curves) labels.push_back(c.label);
  const std::vector<std::string> names = label_tails(labels);
  std::string t = "set xtics (";
  for (std::size_t i = 0; i < names.size(); ++i) t += fmt::format("{}{} {}", i ? ", " : "", gp_quote(names[i]), i + 1);
  const std::string at = p.xcol == "bytes" ? byte_label(x) : fmt::format("{:g}", x);
  return t + fmt::format(")\nset xrange [0.4 : {:.1f}]\nset boxwidth 0.5\nset yrange [0 : *]\n"
                         "set offsets 0, 0, graph 0.06, 0\nset xlabel {}\n",
                         static_cast<double>(names.size()) + 0.6,
                         gp_quote(fmt::format("{}: {}", axis_label(p.xcol), at)));
}

}  // namespace

std::string curve_style(std::size_t k) {
  static const int kMarks[] = {1, 2, 4, 6, 8, 10, 12, 3};
  return fmt::format("lc {} dt {} pt {}", k + 1, 1 + k % 5, kMarks[k % 8]);
}

std::string gnuplot_script(const PlotSpec& p) {
  // Tick labels: sizes in bytes as 1 KiB, 32 KiB (explicit tics), counts as plain integers.
  auto fmt_of = [](const std::string& c) {
    if (c == "ranks" || c == "radix" || c == "rank") return std::string("%.0f");
    return std::string("%g");
  };
  auto tics = [&](const std::string& c, char axis) {
    if (c == "bytes") return byte_tics(axis, axis == 'x' && x_powers(p) <= 8);
    std::string t = fmt::format("set format {} {}\n", axis, gp_quote(fmt_of(c)));
    // A count on a linear x axis of a short span (2 to 4 ranks): gnuplot's own step (0.5) would print each whole
    // number twice under "%.0f"; a step of 1 prints each once.
    if (axis == 'x' && fmt_of(c) == "%.0f" && !p.logx && x_span(p) <= 10) t += "set xtics 1\n";
    return t;
  };
  const std::optional<double> one_x = single_x(p);
  const bool bars = one_x.has_value() && !p.curves.empty();
  std::vector<int> grow;
  std::vector<std::string> caption = p.caption;
  for (auto& l : coincidence_lines(p, grow)) caption.push_back(l);
  // The key (key_place): boxed and opaque, markers before the text (never clipped by the frame's right edge); curves
  // differ in dash and marker as well as colour, so two that lie on each other both show.
  // A caption under the frame: the canvas grows by one line of the caption's font per line, the bottom margin with it.
  const int caption_px = 14 * static_cast<int>(caption.size());
  const std::vector<std::string> title_text = title_lines(p.title);
  const std::string title = gp_quote_lines(title_text);
  const std::vector<std::string> parts = curve_parts(p, bars, grow);
  std::vector<std::string> titles;  // the key's entries
  for (const auto& part : parts)
    if (const auto at = part.rfind(" title '"); at != std::string::npos) titles.push_back(part.substr(at + 8));
  const double frame_px = 450.0 - 16.0 * static_cast<double>(std::max<std::size_t>(title_text.size(), 1) - 1);
  const bool logy = p.logy && !bars;
  const std::optional<std::pair<double, double>> ext = bars ? std::nullopt : y_extent(p, logy);
  // The range in numbers from the values drawn (plot_y_range) when the writer knows them; the key in a corner they
  // leave free (bars fill the frame's width: below it).
  std::optional<YRange> range;
  KeyPlace where = KeyPlace::Below;
  if (ext) {
    range = plot_y_range(ext->first, ext->second, logy, 0.0, !logy && starts_at_zero(p.ycol));
    const auto [kw, kh] = key_box_px(titles);
    where = key_place(figure_drawing(p, *range), kw / kFrameWidthPx, kh / frame_px);
  }
  const KeyLayout key = key_layout(where, titles, caption_px);
  const int below_px = key.below_px + caption_px;
  // Points at the first and last x are drawn whole (2 % of the width either side).
  std::string gp = fmt::format(
      "set datafile separator ','\n{}{}{}{}set grid\n"
      "{}{}{}set title {}\nset xlabel {}\nset ylabel {}\n",
      kLinetype5, key.line, p.logx && !bars ? "set logscale x 2\n" : "", p.logy && !bars ? "set logscale y\n" : "",
      bars ? "" : "set autoscale xfix\nset offsets graph 0.02, graph 0.02, 0, 0\n", bars ? "" : tics(p.xcol, 'x'),
      tics(p.ycol, 'y'), title,
      gp_quote(axis_label(p.xcol)), gp_quote(axis_label(p.ycol)));
  if (bars) gp += bar_axis(p, *one_x);
  if (below_px > 0)
    gp += fmt::format("set bmargin {}\n", 4 + (below_px + 15) / 16);  // character heights of the 11 pt font
  for (std::size_t i = 0; i < caption.size(); ++i)
    gp += fmt::format("set label {} {} at screen 0.012, screen {:.4f} left front font ',9'\n", 100 + i,
                      gp_quote(caption[i]), (static_cast<double>(caption_px) - 14.0 * static_cast<double>(i) - 4.0) /
                                                static_cast<double>(600 + below_px));
  gp += p.inline_data;
  std::string plot = "plot ";
  for (std::size_t i = 0; i < parts.size(); ++i) plot += (i ? ", \\\n  " : "") + parts[i];
  plot += "\n";
  const std::string svg_out = fmt::format(
      "set terminal svg size {},{} dynamic noenhanced font 'sans,11' background '#ffffff'\nset output {}\n",
      key.width_px, 600 + below_px, gp_quote(p.svg + ".tmp"));
  if (range) {
    // On a log scale, ticks that read at any span.
    gp += fmt::format("set yrange [{:.6g} : {:.6g}]\n", range->lo, range->hi);
    if (range->log) {
      std::string t = "set ytics (";
      const auto ticks = log_ticks(range->lo, range->hi, frame_px - 20.0);
      for (std::size_t i = 0; i < ticks.size(); ++i)
        t += fmt::format("{}\"{}\" {:g}", i ? ", " : "", tick_label(ticks[i]), ticks[i]);
      gp += t + ")\n";
    }
    return gp + svg_out + plot;
  }
  if (bars) return gp + svg_out + plot;  // from 0 (bar_axis) to gnuplot's top
  // Values the writer does not know (a CSV it did not read): a first pass finds gnuplot's range, the data's own
  // (GPVAL_DATA_Y_*: without rounding to whole decades or tick marks), widened as plot_y_range does.
  gp += "set terminal unknown\n" + plot;
  if (logy)
    gp += "y0 = GPVAL_DATA_Y_MIN; y1 = GPVAL_DATA_Y_MAX; m = (y1 / y0) ** 0.05\nset yrange [y0 / m : y1 * m]\n";
  else
    gp += fmt::format("y0 = GPVAL_DATA_Y_MIN; y1 = GPVAL_DATA_Y_MAX; m = 0.05 * (y1 > y0 ? y1 - y0 : abs(y1) + 1e-12)\n"
                      "y0 = ({} || y0 >= 0 && y0 - m < 0) ? 0 : y0 - m\n"
                      "set yrange [y0 : y1 + m]\n",
                      starts_at_zero(p.ycol) ? "y0 >= 0" : "0");
  return gp + svg_out + "replot\n";
}

bool have_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

// gnuplot writes "<svg>.tmp" (gnuplot_script), renamed to the SVG when it succeeds and removed otherwise, also when
// SIGINT / SIGTERM stops it (core/subprocess.hpp), so no half-drawn SVG stays.
bool run_gnuplot(const std::string& dir, const std::string& script, const std::string& svg) {
  const std::filesystem::path target = std::filesystem::path(dir) / svg, tmp = target.string() + ".tmp";
  std::error_code ec;
  try {
    // a relative script as "./name": never read as one of gnuplot's options
    const std::string arg = std::filesystem::path(script).is_absolute() ? script : "./" + script;
    if (run_program({"gnuplot", arg}, dir)) {
      std::filesystem::rename(tmp, target, ec);
      if (!ec) return true;
    }
  } catch (const Interrupted&) {
    std::filesystem::remove(tmp, ec);
    throw;
  }
  std::filesystem::remove(tmp, ec);
  return false;
}

bool run_gnuplot_once(const std::string& dir, const std::string& script, const std::string& svg) {
  struct RemoveScript {
    std::filesystem::path path;
    ~RemoveScript() {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    }
  } remove_script{std::filesystem::path(dir) / script};
  return run_gnuplot(dir, script, svg);
}

std::set<std::string> plots_listed(const std::string& dir) {
  std::set<std::string> names;
  if (std::ifstream in(std::filesystem::path(dir) / kPlotList); in)
    for (std::string line; std::getline(in, line) && names.size() < 100000;)
      if (!line.empty() && line.find_first_of("/\\") == std::string::npos && line != "." && line != "..")
        names.insert(line);
  return names;
}

void list_plots(const OutputDir& out, const std::string& rel_dir, const std::set<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += n + "\n";
  write_file_atomic(out.file((std::filesystem::path(rel_dir) / kPlotList).generic_string()), list);
}

}  // namespace ompisim::validation
