#include "validation/plot_overlays.hpp"

#include "core/safe_name.hpp"
#include "validation/discovery.hpp"
#include "validation/plot.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <regex>
#include <fmt/format.h>
#include <set>

namespace fs = std::filesystem;

namespace ompisim::validation {

namespace {

std::string stem_of(const std::string& scenario_path) { return fs::path(scenario_path).stem().string(); }

// A figure name's kind and number: "Fig. 7 D2D" and "fig7" -> {"fig", 7}, "Table 2" -> {"table", 2}; {"", -1} else.
std::pair<std::string, int> figure_number(const std::string& name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string kind = lower.starts_with("fig") ? "fig" : lower.starts_with("table") ? "table" : "";
  const std::size_t d = lower.find_first_of("0123456789");
  if (kind.empty() || d == std::string::npos) return {"", -1};
  return {kind, std::stoi(lower.substr(d))};
}

// Whether a claim's text cites figure (kind, n): "(Fig. 4)", "Fig. 7(a)", "(Figs. 7-11)", "(Table 1; ...)".
bool cites(const std::string& text, const std::pair<std::string, int>& fig) {
  static const std::regex re("(Figs?\\.|Table)\\s*(\\d+)(\\s*(?:-|\u2013)\\s*(\\d+))?", std::regex::icase);
  if (fig.second < 0) return false;
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) {
    const bool table = (*it)[1].str()[0] == 'T' || (*it)[1].str()[0] == 't';
    if ((table ? "table" : "fig") != fig.first) continue;
    const int lo = std::stoi((*it)[2].str()), hi = (*it)[4].matched ? std::stoi((*it)[4].str()) : lo;
    if (lo <= fig.second && fig.second <= hi) return true;
  }
  return false;
}

}  // namespace

std::string latency_falls(const Json& points) {
  std::vector<std::pair<double, double>> pts;
  for (const auto& p : points)
    if (p.contains("bytes") && p.contains("latency_us") && p["latency_us"].is_number())
      pts.push_back({p["bytes"].get<double>(), p["latency_us"].get<double>()});
  std::sort(pts.begin(), pts.end());
  auto size = [](double b) {  // 8 KiB, but 8195 B (NetPIPE's perturbed sizes) rather than 8.00293 KiB
    return std::fmod(b, 1024.0) == 0.0 || b < 1024 ? byte_label(b) : fmt::format("{:.0f} B", b);
  };
  std::string out;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const auto [b0, l0] = pts[i - 1];
    const auto [b1, l1] = pts[i];
    if (b1 > b0 && l1 < 0.98 * l0 && l0 - l1 > 0.02)
      out += fmt::format("{}{} {:.2f} us -> {} {:.2f} us", out.empty() ? "" : "; ", size(b0), l0, size(b1), l1);
  }
  return out;
}

std::string common_description(const std::vector<std::string>& ds) {
  if (ds.empty()) return "";
  auto split = [](const std::string& text, const std::string& sep) {
    std::vector<std::string> out;
    std::size_t start = 0, at;
    while ((at = text.find(sep, start)) != std::string::npos) out.push_back(text.substr(start, at - start)), start = at + sep.size();
    out.push_back(text.substr(start));
    return out;
  };
  std::vector<std::vector<std::string>> segs;
  for (const auto& d : ds) segs.push_back(split(d, ", "));
  std::string out;
  for (std::size_t i = 0;; ++i) {
    bool same = true;
    for (const auto& s : segs) same = same && i < s.size() && s[i] == segs[0][i];
    if (same && i < segs[0].size()) {
      out += (i ? ", " : "") + segs[0][i];
      continue;
    }
    std::vector<std::vector<std::string>> words;  // the first differing segment: its common leading words
    for (const auto& s : segs) words.push_back(i < s.size() ? split(s[i], " ") : std::vector<std::string>{});
    std::string part;
    for (std::size_t w = 0;; ++w) {
      bool all = true;
      for (const auto& ws : words) all = all && w < ws.size() && ws[w] == words[0][w];
      if (!all) break;
      part += (w ? " " : "") + words[0][w];
    }
    // After whole segments, a cut segment stays only up to a colon ("16 nodes: block" / "16 nodes: round robin" ->
    // "16 nodes"): its other shared words name what differs without its value ("route policy minimal" / "... ugal").
    if (i > 0) part.resize(part.rfind(':') == std::string::npos ? 0 : part.rfind(':'));
    // A phrase cut mid-way ends on a word that leads on ("... at 4 B and 4 KB with"): those words and a colon go.
    static const std::set<std::string> kLeading = {"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or",
                                                   "over", "the", "to", "with"};
    while (!part.empty()) {
      const std::size_t sp = part.rfind(' ');
      const std::string last = part.substr(sp == std::string::npos ? 0 : sp + 1);
      if (kLeading.count(last)) part.resize(sp == std::string::npos ? 0 : sp);
      else if (part.back() == ':' || part.back() == ',') part.pop_back();
      else break;
    }
    if (!part.empty()) out += (i ? ", " : "") + part;
    while (!out.empty() && (out.back() == ':' || out.back() == ',')) out.pop_back();
    return out;
  }
}

