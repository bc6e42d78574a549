// ompisim calibrate: Eigen Levenberg-Marquardt on a machine's free parameters (those with a "fit" method in its file)
// against a paper's calibration points and its calibration comparisons ("fit_gaps"), in log-parameter space, with the
// Jacobian's undetermined directions reported.
#include "validation/calibrate.hpp"
#include "validation/claims.hpp"

#include "runner/registries.hpp"
#include "runner/report.hpp"
#include "runner/scenario.hpp"
#include "validation/gap.hpp"
#include "validation/validate.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>

namespace ompisim::validation {

std::vector<FitGap> load_fit_gaps(const Json& doc, const std::string& f) {
  std::vector<FitGap> out;
  const Json& gaps = doc.value("fit_gaps", Json::array());
  if (!gaps.is_array()) throw InputError(f, "fit_gaps", "must be an array");
  std::set<std::string> ids;
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    const Json& g = gaps[i];
    const std::string key = fmt::format("fit_gaps[{}]", i);
    static const std::set<std::string> keys{"id", "figure", "text", "reading", "note",
                                            "a",  "b",      "gap_pct", "role", "free"};
    for (auto& [k, x] : g.items())
      if (!keys.count(k))
        throw InputError(f, key + "." + k, "unknown key (id, figure, text, reading, note, a, b, gap_pct, role, free)");
    for (const char* k : {"id", "a", "b", "gap_pct", "role"})
      if (!g.contains(k)) throw InputError(f, key + "." + k, "missing");
    for (const char* k : {"id", "role"})
      if (!g[k].is_string()) throw InputError(f, key + "." + k, "must be a string");
    if (!ids.insert(g["id"].get<std::string>()).second)
      throw InputError(f, key + ".id", "'" + g["id"].get<std::string>() + "' is the id of an earlier calibration "
                                       "comparison");
    for (const char* side : {"a", "b"}) {
      if (!g[side].is_object()) throw InputError(f, key + "." + side, "must be an object {scenario, select, metric}");
      for (auto& [k, x] : g[side].items())
        if (k != "scenario" && k != "select" && k != "metric")
          throw InputError(f, key + "." + side + "." + k, "unknown key (scenario, select, metric)");
      for (const char* k : {"scenario", "select", "metric"})
        if (!g[side].contains(k)) throw InputError(f, key + "." + side + "." + k, "missing");
      if (!g[side]["metric"].is_string()) throw InputError(f, key + "." + side + ".metric", "must be a string");
      const Json& sel = g[side]["select"];
      if (!sel.is_object() || sel.empty())
        throw InputError(f, key + "." + side + ".select", "must be a non-empty object (bytes, ranks or peak)");
      for (auto& [k, x] : sel.items())
        if (k == "peak" ? !x.is_boolean() : (k != "bytes" && k != "ranks") || !x.is_number())
          throw InputError(f, key + "." + side + ".select." + k,
                           "must be bytes or ranks (a number) or peak (true / false)");
      const Json& sc = g[side]["scenario"];
      const std::string rel = sc.is_string() ? sc.get<std::string>() : sc.dump();
      if (sc.is_string() && !rel.empty() && !scenario_path_inside(rel))
        throw InputError(f, key + "." + side + ".scenario",
                         "'" + rel.substr(0, 200) + "' must be a path inside the data folder (relative, without "
                         "'..'), e.g. scenarios/...");
      std::error_code ec;  // a name the file system refuses (too long, ...) names no scenario
      if (!sc.is_string() || !std::filesystem::is_regular_file(std::filesystem::path(data_dir()) / rel, ec))
        throw InputError(f, key + "." + side + ".scenario",
                         "no scenario file '" + (rel.size() > 200 ? rel.substr(0, 200) + "...'" : rel + "'"));
    }
    if (!g["gap_pct"].is_number() || !std::isfinite(g["gap_pct"].get<double>()))
      throw InputError(f, key + ".gap_pct", "must be a number (signed: + when a is the better; 0 when equal)");
    const std::string ma = g["a"]["metric"].get<std::string>();
    if (ma != g["b"]["metric"].get<std::string>())
      throw InputError(f, key + ".b.metric", "must be a's metric ('" + ma + "')");
    Better better;
    try {
      better = better_of_metric(ma);
    } catch (const std::invalid_argument& e) {
      throw InputError(f, key + ".a.metric", e.what());
    }
    const std::string role = g["role"].get<std::string>();
    if (role != "calibration" && role != "check") throw InputError(f, key + ".role", "must be calibration or check");
    std::string free;
    if (g.contains("free")) {
      if (!g["free"].is_string() || g["free"].get<std::string>().empty())
        throw InputError(f, key + ".free", "must be a non-empty string (a part of the free parameters' names)");
      free = g["free"].get<std::string>();
    }
    if (role == "calibration")
      out.push_back({g["id"].get<std::string>(), g["a"], g["b"], g["gap_pct"].get<double>(), better, free});
  }
  return out;
}

