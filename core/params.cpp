#include "core/params.hpp"

#include "core/enum_names.hpp"
#include "core/override_text.hpp"
#include "core/units_text.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ompisim {

double param_value(const Json& v, const ParamInfo& info, const std::string& file, const std::string& key) {
  if (info.choices.empty()) return json_quantity(v, info.dim, file, key);
  std::string name = v.is_string() ? v.get<std::string>() : v.dump();
  for (std::size_t i = 0; i < info.choices.size(); ++i)
    if (info.choices[i] == name) return static_cast<double>(i);
  std::string hint = did_you_mean(name, info.choices);
  throw InputError(file, key, fmt::format("unknown value '{}'{} (one of: {})", name,
                                          hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                          fmt::join(info.choices, ", ")));
}

std::string format_param(double value, const ParamInfo& info) {
  if (info.choices.empty()) return format_quantity(value, info.dim);
  auto i = static_cast<std::size_t>(value);
  return i < info.choices.size() ? info.choices[i] : std::to_string(value);
}

static void check_range(const ParamRef& r, double x, const std::string& file, const std::string& key) {
  if (x < r.info.min || x > r.info.max)
    throw InputError(file, key,
                     fmt::format("value {} is out of range [{}, {}]", format_quantity(x, r.info.dim),
                                 format_quantity(r.info.min, r.info.dim), format_quantity(r.info.max, r.info.dim)));
}

void load_range(ObjectReader& entry, const ParamRef& r, const std::string& file) {
  r.p->ranged = false;
  if (!entry.has("range") && !entry.has("range_source")) return;
  // {"range": [lo, hi], "range_source": "reason"}: lo <= value <= hi, both within the parameter's limits.
  const double x = r.p->value;
  const Json& rg = entry.raw("range");
  const std::string key = entry.key_path("range");
  if (!rg.is_array() || rg.size() != 2 || !r.info.choices.empty())
    throw InputError(file, key, "a range is [low, high], two quantities of the parameter's unit");
  double lo = json_quantity(rg[0], r.info.dim, file, key + "[0]");
  double hi = json_quantity(rg[1], r.info.dim, file, key + "[1]");
  check_range(r, lo, file, key + "[0]");
  check_range(r, hi, file, key + "[1]");
  if (!(lo <= x && x <= hi))
    throw InputError(file, key,
                     fmt::format("the range [{}, {}] does not contain the value {} (a range is the uncertainty of "
                                 "the value beside it, sampled for prediction intervals: give one around the new value, "
                                 "or remove \"range\" and \"range_source\")",
                                 format_quantity(lo, r.info.dim), format_quantity(hi, r.info.dim),
                                 format_quantity(x, r.info.dim)));
  if (!entry.has("range_source")) entry.fail("range_source", "a range needs its reason ('range_source')");
  r.p->ranged = true;
  r.p->range_lo = lo;
  r.p->range_hi = hi;
  r.p->range_source = entry.str("range_source");
}

// {"prior": {"value": q, "range": [lo, hi], "source": "reason"}} on a fitted parameter: 0 < lo <= q < hi, q within
// the parameter's limits. Checked here; calibrate reads it (validation/calibrate.hpp, read_prior).
static void check_prior(ObjectReader& entry, const ParamRef& r, const std::string& file) {
  if (!entry.has("prior")) return;
  if (!r.p->fitted) entry.fail("prior", "only a fitted parameter ('fit') has a prior");
  ObjectReader pr = entry.object("prior");
  const double x = pr.quantity("value", r.info.dim, -1e300, 1e300);
  check_range(r, x, file, pr.key_path("value"));
  const Json& rg = pr.raw("range");
  const std::string key = pr.key_path("range");
  if (!rg.is_array() || rg.size() != 2 || !r.info.choices.empty())
    throw InputError(file, key, "a range is [low, high], two quantities of the parameter's unit");
  const double lo = json_quantity(rg[0], r.info.dim, file, key + "[0]");
  const double hi = json_quantity(rg[1], r.info.dim, file, key + "[1]");
  if (!(0 < lo && lo <= x && x <= hi && lo < hi))
    throw InputError(file, key, "the range must hold the prior's value, with 0 < low < high");
  (void)pr.str("source");
  pr.finish();
}

std::string plain_value_source(const std::string& file) {
  return fmt::format("{} (plain value, no source given)", std::filesystem::path(file).filename().string());
}

// A parameter given as its value alone ("bte_bandwidth": "8 GB/s", "smsg_max_payload": 1024): read as
// {"value": it} with the file as its source. A value whose unit is not written (a bare number for a time or a rate)
// is refused by param_value like any other.
static void load_plain(ObjectReader& section, const ParamRef& r) {
  const std::string key = section.key_path(r.info.name);
  double x = param_value(section.raw(r.info.name), r.info, section.file(), key);
  check_range(r, x, section.file(), key);
  r.p->value = x;
  r.p->set = true;
  r.p->source = plain_value_source(section.file());
  r.p->fitted = false;
  r.p->ranged = false;
}

