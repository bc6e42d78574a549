// ompisim calibrate: fits a machine's free parameters (the entries of its file with a "fit" method) to a paper's
// calibration points (validation/reference/<paper>.json) by Eigen Levenberg-Marquardt in log-parameter space; prints
// the fitted values, the residuals and the Jacobian's undetermined directions; --write updates the machine file.
#pragma once
#include <string>

namespace ompisim::validation {

int calibrate(const std::string& paper, const std::string& machine, bool write);

}  // namespace ompisim::validation
