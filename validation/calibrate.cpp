// ompisim calibrate: Eigen Levenberg-Marquardt on a machine's free parameters (those with a "fit" method in its file)
// against a paper's calibration points, in log-parameter space, with the Jacobian's undetermined directions reported.
#include "validation/calibrate.hpp"

#include "runner/registries.hpp"
#include "runner/report.hpp"
#include "runner/scenario.hpp"
#include "validation/validate.hpp"

#include <algorithm>
#include <Eigen/Dense>
#include <cmath>
#include <fmt/format.h>
#include <iostream>

namespace ompisim::validation {

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
    const std::vector<double> sim = fast_values(cal, sets);
    Eigen::VectorXd r(static_cast<long>(k));
    for (std::size_t j = 0; j < k; ++j) {
      double ref = cal[j].at("value").get<double>();
      r[static_cast<long>(j)] = (sim[j] - ref) / ref;
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
