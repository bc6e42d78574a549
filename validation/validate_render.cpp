// Rendering of a validation result as Markdown: the per-paper summary, the claims that do not hold with their
// reasons and measures over the samples, the calibration pairs and the table of points (results/validation.md).
#include "validation/validate.hpp"

#include "validation/gap.hpp"
#include "validation/table1.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace ompisim::validation {
namespace {

std::string cell(const std::string& s) {  // a Markdown table cell: no '|' or line break inside
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return o;
}

}  // namespace

// A claim's measures over the samples (intervals.hpp), in words: per measure its interval, then the paper's number
// inside or outside it (a gap), or whether the interval reaches the accepted range (the other checks).
std::string measures_text(const Json& c) {
  std::string out;
  auto bound = [](const Json& x, const char* inf) { return x.is_null() ? std::string(inf) : fmt::format("{:.3g}", x.get<double>()); };
  for (auto& m : c.value("measures", Json::array())) {
    if (!m.contains("interval")) continue;
    const std::string label = m.value("label", "");
    out += fmt::format("{}{}{} [{:.3g}, {:.3g}]", out.empty() ? "" : "; ", label.empty() ? "" : label + ": ",
                       m.at("measure").get<std::string>(), m["interval"][0].get<double>(), m["interval"][1].get<double>());
    if (!m.at("paper").is_null())
      out += fmt::format(", paper {:+.3g} {}", m["paper"].get<double>(),
                         m.value("paper_inside", false) ? "inside" : "**outside**");
    else
      out += fmt::format(", accepted [{}, {}{} {}", bound(m["accepted"][0], "-inf"), bound(m["accepted"][1], "inf"),
                         m.value("accepted_below_upper", false) ? ")" : "]",
                         m.value("accepted_inside", false) ? "reached" : "**not reached**");
  }
  return out;
}

// The claims that do not hold in every sample (or at the nominal parameters), each with the reason recorded beside
// it; one without a recorded reason is named as such (a failing claim must say why), and a recorded reason beside a
// claim that now holds everywhere is named as stale.
std::string render_not_holding(const Json& claims) {
  std::string rows, stale;
  for (auto& c : claims) {
    const bool holds_everywhere = c.value("holds", false) && c.value("status", std::string("holds")) == "holds";
    const std::string id = c.at("id").get<std::string>();
    if (holds_everywhere) {
      // stale only where the samples were run: a reason recorded for the samples where the claim fails does not show
      // at the nominal parameters alone (`validate --samples 0`)
      const Json ms = c.value("measures", Json::array());
      const bool sampled = std::any_of(ms.begin(), ms.end(), [](const Json& m) { return m.contains("interval"); });
      if (c.contains("not_holding") && sampled) stale += (stale.empty() ? "" : ", ") + id;
      continue;
    }
    std::string status = c.value("status", std::string(c.value("holds", false) ? "holds" : "fails"));
    if (c.contains("holds_in")) status += " (" + c["holds_in"].get<std::string>() + ")";
    std::string reason = "**no reason recorded**", see;
    if (c.contains("not_holding")) {
      reason = c["not_holding"].at("reason").get<std::string>();
      see = c["not_holding"].value("see", "");
    }
    rows += fmt::format("| {} | {} | {} | {} | {} |\n", id, status, cell(measures_text(c)), cell(reason), cell(see));
  }
  std::string out;
  if (!rows.empty())
    out += "\nClaims that do not hold, and why (the reason recorded beside the claim in `validation/reference/`; the "
           "section named gives the mechanisms looked for and their sources):\n\n"
           "| id | within the intervals | model over the samples (the paper's value inside the interval?) | reason | "
           "see |\n|---|---|---|---|---|\n" + rows;
  if (!stale.empty())
    out += "\nClaims that now hold but still carry a reason for not holding (stale; remove it): " + stale + "\n";
  return out;
}
namespace {
// Whether the table was sampled: `validate --samples 0` gives no value an interval.
bool has_intervals(const Json& v) {
  for (const char* section : {"points", "held_out"})
    for (auto& p : v.value(section, Json::array()))
      if (p.contains("interval")) return true;
  return false;
}
std::string interval_text(const Json& p) {
  if (!p.contains("interval")) return "";
  return fmt::format("[{:.4g}, {:.4g}]", p["interval"][0].get<double>(), p["interval"][1].get<double>());
}
}  // namespace

