// ompisim calibrate: fits a machine's free parameters (the entries of its file with a "fit" method) to a paper's
// calibration points and calibration comparisons (validation/reference/<paper>.json: "points" with role calibration,
// "fit_gaps" with role calibration) by Eigen Levenberg-Marquardt in log-parameter space; prints the fitted values, the
// residual of every point and comparison (with the model's gap against the paper's) and the Jacobian's undetermined
// directions; --write updates the machine file.
#pragma once
#include <string>
#include <vector>

namespace ompisim::validation {

// only: when not empty, the free parameters are the fitted ones whose name contains one of these strings (the others
// keep their file values).
int calibrate(const std::string& paper, const std::string& machine, bool write, const std::vector<std::string>& only = {});

}  // namespace ompisim::validation
