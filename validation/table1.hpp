// Value checks of a reference file kept apart from its points and claims: a paper's table row by row (seastar-portals
// Table 1: "table1") or the mechanisms a paper quantifies (qsnet-elan4: "mechanism_checks"). Each entry names one
// simulated value and the paper's number:
//   {"id", "text", "role": "prediction" | "reads_input", "reads": "<the input derived from this number>" (reads_input),
//    "value": number | [names], "tolerance_pct": relative % | "tolerance_points": absolute | "factor": f (the
//    simulated value has the paper's sign and lies within value / f .. value x f: an amount by which two values
//    differ, read as a gap; validation/README.md), "source",
//    "a": {"scenario", "select": {"ranks"|"bytes": n} (optional: the first point), "metric": "<field>[.<key>]"},
//    "b": {...} and "op": "difference" | "ratio" (optional: the value is a op b),
//    "reason": "<why the model misses it>" (optional: shown when the entry does not hold)}
// A list value (e.g. Table 1's "Top MPI Routines") holds when the simulated list starts with it, in order, less the
// names the point's "table1_lacks" lists as routines it cannot produce (named in the detail). An entry
// is "untested" when the simulated point has no such value (null, or a name its "table1_lacks" lists), with the
// reason the scenario gives. "reads_input" marks a number the model's input was derived from: it is reported, and
// counted apart, but it is no independent test. None of these enters validate's exit status.
#pragma once
#include "core/json_input.hpp"

#include <functional>
#include <string>

namespace ompisim::validation {

// The result of a scenario (its "points"), by repository-relative path.
using ResultOf = std::function<const Json&(const std::string& scenario)>;

// Evaluates `entries` (the array under `key` of reference file `file`): one row per entry {"id", "text", "role",
// "reference", "simulated", "status": holds | fails | untested, "detail"}. Bad input: InputError naming file and key.
// A point's field named by a metric: "latency_us", or a field of a field, "routine_pct.Wait" (a routine's share of the
// run); nullptr when the point has none.
const Json* point_field(const Json& point, const std::string& metric);
Json eval_value_checks(const Json& entries, const std::string& file, const std::string& key, const ResultOf& result);
// Markdown: one table of the rows and a count per status and role ("" when there are none).
std::string render_value_checks(const Json& rows, const std::string& title);

}  // namespace ompisim::validation