namespace {
// The claim's gap farthest outside its accepted range (percentage points from the nearest bound; a gap of the other
// sign counts from zero), for the per-paper table; a gap within its range is 0 away.
struct Farthest {
  double off = -1;
  std::string text;
};
void farthest_gap(const Json& c, Farthest& w) {
  for (auto& g : c.value("gaps", Json::array())) {
    const double m = g.at("model").get<double>(), p = g.at("paper").get<double>(), lo = g.at("lo").get<double>();
    const double hi = g.at("hi").is_null() ? std::numeric_limits<double>::infinity() : g["hi"].get<double>();
    const double am = std::fabs(m);
    const double off = (m > 0) != (p > 0) || m == 0 ? am + lo : am < lo ? lo - am : am > hi ? am - hi : 0.0;
    if (off <= w.off) continue;
    w.off = off;
    // a word's reading gives a range, not a number the paper quotes
    const std::string paper = g.value("reading", Json()).is_string()
                                  ? fmt::format("'{}' ({})", g["reading"].get<std::string>(), accepted_gap_text(p, lo, hi))
                                  : fmt::format("paper {:+.1f} %", p);
    w.text = fmt::format("{}{}: model {:+.1f} % vs {}{}", c.at("id").get<std::string>(),
                         g.value("label", "").empty() ? "" : " (" + g["label"].get<std::string>() + ")", m, paper,
                         off == 0 ? " (within its range)" : "");
  }
  // A claim checked with a magnitude but no gap (a difference within a tolerance, "within 10 % of its peak"): its
  // measures in per cent, each as far from its accepted range as the model lies outside it.
  if (!c.value("gaps", Json::array()).empty() || !c.value("measures", Json()).is_array()) return;
  for (auto& ms : c["measures"]) {
    if (!ms.value("measure", "").ends_with("%") || !ms.value("model", Json()).is_number() ||
        !ms.value("accepted", Json()).is_array() || ms["accepted"].size() != 2)
      continue;
    const double m = ms["model"].get<double>();
    const Json& a = ms["accepted"];
    const double lo = a[0].is_number() ? a[0].get<double>() : -std::numeric_limits<double>::infinity();
    const double hi = a[1].is_number() ? a[1].get<double>() : std::numeric_limits<double>::infinity();
    const double off = m < lo ? lo - m : m > hi ? m - hi : 0.0;
    if (off <= w.off) continue;
    w.off = off;
    auto bound = [](const Json& b) { return b.is_number() ? fmt::format("{:+.1f}", b.get<double>()) : std::string("-"); };
    w.text = fmt::format("{}{}: model {:+.1f} % vs accepted {} to {} %{}", c.at("id").get<std::string>(),
                         ms.value("label", "").empty() ? "" : " (" + ms["label"].get<std::string>() + ")", m,
                         bound(a[0]), bound(a[1]), off == 0 ? " (within its range)" : "");
  }
}
}  // namespace

// The figures the reasons quote (quotes.hpp), measured again by this run: how many, how many agree to the digits
// written, and each one that does not (stale: its reason is to be read again against the model of the day).
std::string render_quotes(const Json& v) {
  int n = 0, what_if = 0, agree = 0;
  std::string stale;
  std::vector<const Json*> rows;  // every row that may carry quotes: claims, points, held-out values, value checks
  for (const char* section : {"claims", "points", "held_out", "value_checks"})
    if (v.contains(section))
      for (auto& r : v.at(section)) rows.push_back(&r);  // v's own rows (value() would hand back a copy)
  for (const Json* row : rows)
    for (auto& q : row->value("quotes", Json::array())) {
      ++n, what_if += q.value("what_if", false) ? 1 : 0;
      if (q.value("agrees", false)) {
        ++agree;
        continue;
      }
      const Json& m = q["measured"];
      stale += fmt::format("{}{} '{}' (measured {})", stale.empty() ? "" : "; ", row->at("id").get<std::string>(),
                           q.at("text").get<std::string>(), m.is_number() ? fmt::format("{:.6g}", m.get<double>()) : "none");
    }
  if (n == 0) return "";
  return fmt::format("\nFigures quoted in the reasons and notes and declared with their measure (`quotes`): {} measured "
                     "by this run ({} of them what-ifs under their own --set), {} agree to the digits written{}.\n",
                     n, what_if, agree, stale.empty() ? "" : "; **stale**: " + stale);
}