std::string figure_file_stem(const std::string& figure, const std::string& file) {
  std::string t, word;
  for (char c : figure) {
    if (c == '.') continue;
    if (c == ' ') {
      std::string w;
      for (char x : word) w += static_cast<char>(std::tolower(static_cast<unsigned char>(x)));
      if (!t.empty() && t.back() != '_' && w != "fig" && w != "figs" && w != "table") t += '_';
      word.clear();
      continue;
    }
    t += c;
    word += c;
  }
  return label_stem(t, file, "figure");
}

std::map<std::string, std::vector<RefMark>> reference_marks(const std::vector<Json>& docs) {
  std::map<std::string, std::vector<RefMark>> out;
  for (const auto& doc : docs)
    for (const auto& p : doc.value("points", Json::array())) {
      const Json& sel = p.at("select");
      RefMark m;
      m.metric = p.value("metric", "");
      m.y = p.at("value").get<double>();
      m.paper = p.value("figure", "") != "public";
      if (sel.contains("bytes")) m.x = sel["bytes"].get<double>();
      else if (sel.contains("ranks")) m.x = sel["ranks"].get<double>();
      else if (p.contains("bytes") && p["bytes"].is_number()) m.x = p["bytes"].get<double>();  // a peak at its size
      else m.line = sel.value("peak", false);
      m.axis = m.line ? "" : sel.contains("ranks") && !sel.contains("bytes") ? "ranks" : "bytes";
      m.x = std::max(m.x, 1.0);
      out[stem_of(p.at("scenario").get<std::string>())].push_back(m);
    }
  return out;
}

std::vector<RefMark> marks_for(const std::vector<RefMark>& marks, const std::string& ycol) {
  std::vector<RefMark> out;
  for (const auto& m : marks)
    if (m.metric == ycol || m.metric == "peak_" + ycol) out.push_back(m);
  return out;
}

std::string overlay_marks(const std::vector<RefMark>& marks, const std::string& ycol, PlotCurve& pc, CaptionInput& cap) {
  std::string pts;  // "x,y" lines: the scripts' datafile separator is ','
  for (const RefMark& m : marks_for(marks, ycol)) {
    if (m.line) pc.peaks.push_back(m.y);
    else pts += fmt::format("{},{}\n", m.x, m.y), pc.ref_points.push_back({m.x, m.y});
    if (!m.line) (m.paper ? cap.paper_points : cap.public_points) = true;
    cap.peak_lines = cap.peak_lines || m.line;
    if (!m.paper) pc.ref_source = "public measurement";
  }
  return pts;
}

