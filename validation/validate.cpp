#include "validation/validate.hpp"

#include "validation/table1.hpp"

#include "core/json_input.hpp"
#include "runner/registries.hpp"
#include "runner/isolate.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "validation/calibrate.hpp"
#include "validation/claims.hpp"
#include "validation/discovery.hpp"
#include "validation/gap.hpp"
#include "validation/quotes.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>

namespace fs = std::filesystem;

namespace ompisim::validation {

// A claim's "not_holding" record in its reference file: why the claim does not hold where it does not, and the section
// of validation/notes.md (copied into results/validation.md) that gives the mechanism searched for and its sources.
// {"reason": text, "see": section title, "quotes": the figures the reason quotes, with their measures (quotes.hpp)};
// nothing else. The quotes' own input check is check_quotes_input.
Json check_not_holding(const Json& n, const std::string& f) {
  if (!n.is_object()) throw InputError(f, "claims[].not_holding", "must be an object {\"reason\", \"see\"}");
  for (auto& [k, x] : n.items()) {
    if (k == "quotes") {
      if (!x.is_array()) throw InputError(f, "claims[].not_holding.quotes", "must be an array of {\"text\", \"measure\"}");
      continue;
    }
    if (k != "reason" && k != "see") throw InputError(f, "claims[].not_holding." + k, "unknown key (reason, see, quotes)");
    if (!x.is_string() || x.get<std::string>().empty())
      throw InputError(f, "claims[].not_holding." + k, "must be a non-empty string");
  }
  if (!n.contains("reason")) throw InputError(f, "claims[].not_holding.reason", "missing");
  return n;
}



namespace {

// Scenario results, run once per scenario (each in its own process: one SimGrid engine per process).
// `per_machine`: overrides applied only to the scenarios of that machine (the prediction-interval samples: each
// machine's estimates and undetermined directions).
class Runner {
public:
  explicit Runner(Overrides sets = {}, bool fast = false, const std::map<std::string, Json>* done = nullptr,
                  std::map<std::string, Overrides> per_machine = {})
      : sets_(std::move(sets)), fast_(fast), done_(done), per_machine_(std::move(per_machine)) {}
  // A sample's runner: its overrides by machine, and its placement kind for the scenarios whose nodes are unstated.
  Runner(const Overrides& sets, const IntervalSample* s) : Runner(sets, true) {
    if (!s) return;
    per_machine_ = s->per_machine, estimates_ = s->estimates;
    placement_ = s->placement, placed_ = s->placed;
  }
  // The runner whose full runs are this one's: the same overrides, with none of a sample's (validate's nominal runner
  // for the fast nominal one). A fast run that narrows nothing is taken from it.
  void share_full_runs(Runner* full) { full_ = full; }
  // narrow = false: the whole curve even in fast mode (the claims that compare curves).
  const Json& result(const std::string& rel, const Json& sel, bool narrow = true) {
    Json n = fast_ && narrow ? narrowing(rel, sel) : Json();
    const bool cut = !n.is_null() && narrows(rel, sel, n);
    if (!cut && full_) return full_->result(rel, sel, false);
    std::string key = rel + (cut ? n.dump() : "");
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    if (done_ && !fast_ && sets_.empty() && per_machine_.empty() && estimates_.empty() && !machine_file_given()) {
      auto d = done_->find(rel);
      if (d != done_->end()) return d->second;
    }
    Scenario s = scenario(rel);  // a copy: the changes below are this run's
    if (const std::string f = machine_file_for(s.machine); !f.empty()) s.machine_file = f;
    if (!estimates_.empty()) s.driver = s.driver->with_estimates(estimates_);  // a sample's benchmark estimates
    if (cut) {
      // Calibration evaluations: the driver does less work for the same value where it can (the OSU drivers: only
      // the sizes a point needs, fewer steady-state iterations; the barrier loop keeps its iterations and warm-up,
      // whose average still moves after 20 calls (the last call's stragglers weigh 1/iterations: the Fig. 7 atomic
      // point at 64 differed by 1.7 % between 20 and 100), and cuts its own settled periods), and only the rank count
      // a point selects runs.
      auto d = s.driver->clone();
      (void)d->narrow_for_calibration(sel);
      s.driver = std::move(d);
      if (sel.contains("ranks")) s.ranks = {sel["ranks"].get<long long>()};
    }
    Overrides sets = sets_;
    if (placed_.count(rel)) {  // a sampled allocation: the largest rank count's nodes; smaller counts take the first
      const long long most = *std::max_element(s.ranks.begin(), s.ranks.end());
      s.nodes = placement_nodes(placement_, *load_machine(machine_path(s.machine)),
                                (most + s.ranks_per_node - 1) / s.ranks_per_node);
    }
    if (auto pm = per_machine_.find(s.machine); pm != per_machine_.end())
      sets.insert(sets.end(), pm->second.begin(), pm->second.end());
    Json r = Json::parse(run_isolated([&] { return run_scenario(s, sets).dump(); }));
    return cache_[key] = std::move(r);
  }

private:
  // What of a point's selector the narrowed run depends on: its "bytes" (the drivers' narrow_for_calibration read
  // that alone) and its "ranks" unless the scenario runs that one count anyway. Points that select differently from
  // the same run (by "peak", or by the only rank count) share it instead of running the scenario again.
  Json narrowing(const std::string& rel, const Json& sel) {
    Json n = Json::object();
    if (!sel.is_object()) return n;
    if (sel.contains("bytes")) n["bytes"] = sel["bytes"];
    if (sel.contains("ranks")) {
      const std::vector<long long>& ranks = scenario(rel).ranks;
      if (ranks.size() != 1 || Json(ranks.front()) != sel["ranks"]) n["ranks"] = sel["ranks"];
    }
    return n;
  }