// The counts of the summary line: calibration points, predictions, comparisons and calibration pairs, each with how
// many hold (the inverted pairs named).
std::string summary_counts(const Json& v) {
  int cal = 0, cal_ok = 0, pred = 0, pred_ok = 0, cmp = 0, cmp_ok = 0, pairs = 0, pairs_ok = 0;
  for (auto& p : v.value("points", Json::array())) {
    const bool c = p.at("role") == "calibration", ok = p.at("pass").get<bool>();
    (c ? cal : pred) += 1, (c ? cal_ok : pred_ok) += ok ? 1 : 0;
  }
  for (auto& c : v.value("claims", Json::array())) ++cmp, cmp_ok += c.at("holds").get<bool>() ? 1 : 0;
  std::string inverted;
  for (auto& p : v.value("pairs", Json::array())) {
    ++pairs;
    if (p.at("keeps_order").get<bool>()) ++pairs_ok;
    else inverted += fmt::format("{}{} vs {} (paper {:+.1f} %, model {:+.1f} %)", inverted.empty() ? "" : "; ",
                                 p["a"].get<std::string>(), p["b"].get<std::string>(), p["paper_gap_pct"].get<double>(),
                                 p["model_gap_pct"].get<double>());
  }
  return fmt::format("calibration points {} ({} within tolerance, {} outside); predictions {} ({} within "
                     "tolerance, {} beyond); comparisons {} ({} holding, {} failing); calibration pairs {} ({} keep the "
                     "paper's order, {} inverted{})",
                     cal, cal_ok, cal - cal_ok, pred, pred_ok, pred - pred_ok, cmp, cmp_ok, cmp - cmp_ok, pairs, pairs_ok,
                     pairs - pairs_ok, inverted.empty() ? "" : ": " + inverted);
}

namespace {
// The table of quantified statements, one row per paper; `why` gets each failing statement with its recorded reason.
std::string paper_rows(const Json& v, std::string& why) {
  std::vector<std::string> papers;
  auto note = [&](const Json& x) {
    const std::string p = x.value("paper", "");
    if (std::find(papers.begin(), papers.end(), p) == papers.end()) papers.push_back(p);
  };
  for (const char* s : {"claims", "untested"})
    for (auto& x : v.value(s, Json::array())) note(x);
  std::string out = "| paper | quantified statements | checked with magnitude | holding | failing | untested | "
                    "calibration | orderings (no number in the text): holding, failing | largest gap (model vs paper) "
                    "|\n|---|---|---|---|---|---|---|---|---|\n";
  for (auto& paper : papers) {
    int quantified = 0, magnitude = 0, holding = 0, untested = 0, readback = 0, orderings = 0, orderings_held = 0;
    int holding_fitted = 0;  // holding on a gap a closed comparator's free costs are fitted to (fit_gaps)
    std::string failing, readback_failing;  // a calibration claim that fails is named in its own column
    std::string orderings_failing;          // an ordering claim (no number in its text) that fails
    Farthest w;
    for (auto& c : v.value("claims", Json::array())) {
      if (c.value("paper", "") != paper) continue;
      if (!c.value("quantified", false)) {
        ++orderings;
        if (c.value("holds", false)) ++orderings_held;
        else orderings_failing += (orderings_failing.empty() ? "" : ", ") + c.at("id").get<std::string>();
        continue;
      }
      ++quantified;
      if (c.value("role", "") == "calibration") {
        ++readback;
        if (!c.value("holds", false)) readback_failing += (readback_failing.empty() ? "" : ", ") + c.at("id").get<std::string>();
      }
      if (!c.value("magnitude", false) || c.value("role", "") == "calibration") continue;
      ++magnitude;
      if (c.value("holds", false)) ++holding, holding_fitted += c.contains("fitted_by") ? 1 : 0;
      else failing += (failing.empty() ? "" : ", ") + c.at("id").get<std::string>();
      farthest_gap(c, w);
    }
    for (auto& u : v.value("untested", Json::array())) untested += u.value("paper", "") == paper ? 1 : 0;
    for (auto& c : v.value("claims", Json::array()))  // each failing one with the mechanism it misses
      if (c.value("paper", "") == paper && !c.value("holds", false) &&
          (!c.value("quantified", false) || c.value("magnitude", false) || c.value("role", "") == "calibration"))
        why += fmt::format("- {}{}: {}{}\n", c.at("id").get<std::string>(),
                           c.value("role", "") == "calibration" ? " (calibration claim, outside the exit status)"
                           : !c.value("quantified", false)      ? " (ordering)"
                                                                : "",
                           c.contains("not_holding") ? c["not_holding"].at("reason").get<std::string>() : "**no reason recorded**",
                           measures_text(c).empty() ? "" : " Over the samples: " + measures_text(c) + ".");
    const int nfail = magnitude - holding;
    out += fmt::format("| {} | {} | {} | {}{} | {}{} | {} | {}{} | {}, {}{} | {} |\n", paper, quantified + untested,
                       magnitude, holding, holding_fitted ? fmt::format(" ({} on fitted gaps)", holding_fitted) : "", nfail, nfail ? ": " + cell(failing) : "", untested, readback,
                       readback_failing.empty() ? "" : ", failing: " + cell(readback_failing), orderings_held,
                       orderings - orderings_held, orderings_failing.empty() ? "" : ": " + cell(orderings_failing),
                       w.off < 0 ? "-" : cell(w.text));
  }
  return out;
}
std::string summary_line(const Json& v) {
  return "\nSummary: " + summary_counts(v) + ". The exit status counts calibration points and pairs only.\n";
}
}  // namespace

