#include "core/param_schema.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ompisim {

Json quantity_schema(Dim d, double min, double max) {
  Json s = Json::object();
  const bool bare_integer = d == Dim::Bytes || d == Dim::Count;  // json_quantity: integers for sizes and counts
  if (d == Dim::Time || d == Dim::Rate) s["type"] = "string";
  else s["type"] = {bare_integer ? "integer" : "number", "string"};
  s["pattern"] = quantity_pattern(d);  // applies to strings only
  if (min > -1e300) s["minimum"] = min;  // applies to numbers only
  if (max < 1e300) s["maximum"] = max;
  return s;
}

Json param_schema(const ParamInfo& info) {
  Json s;
  std::string what;
  if (!info.choices.empty()) {
    s = {{"enum", info.choices}};
    what = fmt::format("one of {}", fmt::join(info.choices, ", "));
  } else {
    s = quantity_schema(info.dim, info.min, info.max);
    std::string units = unit_list(info.dim);
    what = fmt::format("{} in [{}, {}]{}", to_string(info.dim), format_quantity(info.min, info.dim),
                       info.max < 1e300 ? format_quantity(info.max, info.dim) : "inf",
                       units.empty() ? "" : "; units " + units);
  }
  s["description"] = fmt::format("{} ({})", info.description, what);
  return s;
}

}  // namespace ompisim
