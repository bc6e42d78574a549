#include "validation/claims.hpp"

#include "core/errors.hpp"
#include "validation/gap.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <vector>

namespace ompisim::validation {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

// The table of validation/README.md, "Readings" (keep the two together).
const std::vector<Reading>& readings() {
  static const std::vector<Reading> r{
      {"much better", "gap", 50, kInf, "the better value is at least 1.5 x the other (|gap| >= 50 %), one-sided"},
      {"much worse", "gap", 50, kInf, "as 'much better', the sign the other way"},
      {"significantly", "gap", 10, kInf, "|gap| >= 10 %, one-sided"},
      {"slightly", "gap", 0, 10, "0 < |gap| <= 10 %, two-sided (also 'a slight advantage')"},
      {"very slightly", "gap", 0, 5, "0 < |gap| <= 5 %, two-sided (also 'a very slight advantage'): half of 'slightly'"},
      {"nearly half", "gap", 100, 150,
       "the smaller is 40 to 50 % of the larger (|gap| 100 to 150 %): 'half' at most, 'nearly' at least 0.4, two-sided"},
      {"twice", "gap", 100 / 1.5, 100 * 1.5, "the stated gap of 100 % within the factor 1.5 (67 to 150 %)"},
      {"similar", "within", 0, 25, "|a - b| <= 25 % of b (also 'comparable', 'roughly the same', 'converge'), two-sided"},
      {"very similar", "within", 0, 10, "|a - b| <= 10 % of b (also 'about the same', 'nearly identical'), two-sided"},
      {"tracks", "within", 0, 25, "at every common size |a - b| <= 25 % of b (as 'similar', point by point)"},
      {"roughly matches", "within", 0, 25, "as 'similar'"},
      {"much smoother", "smoother", 2, kInf, "the rougher curve's largest fall (metric below its best at a smaller size) is at least 2 x the smoother one's"},
      {"marginal", "gap", 0, 10, "0 < |gap| <= 10 %, two-sided: as 'slightly'"},
      {"particularly worse", "gap", 5, kInf,
       "|gap| >= 5 %, one-sided (also 'noticeably'; 'no noticeable' difference is below it): half of 'significantly'"},
  };
  return r;
}

const std::vector<std::pair<std::string, std::string>>& reading_phrases() {
  static const std::vector<std::pair<std::string, std::string>> p = [] {
    std::vector<std::pair<std::string, std::string>> v{
        {"much better", "much better"}, {"much worse", "much worse"}, {"much higher", "much better"},
        {"much lower", "much better"}, {"significantly", "significantly"}, {"significant", "significantly"},
        {"a marked", "significantly"},
        {"very slight", "very slightly"}, {"slight", "slightly"}, {"nearly half", "nearly half"}, {"twice", "twice"},
        {"very similar", "very similar"}, {"about the same", "very similar"}, {"nearly identical", "very similar"},
        {"about equal", "very similar"}, {"similar", "similar"}, {"comparable", "similar"},
        {"roughly the same", "similar"}, {"converge", "similar"}, {"tracks", "tracks"},
        {"roughly matches", "roughly matches"}, {"much smoother", "much smoother"}, {"marginal", "marginal"},
        {"particularly worse", "particularly worse"}, {"noticeabl", "particularly worse"}};
    std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first.size() > b.first.size(); });
    return v;
  }();
  return p;
}

std::vector<std::string> readings_in_text(const std::string& text) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::vector<std::string> out;
  for (auto& [phrase, reading] : reading_phrases())
    for (auto at = t.find(phrase); at != std::string::npos; at = t.find(phrase, at)) {
      t.replace(at, phrase.size(), std::string(phrase.size(), '#'));  // a shorter phrase inside it does not count again
      if (std::find(out.begin(), out.end(), reading) == out.end()) out.push_back(reading);
    }
  return out;
}

