// JSON Schema (draft 2020-12) fragments of typed values, built from the tables the parser reads: a quantity of a
// dimension (its unit spellings from core/units.hpp), a parameter of a visit()ed struct (dimension, range, choices).
// `ompisim schema` (runner/schema.hpp) assembles them; nothing here parses input.
#pragma once
#include "core/json_input.hpp"
#include "core/params.hpp"
#include "core/units_text.hpp"

namespace ompisim {

// What json_quantity accepts for `d`: a string matching quantity_pattern(d), or for sizes and counts an integer (a
// ratio: any number) within [min, max]. A range bound at +-1e300 (none) is left out. JSON Schema cannot range-check
// the strings with units: the parser does.
Json quantity_schema(Dim d, double min = -1e300, double max = 1e300);
// A parameter's value as a scenario "mca" block or --set gives it: its choices as an enum, else quantity_schema with
// its range; the description names the dimension, the range and the accepted units.
Json param_schema(const ParamInfo& info);

}  // namespace ompisim