std::map<std::string, std::vector<std::array<double, 4>>> interval_marks(const std::vector<Json>& docs,
                                                                          const Json& v) {
  std::map<std::string, Json> entry;  // reference id -> its entry (points and held-out values)
  for (const auto& doc : docs)
    for (const char* list : {"points", "held_out"})
      for (const auto& p : doc.value(list, Json::array())) entry[p.at("id").get<std::string>()] = p;
  std::map<std::string, std::vector<std::array<double, 4>>> out;
  for (const char* list : {"points", "held_out"})
    for (const auto& p : v.value(list, Json::array())) {
      auto it = entry.find(p.value("id", ""));
      if (!p.contains("interval") || it == entry.end()) continue;
      const Json& sel = it->second.at("select");
      if (!sel.contains("bytes") && !sel.contains("ranks")) continue;  // a peak: no x of its own
      const double x = sel.contains("bytes") ? sel["bytes"].get<double>() : sel["ranks"].get<double>();
      const double y = p["simulated"].get<double>(), lo = p["interval"][0].get<double>(),
                   hi = p["interval"][1].get<double>();
      if (!(hi - lo > 1e-6 * std::max(std::fabs(y), 1e-300))) continue;  // zero width: no bar
      out[stem_of(p["scenario"].get<std::string>())].push_back({std::max(x, 1.0), y, lo, hi});
    }
  return out;
}

std::vector<std::string> figure_caption(const CaptionInput& in, const std::vector<Json>& docs, const Json& v,
                                        std::size_t width) {
  std::vector<std::string> out;
  auto add = [&](const std::string& text) {
    for (auto& l : wrap_words(text, width)) out.push_back(l);
  };
  std::vector<std::string> shown;
  if (in.paper_points) shown.push_back("filled circles: the paper's values");
  if (in.public_points)
    shown.push_back("filled circles keyed \"public measurement\": measurements of the same system published elsewhere "
                    "(the paper quotes no numbers here)");
  if (in.peak_lines) shown.push_back("dashed lines: a peak value given without a message size");
  if (!shown.empty()) {
    std::string text;
    for (const auto& p : shown) text += (text.empty() ? "" : "; ") + p;
    text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    add(text + ".");
  } else if (in.paper_figure) {
    add("The paper gives no data points for this figure; the model is checked against its statements below.");
  }
  if (in.intervals)
    add("Bars: prediction interval of a predicted or held-out point, the range of the simulated value over the "
        "sampled estimated parameters (validation/README.md); a point they do not move has no bar.");
  // a claim's verdict as the validation table gives it: at the nominal parameters, then over the samples when they
  // were drawn and say otherwise ("holds; undecided over the samples")
  std::map<std::string, std::string> status;
  for (const auto& c : v.value("claims", Json::array())) {
    const std::string nominal = c.contains("holds") ? (c.value("holds", false) ? "holds" : "fails") : "";
    const std::string sampled = c.value("status", "");
    status[c.value("id", "")] = nominal.empty()                         ? sampled
                                : sampled.empty() || sampled == nominal ? nominal
                                                                         : nominal + "; " + sampled + " over the samples";
  }
  const std::set<std::string> mine(in.scenarios.begin(), in.scenarios.end());
  bool first = true;
  const auto fig = figure_number(in.figure);
  for (const auto& doc : docs)
    for (const auto& c : doc.value("claims", Json::array())) {
      const std::set<std::string> named = scenarios_named(c.value("check", Json()));
      const bool checked_here =
          std::any_of(named.begin(), named.end(), [&](const std::string& s) { return mine.count(s) > 0; });
      const std::string text = c.value("text", "");
      if (!checked_here && !(doc.value("paper", "") == in.paper && cites(text, fig))) continue;
      if (first) add("The paper on this figure, and whether the model's reading of it holds:"), first = false;
      std::string st = checked_here && status.count(c.value("id", "")) ? status[c.value("id", "")] : "";
      if (!checked_here) st = "checked on the other curves it names, not on these";
      add(fmt::format("- \"{}\" ({})", text, st.empty() ? "not checked" : st));
    }
  for (const auto& f : in.falls)
    add(fmt::format("Latency falls with message size: {} (a protocol or algorithm switch of the model; validation/notes.md, "
                    "\"Latency that falls with message size\").", f));
  return out;
}

}  // namespace ompisim::validation