bool gap_fit_holds(double model_pct, double paper_pct, double tol_pct) {
  return paper_pct == 0.0 ? std::fabs(model_pct) <= tol_pct : gap_holds(model_pct, paper_pct);
}

bool gap_enters_fit(const FitGap& g, const std::vector<std::string>& free_names) {
  if (g.free.empty()) return true;
  return !free_names.empty() && std::all_of(free_names.begin(), free_names.end(), [&](const std::string& n) {
    return n.find(g.free) != std::string::npos;
  });
}

double gap_residual(double model_pct, double paper_pct, double tol_pct) {
  if (paper_pct == 0.0) return model_pct / 100.0;  // equal values: a gap of tol_pct % weighs as a point at tol_pct %
  const double w = (tol_pct / 100.0) / std::log(1.5), q = model_pct / paper_pct, q0 = 0.5;
  return w * (q >= q0 ? std::log(q) : std::log(q0) + (q - q0) / q0);
}

std::optional<Prior> read_prior(const Json& entry, Dim d, const std::string& file) {
  if (!entry.is_object() || !entry.contains("prior")) return std::nullopt;
  const Json& p = entry.at("prior");
  return Prior{json_quantity(p.at("value"), d, file, "prior.value"), json_quantity(p.at("range")[0], d, file, "prior.range"),
               json_quantity(p.at("range")[1], d, file, "prior.range")};
}

double prior_residual(const Prior& p, double value, double tol_pct) {
  const double half_range = std::log(p.hi / p.lo) / 2;
  return kPriorWeight * tol_pct / 100 * std::log(value / p.value) / half_range;
}

namespace {

Overrides param_sets(const std::vector<ParamRef>& free, const Eigen::VectorXd& xv) {
  Overrides sets;
  for (std::size_t i = 0; i < free.size(); ++i) {
    double val = std::exp(xv[static_cast<long>(i)]);
    std::string txt = fmt::format("\"{}\"", format_quantity(val, free[i].info.dim));
    if (free[i].info.dim == Dim::Ratio || free[i].info.dim == Dim::Count) txt = fmt::format("{:.9g}", val);
    sets.emplace_back(free[i].info.name, txt);
  }
  return sets;
}

struct Problem {
  std::vector<ParamRef> free;
  std::vector<Json> cal;     // calibration points
  std::vector<FitGap> gaps;  // calibration comparisons
  double tol_pct = 10;
  std::vector<double> model_gaps;  // of the last evaluation
  std::vector<double> last_sim;    // the simulated values of the last evaluation
  // Values that no free parameter moves (the same, bit for bit, at every perturbation of the first Jacobian: another
  // stack's runs in a comparison): taken from there instead of being run again.
  std::vector<std::optional<double>> constant;