namespace {
// The text gives a value of its own (a percentage, a time, a bandwidth), which sets the check: "similar (0.52 usecs
// each)" is the two equal values, not the word. "Half" and "twice" are words of the table and do not exempt.
bool gives_value(const std::string& text) {
  static const std::regex value(R"(\d+(\.\d+)?\s*(%|percent|us|usecs?|µs|microseconds?|ms|msecs?|GB/s|MB/s|Gbit/s|Mbit/s)(\b|$))",
                                std::regex::icase);
  return std::regex_search(text, value);
}

// 'much worse' is 'much better' with the sign the other way (the same range): one word for the test.
std::string same_range(const std::string& reading) { return reading == "much worse" ? "much better" : reading; }

void readings_used(const Json& chk, std::set<std::string>& out) {
  if (chk.contains("reading") && chk["reading"].is_string()) out.insert(same_range(chk["reading"].get<std::string>()));
  if (chk.value("kind", "less") == "all_of")
    for (auto& s : chk.at("checks")) readings_used(s, out);
}
}  // namespace

std::vector<std::string> unread_words(const Json& doc) {
  std::vector<std::string> out;
  for (auto& c : doc.value("claims", Json::array())) {
    const std::string text = c.value("text", "");
    if (gives_value(text)) continue;
    std::set<std::string> used;
    readings_used(c.at("check"), used);
    for (auto& r : readings_in_text(text))
      if (!used.count(same_range(r))) out.push_back(c.value("id", "?") + ": " + r);
  }
  return out;
}

namespace {
void difference_windows(const Json& chk, const std::string& id, std::vector<std::string>& out) {
  const std::string kind = chk.value("kind", "less");
  if (kind == "all_of") {
    for (auto& s : chk.at("checks")) difference_windows(s, id, out);
    return;
  }
  if (kind != "difference" || !chk.contains("min") || !chk.contains("max")) return;
  const double lo = chk.at("min").get<double>(), hi = chk.at("max").get<double>();
  const double t = kAmountTolerancePct / 100;
  const double want = chk.contains("b") ? kGapFactor * kGapFactor : (1 + t) / (1 - t);
  const bool ok = lo * hi > 0 && std::fabs(std::fabs(hi / lo) - want) <= 1e-3 * want;
  if (!ok) out.push_back(id + " (" + chk.value("label", "difference") + ")");
}
}  // namespace

std::vector<std::string> misread_amounts(const Json& doc) {
  std::vector<std::string> out;
  for (auto& c : doc.value("claims", Json::array())) difference_windows(c.at("check"), c.value("id", "?"), out);
  for (const char* list : {"table1", "mechanism_checks"})
    for (auto& e : doc.value(list, Json::array()))
      if (e.value("op", "") == "difference" && !(e.contains("factor") && e.at("factor") == kGapFactor))
        out.push_back(e.value("id", "?"));
  return out;
}

// A protocol transition shows as the metric falling while the size grows; a rising curve has no fall, however steep
// its ramp (the largest step between consecutive sizes would measure the ramp of a latency-bound curve, about x1.8 per
// doubling around 1 KiB, and not the transition).
double largest_fall(const Json& points, const std::string& metric, long long min_bytes) {
  double worst = 0, best = 0;
  for (auto& p : points) {
    if (p.at("bytes").get<long long>() < min_bytes) continue;
    const double v = p.at(metric).get<double>();
    if (best > 0 && v > 0) worst = std::max(worst, std::log(best / v));
    best = std::max(best, v);
  }
  return worst;
}

const Reading* find_reading(const std::string& name) {
  for (auto& r : readings())
    if (r.name == name) return &r;
  return nullptr;
}

std::pair<double, double> gap_range(double paper_pct, double factor, const Reading* r) {
  if (r) return {r->lo, r->hi};
  const double p = std::fabs(paper_pct);
  return {p / factor, p * factor};
}

bool quantified_text(const std::string& text) {
  static const std::regex number(
      R"((\d+(\.\d+)?\s*(%|percent))|\btwice\b|\bhalf\b|\bdoubl\w*|\bthree times\b|\b\d+(\.\d+)?\s*(x|times|-fold)\b|)"
      R"(\b\d+(\.\d+)?\s*(us|usecs?|µs|microseconds?|ns|ms|msecs?|GB/s|MB/s|Gbit/s|Mbit/s)(\b|$)|\\mu)",
      std::regex::icase);
  return std::regex_search(text, number);
}

