// `ompisim schema scenario|result|grid|sweep|validation|machine`: JSON Schemas (draft 2020-12) built from the
// declarations the parser and the report use: the scenario's keys (runner/scenario.hpp scenario_keys), each registered
// benchmark's block (its DriverParam list), each component's MCA parameters, the stack presets, engines and machines of
// the registries; the result's keys (result_keys below); a sweep's grid and merged table; the validation table; a
// machine file's keys. scenarios/ (grids included), results/ and the installed machine files validate against them in
// the test suite (tests/e2e/schema.sh).
// Enumerations (stack presets and components, machines, benchmarks, engines, route policies, topology and NIC kinds,
// collectives' algorithms) come from the registries; every MCA parameter is typed from its component's declaration
// (dimension, range, choices); a benchmark key from its declared type. A benchmark block is one if/then per benchmark
// name, the stack an if/then on its type, so that a validator's error names the misspelled key or the wrong value.
// LIMITATIONS: cross-key rules (ranks_per_node <= ranks, an MCA parameter read by a component of the stack, a Cheetah
// barrier needs atomics) and ranges of strings with units stay with the parser; "machine" lists the installed machines
// and those given to `schema --machine-file`; the machine parameters of a grid's axes are not checked (they depend on
// the machine).
#pragma once
#include "benchmarks/driver.hpp"
#include "core/json_input.hpp"

#include <string>
#include <vector>

namespace ompisim {

struct ResultKey {
  const char* name;
  const char* schema;
  const char* description;
  bool required = false;
};
const std::vector<ResultKey>& result_keys();

// `machines`: machine names of one's own (`schema --machine-file`), allowed in "machine" beside the installed ones.
Json scenario_schema(const std::vector<std::string>& machines = {});
Json result_schema();
// A sweep's grid file (runner/sweep.hpp): its base (a file name, or a scenario: the scenario schema under $defs), its
// axes or points (keys "mca.<parameter>", "benchmark.<key>" checked against the registries, scenario axes typed as in
// a scenario, machine parameters free), its combination.
Json grid_schema(const std::vector<std::string>& machines = {});
// A sweep's merged table (sweep.json: grid, axes, columns, units, rows).
Json sweep_schema();
// The validation table (validation.json): its sections and the keys identifying a row of each.
Json validation_schema();
// A machine file: its top-level keys, and each network's NIC kind, topology kind and route policy as enumerations from
// their registries (shape keys and parameter sections stay with the loader, which knows the kind).
Json machine_schema();
// The schema of one benchmark key, read off its declared type (DriverParam::type: "integer >= 1", "integer 2 .. 1024,
// or a list (a sweep)", "list of sizes ...", "time (...)", "a | b", choices, ...). A type outside that vocabulary
// gives a schema without "type" or "enum" (runner/tests/test_schema.cpp checks that no registered key has one).
Json benchmark_param_schema(const bench::DriverParam& p);

}  // namespace ompisim