  std::vector<Json> refs() const {
    std::vector<Json> out = cal;
    for (auto& g : gaps) out.push_back(g.a), out.push_back(g.b);
    return out;
  }
  std::vector<double> values(const Eigen::VectorXd& xv) {
    const std::vector<Json> all = refs();
    std::vector<Json> run;
    for (std::size_t j = 0; j < all.size(); ++j)
      if (j >= constant.size() || !constant[j]) run.push_back(all[j]);
    const std::vector<double> got = fast_values(run, param_sets(free, xv));
    std::vector<double> sim(all.size());
    for (std::size_t j = 0, k = 0; j < all.size(); ++j) sim[j] = j < constant.size() && constant[j] ? *constant[j] : got[k++];
    return last_sim = sim;
  }
  std::vector<std::optional<Prior>> prior;  // per free parameter (read_prior)
  // The free parameters that have a prior (their indices in `free`).
  std::vector<std::size_t> priors() const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < prior.size(); ++i)
      if (prior[i]) out.push_back(i);
    return out;
  }
  // Residuals: one per point ((sim - ref) / ref), then one per comparison (gap_residual), then one per prior
  // (prior_residual).
  Eigen::VectorXd residuals(const Eigen::VectorXd& xv) { return residuals_of(values(xv), xv); }
  Eigen::VectorXd residuals_of(const std::vector<double>& sim, const Eigen::VectorXd& xv) {
    const std::vector<std::size_t> pri = priors();
    Eigen::VectorXd r(static_cast<long>(cal.size() + gaps.size() + pri.size()));
    for (std::size_t k = 0; k < pri.size(); ++k)
      r[static_cast<long>(cal.size() + gaps.size() + k)] =
          prior_residual(*prior[pri[k]], std::exp(xv[static_cast<long>(pri[k])]), tol_pct);
    for (std::size_t j = 0; j < cal.size(); ++j) {
      double ref = cal[j].at("value").get<double>();
      r[static_cast<long>(j)] = (sim[j] - ref) / ref;
    }
    model_gaps.clear();
    for (std::size_t j = 0; j < gaps.size(); ++j) {
      const std::size_t at = cal.size() + 2 * j;
      model_gaps.push_back(gap_pct(sim[at], sim[at + 1], gaps[j].better));
      r[static_cast<long>(cal.size() + j)] = gap_residual(model_gaps.back(), gaps[j].paper_pct, tol_pct);
    }
    return r;
  }
};

bool chosen(const ParamRef& r, const std::vector<std::string>& only) {
  if (!r.p->fitted) return false;
  if (only.empty()) return true;
  return std::any_of(only.begin(), only.end(), [&](const std::string& s) { return r.info.name.find(s) != std::string::npos; });
}

double rms_pct(const Eigen::VectorXd& r) { return 100 * std::sqrt(r.squaredNorm() / static_cast<double>(r.size())); }

// Levenberg-Marquardt on the singular directions of J. A direction whose singular value is below kUndetermined of the
// largest is one the calibration data do not determine (reported): the step leaves it alone, so the parameters keep
// their machine-file values along it instead of drifting along a flat valley from run to run, unless a prior acts on
// it (a parameter with a prior has a component above kInDirection): the prior's residual then determines it. The
// same share marks the axes fit_uncertainty leaves unbounded.
constexpr double kUndetermined = kUndeterminedShare;
// A step below this in every log parameter (0.01 % of each value) is no step: the fit has converged.
constexpr double kConverged = 1e-4;
// A parameter takes part in a singular direction when its component in it is above this (as report_directions lists).
constexpr double kInDirection = 0.2;
// The forward-difference step of the Jacobian, in log parameter (2 %).
constexpr double kStep = 0.02;

// Whether the step takes singular direction c of V: above the cut, or held by a prior.
bool steps_along(const Problem& pb, const Eigen::VectorXd& sv, const Eigen::MatrixXd& V, long c) {
  if (sv[c] > kUndetermined * sv[0]) return true;
  for (std::size_t i = 0; i < pb.prior.size(); ++i)
    if (pb.prior[i] && std::abs(V(static_cast<long>(i), c)) > kInDirection) return true;
  return false;
}

// Forward differences. `base`: the simulated values at xv. The first Jacobian also marks the values no parameter moves.
// With two free parameters or more it finds them first, from one evaluation with every parameter stepped at once: a
// value that no parameter moves comes back bit for bit, and one that some parameter moves comes back changed unless
// the steps cancel to the last bit. So the columns do not re-run the other stacks' runs of a comparison (a closed
// comparator's fit: the Open MPI side of each of its comparisons), once per parameter.
Eigen::MatrixXd jacobian(Problem& pb, const Eigen::VectorXd& xv, const Eigen::VectorXd& rv, const std::vector<double>& base) {
  Eigen::MatrixXd J(rv.size(), xv.size());
  if (pb.constant.empty() && xv.size() >= 2) {
    Eigen::VectorXd all = xv;
    all.array() += kStep;
    (void)pb.values(all);
    pb.constant.assign(base.size(), std::nullopt);
    for (std::size_t j = 0; j < base.size(); ++j)
      if (pb.last_sim[j] == base[j]) pb.constant[j] = base[j];
  }
  const bool first = pb.constant.empty();
  std::vector<bool> same(base.size(), true);
  for (long i = 0; i < xv.size(); ++i) {
    Eigen::VectorXd xp = xv;
    xp[i] += kStep;
    J.col(i) = (pb.residuals(xp) - rv) / kStep;
    for (std::size_t j = 0; j < base.size(); ++j) same[j] = same[j] && pb.last_sim[j] == base[j];
  }
  if (first) {
    pb.constant.assign(base.size(), std::nullopt);
    for (std::size_t j = 0; j < base.size(); ++j)
      if (same[j]) pb.constant[j] = base[j];
  }
  return J;
}