bool has_magnitude(const Json& chk) {
  const std::string kind = chk.value("kind", "less");
  if (kind == "less") return chk.contains("factor") || chk.contains("margin_pct");
  if (kind == "less_all") return chk.contains("margin_pct");
  if (kind == "all_of") {  // a sentence with a number and orders beside it: the number is checked by one sub-check
    for (auto& s : chk.at("checks"))
      if (has_magnitude(s)) return true;
    return false;
  }
  if (kind == "smoother") return chk.contains("reading");
  return true;  // gap, within, difference, additive, differs: each a magnitude
}

std::vector<std::string> unquantified_orderings(const Json& doc) {
  std::vector<std::string> out;
  for (auto& c : doc.value("claims", Json::array()))
    if (quantified_text(c.value("text", "")) && !has_magnitude(c.at("check"))) out.push_back(c.value("id", "?"));
  return out;
}

namespace {

using Keys = std::set<std::string>;

const std::map<std::string, Keys>& check_keys() {
  static const std::map<std::string, Keys> k{
      {"less", {"a", "b", "factor", "margin_pct"}},
      {"gap", {"a", "b", "paper_gap_pct", "factor", "reading"}},
      {"mean_gap", {"pairs", "paper_gap_pct", "factor", "reading"}},
      {"within", {"a", "b", "tolerance_pct", "reading"}},
      {"difference", {"a", "b", "min", "max"}},
      {"additive", {"a", "parts", "min_fraction"}},
      {"less_all", {"a", "b", "metric", "margin_pct"}},
      {"differs", {"a", "b", "metric", "min_bytes", "min_pct"}},
      {"smoother", {"a", "b", "metric", "min_bytes", "reading"}},
      {"all_of", {"checks"}},
  };
  return k;
}

// The keys each check kind reads without a default (validate.cpp eval_check); a and b are checked by the caller.
std::vector<const char*> required_keys(const std::string& kind) {
  if (kind == "difference") return {"min", "max"};
  if (kind == "additive") return {"parts", "min_fraction"};
  if (kind == "less_all" || kind == "smoother") return {"metric"};
  if (kind == "differs") return {"metric", "min_pct"};
  return {};
}

}  // namespace

bool scenario_path_inside(const std::string& rel) {
  const std::filesystem::path p(rel);
  if (p.is_absolute() || rel.front() == '/') return false;
  return std::none_of(p.begin(), p.end(), [](const std::filesystem::path& part) { return part == ".."; });
}

namespace {

struct Checker {
  const std::string& f;
  bool (*exists)(const std::string&);

  void fail(const std::string& key, const std::string& why) const { throw InputError(f, key, why); }

  void number(const Json& j, const std::string& key) const {
    if (!j.is_number()) fail(key, "must be a number");
  }
  void finite(const Json& j, const std::string& key) const {
    if (!j.is_number() || !std::isfinite(j.get<double>())) fail(key, "must be a finite number");
  }

  void scenario(const Json& s, const std::string& key) const {
    if (!s.is_string()) fail(key, "must be a scenario path (a string)");
    const std::string rel = s.get<std::string>();
    if (rel.empty() || rel.size() > 1024) fail(key, "must be a scenario path of 1 to 1024 characters");
    if (!scenario_path_inside(rel))
      fail(key, "'" + rel + "' must be a path inside the data folder (relative, without '..'), e.g. scenarios/...");
    if (!exists(rel)) fail(key, "no scenario file '" + rel + "'");
  }

  void string(const Json& j, const std::string& key) const {
    if (!j.is_string()) fail(key, "must be a string");
  }