  // Whether the run narrowed by `n` (narrowing(rel, sel)) differs from the scenario's full run: a rank count cut out of
  // several, or a driver that does less for the point. When it does not, it is the full run and is keyed as one.
  bool narrows(const std::string& rel, const Json& sel, const Json& n) {
    if (n.contains("ranks")) return true;
    auto it = narrows_.find(rel + n.dump());
    if (it != narrows_.end()) return it->second;
    return narrows_[rel + n.dump()] = scenario(rel).driver->clone()->narrow_for_calibration(sel);
  }

  // Each scenario as its file gives it, read once per runner (its driver is shared and never changed through it).
  const Scenario& scenario(const std::string& rel) {
    auto it = scenarios_.find(rel);
    if (it == scenarios_.end()) it = scenarios_.emplace(rel, load_scenario(data_dir() + "/" + rel)).first;
    return it->second;
  }

  Overrides sets_;
  bool fast_;
  Runner* full_ = nullptr;
  const std::map<std::string, Json>* done_;
  std::map<std::string, Overrides> per_machine_;
  Overrides estimates_;
  std::string placement_;
  std::set<std::string> placed_;
  std::map<std::string, Json> cache_;
  std::map<std::string, Scenario> scenarios_;  // scenario(): each file read once
  std::map<std::string, bool> narrows_;        // by scenario and narrowing: whether it narrows
};

double select(const Json& res, const Json& sel, const std::string& metric) {
  const Json& pts = res.at("points");
  auto field = [&](const Json& p) {  // a metric the result does not have: the caller puts the file and key in front
    const Json* v = point_field(p, metric);  // a field, or a field of a field ("routine_pct.Allreduce")
    if (!v || !v->is_number())
      throw InputError("", "metric", "'" + metric.substr(0, 64) + "' is not a field of scenario " +
                                         res.value("scenario", "?") + "'s points");
    return v->get<double>();
  };
  if (sel.value("peak", false)) {
    double best = -1e300;
    for (auto& p : pts) best = std::max(best, field(p));
    return best;
  }
  for (auto& p : pts) {
    if (sel.contains("bytes") && p.contains("bytes") && p["bytes"] == sel["bytes"]) return field(p);
    if (sel.contains("ranks") && p.contains("ranks") && p["ranks"] == sel["ranks"]) return field(p);
  }
  // a reference input that matches nothing: the caller puts the file and the claim's key in front
  throw InputError("", "select", "no point " + sel.dump() + " in scenario " + res.value("scenario", "?"));
}

std::string metric_field(const std::string& metric) {
  return metric == "peak_bandwidth_GBps" ? "bandwidth_GBps" : metric;
}

double value_of(Runner& run, const Json& ref) {
  const Json& res = run.result(ref.at("scenario").get<std::string>(), ref.at("select"));
  return select(res, ref.at("select"), metric_field(ref.at("metric").get<std::string>()));
}

// `f()` with the key of a reference input that matches nothing put behind `key` (points[3], a, checks[1]): the
// caller puts the file and the claim in front.
template <class F>
auto keyed(const std::string& key, F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError("", e.key().empty() ? key : key + "." + e.key(), e.reason());
  }
}

// value_of(chk[key]), an error naming chk's key.
double value_at(Runner& run, const Json& chk, const std::string& key) {
  return keyed(key, [&] { return value_of(run, chk.at(key)); });
}

// One check's measured quantity, for its interval over the samples (intervals.hpp): the model's value, the paper's
// number where it gives one (a gap), and the accepted range (null: unbounded); `below_hi`: the upper bound itself is
// not accepted (a strict "a < b": a ratio of exactly 1 does not reach [-inf, 1)).
void measure(Json* ms, const Json& chk, const std::string& what, double model, const Json& paper, double lo, double hi,
             bool below_hi = false) {
  if (!ms || !std::isfinite(model)) return;
  auto bound = [](double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); };
  ms->push_back({{"label", chk.value("label", "")}, {"measure", what}, {"model", model}, {"paper", paper},
                 {"accepted", {bound(lo), bound(hi)}}});
  if (below_hi) ms->back()["accepted_below_upper"] = true;
}
constexpr double kInf = std::numeric_limits<double>::infinity();