// A plain value ("name": "8 GB/s", or a number where the dimension allows one: bytes, counts, ratios) is read as
// {"value": ...} whose source is plain_value_source(file): a user's machine file may start from values and add
// sources later. A number without its unit for a time or a rate stays an error.
void load_sourced(ObjectReader& section, ParamList& list, bool require_all) {
  std::vector<std::string> names = param_names(list);
  for (auto& r : list) {
    if (!section.has(r.info.name)) {
      if (require_all) section.fail_missing(r.info.name, "parameter", " (" + r.info.description + ")", names);
      continue;
    }
    if (!section.raw(r.info.name).is_object()) {  // a plain value: {"value": it}, its source the file
      load_plain(section, r);
      continue;
    }
    ObjectReader entry = section.object(r.info.name);
    // A misspelt key is named first: "sorce" would otherwise read as a missing source
    entry.finish({"value", "source", "fit", "status", "note", "range", "range_source", "prior"});
    double x = r.info.choices.empty() ? entry.quantity("value", r.info.dim, -1e300, 1e300)
                                      : param_value(entry.raw("value"), r.info, section.file(), entry.key_path("value"));
    check_range(r, x, section.file(), entry.key_path("value"));
    r.p->value = x;
    r.p->set = true;
    if (entry.has("source")) {
      r.p->source = entry.str("source");
      r.p->fitted = false;
    } else if (entry.has("fit")) {
      r.p->source = "fitted: " + entry.str("fit");
      r.p->fitted = true;
    } else {
      entry.fail("source", "every parameter needs a 'source' (document, paper) or a 'fit' (method)");
    }
    load_range(entry, r, section.file());
    check_prior(entry, r, section.file());
    for (const char* text : {"status", "note", "fit", "range_source"})  // texts shown to people: strings
      if (entry.has(text)) (void)entry.str(text);
  }
  section.finish(names);
}

void load_overrides(ObjectReader& section, ParamList& list, const std::string& source) {
  for (auto& r : list) {
    if (!section.has(r.info.name)) continue;
    double x = param_value(section.raw(r.info.name), r.info, section.file(), section.key_path(r.info.name));
    check_range(r, x, section.file(), section.key_path(r.info.name));
    r.p->value = x;
    r.p->source = source;
    r.p->fitted = false;
    r.p->set = true;
  }
  section.finish(param_names(list));
}

double param_text_value(const std::string& text, const ParamInfo& info, const std::string& name) {
  Json v;
  try {
    v = Json::parse(text);
  } catch (...) {
    v = text;
  }
  return param_value(v, info, "--set", name);
}

bool set_param(ParamList& list, const std::string& name, const std::string& text, const std::string& source) {
  for (auto& r : list) {
    if (r.info.name != name) continue;
    const double x = param_text_value(text, r.info, name);
    check_range(r, x, "--set", name);
    r.p->value = x;
    r.p->source = source;
    r.p->fitted = false;
    r.p->set = true;
    return true;
  }
  return false;
}

std::vector<std::string> param_names(const ParamList& list) {
  std::vector<std::string> v;
  for (auto& r : list) v.push_back(r.info.name);
  return v;
}

// The unit a dimension's values are shown in by describe (format_quantity's units; counts and ratios have none).
static constexpr std::array<const char*, 5> kDimUnitNames{"us", "B", "GB/s", "-", "-"};
static const char* unit_of(Dim d) { return name_of<Dim::Ratio>(d, kDimUnitNames); }

Json describe(const ParamList& list) {
  Json rows = Json::array();
  for (auto& r : list)
    rows.push_back({{"name", r.info.name},
                    {"value", format_param(r.p->value, r.info)},
                    {"unit", unit_of(r.info.dim)},
                    {"dimension", to_string(r.info.dim)},
                    {"description", r.info.description},
                    {"source", r.p->source},
                    {"fitted", r.p->fitted}});
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].p->ranged) {
      rows[i]["range"] = {format_param(list[i].p->range_lo, list[i].info), format_param(list[i].p->range_hi, list[i].info)};
      rows[i]["range_source"] = list[i].p->range_source;
    }
  for (std::size_t i = 0; i < list.size(); ++i)  // a parameter that names one of a list: the list
    if (!list[i].info.choices.empty()) rows[i]["choices"] = list[i].info.choices;
  return rows;
}

Json resolved(const ParamList& list) {
  Json o = Json::object();
  for (auto& r : list) o[r.info.name] = format_param(r.p->value, r.info);
  return o;
}

}  // namespace ompisim