  // one entry of "points" (point = true) or "held_out"
  void point(const Json& p, const std::string& key, bool is_point) const {
    if (!p.is_object()) fail(key, "must be an object");
    static const Keys point_keys{"benchmark", "bytes", "figure", "fits", "id", "metric", "model_change", "note",
                                 "placement", "quotes", "ranks", "role", "role_note", "scenario", "select", "source",
                                 "stack", "tolerance_pct", "value"};
    for (auto& [k, x] : p.items())
      if (!point_keys.count(k) || (!is_point && (k == "value" || k == "role" || k == "tolerance_pct")))
        fail(key + "." + k.substr(0, 64), is_point ? "unknown key of a point" : "unknown key of a held-out value (it has no value, role or tolerance)");
    for (const char* k : {"id", "scenario", "select", "metric"})
      if (!p.contains(k)) fail(key + "." + k, "missing");
    string(p["id"], key + ".id");
    scenario(p["scenario"], key + ".scenario");
    string(p["metric"], key + ".metric");
    const Json& sel = p["select"];
    if (!sel.is_object() || sel.empty()) fail(key + ".select", "must be a non-empty object (bytes, ranks or peak)");
    for (auto& [k, x] : sel.items()) {
      if (k == "peak") {
        if (!x.is_boolean()) fail(key + ".select.peak", "must be true or false");
      } else if (k == "bytes" || k == "ranks") {
        if (!x.is_number() || !std::isfinite(x.get<double>())) fail(key + ".select." + k, "must be a number");
      } else {
        fail(key + ".select." + k, "unknown key (bytes, ranks, peak)");
      }
    }
    for (const char* k : {"bytes", "ranks", "tolerance_pct"})
      if (p.contains(k) && (!p[k].is_number() || !std::isfinite(p[k].get<double>()) || p[k].get<double>() < 0))
        fail(key + "." + k, "must be a non-negative number");
    if (p.contains("model_change")) {  // {change, mechanism, before}: validate_render.cpp lists it
      const Json& m = p["model_change"];
      if (!m.is_object() || !m.contains("change") || !m["change"].is_string() || !m.contains("mechanism") ||
          !m["mechanism"].is_string() || (m.contains("before") && !m["before"].is_number()) || m.size() > 3 ||
          (m.size() == 3 && !m.contains("before")))
        fail(key + ".model_change", "must be {\"change\": text, \"mechanism\": text, \"before\": number}");
    }
    for (const char* k : {"figure", "benchmark", "placement", "stack", "source", "note", "role_note", "fits"})
      if (p.contains(k)) string(p[k], key + "." + k);
    if (!is_point) return;
    if (!p.contains("role")) fail(key + ".role", "missing");
    if (p["role"] != "calibration" && p["role"] != "prediction") fail(key + ".role", "must be \"calibration\" or \"prediction\"");
    if (!p.contains("value")) fail(key + ".value", "missing");
    if (!p["value"].is_number() || !std::isfinite(p["value"].get<double>()) || !(p["value"].get<double>() > 0))
      fail(key + ".value", "must be a finite positive number (the paper's value: a time, a rate or a share)");
  }

  // {scenario, select, metric}
  void value_ref(const Json& v, const std::string& key) const {
    if (!v.is_object()) fail(key, "must be an object {scenario, select, metric}");
    for (auto& [k, x] : v.items())
      if (k != "scenario" && k != "select" && k != "metric") fail(key + "." + k, "unknown key (scenario, select, metric)");
    for (const char* k : {"scenario", "select", "metric"})
      if (!v.contains(k)) fail(key + "." + k, "missing");
    scenario(v["scenario"], key + ".scenario");
    if (!v["select"].is_object() || v["select"].empty())
      fail(key + ".select", "must be a non-empty object (bytes, ranks or peak)");
    for (auto& [k, x] : v["select"].items())
      if (k != "bytes" && k != "ranks" && k != "peak") fail(key + ".select." + k, "unknown key (bytes, ranks, peak)");
    if (!v["metric"].is_string()) fail(key + ".metric", "must be a string");
  }

  const Reading* reading(const Json& chk, const std::string& kind, const std::string& key) const {
    if (!chk.contains("reading")) return nullptr;
    if (!chk["reading"].is_string()) fail(key + ".reading", "must be a string naming a reading");
    const Reading* r = find_reading(chk["reading"].get<std::string>());
    if (!r) fail(key + ".reading", "'" + chk["reading"].get<std::string>() + "' is not a defined reading (validation/README.md)");
    if (r->check != kind) fail(key + ".reading", "'" + r->name + "' is a reading for '" + r->check + "' checks, not '" + kind + "'");
    return r;
  }

  // a and b (value references) compared by a gap: their metrics must have one direction
  void same_direction(const Json& a, const Json& b, const std::string& key) const {
    try {
      const Better da = better_of_metric(a["metric"].get<std::string>());
      if (better_of_metric(b["metric"].get<std::string>()) != da)
        fail(key + ".b.metric", "a and b metrics have different directions (lower / higher is better)");
    } catch (const std::invalid_argument& e) {
      fail(key + ".a.metric", e.what());
    }
  }