// a < factor x b (factor defaults to 1), and with margin_pct M: a (1 + M/100) < b (a below b by at least M % in the
// reading of gap.hpp), for the 'less' and 'all_of' claim checks.
bool compare(Runner& run, const Json& chk, std::string& detail, Json* ms) {
  double a = value_at(run, chk, "a"), b = value_at(run, chk, "b");
  double f = chk.value("factor", 1.0), m = chk.value("margin_pct", 0.0);
  detail = fmt::format("{:.4g} < {}{:.4g} (ratio {:.3f}{})", a, f == 1.0 ? "" : fmt::format("{} x ", f), b, a / b,
                       m > 0 ? fmt::format(", at least {:g} % apart", m) : "");
  measure(ms, chk, "ratio a/b", a / b, nullptr, -kInf, f / (1 + m / 100), true);
  return a * (1 + m / 100) < f * b;
}

// A model gap against the paper's (gap.hpp): the paper's sign, within the factor (default 1.5) or the word reading's
// range; `shown` opens the detail; the gap is appended to `gaps` ({label, model, paper, lo, hi, holds}).
bool judge_gap(const Json& chk, double model, const std::string& shown, std::string& detail, Json* gaps, Json* ms) {
  const double paper = chk.at("paper_gap_pct").get<double>();
  const Reading* r = chk.contains("reading") ? find_reading(chk["reading"].get<std::string>()) : nullptr;
  const auto [lo, hi] = gap_range(paper, chk.value("factor", 1.5), r);
  const bool holds = model != 0 && (model > 0) == (paper > 0) && std::fabs(model) >= lo && std::fabs(model) <= hi;
  detail = fmt::format("{}: model gap {:+.1f} %, paper {:+.1f} %, accepted {}{}", shown, model, paper,
                       accepted_gap_text(paper, lo, hi), r ? " ('" + r->name + "')" : "");
  // A word's reading (r) is a range the paper's word admits, not a number the paper gives: its interval is judged by
  // whether it reaches that range; a quoted number is judged by whether the interval contains it.
  measure(ms, chk, "gap %", model, r ? Json(nullptr) : Json(paper), paper > 0 ? lo : -hi, paper > 0 ? hi : -lo);
  if (gaps)
    gaps->push_back({{"label", chk.value("label", "")}, {"model", model}, {"paper", paper}, {"lo", lo},
                     {"hi", std::isfinite(hi) ? Json(hi) : Json(nullptr)}, {"holds", holds},
                     {"reading", r ? Json(r->name) : Json(nullptr)}});
  return holds;
}

// The gap check: the model's signed gap between a and b (gap.hpp) against the paper's.
bool eval_gap(Runner& run, const Json& chk, std::string& detail, Json* gaps, Json* ms) {
  const double a = value_at(run, chk, "a"), b = value_at(run, chk, "b");
  const Better dir = better_of_metric(metric_field(chk["a"].at("metric").get<std::string>()));
  return judge_gap(chk, gap_pct(a, b, dir), fmt::format("{:.4g} vs {:.4g}", a, b), detail, gaps, ms);
}

// The mean_gap check: several pairs read together ("overall A out-performs B"): the mean of their gaps
// (mean_gap_pct, gap.hpp) against the paper's, as a gap check.
bool eval_mean_gap(Runner& run, const Json& chk, std::string& detail, Json* gaps, Json* ms) {
  std::vector<double> each;
  std::string shown;
  for (std::size_t i = 0; i < chk.at("pairs").size(); ++i) {
    const Json& p = chk["pairs"][i];
    const std::string key = "pairs[" + std::to_string(i) + "]";
    const double a = keyed(key, [&] { return value_at(run, p, "a"); });
    const double b = keyed(key, [&] { return value_at(run, p, "b"); });
    each.push_back(gap_pct(a, b, better_of_metric(metric_field(p["a"].at("metric").get<std::string>()))));
    shown += fmt::format("{}{} {:+.2f} %", shown.empty() ? "" : ", ", p.value("label", ""), each.back());
  }
  return judge_gap(chk, mean_gap_pct(each), "mean of " + shown, detail, gaps, ms);
}

