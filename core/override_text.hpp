// Values passed on as overrides (the varied runs of `ompisim sensitivity`): their text, and the value a run receives
// from a text. Apart from units.hpp and params.hpp, which show values and read input files.
#pragma once
#include "core/params.hpp"
#include "core/units.hpp"

#include <string>

namespace ompisim {

// Text that parse_quantity (and a --set override) reads back to exactly value_si: times in s, rates in B/s and ratios
// bare, each with the shortest digits that round-trip ("1.0100501670841679e-06 s"). Sizes and counts are whole, so
// they are written rounded to the nearest whole number ("30 B", "32"): the value a size or count parameter can take.
// format_quantity (6 significant digits, us and GB/s) is the one for showing a value. Defined in units.cpp.
std::string format_quantity_exact(double value_si, Dim d);

// The value set_param gives a parameter for `text` (JSON if it parses as JSON, else a string), without its range
// check: what a run with that override receives. InputError("--set", name, reason) when it is not a value of `info`.
// Defined in params.cpp (set_param reads its text with it).
double param_text_value(const std::string& text, const ParamInfo& info, const std::string& name);

}  // namespace ompisim