void fit(Problem& pb, Eigen::VectorXd& x, Eigen::VectorXd& r, Eigen::MatrixXd& J, int iterations) {
  double lambda = 1e-2;
  Eigen::VectorXd x_of_J;  // the point J was taken at (reused for the report when the last step did not move x)
  std::vector<double> sim_x = pb.last_sim;  // the values at x
  for (int it = 0; it < iterations; ++it) {
    J = jacobian(pb, x, r, sim_x);
    x_of_J = x;
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd sv = svd.singularValues();
    const Eigen::VectorXd ur = svd.matrixU().transpose() * r;
    bool improved = false;
    for (int tries = 0; tries < 6 && !improved; ++tries) {
      Eigen::VectorXd step = Eigen::VectorXd::Zero(x.size());
      for (long c = 0; c < sv.size(); ++c)
        if (steps_along(pb, sv, svd.matrixV(), c)) step -= svd.matrixV().col(c) * (ur[c] / (sv[c] * (1 + lambda)));
      for (long i = 0; i < step.size(); ++i) step[i] = std::clamp(step[i], -1.0, 1.0);
      if (step.lpNorm<Eigen::Infinity>() < kConverged) break;  // at the fit's fixed point: nothing left to try
      Eigen::VectorXd xn = x + step, rn = pb.residuals(xn);
      if (rn.squaredNorm() < r.squaredNorm()) {
        x = xn, r = rn, sim_x = pb.last_sim, lambda = std::max(1e-6, lambda / 3), improved = true;
      } else {
        lambda *= 4;
      }
    }
    std::cerr << fmt::format("  iteration {}: rms {:.2f} %\n", it + 1, rms_pct(r));
    if (!improved || r.norm() < 1e-4) break;
  }
  if (x_of_J.size() != x.size() || x_of_J != x) J = jacobian(pb, x, r, sim_x);
  pb.residuals_of(sim_x, x);  // the model gaps of the final point
}

// Identifiability: the singular values of the Jacobian (log parameters -> residuals). A direction with a tiny singular
// value is one the calibration data cannot see: moving along it leaves every residual unchanged.
void report_directions(const Problem& pb, const Eigen::MatrixXd& J) {
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeThinV);
  auto sv = svd.singularValues();
  std::cerr << "calibrate: singular values of the Jacobian:";
  for (long i = 0; i < sv.size(); ++i) std::cerr << fmt::format(" {:.3g}", sv[i]);
  std::cerr << "\n";
  for (long c = 0; c < sv.size(); ++c) {
    if (sv[c] > kUndetermined * sv[0]) continue;
    std::cerr << fmt::format("calibrate: weakly determined direction (singular value {:.3g}{}):", sv[c],
                             steps_along(pb, sv, svd.matrixV(), c) ? ", held by a prior" : "");
    for (std::size_t i = 0; i < pb.free.size(); ++i)
      if (std::abs(svd.matrixV()(static_cast<long>(i), c)) > kInDirection)
        std::cerr << fmt::format(" {}{:+.2f}", pb.free[i].info.name, svd.matrixV()(static_cast<long>(i), c));
    std::cerr << "\n";
  }
}

