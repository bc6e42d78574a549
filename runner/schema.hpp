// `ompisim schema scenario|result`: JSON Schemas (draft 2020-12) built from the declarations the parser and the
// report use: the scenario's keys (runner/scenario.hpp scenario_keys), each registered benchmark's block (its
// DriverParam list: name, default, description, the values of a key that names one of a list), the stack presets,
// engines and machines of the registries; and the result's keys (result_keys below). scenarios/ and results/
// validate against them in the test suite (tests/e2e/schema.sh).
// LIMITATIONS: a benchmark parameter's type is free text in its declaration: only "boolean", "integer" and the keys
// with a list of choices get a JSON type; cross-key rules (ranks_per_node <= ranks, a Cheetah barrier needs atomics)
// stay with the parser.
#pragma once
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

Json scenario_schema();
Json result_schema();

}  // namespace ompisim
