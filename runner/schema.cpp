#include "runner/schema.hpp"

#include "benchmarks/driver.hpp"
#include "platform/machine.hpp"
#include "runner/registries.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"

#include <set>

namespace ompisim {

const std::vector<ResultKey>& result_keys() {
  static const std::vector<ResultKey> keys = {
      {"scenario", R"({"type": "string"})", "the scenario's id", true},
      {"machine", R"({"type": "string"})", "machine name", true},
      {"stack", R"({"type": "string"})", "stack preset name or label of the composed components", true},
      {"benchmark", R"({"type": "string"})", "benchmark name", true},
      {"ranks", R"({"oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]})", "rank count(s)", true},
      {"ranks_per_node", R"({"type": "integer"})", "ranks per node", true},
      {"points", R"({"type": "array", "items": {"type": "object"}})", "one object per measured point (axis fields and metrics)", true},
      {"stats", R"({"type": "object", "properties": {"sends_posted": {"type": "integer"}, "flows": {"type": "integer"},
        "events": {"type": "integer"}, "amos": {"type": "integer"}, "simulated_time_s": {"type": "number"},
        "counters": {"type": "object", "additionalProperties": {"type": "integer"}}}})",
       "engine and stack statistics of a single run (absent from a sweep's merged result)"},
      {"provenance", R"({"type": "object", "required": ["git_describe", "scenario_file", "machine_file", "engine"]})",
       "git describe, repository-relative files, engine, routing, mapping, overrides, resolved parameters", true},
      {"mailbox_memory", R"({"oneOf": [{"type": "object"}, {"type": "array", "items": {"type": "object"}}]})",
       "btl/ugni's SMSG mailbox memory what-if (one object per rank count in a sweep)"},
  };
  return keys;
}

namespace {

Json param_schema(const bench::DriverParam& p) {
  Json s = Json::object();
  if (p.choices) s["enum"] = p.choices();
  else if (p.type == "boolean") s["type"] = "boolean";
  else if (p.type == "integer") s["type"] = "integer";
  s["description"] = p.description + " (" + p.type + "; default: " + p.default_value + ")";
  return s;
}

}  // namespace

// The "properties" and "required" of a schema from a key table (ScenarioKey or ResultKey: name, JSON schema text,
// description, required).
template <class Key>
static void key_properties(const std::vector<Key>& keys, Json& props, Json& required) {
  for (const auto& k : keys) {
    Json s = Json::parse(k.schema);
    s["description"] = k.description;
    props[k.name] = s;
    if (k.required) required.push_back(k.name);
  }
}

Json scenario_schema() {
  Json props = Json::object(), required = Json::array();
  key_properties(scenario_keys(), props, required);
  std::set<std::string> presets;
  for (auto& p : stack_registry().all()) presets.insert(p.name);
  props["stack"]["oneOf"][0]["examples"] = presets;
  props["engine"]["enum"] = engines().names();
  Json machines = Json::array();
  for (auto& [n, f] : list_machines()) machines.push_back(n);
  props["machine"]["examples"] = machines;  // a name of another folder is allowed with --machine-file
  Json blocks = Json::array();
  for (auto& d : bench::driver_registry().all()) {
    Json bp = Json::object();
    bp["name"] = {{"const", d.name}, {"description", d.description}};
    for (auto& p : d.params) bp[p.name] = param_schema(p);
    blocks.push_back({{"title", d.name},
                      {"type", "object"},
                      {"properties", bp},
                      {"required", {"name"}},
                      {"additionalProperties", false}});
  }
  props["benchmark"]["oneOf"] = blocks;
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "https://ompisim/schema/scenario.json"},
          {"title", "ompisim scenario"},
          {"description", "A scenario file (scenarios/**.json): machine, stack, benchmark, placement, MCA overrides"},
          {"type", "object"},
          {"properties", props},
          {"required", required},
          {"additionalProperties", false}};
}

Json result_schema() {
  Json props = Json::object(), required = Json::array();
  key_properties(result_keys(), props, required);
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "https://ompisim/schema/result.json"},
          {"title", "ompisim result"},
          {"description", "A result file (<id>.json) written by run and reproduce"},
          {"type", "object"},
          {"properties", props},
          {"required", required},
          // a sweep over its driver's axis lists the axis values under the axis name ("radix": [2, 4, 8])
          {"additionalProperties", {{"type", "array"}, {"description", "the values of a sweep's axis (e.g. radix)"}}}};
}

}  // namespace ompisim