void report(const Problem& pb, const Eigen::VectorXd& x, const Eigen::VectorXd& r) {
  std::cout << "| parameter | fitted value |\n|---|---|\n";
  for (std::size_t i = 0; i < pb.free.size(); ++i)
    std::cout << fmt::format("| {} | {} |\n", pb.free[i].info.name,
                             format_quantity(std::exp(x[static_cast<long>(i)]), pb.free[i].info.dim));
  std::cout << "\n| calibration point | residual % |\n|---|---|\n";
  for (std::size_t j = 0; j < pb.cal.size(); ++j)
    std::cout << fmt::format("| {} | {:+.2f} |\n", pb.cal[j].at("id").get<std::string>(), 100 * r[static_cast<long>(j)]);
  const std::vector<std::size_t> pri = pb.priors();
  if (!pri.empty()) std::cout << "\n| prior | value | range | residual |\n|---|---|---|---|\n";
  for (std::size_t k = 0; k < pri.size(); ++k) {
    const ParamRef& p = pb.free[pri[k]];
    const Prior& q = *pb.prior[pri[k]];
    std::cout << fmt::format("| {} | {} | {} .. {} | {:+.3f} |\n", p.info.name, format_quantity(q.value, p.info.dim),
                             format_quantity(q.lo, p.info.dim), format_quantity(q.hi, p.info.dim),
                             r[static_cast<long>(pb.cal.size() + pb.gaps.size() + k)]);
  }
  if (pb.gaps.empty()) return;
  std::cout << "\n| calibration comparison | paper gap % | model gap % | holds (sign, factor 1.5; gap 0: within the "
               "tolerance) | residual |\n"
               "|---|---|---|---|---|\n";
  for (std::size_t j = 0; j < pb.gaps.size(); ++j)
    std::cout << fmt::format("| {} | {:+.2f} | {:+.2f} | {} | {:+.3f} |\n", pb.gaps[j].id, pb.gaps[j].paper_pct,
                             pb.model_gaps[j], gap_fit_holds(pb.model_gaps[j], pb.gaps[j].paper_pct, pb.tol_pct) ? "yes" : "no",
                             r[static_cast<long>(pb.cal.size() + j)]);
}

// A direction's coefficient below this is not shown or written (the direction is a unit vector).
constexpr double kShownCoefficient = 1e-3;

// The parameters of direction d with their coefficients (those of at least kShownCoefficient), as "name +0.123".
std::vector<std::string> direction_parts(const FitDirection& d, const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (std::abs(d.coef[i]) >= kShownCoefficient) parts.push_back(fmt::format("{} {:+.3f}", names[i], d.coef[i]));
  return parts;
}

// The fit's 95 % confidence box (fit_uncertainty): a table, and the reference file's "calibration_directions" entries
// that put it into validate's prediction intervals (intervals.cpp samples each direction over its range).
void report_uncertainty(const Problem& pb, const std::string& machine, const std::string& source,
                        const FitUncertainty& u) {
  if (u.dof == 0) {
    std::cout << "\nNo degree of freedom left (no more residuals that the free parameters move than free parameters): "
                 "the fit's uncertainty is not estimated.\n";
    return;
  }
  std::cout << fmt::format("\nThe fit's uncertainty: residual standard error {:.4g} over {} degrees of freedom, "
                           "Student's t {:.3f} (95 %, two-sided); half-widths in log parameter units:\n\n"
                           "| direction | half-width | parameters (coefficient) |\n|---|---|---|\n",
                           u.s, u.dof, u.t);
  std::vector<std::string> names;
  for (auto& f : pb.free) names.push_back(f.info.name);
  for (std::size_t k = 0; k < u.directions.size(); ++k) {
    const FitDirection& d = u.directions[k];
    std::cout << fmt::format("| {} | {} | {} |\n", k + 1,
                             d.undetermined ? std::string("undetermined (not bounded by the data)")
                             : d.wide       ? fmt::format("{:.4g}: wide, beyond the linearization (listed below at "
                                                          "its limit, {:g})",
                                                          d.half_width, kLinearLimit)
                                            : fmt::format("{:.4g}", d.half_width),
                             fmt::join(direction_parts(d, names), ", "));
  }
  std::cout << "\ncalibration_directions (for the reference file):\n"
            << calibration_directions(u, names, machine, source).dump(1) << "\n";
}

}  // namespace