std::string render_brief(const Json& v) {
  std::string why;
  return paper_rows(v, why) + summary_line(v);
}

std::string render_summary(const Json& v) {
  std::string why;
  std::string out = "Quantified statements per paper (a claim whose text gives a number or whose check carries a "
                    "magnitude, and the statements listed as untested; checked with magnitude: a gap, tolerance or "
                    "margin, not an ordering alone; holding on fitted gaps: claims that check a gap a closed comparator's "
                    "free costs are fitted to (the reference's `fit_gaps`, `ompisim calibrate`), which hold by "
                    "calibration, not as independent tests; failing: with the reason recorded beside the claim, listed below; "
                    "calibration: a check that reads back a model input, labelled as such, those that fail named and "
                    "listed below too (a calibration claim, unlike a calibration point, does not set the exit status); orderings: the claims whose text gives no number, such as one stack ahead of "
                    "another, those that fail named and listed below too; largest gap: the check farthest outside its "
                    "accepted range, in percentage points):\n\n" +
                    paper_rows(v, why);
  if (!why.empty())
    out += !has_intervals(v)
               ? "\nThe statements that fail and what the model misses for each (no prediction intervals: "
                 "--samples 0):\n\n" + why
               : "\nThe statements that fail, what the model misses for each, and the model's measure over the "
                 "prediction-interval samples (estimate ranges, and the placements where the paper leaves them unstated) "
                 "with the paper's value inside or outside that interval:\n\n" + why;
  out += summary_line(v);
  out += render_quotes(v);
  if (!v.value("pairs", Json::array()).empty()) {
    out += "\nCalibration pairs (two stacks at one size, different paper values; the order holds when the model's gap "
           "has the paper's sign):\n\n| a | b | paper gap % | model gap % | order kept |\n|---|---|---|---|---|\n";
    for (auto& p : v["pairs"])
      out += fmt::format("| {} | {} | {:+.2f} | {:+.2f} | {} |\n", p["a"].get<std::string>(), p["b"].get<std::string>(),
                         p["paper_gap_pct"].get<double>(), p["model_gap_pct"].get<double>(),
                         p["keeps_order"].get<bool>() ? "yes" : "**no**");
  }
  return out + "\n";
}

