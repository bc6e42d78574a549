// One source of truth per parameter. A parameter struct lists its fields once, in visit(), with name, dimension,
// description and range; the JSON loader, `ompisim describe`, `--set` overrides, the calibration fit and the
// provenance block of results/ are all generated from that list.
//
// Physical parameters have no code default: they come from the machine file as {"value": "105 ns", "source": "..."}
// or {"value": ..., "fit": "<method>"} for the few free parameters that `ompisim calibrate` fits.
// Software defaults (MCA parameters) carry their Open MPI version and file as their source.
#pragma once
#include "core/json_input.hpp"
#include "core/units.hpp"

#include <functional>
#include <string>
#include <vector>

namespace ompisim {

struct ParamInfo {
  std::string name;
  Dim dim;
  std::string description;
  double min = 0;
  double max = 1e300;
  // A choice parameter (an MCA enumeration such as "read" | "write"): the value is the index of the chosen name, given
  // and shown as the name; anything else is refused naming the choices. Empty: a quantity of `dim`.
  std::vector<std::string> choices = {};
};
// The value of a parameter given as JSON: a quantity of its dimension, or the index of one of its choices.
// InputError(file, key, reason) otherwise.
double param_value(const Json& v, const ParamInfo& info, const std::string& file, const std::string& key);
// The value as text: a quantity with its unit, or the choice's name.
std::string format_param(double value, const ParamInfo& info);

struct Sourced {
  double value = 0;
  std::string source;   // document / paper / "fitted: ..." / MCA default citation
  bool fitted = false;  // a free parameter of the calibration
  bool set = false;     // a value was supplied (machine file, scenario or --set)
  // The plausible range of an estimate ({"range": [lo, hi], "range_source": reason} beside its source): what the
  // prediction intervals of `validate` sample. ranged = false: the value is taken as known (document, fit).
  bool ranged = false;
  double range_lo = 0, range_hi = 0;
  std::string range_source = {};
  // Whether the model read the value (by conversion or get(); `value` itself is the tool's own access: loading,
  // describe, provenance): a --set of a parameter no component of the run read is said to have changed nothing.
  mutable bool read = false;
  operator double() const { return get(); }
  double get() const {
    if (!read) read = true;  // a store only on the first read: the hot paths read their costs once per message
    return value;
  }
};

// Parameters a component takes by value when it is built (Sourced::value, which reads nothing) and uses only on a
// path a run may never take: the component calls mark() where the path is first taken, and the parameters count as
// read from then on, so a --set of one on a run that never took the path is reported as changing nothing. Null
// entries are skipped; after the first mark() a call costs one test.
struct ReadOnUse {
  std::vector<const Sourced*> params;
  bool done = false;
  void mark() {
    if (done) return;
    done = true;
    for (const Sourced* s : params)
      if (s != nullptr) (void)s->get();
  }
};

struct ParamRef {
  ParamInfo info;
  Sourced* p;
};
using ParamList = std::vector<ParamRef>;

// Collects the refs of any struct with `template <class V> void visit(V&)` calling v(field, ParamInfo).
template <class T>
ParamList param_list(T& params, const std::string& prefix = "") {
  ParamList out;
  params.visit([&](Sourced& s, ParamInfo info) {
    info.name = prefix + info.name;
    out.push_back({std::move(info), &s});
  });
  return out;
}

// A software parameter block written as one table, one row a parameter: the field, its default with its source, and
// its ParamInfo. A block T derives from ParamTable<T>, lists its Sourced fields, defines
// `static const ParamRows<T>& rows()` and sets the defaults in its constructor (`T() { set_defaults(); }`); visit()
// walks the rows in order, so the order of the rows is the order `describe` and the provenance show.
template <class T>
struct ParamRow {
  Sourced T::*field;
  double value;
  std::string source;
  ParamInfo info;
};
template <class T>
using ParamRows = std::vector<ParamRow<T>>;

template <class T>
struct ParamTable {
  template <class V>
  void visit(V&& v) {
    for (const ParamRow<T>& r : T::rows()) v(static_cast<T&>(*this).*r.field, r.info);
  }

protected:
  void set_defaults() {
    for (const ParamRow<T>& r : T::rows()) static_cast<T&>(*this).*r.field = Sourced{r.value, r.source};
  }
};

// Reads {"name": {"value": ..., "source"|"fit": ...}} for every parameter in `list`; unknown or missing keys and bad
// units are InputErrors. With `require_all` false, absent keys keep their (software) default.
void load_sourced(ObjectReader& section, ParamList& list, bool require_all);
// Reads the optional {"range": [lo, hi], "range_source": reason} of one entry whose value is already in r.p.
void load_range(ObjectReader& entry, const ParamRef& r, const std::string& file);
// Reads plain overrides {"name": value} (scenario "mca" block): value only, source "scenario".
void load_overrides(ObjectReader& section, ParamList& list, const std::string& source);
// --set name=value. Returns false when no parameter has this name.
bool set_param(ParamList& list, const std::string& name, const std::string& text, const std::string& source);
std::vector<std::string> param_names(const ParamList& list);
// [{"name","value","unit","dimension","description","source","fitted"}, plus "range" and "range_source" when ranged]
Json describe(const ParamList& list);
// {"name": "value with unit"} for the provenance block
Json resolved(const ParamList& list);

}  // namespace ompisim