Json calibration_directions(const FitUncertainty& u, const std::vector<std::string>& names, const std::string& machine,
                            const std::string& source) {
  Json dirs = Json::array();
  for (std::size_t k = 0; k < u.directions.size(); ++k) {
    const FitDirection& d = u.directions[k];
    if (d.undetermined) continue;
    Json coef = Json::object();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (std::abs(d.coef[i]) >= kShownCoefficient) coef[names[i]] = std::round(d.coef[i] * 1e4) / 1e4;
    // A wide direction is sampled at the linearization's limit: a lower bound on the fit's uncertainty there, where
    // leaving it out would claim none.
    const double h = std::round(std::min(d.half_width, kLinearLimit) * 1e4) / 1e4;
    const std::string label = fmt::format("fit uncertainty {} of {}", k + 1, fmt::join(direction_parts(d, names), ", "));
    dirs.push_back(Json{{"machine", machine},
                        {"label", d.wide ? fmt::format("{} (95 % half-width {:.3g}, sampled at the linearization's "
                                                       "limit {:g})",
                                                       label, d.half_width, kLinearLimit)
                                         : label},
                        {"source", source},
                        {"direction", coef},
                        {"range", Json::array({-h, h})}});
  }
  return dirs;
}

namespace {

// The machine file with the fitted values, written to `path` (a new file in --out; the repository's is never edited).
// A parameter's entry in the machine file's JSON: its key path is its long name ("networks.gemini.nic.bte_bandwidth",
// "node_types.compute.memory.dram_copy_bandwidth"); nullptr for a parameter the file inherits from its base machine.
Json* file_entry(Json& mj, const ParamList& paths, const ParamRef& r) {
  auto same = std::find_if(paths.begin(), paths.end(), [&](const ParamRef& p) { return p.p == r.p; });
  if (same == paths.end()) return nullptr;
  Json* e = &mj;
  std::string rest = same->info.name;
  for (std::size_t dot; e && (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1))
    e = e->contains(rest.substr(0, dot)) ? &(*e)[rest.substr(0, dot)] : nullptr;
  return e && e->contains(rest) ? &(*e)[rest] : nullptr;
}

void write_machine(Machine& m, const std::vector<ParamRef>& free, const Eigen::VectorXd& x, const std::string& path) {
  Json mj = load_json_file(m.file);
  const ParamList paths = m.physical_params_long();
  for (std::size_t i = 0; i < free.size(); ++i) {
    Json* e = file_entry(mj, paths, free[i]);
    if (!e) continue;
    double val = std::exp(x[static_cast<long>(i)]);
    Dim d = free[i].info.dim;
    if (d == Dim::Ratio || d == Dim::Count) (*e)["value"] = val;
    else (*e)["value"] = format_quantity(val, d);
  }
  write_atomic(path, mj.dump(2) + "\n");
  std::cerr << "calibrate: wrote " << path << " (" << m.file << " with the fitted values)\n";
}

}  // namespace

FitUncertainty fit_uncertainty(const Eigen::MatrixXd& J, const Eigen::VectorXd& r) {
  FitUncertainty u;
  const long n = J.cols();
  if (n == 0 || J.rows() != r.size()) return u;
  // A residual that no parameter moves (a zero row: a point of another stack) tells nothing about the parameters.
  long m = 0;
  double rss = 0;
  for (long j = 0; j < J.rows(); ++j)
    if (J.row(j).cwiseAbs().maxCoeff() > 0) ++m, rss += r[j] * r[j];
  if (m <= n) return u;
  u.dof = static_cast<int>(m - n);
  u.s = std::sqrt(rss / static_cast<double>(u.dof));
  // In double throughout: Boost's default policy promotes double to long double, whose tables it builds at start-up
  // (erf_inv_initializer), and valgrind's 64-bit emulation of x87 long double makes that throw, so no run of the tool
  // could be counted with cachegrind.
  using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
  u.t = boost::math::quantile(boost::math::students_t_distribution<double, DoublePolicy>(u.dof), 0.975);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeThinV);
  const auto& sv = svd.singularValues();
  for (long k = 0; k < sv.size(); ++k) {
    FitDirection d;
    d.singular_value = sv[k];
    for (long i = 0; i < n; ++i) d.coef.push_back(svd.matrixV()(i, k));
    d.undetermined = !(sv[k] > kUndeterminedShare * sv[0]);
    if (!d.undetermined) d.half_width = u.t * u.s / sv[k];
    d.wide = d.half_width > kLinearLimit;
    u.directions.push_back(std::move(d));
  }
  return u;
}

