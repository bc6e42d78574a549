// Sensitivity of a scenario's result to each machine parameter: the normalised derivative d ln(result) / d ln(param)
// of every point, by central differences in log space (each parameter times e^(+h) and e^(-h), one run each).
// A value of 1 means the result moves by 1 % when the parameter moves by 1 %; 0, that it does not depend on it.
#pragma once
#include "core/json_input.hpp"

#include <string>
#include <vector>

namespace ompisim::validation {

// {"scenario", "metric", "step", "points": [x values], "parameters": [{"name", "value", "source", "derivatives": [...],
//  "max_abs", "applied": [down, up], "applied_step"}] sorted by max_abs, largest first; parameters that cannot be varied
//  (zero, a count of the machine, a choice, a step beyond its range) are listed under "not_varied", and those whose
//  step is too small for their resolution (both runs would get the same whole size or count) under "step_too_small":
//  [{"name", "value", "source", "applied", "reason"}], and those whose stepped runs are refused as bad input (the step
//  breaks a rule across parameters the nominal value keeps: a fragment and its header over a QDMA slot) under
//  "step_refused": [{"name", "value", "source", "applied": [down, up], "reason"}]}.
// Each parameter x is written as the text of x e^(+h) and of x e^(-h) (format_quantity_exact: times, rates and ratios
// to the last bit, sizes and counts whole) and S = (ln v_up - ln v_down) / (ln x_up - ln x_down), x_up and x_down the
// values those texts give the run (param_text_value, as --set reads them): "applied" holds the texts, "applied_step"
// (ln x_up - ln x_down) / 2, which is the step itself for a time, rate or ratio and what the rounding left for a size.
// mca: MCA parameters varied as well (their resolved values, provenance.mca, read as their component declares them; a
// key the stack does not read is refused as --set refuses it; one at 0 = auto is varied around provenance.derived
// "<name> (effective)", the value the run used, and its "value" says so). machine_file: a machine file used instead of
// the scenario's machine name (run --machine-file). A host-side software cost that several networks' files each give
// with one value (the stack reads one value and refuses copies that differ) is one parameter named
// "networks.{a,b}.software.<cost>", every copy stepped together; its rows list the copies' keys under "copies".
// Shows progress (core/progress.hpp) per parameter.
// sets: `--set` overrides every run takes (the nominal one and the stepped ones), so the derivatives are taken around
// that what-if; a stepped parameter replaces its own --set in its two runs. The result lists them under "overrides".
Json sensitivity(const std::string& scenario_file, double step = 0.01, const std::vector<std::string>& mca = {},
                 const std::string& machine_file = "", const Overrides& sets = {});
// One line per parameter: name, largest |derivative|, the derivative at each point; under the table the parameters
// whose applied step differs from the step, those not varied, and those whose step is too small, each with its reason.
std::string render_sensitivity(const Json& s);

}  // namespace ompisim::validation
