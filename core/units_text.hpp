// The unit spellings of core/units.hpp as text: for error messages and for the JSON Schema patterns of `ompisim
// schema` (core/param_schema.hpp). Byte sizes are binary only (B, KiB, MiB, GiB), as Open MPI reads its size
// parameters: "4 kB", "4 KB" or "1 MB" is refused by parse_quantity naming the binary spelling, never read as 4000 B.
// Rates keep their SI prefixes (GB/s = 1e9 B/s, Gb/s = 1.25e8 B/s; MiB/s and GiB/s binary).
#pragma once
#include "core/units.hpp"

#include <string>
#include <vector>

namespace ompisim {

// The unit spellings parse_quantity accepts for a dimension ("" for a count or a ratio), and them as one list.
std::vector<std::string> units_of(Dim d);
std::string unit_list(Dim d);
// A regular expression (ECMA-262, for a JSON Schema "pattern") matching the strings parse_quantity accepts for `d`:
// a decimal number, optional spaces, one of units_of(d).
std::string quantity_pattern(Dim d);
// "<file name> (plain value, no source given)": the source of a machine-file parameter given as its value alone
// (core/params.hpp load_sourced reads "bte_bandwidth": "8 GB/s" as {"value": "8 GB/s"} with this source).
std::string plain_value_source(const std::string& file);

}  // namespace ompisim
