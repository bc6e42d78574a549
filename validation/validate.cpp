#include "validation/validate.hpp"

#include "runner/registries.hpp"
#include "runner/isolate.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"

#include <algorithm>
#include <Eigen/Dense>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>

namespace fs = std::filesystem;

namespace ompisim::validation {

std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  fs::path root = fs::path(data_dir()) / "scenarios";
  if (!fs::exists(root)) return out;
  for (auto& e : fs::recursive_directory_iterator(root))
    if (e.path().extension() == ".json") out.push_back(fs::relative(e.path(), data_dir()).string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> reference_files(const std::string& paper) {
  std::vector<std::string> out;
  fs::path root = fs::path(data_dir()) / "validation" / "reference";
  if (!fs::exists(root)) return out;
  for (auto& e : fs::directory_iterator(root))
    if (e.path().extension() == ".json" && (paper.empty() || e.path().stem() == paper)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  if (!paper.empty() && out.empty()) throw InputError("--paper", paper, "no reference data for this paper");
  return out;
}

namespace {
std::string g_machine_file, g_machine_file_name;
}  // namespace

void set_machine_file(const std::string& path) {
  g_machine_file = path;
  g_machine_file_name = load_machine(path)->name;
}

namespace {

// Scenario results, run once per scenario (each in its own process: one SimGrid engine per process).
class Runner {
public:
  explicit Runner(Overrides sets = {}, bool fast = false, const std::map<std::string, Json>* done = nullptr)
      : sets_(std::move(sets)), fast_(fast), done_(done) {}
  const Json& result(const std::string& rel, const Json& sel) {
    std::string key = rel + (fast_ ? sel.dump() : "");
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    if (done_ && !fast_ && sets_.empty() && g_machine_file.empty()) {
      auto d = done_->find(rel);
      if (d != done_->end()) return d->second;
    }
    Scenario s = load_scenario(data_dir() + "/" + rel);
    if (!g_machine_file.empty() && s.machine == g_machine_file_name) s.machine_file = g_machine_file;
    if (fast_) {
      // Calibration evaluations: the driver does less work for the same value where it can (the OSU drivers: only
      // the sizes a point needs, fewer steady-state iterations; the barrier loop keeps its iterations and warm-up: its
      // average still moves after 20 calls, the Fig. 7 atomic point at 64 differed by 1.7 % between 20 and 100), and
      // only the rank count a point selects runs.
      auto d = s.driver->clone();
      d->narrow_for_calibration(sel);
      s.driver = std::move(d);
      if (sel.contains("ranks")) s.ranks = {sel["ranks"].get<long long>()};
    }
    Json r = Json::parse(run_isolated([&] { return run_scenario(s, sets_).dump(); }));
    return cache_[key] = std::move(r);
  }

private:
  Overrides sets_;
  bool fast_;
  const std::map<std::string, Json>* done_;
  std::map<std::string, Json> cache_;
};

double select(const Json& res, const Json& sel, const std::string& metric) {
  const Json& pts = res.at("points");
  if (sel.value("peak", false)) {
    double best = -1e300;
    for (auto& p : pts) best = std::max(best, p.at(metric).get<double>());
    return best;
  }
  for (auto& p : pts) {
    if (sel.contains("bytes") && p.contains("bytes") && p["bytes"] == sel["bytes"]) return p.at(metric).get<double>();
    if (sel.contains("ranks") && p.contains("ranks") && p["ranks"] == sel["ranks"]) return p.at(metric).get<double>();
  }
  throw std::runtime_error("no point " + sel.dump() + " in scenario " + res.value("scenario", "?"));
}

std::string metric_field(const std::string& metric) {
  return metric == "peak_bandwidth_GBps" ? "bandwidth_GBps" : metric;
}

double value_of(Runner& run, const Json& ref) {
  const Json& res = run.result(ref.at("scenario").get<std::string>(), ref.at("select"));
  return select(res, ref.at("select"), metric_field(ref.at("metric").get<std::string>()));
}

// a < factor x b (factor defaults to 1), for the 'less' and 'all_of' claim checks.
bool compare(Runner& run, const Json& chk, std::string& detail) {
  double a = value_of(run, chk.at("a")), b = value_of(run, chk.at("b"));
  double f = chk.value("factor", 1.0);
  detail = fmt::format("{:.4g} < {}{:.4g} (ratio {:.3f})", a, f == 1.0 ? "" : fmt::format("{} x ", f), b, a / b);
  return a < f * b;
}

Json eval_points(Runner& run, const Json& refdoc, bool only_calibration) {
  Json out = Json::array();
  double tol = refdoc.value("tolerance_pct", 10.0);
  for (auto& p : refdoc.at("points")) {
    std::string role = p.at("role");
    // Calibration points that fit a benchmark input (the app skeletons' compute per step, stored in the app file)
    // are checked like any calibration point, but `calibrate` (only_calibration) fits machine parameters only.
    if (only_calibration && (role != "calibration" || p.contains("fits"))) continue;
    double sim = value_of(run, p);
    double ref = p.at("value").get<double>();
    double err = (sim - ref) / ref * 100.0;
    double t = p.value("tolerance_pct", tol);
    out.push_back({{"id", p.at("id")},
                   {"figure", p.value("figure", "")},
                   {"reference", ref},
                   {"simulated", sim},
                   {"error_pct", err},
                   {"tolerance_pct", t},
                   {"role", role},
                   {"pass", role == "calibration" ? std::fabs(err) <= t : true},
                   {"scenario", p.at("scenario")}});
  }
  return out;
}
// One claim check (recursive for all_of). Kinds: less (a < factor x b), less_all (every point of scenario a below b's),
// all_of (every sub-check; a sub-check without a kind is 'less'), smoother (curve a's largest step below b's),
// within (|a - b| <= tolerance_pct % of b), difference (min <= a - b <= max; without b: min <= a <= max), additive
// (a >= min_fraction x the sum of the values of `parts`), differs (curves a and b, scenarios, differ by at least
// min_pct % at one or more sizes >= min_bytes).
bool eval_check(Runner& run, const Json& chk, std::string& detail, const std::string& f) {
  std::string kind = chk.value("kind", "less");
  if (kind == "less") return compare(run, chk, detail);
  if (kind == "within") {
    double a = value_of(run, chk.at("a")), b = value_of(run, chk.at("b"));
    double tol = chk.at("tolerance_pct").get<double>();
    double dev = (a - b) / b * 100.0;
    detail = fmt::format("{:.4g} vs {:.4g} ({:+.1f} %, tolerance ±{:g} %)", a, b, dev, tol);
    return std::fabs(dev) <= tol;
  }
  if (kind == "difference") {
    double a = value_of(run, chk.at("a"));
    double b = chk.contains("b") ? value_of(run, chk.at("b")) : 0.0;
    double lo = chk.at("min").get<double>(), hi = chk.at("max").get<double>();
    detail = chk.contains("b") ? fmt::format("{:.4g} - {:.4g} = {:.4g} in [{:g}, {:g}]", a, b, a - b, lo, hi)
                               : fmt::format("{:.4g} in [{:g}, {:g}]", a, lo, hi);
    return a - b >= lo && a - b <= hi;
  }
  if (kind == "additive") {
    // a >= min_fraction x (sum of the parts): one resource's value against the sum of its components' alone.
    double a = value_of(run, chk.at("a")), sum = 0;
    for (auto& p : chk.at("parts")) sum += value_of(run, p);
    double f = chk.at("min_fraction").get<double>();
    detail = fmt::format("{:.4g} = {:.3f} x sum of parts {:.4g} (at least {:g})", a, a / sum, sum, f);
    return a >= f * sum;
  }
  if (kind == "less_all") {
    const Json& ra = run.result(chk.at("a").get<std::string>(), Json::object());
    const Json& rb = run.result(chk.at("b").get<std::string>(), Json::object());
    std::string m = chk.at("metric");
    bool holds = true;
    for (std::size_t i = 0; i < ra["points"].size() && i < rb["points"].size(); ++i) {
      double a = ra["points"][i][m], b = rb["points"][i][m];
      if (!(a < b)) holds = false;
      detail += fmt::format("{}{}: {:.3g}/{:.3g}", detail.empty() ? "" : "; ",
                            ra["points"][i].value("ranks", ra["points"][i].value("bytes", 0LL)), a, b);
    }
    return holds;
  }
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
    return worst >= lim;
  }
  if (kind == "all_of") {
    bool holds = true;
    for (auto& sub : chk.at("checks")) {
      std::string d;
      bool h = eval_check(run, sub, d, f);
      holds = holds && h;
      detail += fmt::format("{}{} {}: {}", detail.empty() ? "" : "; ", sub.value("label", ""), d, h ? "yes" : "no");
    }
    return holds;
  }
  if (kind == "smoother") {
    // Curve a is smoother than curve b: its largest step between consecutive sizes (|log ratio| of the metric,
    // sizes >= min_bytes, so the latency-bound start is left out) is smaller.
    auto roughness = [&](const std::string& sc) {
      const Json& r = run.result(sc, Json::object());
      std::string m = chk.at("metric");
      double worst = 0, prev = -1;
      long long min_b = chk.value("min_bytes", 1LL);
      for (auto& p : r["points"]) {
        if (p["bytes"].get<long long>() < min_b) continue;
        double v = p[m].get<double>();
        if (prev > 0 && v > 0) worst = std::max(worst, std::fabs(std::log(v / prev)));
        prev = v;
      }
      return worst;
    };
    double a = roughness(chk.at("a")), b = roughness(chk.at("b"));
    detail = fmt::format("largest step |ln ratio|: {:.3f} vs {:.3f}", a, b);
    return a < b;
  }
  throw std::runtime_error("unknown claim check kind '" + kind + "' in " + f);
}

}  // namespace

Json validate(const std::string& paper, const Overrides& sets, const std::map<std::string, Json>* done) {
  Json points = Json::array(), held = Json::array(), claims = Json::array();
  for (auto& f : reference_files(paper)) {
    Json doc = load_json_file(f);
    Runner run(sets, false, done);
    for (auto& p : eval_points(run, doc, false)) points.push_back(p);
    for (auto& h : doc.value("held_out", Json::array())) {
      held.push_back({{"id", h.at("id")}, {"figure", h.value("figure", "")}, {"simulated", value_of(run, h)},
                      {"metric", h.at("metric")}, {"role", "prediction"}, {"reference", nullptr}, {"scenario", h.at("scenario")}});
      if (h.contains("model_change")) held.back()["model_change"] = h["model_change"];
    }
    for (auto& c : doc.value("claims", Json::array())) {
      std::string detail;
      bool holds = eval_check(run, c.at("check"), detail, f);
      claims.push_back({{"id", c.at("id")}, {"text", c.value("text", "")}, {"holds", holds}, {"detail", detail}});
    }
  }
  return Json{{"points", points}, {"held_out", held}, {"claims", claims}};
}

bool all_calibration_pass(const Json& v) {
  for (auto& p : v.at("points"))
    if (p.at("role") == "calibration" && !p.at("pass").get<bool>()) return false;
  return true;
}

std::string render_table(const Json& v) {
  std::string out = "| id | figure | role | reference | simulated | error % | tolerance % | pass |\n"
                    "|---|---|---|---|---|---|---|---|\n";
  for (auto& p : v.at("points"))
    out += fmt::format("| {} | {} | {} | {:.4g} | {:.4g} | {:+.1f} | {} | {} |\n", p["id"].get<std::string>(),
                       p["figure"].get<std::string>(), p["role"].get<std::string>(), p["reference"].get<double>(),
                       p["simulated"].get<double>(), p["error_pct"].get<double>(),
                       p["role"] == "calibration" ? fmt::format("±{:g}", p["tolerance_pct"].get<double>()) : "not checked",
                       p["role"] == "calibration" ? (p["pass"].get<bool>() ? "yes" : "**no**")
                                                                       : "(prediction)");
  out += "\nHeld-out values (the paper's number is withheld; these are the simulator's predictions):\n\n";
  out += "| id | figure | role | metric | simulated |\n|---|---|---|---|---|\n";
  for (auto& p : v.at("held_out"))
    out += fmt::format("| {} | {} | held out | {} | {:.4g} |\n", p["id"].get<std::string>(), p["figure"].get<std::string>(),
                       p["metric"].get<std::string>(), p["simulated"].get<double>());
  // Values a model change moved (the reference file's "model_change": which change, the value before, the mechanism).
  std::string moved;
  for (const char* section : {"points", "held_out"})
    for (auto& p : v.at(section)) {
      if (!p.contains("model_change")) continue;
      const Json& c = p["model_change"];
      double before = c.at("before").get<double>(), now = p["simulated"].get<double>();
      moved += fmt::format("| {} | {} | {:.4g} | {:.4g} | {:+.1f} | {} |\n", p["id"].get<std::string>(),
                           c.at("change").get<std::string>(), before, now, 100.0 * (now - before) / before,
                           c.at("mechanism").get<std::string>());
    }
  if (!moved.empty())
    out += "\nValues a model change moved (before: the committed value just before that change):\n\n"
           "| id | change | before | now | change % | mechanism |\n|---|---|---|---|---|---|\n" + moved;
  out += "\nClaims:\n\n| id | holds | detail |\n|---|---|---|\n";
  for (auto& c : v.at("claims"))
    out += fmt::format("| {} | {} | {} |\n", c["id"].get<std::string>(), c["holds"].get<bool>() ? "yes" : "**no**",
                       c["detail"].get<std::string>());
  return out;
}

int calibrate(const std::string& paper, const std::string& machine_name, bool write) {
  auto m = load_machine(machine_name);
  ParamList all = m->physical_params();
  std::vector<ParamRef> free;
  for (auto& r : all)
    if (r.p->fitted) free.push_back(r);
  if (free.empty()) throw InputError(m->file, "", "no parameter is marked with a 'fit' method");
  Json doc = load_json_file(reference_files(paper).at(0));
  std::vector<Json> cal;
  for (auto& p : doc.at("points"))
    if (p.at("role") == "calibration" && !p.contains("fits")) cal.push_back(p);  // machine parameters only
  const std::size_t n = free.size(), k = cal.size();
  Eigen::VectorXd x(static_cast<long>(n));  // log of each free parameter
  for (std::size_t i = 0; i < n; ++i) x[static_cast<long>(i)] = std::log(free[i].p->value);
  auto residuals = [&](const Eigen::VectorXd& xv) {
    Overrides sets;
    for (std::size_t i = 0; i < n; ++i) {
      double val = std::exp(xv[static_cast<long>(i)]);
      std::string txt = fmt::format("\"{}\"", format_quantity(val, free[i].info.dim));
      if (free[i].info.dim == Dim::Ratio || free[i].info.dim == Dim::Count) txt = fmt::format("{:.9g}", val);
      sets.emplace_back(free[i].info.name, txt);
    }
    Runner run(sets, true);
    Eigen::VectorXd r(static_cast<long>(k));
    for (std::size_t j = 0; j < k; ++j) {
      double sim = value_of(run, cal[j]), ref = cal[j].at("value").get<double>();
      r[static_cast<long>(j)] = (sim - ref) / ref;
    }
    return r;
  };
  Eigen::VectorXd r = residuals(x);
  double lambda = 1e-2;
  std::cerr << fmt::format("calibrate: {} free parameters, {} calibration points, initial rms {:.2f} %\n", n, k,
                           100 * std::sqrt(r.squaredNorm() / static_cast<double>(k)));
  auto jacobian = [&](const Eigen::VectorXd& xv, const Eigen::VectorXd& rv) {  // forward differences in log space
    Eigen::MatrixXd J(static_cast<long>(k), static_cast<long>(n));
    for (std::size_t i = 0; i < n; ++i) {
      Eigen::VectorXd xp = xv;
      xp[static_cast<long>(i)] += 0.02;
      J.col(static_cast<long>(i)) = (residuals(xp) - rv) / 0.02;
    }
    return J;
  };
  // A singular direction below this fraction of the largest singular value is one the points do not determine.
  constexpr double kUndetermined = 1e-2;
  Eigen::MatrixXd J;
  Eigen::VectorXd x_of_J;  // the point J was taken at (reused for the report when the last step did not move x)
  for (int it = 0; it < 5; ++it) {
    J = jacobian(x, r);
    x_of_J = x;
    // Levenberg-Marquardt on the singular directions of J. A direction whose singular value is below kUndetermined
    // of the largest is one the calibration points do not determine (reported below): the step leaves it alone, so the
    // parameters keep their machine-file values along it instead of drifting along a flat valley from run to run.
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd sv = svd.singularValues();
    const Eigen::VectorXd ur = svd.matrixU().transpose() * r;
    bool improved = false;
    for (int tries = 0; tries < 6 && !improved; ++tries) {
      Eigen::VectorXd step = Eigen::VectorXd::Zero(static_cast<long>(n));
      for (long c = 0; c < sv.size(); ++c)
        if (sv[c] > kUndetermined * sv[0]) step -= svd.matrixV().col(c) * (ur[c] / (sv[c] * (1 + lambda)));
      for (long i = 0; i < step.size(); ++i) step[i] = std::clamp(step[i], -1.0, 1.0);
      Eigen::VectorXd xn = x + step, rn = residuals(xn);
      if (rn.squaredNorm() < r.squaredNorm()) {
        x = xn, r = rn, lambda = std::max(1e-6, lambda / 3), improved = true;
      } else {
        lambda *= 4;
      }
    }
    std::cerr << fmt::format("  iteration {}: rms {:.2f} %\n", it + 1, 100 * std::sqrt(r.squaredNorm() / static_cast<double>(k)));
    if (!improved || r.norm() < 1e-4) break;
  }
  {
    // Identifiability: the singular values of the Jacobian (log parameters -> relative residuals). A direction with a
    // tiny singular value is one the calibration points cannot see: moving along it leaves every residual unchanged.
    if (x_of_J.size() != x.size() || x_of_J != x) J = jacobian(x, r);
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeThinV);
    auto sv = svd.singularValues();
    std::cerr << "calibrate: singular values of the Jacobian:";
    for (long i = 0; i < sv.size(); ++i) std::cerr << fmt::format(" {:.3g}", sv[i]);
    std::cerr << "\n";
    for (long c = 0; c < sv.size(); ++c) {
      if (sv[c] > kUndetermined * sv[0]) continue;
      std::cerr << fmt::format("calibrate: weakly determined direction (singular value {:.3g}):", sv[c]);
      for (std::size_t i = 0; i < n; ++i)
        if (std::abs(svd.matrixV()(static_cast<long>(i), c)) > 0.2)
          std::cerr << fmt::format(" {}{:+.2f}", free[i].info.name, svd.matrixV()(static_cast<long>(i), c));
      std::cerr << "\n";
    }
  }
  std::cout << "| parameter | fitted value |\n|---|---|\n";
  for (std::size_t i = 0; i < n; ++i)
    std::cout << fmt::format("| {} | {} |\n", free[i].info.name, format_quantity(std::exp(x[static_cast<long>(i)]), free[i].info.dim));
  std::cout << "\n| calibration point | residual % |\n|---|---|\n";
  for (std::size_t j = 0; j < k; ++j)
    std::cout << fmt::format("| {} | {:+.2f} |\n", cal[j].at("id").get<std::string>(), 100 * r[static_cast<long>(j)]);
  if (write) {
    Json mj = load_json_file(m->file);
    const ParamList paths = m->physical_params_long();
    for (std::size_t i = 0; i < n; ++i) {
      // The parameter's key path in the file (its long name: "networks.gemini.nic.bte_bandwidth",
      // "node_types.compute.memory.dram_copy_bandwidth"); a parameter the file inherits from its base machine is not
      // written here.
      auto same = std::find_if(paths.begin(), paths.end(), [&](const ParamRef& p) { return p.p == free[i].p; });
      if (same == paths.end()) continue;
      Json* e = &mj;
      std::string rest = same->info.name;
      for (std::size_t dot; e && (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1))
        e = e->contains(rest.substr(0, dot)) ? &(*e)[rest.substr(0, dot)] : nullptr;
      if (!e || !e->contains(rest)) continue;
      double val = std::exp(x[static_cast<long>(i)]);
      Dim d = free[i].info.dim;
      if (d == Dim::Ratio || d == Dim::Count) (*e)[rest]["value"] = val;
      else (*e)[rest]["value"] = format_quantity(val, d);
    }
    write_atomic(m->file, mj.dump(2) + "\n");
    std::cerr << "calibrate: wrote " << m->file << "\n";
  }
  return 0;
}

}  // namespace ompisim::validation
