// ompisim calibrate: fits a machine's free parameters (the entries of its file with a "fit" method) to a paper's
// calibration points and calibration comparisons (validation/reference/<paper>.json: "points" with role calibration,
// "fit_gaps" with role calibration) by Eigen Levenberg-Marquardt in log-parameter space; prints the fitted values, the
// residual of every point and comparison (with the model's gap against the paper's) and the Jacobian's undetermined
// directions; --write updates the machine file.
#pragma once
#include "core/json_input.hpp"
#include "core/params.hpp"

#include <Eigen/Dense>

#include <optional>
#include "validation/gap.hpp"

#include <string>
#include <vector>

namespace ompisim::validation {

// One calibration comparison of a reference file's "fit_gaps": the paper's signed gap between two simulated values
// (gap_pct's reading: +X when a is X % better than b).
struct FitGap {
  std::string id;
  Json a, b;  // {"scenario", "select", "metric"}
  double paper_pct;
  Better better;
  std::string free;  // "free" (optional): the comparison enters only fits whose every free parameter's name contains it
};

// The comparisons with role "calibration" of doc["fit_gaps"] (role "check" entries are checked and skipped). A gap of 0
// is a pair whose paper values are equal (two stacks at one size): it is fitted like the others. Bad input (a missing
// key, a gap that is not a finite number, two metrics, a metric without a known direction, an unknown role, a "free"
// that is not a non-empty string) is an InputError naming `file` and the key.
std::vector<FitGap> load_fit_gaps(const Json& doc, const std::string& file);

// A comparison's residual, in the terms of gap_holds: q = model gap / paper gap (negative when the signs differ), and
// ln q scaled so that a gap off by the factor that still holds (1.5 either way) weighs as much as a point at the
// tolerance (tol_pct / 100). Below q = 1/2 the residual continues linearly (same value and slope at 1/2), so a gap of
// the other sign stays finite and keeps a gradient towards the paper's sign. A paper gap of 0 (equal values) has no
// ratio: the residual is the model's gap / 100, so that a gap of tol_pct % weighs as a point at its tolerance.
double gap_residual(double model_pct, double paper_pct, double tol_pct);

// A fitted parameter's prior: the value its source gives, and that value's range ({"prior": {"value", "range": [lo, hi],
// "source"}} in the machine file entry; load_sourced checks it).
struct Prior {
  double value = 0, lo = 0, hi = 0;
};
// The prior of a machine-file parameter entry, if it has one.
std::optional<Prior> read_prior(const Json& entry, Dim d, const std::string& file);
// A prior's residual: the value's log distance from the prior over half the prior's log range, scaled so that a value
// at the range's edge weighs as much as a point off by kPriorWeight of the tolerance (kPriorWeight * tol_pct / 100). A
// small term: it holds the parameter to its source where the calibration data do not determine it (a direction the
// points see weakly, as the AMO barrier sees only fma_issue_overhead + amo_latency), and yields where they do.
constexpr double kPriorWeight = 0.1;
double prior_residual(const Prior& p, double value, double tol_pct);

// Whether a fitted comparison holds: gap_holds, and for a paper gap of 0 the model's |gap| within tol_pct %.
bool gap_fit_holds(double model_pct, double paper_pct, double tol_pct);

// Whether a comparison enters a fit of these free parameters: always without its "free"; with it, only when every free
// parameter's name contains it (a closed comparator's comparisons calibrate its own costs, never the hardware's or
// Open MPI's parameters fitted on the points).
bool gap_enters_fit(const FitGap& g, const std::vector<std::string>& free_names);

// The fit's uncertainty at its end point: the principal axes of the confidence region of the log parameters, from the
// Jacobian J (residuals by log parameters) and the residuals r, as a linear least-squares fit has it (Bates and Watts,
// Nonlinear Regression Analysis, 1988, ch. 2): covariance s^2 (J^T J)^-1, s^2 = |r|^2 / (m - n) over the m residuals and
// n parameters (a residual whose row of J is zero, which no parameter moves, is not counted); along each right singular vector v_k of J (singular value sigma_k) the half-width is t s / sigma_k, t
// the two-sided 95 % quantile of Student's t with m - n degrees of freedom. A direction whose singular value is below
// kUndeterminedShare of the largest is one the data do not bound: it is left out (undetermined = true, no width).
// A direction whose half-width passes kLinearLimit (a factor e either way) is flagged wide: so far from the end point
// the linearization says little; calibrate lists it for sampling at that limit, a lower bound on the uncertainty.
// Empty when m <= n (no degree of freedom left).
struct FitDirection {
  std::vector<double> coef;  // v_k: one coefficient per parameter (unit length; the sign is arbitrary)
  double singular_value = 0;
  double half_width = 0;  // in log parameter units: x_i = x_i0 exp(coef_i t), |t| <= half_width
  bool undetermined = false;
  bool wide = false;  // half_width > kLinearLimit
};
struct FitUncertainty {
  double s = 0;  // the residuals' standard error, sqrt(|r|^2 / (m - n))
  int dof = 0;
  double t = 0;  // Student's t quantile used
  std::vector<FitDirection> directions;
};
constexpr double kUndeterminedShare = 1e-2;  // also the fit's: a step leaves such a direction alone
constexpr double kLinearLimit = 1.0;
FitUncertainty fit_uncertainty(const Eigen::MatrixXd& J, const Eigen::VectorXd& r);
// The reference file's "calibration_directions" entries for the fit's directions (`names`: the free parameters, in
// the order of each direction's coefficients): an undetermined direction is left out; a wide one is listed with the
// range of the linearization's limit (+-kLinearLimit), its label giving its own half-width; the others with their
// half-width.
Json calibration_directions(const FitUncertainty& u, const std::vector<std::string>& names, const std::string& machine,
                            const std::string& source);

// The machine a paper's calibration points run on (the "machine" of the scenarios of doc["points"] with role
// calibration and no "fits"): the fit sets the free parameters on those scenarios, so it fits that machine. A reference
// file whose calibration points name no machine, or several, is an InputError naming `file`.
std::string calibration_machine(const Json& doc, const std::string& file);

// machine: a machine name or file whose machine name is calibration_machine's (empty: that machine); another is an
// InputError naming --machine and the machine to give, raised before any run.
// only: when not empty, the free parameters are the fitted ones whose name contains one of these strings (the others
// keep their file values). write_to: when not empty, the machine file with the fitted values is written there.
int calibrate(const std::string& paper, const std::string& machine, const std::string& write_to,
              const std::vector<std::string>& only = {});

}  // namespace ompisim::validation