std::string calibration_machine(const Json& doc, const std::string& f) {
  std::set<std::string> machines;
  for (const auto& p : doc.value("points", Json::array())) {
    if (p.value("role", "") != "calibration" || p.contains("fits") || !p.contains("scenario")) continue;
    const Json& sc = p["scenario"];
    if (!sc.is_string()) throw InputError(f, "points[].scenario", "must be a scenario file's path");
    const Json scenario = load_json_file((std::filesystem::path(data_dir()) / sc.get<std::string>()).string());
    if (scenario.contains("machine") && scenario["machine"].is_string())
      machines.insert(scenario["machine"].get<std::string>());
  }
  if (machines.size() != 1)
    throw InputError(f, "points", machines.empty() ? std::string("no calibration point names a machine")
                                                   : fmt::format("the calibration points run on several machines ({})",
                                                                 fmt::join(machines, ", ")));
  return *machines.begin();
}

int calibrate(const std::string& paper, const std::string& machine_name, const std::string& write_to,
              const std::vector<std::string>& only) {
  const std::string f = reference_files(paper).at(0);
  Json doc = load_json_file(f);
  check_points_input(doc, f, [](const std::string& rel) {
    std::error_code ec;  // a name the file system refuses (too long, ...) names no scenario
    return std::filesystem::is_regular_file(std::filesystem::path(data_dir()) / rel, ec);
  });
  const std::string on = calibration_machine(doc, f);
  auto m = load_machine(machine_name.empty() ? on : machine_name);
  if (m->name != on)
    throw InputError("--machine", machine_name,
                     fmt::format("the calibration points of {} run on machine '{}' and the fit sets the free parameters "
                                 "on their scenarios, so it fits '{}' (give --machine {}, or omit it)",
                                 paper, on, on, on));
  Problem pb;
  ParamList all = m->physical_params();
  for (auto& r : all)
    if (chosen(r, only)) pb.free.push_back(r);
  if (pb.free.empty() && only.empty()) throw InputError(m->file, "", "no parameter is marked with a 'fit' method");
  if (pb.free.empty()) {  // said of the option, with the names it could have matched
    std::vector<std::string> fitted;
    for (auto& r : all)
      if (r.p->fitted) fitted.push_back(r.info.name);
    throw InputError("--free", fmt::format("{}", fmt::join(only, " ")),
                     fmt::format("matches no parameter of {} with a 'fit' method ({})", m->file,
                                 fitted.empty() ? std::string("it has none") : fmt::format("{}", fmt::join(fitted, ", "))));
  }
  Json mj = load_json_file(m->file);
  const ParamList paths = m->physical_params_long();
  for (auto& r : pb.free) {
    const Json* e = file_entry(mj, paths, r);
    pb.prior.push_back(e ? read_prior(*e, r.info.dim, m->file) : std::nullopt);
  }
  pb.tol_pct = doc.value("tolerance_pct", 10.0);
  for (auto& p : doc.at("points"))
    if (p.at("role") == "calibration" && !p.contains("fits")) pb.cal.push_back(p);  // machine parameters only
  std::vector<std::string> free_names;
  for (auto& p : pb.free) free_names.push_back(p.info.name);
  for (auto& g : load_fit_gaps(doc, f))
    if (gap_enters_fit(g, free_names)) pb.gaps.push_back(g);
  const std::size_t n = pb.free.size();
  Eigen::VectorXd x(static_cast<long>(n));  // log of each free parameter
  for (std::size_t i = 0; i < n; ++i) x[static_cast<long>(i)] = std::log(pb.free[i].p->value);
  Eigen::VectorXd r = pb.residuals(x);
  auto count = [](std::size_t k, const char* noun) { return fmt::format("{} {}{}", k, noun, k == 1 ? "" : "s"); };
  std::cerr << fmt::format("calibrate: {}, {}, {}, initial rms {:.2f} %\n", count(n, "free parameter"),
                           count(pb.cal.size(), "calibration point"), count(pb.gaps.size(), "calibration comparison"),
                           rms_pct(r));
  Eigen::MatrixXd J;
  fit(pb, x, r, J, 5);
  report_directions(pb, J);
  report(pb, x, r);
  const FitUncertainty u = fit_uncertainty(J, r);
  std::string source = fmt::format("the 95 % confidence region of ompisim calibrate --paper {} --machine {}", paper, m->name);
  for (auto& o : only) source += " --free " + o;
  source += fmt::format(" (residual standard error {:.4g} over {} degrees of freedom)", u.s, u.dof);
  report_uncertainty(pb, m->name, source, u);
  if (!write_to.empty()) write_machine(*m, pb.free, x, write_to);
  return 0;
}

}  // namespace ompisim::validation