  // mean_gap: pairs [{label, a, b}], each pair's metrics of one direction, and all pairs the same direction
  void mean_gap(const Json& chk, const std::string& key) const {
    const Json* ps = chk.contains("pairs") ? &chk["pairs"] : nullptr;
    if (!ps || !ps->is_array() || ps->empty()) fail(key + ".pairs", "must be a non-empty array of {label, a, b}");
    for (std::size_t i = 0; i < ps->size(); ++i) {
      const Json& p = (*ps)[i];
      const std::string k = key + ".pairs[" + std::to_string(i) + "]";
      if (!p.is_object()) fail(k, "must be an object {label, a, b}");
      for (auto& [n, x] : p.items())
        if (n != "label" && n != "a" && n != "b") fail(k + "." + n, "unknown key (label, a, b)");
      for (const char* ab : {"a", "b"}) {
        if (!p.contains(ab)) fail(k + "." + ab, "missing");
        value_ref(p[ab], k + "." + ab);
      }
      same_direction(p["a"], p["b"], k);
      if (i > 0 && better_of_metric(p["a"]["metric"].get<std::string>()) !=
                       better_of_metric((*ps)[0]["a"]["metric"].get<std::string>()))
        fail(k + ".a.metric", "this pair's metric has another direction (lower / higher is better) than pairs[0]'s");
    }
    gap(chk, key);
  }

  void gap(const Json& chk, const std::string& key) const {
    if (!chk.contains("paper_gap_pct")) fail(key + ".paper_gap_pct", "missing (the paper's signed gap, percent)");
    number(chk["paper_gap_pct"], key + ".paper_gap_pct");
    const double p = chk["paper_gap_pct"].get<double>();
    if (p == 0 || !std::isfinite(p))
      fail(key + ".paper_gap_pct", "must be non-zero (a signed gap; for 'the same' use a within check)");
    if (chk.contains("factor")) {
      number(chk["factor"], key + ".factor");
      if (!(chk["factor"].get<double>() >= 1)) fail(key + ".factor", "must be >= 1");
    }
    if (const Reading* r = reading(chk, "gap", key); r && (std::fabs(p) < r->lo || std::fabs(p) > r->hi))
      fail(key + ".paper_gap_pct", "|" + std::to_string(p) + "| is outside the reading '" + r->name + "'");
    if (chk.contains("a")) same_direction(chk["a"], chk["b"], key);
  }

  void check(const Json& chk, const std::string& key) const {
    if (!chk.is_object()) fail(key, "must be an object");
    if (chk.contains("kind") && !chk["kind"].is_string()) fail(key + ".kind", "must be a string naming a check kind");
    const std::string kind = chk.value("kind", "less");
    auto it = check_keys().find(kind);
    if (it == check_keys().end()) fail(key + ".kind", "unknown check kind '" + kind + "'");
    for (auto& [k, x] : chk.items())
      if (k != "kind" && k != "label" && k != "note" && !it->second.count(k)) fail(key + "." + k, "unknown key for a '" + kind + "' check");
    for (const char* k : {"label", "note"})
      if (chk.contains(k)) string(chk[k], key + "." + k);
    if (kind == "all_of") {
      if (!chk.contains("checks") || !chk["checks"].is_array() || chk["checks"].empty())
        fail(key + ".checks", "must be a non-empty array");
      for (std::size_t i = 0; i < chk["checks"].size(); ++i) check(chk["checks"][i], key + ".checks[" + std::to_string(i) + "]");
      return;
    }
    if (kind == "mean_gap") return mean_gap(chk, key);
    const bool curves = kind == "less_all" || kind == "differs" || kind == "smoother";
    for (const char* ab : {"a", "b"}) {
      if (kind == "additive" && ab[0] == 'b') continue;
      if (kind == "difference" && ab[0] == 'b' && !chk.contains("b")) continue;
      if (!chk.contains(ab)) fail(key + "." + ab, "missing");
      if (curves) scenario(chk[ab], key + "." + ab);
      else value_ref(chk[ab], key + "." + ab);
    }
    for (const char* k : {"factor", "margin_pct", "tolerance_pct", "min", "max", "min_fraction", "min_pct", "min_bytes"})
      if (chk.contains(k)) finite(chk[k], key + "." + k);
    for (const char* k : required_keys(kind))
      if (!chk.contains(k)) fail(key + "." + k, "missing (a '" + kind + "' check needs it)");
    for (const char* k : {"margin_pct", "tolerance_pct", "min_bytes"})
      if (chk.contains(k) && chk[k].get<double>() < 0) fail(key + "." + k, "must not be negative");
    for (const char* k : {"min_fraction", "min_pct"})
      if (chk.contains(k) && !(chk[k].get<double>() > 0)) fail(key + "." + k, "must be positive");
    if (kind == "less" && chk.contains("factor") && !(chk["factor"].get<double>() > 0))
      fail(key + ".factor", "must be positive (a < factor x b)");
    if (chk.contains("metric")) string(chk["metric"], key + ".metric");
    if (kind == "difference" && chk["min"].get<double>() > chk["max"].get<double>())
      fail(key + ".max", "must not be below min");
    if (kind == "gap") gap(chk, key);
    if (kind == "within" && !reading(chk, "within", key) && !chk.contains("tolerance_pct"))
      fail(key + ".tolerance_pct", "missing (or a 'reading')");
    if (kind == "smoother") reading(chk, "smoother", key);
    if (kind == "additive") {
      if (!chk["parts"].is_array() || chk["parts"].empty()) fail(key + ".parts", "must be a non-empty array of values");
      for (std::size_t i = 0; i < chk["parts"].size(); ++i) value_ref(chk["parts"][i], key + ".parts[" + std::to_string(i) + "]");
    }
  }
};

}  // namespace