// less_all: the curves' points paired by rank count (when both curves carry one) or by byte size, never by position;
// every common key must have a (1 + margin_pct/100) < b. Curves without a common key are an input error (the caller
// names the file and the claim).
bool eval_less_all(Runner& run, const Json& chk, std::string& detail, Json* ms) {
  const Json& ra = run.result(chk.at("a").get<std::string>(), Json::object(), false);
  const Json& rb = run.result(chk.at("b").get<std::string>(), Json::object(), false);
  const std::string m = chk.at("metric");
  const double margin = chk.value("margin_pct", 0.0);
  auto has = [](const Json& r, const char* k) {
    return !r["points"].empty() && std::all_of(r["points"].begin(), r["points"].end(), [&](const Json& p) { return p.contains(k); });
  };
  const char* key = has(ra, "ranks") && has(rb, "ranks") ? "ranks" : "bytes";
  std::map<long long, double> bv;
  for (auto& p : rb["points"])
    if (p.contains(key)) bv[p[key].get<long long>()] = p.at(m).get<double>();
  bool holds = true, any = false;
  double worst = 0;  // the largest a / b over the common keys
  for (auto& p : ra["points"]) {
    if (!p.contains(key)) continue;
    auto it = bv.find(p[key].get<long long>());
    if (it == bv.end()) continue;
    any = true;
    const double a = p.at(m).get<double>(), b = it->second;
    if (!(a * (1 + margin / 100) < b)) holds = false;
    worst = std::max(worst, a / b);
    detail += fmt::format("{}{}: {:.3g}/{:.3g}", detail.empty() ? "" : "; ", it->first, a, b);
  }
  if (!any)
    throw InputError("", "b", "curves " + chk["a"].get<std::string>() + " and " + chk["b"].get<std::string>() +
                                        " have no common rank count or byte size");
  if (margin > 0) detail += fmt::format(" (by {} , at least {:g} % apart)", key, margin);
  measure(ms, chk, "largest ratio a/b", worst, nullptr, -kInf, 1 / (1 + margin / 100), true);
  return holds;
}

Json eval_points(Runner& run, const Json& refdoc, bool only_calibration) {
  Json out = Json::array();
  double tol = refdoc.value("tolerance_pct", 10.0);
  for (std::size_t i = 0; i < refdoc.at("points").size(); ++i) {
    const Json& p = refdoc["points"][i];
    std::string role = p.at("role");
    // Calibration points that fit a benchmark input (the app skeletons' compute per step, stored in the app file)
    // are checked like any calibration point, but `calibrate` (only_calibration) fits machine parameters only.
    if (only_calibration && (role != "calibration" || p.contains("fits"))) continue;
    double sim = keyed("points[" + std::to_string(i) + "]", [&] { return value_of(run, p); });
    double ref = p.at("value").get<double>();
    double err = (sim - ref) / ref * 100.0;
    // a prediction's tolerance: its own, else the file's prediction_tolerance_pct, else 15 %
    double t = p.value("tolerance_pct", role == "prediction" ? refdoc.value("prediction_tolerance_pct", 15.0) : tol);
    out.push_back({{"id", p.at("id")},
                   {"figure", p.value("figure", "")},
                   {"reference", ref},
                   {"simulated", sim},
                   {"error_pct", err},
                   {"tolerance_pct", t},
                   {"role", role},
                   {"pass", std::fabs(err) <= t},
                   {"scenario", p.at("scenario")}});
  }
  return out;
}
// Points that come in pairs: two stacks at one size (same figure, benchmark, placement, rank count, bytes, metric)
// with different paper values, one of them at least a calibration point. Each pair keeps the paper's order when the
// model's gap (gap.hpp) has the paper's sign.
Json eval_pairs(const Json& refdoc, const Json& pts) {
  Json out = Json::array();
  const Json& d = refdoc.at("points");
  auto key = [](const Json& p) {
    return fmt::format("{}|{}|{}|{}|{}|{}", p.value("figure", ""), p.value("benchmark", ""), p.value("placement", ""),
                       p.value("ranks", 0LL), p.value("bytes", 0LL), p.value("metric", ""));
  };
  for (std::size_t i = 0; i < d.size(); ++i)
    for (std::size_t j = i + 1; j < d.size(); ++j) {
      if (key(d[i]) != key(d[j]) || d[i].value("stack", "") == d[j].value("stack", "")) continue;
      if (d[i].at("role") != "calibration" && d[j].at("role") != "calibration") continue;
      const double pa = d[i].at("value").get<double>(), pb = d[j].at("value").get<double>();
      if (pa == pb) continue;
      const Better dir = better_of_metric(metric_field(d[i].at("metric").get<std::string>()));
      const double paper = gap_pct(pa, pb, dir);
      const double model = gap_pct(pts[i].at("simulated").get<double>(), pts[j].at("simulated").get<double>(), dir);
      out.push_back({{"a", d[i].at("id")}, {"b", d[j].at("id")}, {"paper_gap_pct", paper}, {"model_gap_pct", model},
                     {"keeps_order", model != 0 && (model > 0) == (paper > 0)},
                     {"calibration", d[i].at("role") == "calibration" && d[j].at("role") == "calibration"}});
    }
  return out;
}