std::string render_table(const Json& v) {
  std::string out = render_summary(v);
  if (!has_intervals(v))
    out += "No prediction intervals (validate --samples 0): the interval columns below are empty.\n\n";
  out += "| id | figure | role | reference | simulated | error % | tolerance % | pass | interval |\n"
                    "|---|---|---|---|---|---|---|---|---|\n";
  for (auto& p : v.at("points"))
    out += fmt::format("| {} | {} | {} | {:.4g} | {:.4g} | {:+.1f} | {} | {} | {} |\n", p["id"].get<std::string>(),
                       p["figure"].get<std::string>(), p["role"].get<std::string>(), p["reference"].get<double>(),
                       p["simulated"].get<double>(), p["error_pct"].get<double>(),
                       fmt::format("±{:g}", p["tolerance_pct"].get<double>()),
                       std::string(p["pass"].get<bool>() ? "yes" : "**no**") +
                           (p["role"] == "calibration" ? "" : " (prediction)"),
                       interval_text(p));
  out += "\nHeld-out values (the paper's number is withheld; these are the simulator's predictions):\n\n";
  out += "| id | figure | role | metric | simulated | interval |\n|---|---|---|---|---|---|\n";
  for (auto& p : v.at("held_out"))
    out += fmt::format("| {} | {} | held out | {} | {:.4g} | {} |\n", p["id"].get<std::string>(),
                       p["figure"].get<std::string>(), p["metric"].get<std::string>(), p["simulated"].get<double>(),
                       interval_text(p));
  // Values a model change set (the reference file's "model_change": which change, the mechanism; its "before" value
  // stays in the reference data, the history in CHANGELOG.md and git log).
  std::string moved;
  for (const char* section : {"points", "held_out"})
    for (auto& p : v.at(section)) {
      if (!p.contains("model_change")) continue;
      const Json& c = p["model_change"];
      moved += fmt::format("| {} | {:.4g} | {} | {} |\n", p["id"].get<std::string>(), p["simulated"].get<double>(),
                           c.at("change").get<std::string>(), c.at("mechanism").get<std::string>());
    }
  if (!moved.empty())
    out += "\nValues set by a named model mechanism (the change that last moved each, as it was made: the parameter "
           "values it names are those of that change, today's are the machine files'; the value each had before it is "
           "kept in the reference file's `model_change.before`):\n\n| id | value | set by | mechanism |\n|---|---|---|---|\n" +
           moved;
  out += "\nClaims (holds: at the nominal parameters; within the intervals: holds in every sample, fails in every "
         "sample, or undecided, with the count of the nominal run and the samples it holds in; over the samples: each "
         "measured quantity's interval, with the paper's number inside or outside it, or whether it reaches the "
         "accepted range):\n\n"
         "| id | holds | within the intervals | over the samples | detail |\n|---|---|---|---|---|\n";
  for (auto& c : v.at("claims"))
    out += fmt::format("| {} | {} | {} | {} | {} |\n", c["id"].get<std::string>(), c["holds"].get<bool>() ? "yes" : "**no**",
                       c.contains("status") ? fmt::format("{} ({})", c["status"].get<std::string>(),
                                                          c["holds_in"].get<std::string>())
                                            : std::string(""),
                       cell(measures_text(c)),
                       cell((c.contains("fitted_by")
                                 ? fmt::format("on fitted gaps ({}): ", fmt::join(c["fitted_by"], ", "))
                                 : std::string()) +
                            c["detail"].get<std::string>() +
                            (c.contains("alternative")
                                 ? fmt::format("; not chosen: {} (paper gap {:+g} %)", c["alternative"]["text"].get<std::string>(),
                                               c["alternative"]["paper_gap_pct"].get<double>())
                                 : std::string())));
  out += render_not_holding(v.at("claims"));
  out += render_value_checks(v.value("value_checks", Json::array()), "Table and mechanism checks");
  if (v.contains("sampling") && !v["sampling"].empty()) {
    out += "\nPrediction intervals: the range of each value over the nominal parameters and a Latin-hypercube sample of "
           "the machines' estimate ranges (`range` beside each estimate in the machine files, with its reason) and of "
           "the closed comparators' fitted costs along the axes of their fit's 95 % confidence region "
           "(`calibration_directions` in the reference files, from `ompisim calibrate`); the other fitted parameters "
           "keep their values (no refit per sample).\n\n| reference | samples | dimensions |\n|---|---|---|\n";
    for (auto& s : v["sampling"]) {
      std::string dims;
      for (auto& d : s["dimensions"]) dims += (dims.empty() ? "" : "; ") + d.get<std::string>();
      out += fmt::format("| {} | {} | {} |\n", s["reference"].get<std::string>(), s["samples"].get<long long>(), dims);
    }
    for (auto& s : v["sampling"]) {  // the placements sampled where a paper does not say which nodes a run used
      if (!s.contains("placement")) continue;
      const Json& p = s["placement"];
      std::string kinds, scen;
      for (auto& k : p["kinds"]) kinds += (kinds.empty() ? "" : ", ") + k.get<std::string>();
      for (auto& x : p["scenarios"]) scen += (scen.empty() ? "" : ", ") + fs::path(x.get<std::string>()).stem().string();
      out += fmt::format("\nPlacements sampled ({}): the paper does not say which nodes its runs used ({}). Assumption: "
                         "{}. Sample i runs {} on the i-th of: {} (in turn).\n",
                         s["reference"].get<std::string>(), p["text"].get<std::string>(),
                         p["assumption"].get<std::string>(), scen, kinds);
    }
  }
  return out;
}

}  // namespace ompisim::validation