void check_points_input(const Json& doc, const std::string& f, bool (*scenario_exists)(const std::string&)) {
  Checker c{f, scenario_exists};
  if (!doc.is_object()) c.fail("(top level)", "must be an object (a reference file: points, claims, ...)");
  static const Keys top{"applications", "calibration_directions", "claims", "facts", "fit_gaps", "fit_gaps_reading", "held_out",
                        "mechanism_checks", "paper", "points", "prediction_tolerance_pct", "provenance", "table1",
                        "title", "tolerance_pct", "unchecked_claims", "unstated_placement", "untested"};
  for (auto& [k, x] : doc.items())
    if (!top.count(k)) c.fail(k.substr(0, 64), "unknown key of a reference file");
  if (!doc.contains("points")) c.fail("points", "missing");
  // The paper a reference file speaks for is the file's name (discovery.cpp reference_files); the key must say the same.
  const std::string stem = std::filesystem::path(f).stem().string();
  if (doc.contains("paper") && (!doc["paper"].is_string() || doc["paper"].get<std::string>() != stem))
    c.fail("paper", "must be \"" + stem + "\", the reference file's name");
  for (const char* list : {"points", "held_out", "claims", "untested", "fit_gaps"})
    if (doc.contains(list) && !doc[list].is_array()) c.fail(list, "must be an array");
  for (const char* k : {"tolerance_pct", "prediction_tolerance_pct"})
    if (doc.contains(k) && (!doc[k].is_number() || !(doc[k].get<double>() >= 0) || !std::isfinite(doc[k].get<double>())))
      c.fail(k, "must be a non-negative number (percent)");
  const Json& pts = doc["points"];
  std::map<std::string, std::string> ids;  // id -> the entry that gave it: tables and fits are keyed by it
  auto unique_id = [&](const Json& p, const std::string& key) {
    if (auto [at, fresh] = ids.emplace(p["id"].get<std::string>(), key); !fresh)
      c.fail(key + ".id", "'" + at->first + "' is already the id of " + at->second);
  };
  for (std::size_t i = 0; i < pts.size(); ++i) {
    c.point(pts[i], "points[" + std::to_string(i) + "]", true);
    unique_id(pts[i], "points[" + std::to_string(i) + "]");
  }
  const Json& hos = doc.value("held_out", Json::array());
  for (std::size_t i = 0; i < hos.size(); ++i) {
    c.point(hos[i], "held_out[" + std::to_string(i) + "]", false);
    unique_id(hos[i], "held_out[" + std::to_string(i) + "]");
  }
  // Directions of fitted parameters that the prediction intervals sample (intervals.cpp): {machine, label, source,
  // direction: {parameter: coefficient}, range: [lo, hi] in log units}. The parameters are checked against the machine
  // when the intervals are sampled.
  const Json& dirs = doc.value("calibration_directions", Json::array());
  if (!dirs.is_array()) c.fail("calibration_directions", "must be an array");
  static const Keys dir_keys{"direction", "label", "machine", "range", "source"};
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Json& d = dirs[i];
    const std::string key = "calibration_directions[" + std::to_string(i) + "]";
    if (!d.is_object()) c.fail(key, "must be an object {machine, label, source, direction, range}");
    for (auto& [k, x] : d.items())
      if (!dir_keys.count(k)) c.fail(key + "." + k.substr(0, 64), "unknown key (machine, label, source, direction, range)");
    for (const char* k : {"machine", "label", "source", "direction", "range"})
      if (!d.contains(k)) c.fail(key + "." + k, "missing");
    for (const char* k : {"machine", "label", "source"}) c.string(d[k], key + "." + k);
    const Json& dir = d["direction"];
    if (!dir.is_object() || dir.empty()) c.fail(key + ".direction", "must be a non-empty object {parameter: coefficient}");
    for (auto& [k, x] : dir.items())
      if (!x.is_number() || !std::isfinite(x.get<double>())) c.fail(key + ".direction." + k.substr(0, 64), "must be a number");
    const Json& r = d["range"];
    if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number() ||
        !std::isfinite(r[0].get<double>()) || !std::isfinite(r[1].get<double>()) ||
        !(r[0].get<double>() < r[1].get<double>()) || std::abs(r[0].get<double>()) > 10 || std::abs(r[1].get<double>()) > 10)
      c.fail(key + ".range", "must be [lo, hi], lo < hi, in log units within [-10, 10]");
  }
}

