// Sensitivity of a scenario's result to each machine parameter: the normalised derivative d ln(result) / d ln(param)
// of every point, by central differences in log space (each parameter times e^(+h) and e^(-h), one run each).
// A value of 1 means the result moves by 1 % when the parameter moves by 1 %; 0, that it does not depend on it.
#pragma once
#include "core/json_input.hpp"

#include <string>
#include <vector>

namespace ompisim::validation {

// {"scenario", "metric", "step", "points": [x values], "parameters": [{"name", "value", "source", "derivatives": [...],
//  "max_abs"}] sorted by max_abs, largest first; parameters that cannot be varied (zero, an integer count, a choice) are
//  listed under "not_varied"}.
// mca: MCA parameters varied as well (their resolved values, provenance.mca; a key the stack does not read is refused
// as --set refuses it; one at 0 = auto is varied around provenance.derived "<name> (effective)", the value the run
// used, and its "value" says so). Shows progress (core/progress.hpp) per parameter.
Json sensitivity(const std::string& scenario_file, double step = 0.01, const std::vector<std::string>& mca = {});
// One line per parameter: name, largest |derivative|, the derivative at each point.
std::string render_sensitivity(const Json& s);

}  // namespace ompisim::validation