// One claim check (recursive for all_of). Kinds: less (a < factor x b, optional margin_pct), gap (the model's signed
// gap between a and b against the paper's, gap.hpp; a word reading from claims.hpp), less_all (every point of scenario
// a below b's, paired by rank count or size, optional margin_pct),
// mean_gap (several pairs' gaps read together, as one gap), all_of (every sub-check; a sub-check without a kind is
// 'less'), smoother (curve a's largest fall below b's),
// within (|a - b| <= tolerance_pct % of b), difference (min <= a - b <= max; without b: min <= a <= max), additive
// (a >= min_fraction x the sum of the values of `parts`), differs (curves a and b, scenarios, differ by at least
// min_pct % at one or more sizes >= min_bytes).
bool eval_check(Runner& run, const Json& chk, std::string& detail, const std::string& f, Json* gaps = nullptr,
                Json* ms = nullptr) {
  std::string kind = chk.value("kind", "less");
  if (kind == "less") return compare(run, chk, detail, ms);
  if (kind == "gap") return eval_gap(run, chk, detail, gaps, ms);
  if (kind == "mean_gap") return eval_mean_gap(run, chk, detail, gaps, ms);
  if (kind == "within") {
    double a = value_at(run, chk, "a"), b = value_at(run, chk, "b");
    double tol = chk.contains("reading") ? find_reading(chk["reading"].get<std::string>())->hi
                                         : chk.at("tolerance_pct").get<double>();
    double dev = (a - b) / b * 100.0;
    detail = fmt::format("{:.4g} vs {:.4g} ({:+.1f} %, tolerance ±{:g} %)", a, b, dev, tol);
    measure(ms, chk, "difference %", dev, nullptr, -tol, tol);
    return std::fabs(dev) <= tol;
  }
  if (kind == "difference") {
    double a = value_at(run, chk, "a");
    double b = chk.contains("b") ? value_at(run, chk, "b") : 0.0;
    double lo = chk.at("min").get<double>(), hi = chk.at("max").get<double>();
    detail = chk.contains("b") ? fmt::format("{:.4g} - {:.4g} = {:.4g} in [{:g}, {:g}]", a, b, a - b, lo, hi)
                               : fmt::format("{:.4g} in [{:g}, {:g}]", a, lo, hi);
    measure(ms, chk, chk.contains("b") ? "a - b" : "a", a - b, nullptr, lo, hi);
    return a - b >= lo && a - b <= hi;
  }
  if (kind == "additive") {
    // a >= min_fraction x (sum of the parts): one resource's value against the sum of its components' alone.
    double a = value_at(run, chk, "a"), sum = 0;
    for (std::size_t i = 0; i < chk.at("parts").size(); ++i)
      sum += keyed("parts[" + std::to_string(i) + "]", [&] { return value_of(run, chk["parts"][i]); });
    double f = chk.at("min_fraction").get<double>();
    detail = fmt::format("{:.4g} = {:.3f} x sum of parts {:.4g} (at least {:g})", a, a / sum, sum, f);
    measure(ms, chk, "a / sum of parts", a / sum, nullptr, f, kInf);
    return a >= f * sum;
  }
  if (kind == "less_all") return eval_less_all(run, chk, detail, ms);
  if (kind == "differs") {
    // Curves a and b (scenarios) differ: at one or more common sizes >= min_bytes, |a - b| is at least min_pct % of
    // the smaller of the two.
    const Json& ra = run.result(chk.at("a").get<std::string>(), Json::object());
    const Json& rb = run.result(chk.at("b").get<std::string>(), Json::object());
    std::string m = chk.at("metric");
    long long min_b = chk.value("min_bytes", 0LL);
    double lim = chk.at("min_pct").get<double>(), worst = 0;
    long long at = -1;
    for (std::size_t i = 0; i < ra["points"].size() && i < rb["points"].size(); ++i) {
      const Json &pa = ra["points"][i], &pb = rb["points"][i];
      if (pa.value("bytes", 0LL) != pb.value("bytes", 0LL) || pa.value("bytes", 0LL) < min_b) continue;
      double a = pa[m], b = pb[m];
      double dev = std::fabs(a - b) / std::min(a, b) * 100.0;
      if (dev > worst) worst = dev, at = pa.value("bytes", 0LL);
    }
    detail = fmt::format("largest difference {:.2f} % at {} B (at least {:g} % needed, sizes >= {} B)", worst, at, lim,
                         min_b);
    measure(ms, chk, "largest difference %", worst, nullptr, lim, kInf);
    return worst >= lim;
  }
  if (kind == "all_of") {
    bool holds = true;
    for (std::size_t i = 0; i < chk.at("checks").size(); ++i) {
      const Json& sub = chk["checks"][i];
      std::string d;
      bool h = keyed("checks[" + std::to_string(i) + "]", [&] { return eval_check(run, sub, d, f, gaps, ms); });
      holds = holds && h;
      detail += fmt::format("{}{} {}: {}", detail.empty() ? "" : "; ", sub.value("label", ""), d, h ? "yes" : "no");
    }
    return holds;
  }
  if (kind == "smoother") {
    // Curve a is smoother than curve b: its largest fall below its best value at a smaller size (largest_fall,
    // claims.hpp; sizes >= min_bytes) is smaller.
    auto roughness = [&](const std::string& sc) {
      return largest_fall(run.result(sc, Json::object(), false)["points"], chk.at("metric"), chk.value("min_bytes", 1LL));
    };
    double a = roughness(chk.at("a")), b = roughness(chk.at("b"));
    const double need = chk.contains("reading") ? find_reading(chk["reading"].get<std::string>())->lo : 1.0;
    detail = fmt::format("largest fall |ln ratio|: {:.3f} vs {:.3f}{}", a, b,
                         chk.contains("reading") ? fmt::format(" (ratio {:.2f}, at least {:g})", a > 0 ? b / a : kInf, need)
                                                 : "");
    if (a > 0) measure(ms, chk, "fall ratio b/a", b / a, nullptr, need, kInf);
    return a * need < b;
  }
  throw std::runtime_error("unknown claim check kind '" + kind + "' in " + f);
}