void check_value_ref(const Json& ref, const std::string& f, const std::string& key,
                     bool (*scenario_exists)(const std::string&)) {
  Checker{f, scenario_exists}.value_ref(ref, key);
}

void check_claims_input(const Json& doc, const std::string& f, bool (*scenario_exists)(const std::string&)) {
  static const Keys claim_keys{"id", "text", "check", "not_holding", "note", "alternative", "role"};
  Checker c{f, scenario_exists};
  if (!doc.is_object()) c.fail("(top level)", "must be an object (a reference file: points, claims, ...)");
  const Json& claims = doc.value("claims", Json::array());
  std::set<std::string> claim_ids;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const Json& cl = claims[i];
    const std::string key = "claims[" + (cl.contains("id") && cl["id"].is_string() ? cl["id"].get<std::string>()
                                                                                  : std::to_string(i)) + "]";
    if (!cl.is_object()) c.fail(key, "must be an object");
    for (auto& [k, x] : cl.items())
      if (!claim_keys.count(k)) c.fail(key + "." + k, "unknown key (id, text, check, not_holding, note, alternative, role)");
    if (cl.contains("role") && cl["role"] != "calibration")
      c.fail(key + ".role", "must be \"calibration\" (a check that reads back a model input) or absent");
    if (!cl.contains("id")) c.fail(key + ".id", "missing");
    c.string(cl["id"], key + ".id");
    if (!claim_ids.insert(cl["id"].get<std::string>()).second)
      c.fail("claims[" + std::to_string(i) + "].id", "'" + cl["id"].get<std::string>() + "' is the id of an earlier claim");
    for (const char* k : {"text", "note"})
      if (cl.contains(k)) c.string(cl[k], key + "." + k);
    if (!cl.contains("check")) c.fail(key + ".check", "missing");
    if (cl.contains("alternative")) {  // the other number where the paper contradicts itself: {text, paper_gap_pct}
      const Json& a = cl["alternative"];
      if (!a.is_object() || !a.contains("text") || !a.contains("paper_gap_pct") || !a["paper_gap_pct"].is_number())
        c.fail(key + ".alternative", "must be {\"text\", \"paper_gap_pct\": number}");
    }
    c.check(cl["check"], key + ".check");
  }
  for (const char* list : {"untested"}) {
    const Json& u = doc.value(list, Json::array());
    for (std::size_t i = 0; i < u.size(); ++i) {
      const std::string key = std::string(list) + "[" + std::to_string(i) + "]";
      if (!u[i].is_object() || !u[i].contains("id") || !u[i].contains("text") || !u[i].contains("reason"))
        c.fail(key, "must be {\"id\", \"text\", \"reason\"} (why it is not checked)");
    }
  }
}

}  // namespace ompisim::validation