// A claim's check; a select that matches no point of its scenario is the reference file's mistake: an InputError
// naming the file and the claim.
bool claim_holds(Runner& run, const Json& c, std::string& detail, const std::string& f, Json* gaps,
                 Json* ms = nullptr) {
  try {
    return eval_check(run, c.at("check"), detail, f, gaps, ms);
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(f, "claims[" + c.value("id", "?") + "].check." + e.key(), e.reason());
  }
}

// Each entry of a reference document that quotes figures (quotes.hpp), with the text they stand in and its key
// ("claims[3]", "points[0]", ...): a claim's not_holding (its reason), a point's or held-out value's note, a table1 or
// mechanism check's reason.
void each_quote_holder(const Json& doc,
                       const std::function<void(const Json& holder, const char* text, const std::string& key)>& f) {
  for (auto [list, text] : {std::pair{"claims", "reason"}, {"points", "note"}, {"held_out", "note"},
                            {"table1", "reason"}, {"mechanism_checks", "reason"}}) {
    const Json& entries = doc.value(list, Json::array());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Json& e = entries[i];
      const Json& holder = std::string(list) == "claims" && e.contains("not_holding") ? e["not_holding"] : e;
      const std::string key = std::string(list) + "[" + std::to_string(i) + "]" + (&holder != &e ? ".not_holding" : "");
      if (holder.is_object() && holder.contains("quotes")) f(holder, text, key);
    }
  }
}

}  // namespace

Json claim_fitted_by(const Json& check, const Json& doc) {
  std::vector<std::pair<Json, Json>> pairs;  // (a, b) of the calibration comparisons
  std::vector<std::string> ids;
  if (doc.contains("fit_gaps") && doc["fit_gaps"].is_array())
    for (auto& g : doc["fit_gaps"])
      if (g.value("role", "") == "calibration") pairs.emplace_back(g.at("a"), g.at("b")), ids.push_back(g.at("id"));
  Json out = Json::array();
  auto walk = [&](auto&& self, const Json& x) -> void {
    if (x.is_object()) {
      if (x.contains("a") && x.contains("b") && x["a"].is_object() && x["b"].is_object())
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          const auto& [a, b] = pairs[i];
          if (((x["a"] == a && x["b"] == b) || (x["a"] == b && x["b"] == a)) &&
              std::find(out.begin(), out.end(), Json(ids[i])) == out.end())
            out.push_back(ids[i]);
        }
      for (auto& [k, v] : x.items()) self(self, v);
    } else if (x.is_array()) {
      for (auto& v : x) self(self, v);
    }
  };
  walk(walk, check);
  return out;
}

Json validate_reference(const Json& doc, const std::string& f, const Overrides& sets,
                        const std::map<std::string, Json>* done, int jobs) {
  auto exists = [](const std::string& rel) {
    std::error_code ec;  // a name the file system refuses (too long, ...) names no scenario
    return fs::is_regular_file(fs::path(data_dir()) / rel, ec);
  };
  check_points_input(doc, f, exists);
  check_claims_input(doc, f, exists);
  for (auto& c : doc.value("claims", Json::array()))
    if (c.contains("not_holding")) check_not_holding(c["not_holding"], f);
  each_quote_holder(doc, [&](const Json& holder, const char* text, const std::string& key) {
    if (!holder.contains(text) || !holder[text].is_string())
      throw InputError(f, key + ".quotes", std::string("quotes a text: the entry needs its \"") + text + "\"");
    check_quotes_input(holder["quotes"], holder[text].get<std::string>(), f, key + ".quotes", exists);
  });
  load_fit_gaps(doc, f);  // the calibration comparisons' input, checked here too: a bad entry is exit 2 for validate
  const std::string paper = fs::path(f).stem().string();
  try {
    Runner run(sets, false, done);
    // The quotes' what-if runs: one runner per set of overrides, each scenario run once in it.
    std::map<std::string, std::unique_ptr<Runner>> what_ifs;
    QuoteValue quote_value = [&](const Json& ref, const Overrides& o) {
      if (o.empty()) return value_of(run, ref);
      std::unique_ptr<Runner>& r = what_ifs[Json(o).dump()];
      if (!r) r = std::make_unique<Runner>(o);
      return value_of(*r, ref);
    };
    Json pts = eval_points(run, doc, false), hos = Json::array(), cls = Json::array();
    for (auto& p : pts) p["paper"] = paper;
    Json pairs = eval_pairs(doc, pts);
    for (auto& p : pairs) p["paper"] = paper;
    const Json held_out = doc.value("held_out", Json::array());
    for (std::size_t i = 0; i < held_out.size(); ++i) {
      const Json& h = held_out[i];
      const double sim = keyed("held_out[" + std::to_string(i) + "]", [&] { return value_of(run, h); });
      hos.push_back({{"id", h.at("id")}, {"figure", h.value("figure", "")}, {"simulated", sim},
                     {"metric", h.at("metric")}, {"role", "prediction"}, {"reference", nullptr}, {"scenario", h.at("scenario")}});
      if (h.contains("model_change")) hos.back()["model_change"] = h["model_change"];
    }
    for (auto& c : doc.value("claims", Json::array())) {
      std::string detail;
      Json gaps = Json::array(), ms = Json::array();
      bool holds = claim_holds(run, c, detail, f, &gaps, &ms);
      cls.push_back({{"id", c.at("id")}, {"text", c.value("text", "")}, {"holds", holds}, {"detail", detail},
                     {"paper", paper}, {"quantified", quantified_text(c.value("text", "")) || has_magnitude(c["check"])},
                     {"magnitude", has_magnitude(c["check"])}, {"gaps", gaps}, {"measures", ms}});
      if (c.contains("alternative")) cls.back()["alternative"] = c["alternative"];
      if (c.contains("role")) cls.back()["role"] = c["role"];  // "calibration": the check reads back a model input
      if (c.contains("not_holding")) cls.back()["not_holding"] = c["not_holding"];
      if (Json by = claim_fitted_by(c["check"], doc); !by.empty()) cls.back()["fitted_by"] = std::move(by);
    }
    // Prediction intervals (not for a what-if table with --set): intervals.hpp, each sample evaluated here.
    std::vector<const Json*> refs;  // the reference entries of the predictions and held-out values, in output order
    std::vector<Json*> outs;
    const Json& dpts = doc.at("points");
    for (std::size_t i = 0; i < dpts.size(); ++i)
      if (dpts[i].at("role") == "prediction") refs.push_back(&dpts[i]), outs.push_back(&pts[i]);
    const Json& dho = doc.value("held_out", Json::array());
    for (std::size_t i = 0; i < dho.size(); ++i) refs.push_back(&dho[i]), outs.push_back(&hos[i]);
    auto eval = [&](const IntervalSample* s, bool claims) {
      Runner rs(sets, s);
      if (!s) rs.share_full_runs(&run);  // the fast nominal runner: its un-narrowed runs are the nominal ones
      SampleValues r;
      for (auto* ref : refs) r.values.push_back(value_of(rs, *ref));
      if (claims)
        for (auto& cl : doc.value("claims", Json::array())) {
          std::string d;
          Json ms = Json::array();
          r.holds.push_back(claim_holds(rs, cl, d, f, nullptr, &ms));
          r.measures.push_back(std::move(ms));
        }
      return r;
    };
    Json sampling = sample_intervals(doc, f, sets.empty(), machine_path, eval, outs, cls, jobs);
    Json checks = Json::array();  // value checks beside the points: "table1", "mechanism_checks" (validation/table1.hpp)
    for (const char* k : {"table1", "mechanism_checks"})
      if (doc.contains(k))
        for (auto& row : eval_value_checks(doc[k], f, k, [&](const std::string& s) -> const Json& {
               return run.result(s, Json::object(), false);
             }))
          checks.push_back(row);
    if (sets.empty()) {  // the quoted figures, measured again (only at the nominal parameters: under --set they are
                         // another model's), on the row of the entry that quotes them
      std::map<std::string, Json*> row_of;  // by list and index in the reference
      for (auto [list, rows] : {std::pair{"claims", &cls}, {"points", &pts}, {"held_out", &hos}})
        for (std::size_t i = 0; i < rows->size(); ++i)
          row_of[std::string(list) + "[" + std::to_string(i) + "]" + (rows == &cls ? ".not_holding" : "")] = &(*rows)[i];
      std::size_t v = 0;  // the value checks' rows: table1's entries, then mechanism_checks'
      for (const char* list : {"table1", "mechanism_checks"})
        for (std::size_t i = 0; i < doc.value(list, Json::array()).size(); ++i, ++v)
          row_of[std::string(list) + "[" + std::to_string(i) + "]"] = &checks[v];
      each_quote_holder(doc, [&](const Json& holder, const char*, const std::string& key) {
        (*row_of.at(key))["quotes"] = eval_quotes(holder["quotes"], quote_value);
      });
    }
    Json untested = Json::array();
    for (auto& u : doc.value("untested", Json::array())) untested.push_back(u), untested.back()["paper"] = paper;
    return Json{{"points", pts}, {"held_out", hos}, {"claims", cls}, {"sampling", sampling}, {"pairs", pairs},
                {"untested", untested}, {"value_checks", checks}};
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(f, e.key(), e.reason());  // a point's or held-out value's select that matches nothing
  }
}

namespace {
Json empty_table() {
  return Json{{"points", Json::array()}, {"held_out", Json::array()}, {"claims", Json::array()},
              {"sampling", Json::array()}, {"pairs", Json::array()}, {"untested", Json::array()},
              {"value_checks", Json::array()}};
}
void append_table(Json& out, const Json& one) {
  for (auto& [k, list] : out.items())
    for (auto& x : one[k]) list.push_back(x);
}
}  // namespace

Json validate(const std::string& paper, const Overrides& sets, const std::map<std::string, Json>* done, int jobs) {
  Json out = empty_table();
  for (auto& f : reference_files(paper)) append_table(out, validate_reference(load_json_file(f), f, sets, done, jobs));
  return out;
}

Json validate_ran(const std::map<std::string, Json>& done, std::size_t& left_out, int jobs) {
  Json out = empty_table();
  left_out = 0;
  for (auto& f : reference_files("")) {
    Json doc = load_json_file(f);
    std::size_t kept = 0, dropped = 0;
    for (const char* list : {"points", "held_out", "claims", "table1", "mechanism_checks"}) {
      if (!doc.contains(list) || !doc[list].is_array()) continue;
      Json rows = Json::array();
      for (auto& row : doc[list]) {
        const std::set<std::string> named = scenarios_named(row);
        const bool ran = !named.empty() && std::all_of(named.begin(), named.end(),
                                                       [&](const std::string& rel) { return done.count(rel) > 0; });
        if (ran) rows.push_back(row), ++kept;
        else ++dropped;
      }
      doc[list] = std::move(rows);
    }
    if (!kept) continue;  // a paper none of whose scenarios ran
    left_out += dropped;
    append_table(out, validate_reference(doc, f, {}, &done, jobs));
  }
  return out;
}

// The exit status: every calibration point within its tolerance and every calibration pair in the paper's order.
bool all_calibration_pass(const Json& v) {
  for (auto& p : v.at("points"))
    if (p.at("role") == "calibration" && !p.at("pass").get<bool>()) return false;
  for (auto& p : v.value("pairs", Json::array()))
    if (!p.at("keeps_order").get<bool>()) return false;
  return true;
}

std::vector<double> fast_values(const std::vector<Json>& refs, const Overrides& sets) {
  Runner run(sets, true);
  std::vector<double> out;
  out.reserve(refs.size());
  for (auto& r : refs) out.push_back(value_of(run, r));
  return out;
}

}  // namespace ompisim::validation
