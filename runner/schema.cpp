#include "runner/schema.hpp"

#include "benchmarks/driver.hpp"
#include "platform/machine.hpp"
#include "runner/registries.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"

#include "collectives/registry.hpp"
#include "core/param_schema.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/topology_registry.hpp"
#include "runner/sweep.hpp"

#include <fmt/format.h>
#include <regex>
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
      {"points", R"({"type": "array", "items": {"type": "object"}})", "one object per measured point (axis fields and metrics; the OSU point-to-point drivers and NetPIPE add 'counters', the protocol counters that moved during the size, its warm-up included)", true},
      {"stats", R"J({"type": "object", "properties": {
        "sends_posted": {"type": "integer", "description": "MPI-level send requests started (point-to-point and those of collectives), warm-up included"},
        "sends_completed": {"type": "integer", "description": "of those, the ones completed"},
        "recvs_posted": {"type": "integer", "description": "MPI-level receive requests started, warm-up included"},
        "recvs_completed": {"type": "integer", "description": "of those, the ones completed"},
        "live_requests": {"type": "integer", "description": "send and receive requests not completed when the run ended"},
        "unexpected_left": {"type": "integer", "description": "messages still in the unexpected queues when the run ended"},
        "posted_left": {"type": "integer", "description": "posted receives still unmatched when the run ended"},
        "amos": {"type": "integer", "description": "network atomic operations issued (Gemini AMOs of the Cheetah atomic barrier; LogGOPS atomics)"},
        "events": {"type": "integer", "description": "events the engine scheduled: what a run's CPU time grows with"},
        "flows": {"type": "integer", "description": "bulk flows started (RDMA data, large Portals payloads and memory copies that share links and memory)"},
        "simulated_time_s": {"type": "number", "description": "simulated time when the run ended, in seconds (all sizes and warm-up included)"},
        "counters": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "protocol counters, each under the name its component declares (ompisim describe COMPONENT lists them with their units)"}}})J",
       "engine and stack statistics of a single run (absent from a sweep's merged result)"},
      {"provenance", R"({"type": "object", "required": ["git_describe", "scenario_file", "machine_file", "engine"]})",
       "git describe, repository-relative files, the scenario's benchmark block as given (benchmark_block), engine, "
       "routing, mapping, overrides, resolved parameters", true},
      {"mailbox_memory", R"J({"$defs": {"block": {"type": "object", "properties": {
        "unit": {"type": "string", "description": "the unit of the byte counts below"},
        "ranks": {"type": "integer", "description": "the job's ranks"},
        "ranks_per_node": {"type": "integer", "description": "ranks per node"},
        "nodes": {"type": "integer", "description": "nodes of the job"},
        "smsg_limit": {"type": "integer", "description": "the SMSG limit the mailboxes are sized for (btl_ugni_smsg_limit as resolved for the job size), bytes"},
        "credits": {"type": "integer", "description": "messages one mailbox holds (btl_ugni_smsg_max_credits)"},
        "msgq_credits": {"type": "integer", "description": "messages one MSGQ queue holds"},
        "mailbox_bytes": {"type": "integer", "description": "bytes of one SMSG mailbox (an assumed GNI layout: protocols/btl/ugni/mailbox_memory.hpp)"},
        "msgq_queue_bytes": {"type": "integer", "description": "bytes of one MSGQ queue (the same per-message formula)"},
        "off_node_peers_per_rank": {"type": "integer", "description": "ranks on other nodes, each a possible SMSG peer"},
        "ugni_endpoints": {"type": "integer", "description": "uGNI endpoints this run connected (on demand), the job's total"},
        "smsg_all_peers": {"type": "integer", "description": "bytes per node if every rank had a mailbox for every off-node rank"},
        "smsg_connected": {"type": "number", "description": "bytes per node for the endpoints this run connected (a mean over nodes)"},
        "smsg_connected_max": {"type": "number", "description": "as smsg_connected, if every connection were one-way (each endpoint its own peer's mailbox)"},
        "smsg_connected_allocated": {"type": "number", "description": "as smsg_connected, allocated in Open MPI's 2 MiB mailbox blocks"},
        "msgq_per_node": {"type": "integer", "description": "bytes per node with MSGQ: one queue per remote node, shared by the node's ranks"}}}},
        "oneOf": [{"$ref": "#/properties/mailbox_memory/$defs/block"}, {"type": "array", "items": {"$ref": "#/properties/mailbox_memory/$defs/block"}}]})J",
       "btl/ugni's SMSG mailbox memory what-if, per-peer mailboxes against the paper's planned MSGQ (one object per rank count in a sweep)"},
  };
  return keys;
}

namespace {

Json array_of(Json items, std::size_t min_items = 1) {
  return {{"type", "array"}, {"items", std::move(items)}, {"minItems", min_items}};
}

// "integer A .. B", "integer >= A", "number >= A", "percentage in (A, B]", with ", or a list (a sweep)" after any.
Json numeric_declaration(const std::string& type) {
  static const std::regex range(R"(^(integer|number) (-?[0-9.]+) \.\. (-?[0-9.]+)$)");
  static const std::regex at_least(R"(^(integer|number) >= (-?[0-9.]+)$)");
  static const std::regex percentage(R"(^percentage in \((-?[0-9.]+), (-?[0-9.]+)\]$)");
  std::smatch m;
  const std::string sweep_suffix = ", or a list (a sweep)";
  const bool sweep = type.ends_with(sweep_suffix);
  const std::string t = sweep ? type.substr(0, type.size() - sweep_suffix.size()) : type;
  Json s;
  if (std::regex_match(t, m, range)) s = {{"type", m[1]}, {"minimum", std::stod(m[2])}, {"maximum", std::stod(m[3])}};
  else if (std::regex_match(t, m, at_least)) s = {{"type", m[1]}, {"minimum", std::stod(m[2])}};
  else if (std::regex_match(t, m, percentage)) {  // read as a ratio (a number, or a string without unit)
    s = quantity_schema(Dim::Ratio);
    s["exclusiveMinimum"] = std::stod(m[1]);
    s["maximum"] = std::stod(m[2]);
  } else return Json();
  if (!sweep) return s;
  Json either = s;  // the value, or a non-empty list of such values (the keywords of each type apply to it alone)
  either["type"] = Json::array({s["type"], "array"});
  either["items"] = s;
  either["minItems"] = 1;
  return either;
}

// The collectives a benchmark's "algorithms" object may fix, each with the algorithms it may be fixed to (node-aware
// compositions are chosen by a library's decision only).
Json collective_algorithms_schema() {
  Json props = Json::object();
  for (const auto& a : coll::default_registry().all()) {
    if (!props.contains(a.coll)) props[a.coll] = {{"enum", Json::array()}};
    if (!a.composition) props[a.coll]["enum"].push_back(a.algo);
  }
  return {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
}

// "host | device", "\"send\" | \"recv\"": the names themselves, without quotes.
Json named_values(const std::string& t) {
  Json names = Json::array();
  for (std::size_t a = 0, b = 0; b != std::string::npos; a = b + 3) {
    b = t.find(" | ", a);
    std::string name = t.substr(a, b == std::string::npos ? std::string::npos : b - a);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    names.push_back(name);
  }
  return names;
}

}  // namespace

// The declared types are a small vocabulary (`ompisim describe BENCHMARK` prints them); the schema of each is read off
// the same text, so a key's type is declared once, beside its parser.
Json benchmark_param_schema(const bench::DriverParam& p) {
  const std::string& t = p.type;
  Json s;
  if (p.choices) s = {{"enum", p.choices()}};
  else if (Json n = numeric_declaration(t); !n.is_null()) s = std::move(n);
  else if (t == "boolean") s = {{"type", "boolean"}};
  else if (t.starts_with("list of sizes")) s = array_of(quantity_schema(Dim::Bytes, 0));
  else if (t.starts_with("time (")) s = quantity_schema(Dim::Time, 0);
  else if (t.starts_with("rate (") || t == "path" || t == "name" || t == "MPI datatype name") s = {{"type", "string"}};
  else if (t.starts_with("object {collective: algorithm}")) s = collective_algorithms_schema();
  else if (t.starts_with("object {estimate: value}"))  // a skeleton's estimates: a size with its unit or an integer
    s = {{"type", "object"}, {"additionalProperties", {{"type", {"string", "integer"}}}}};
  else if (t.find(" | ") != std::string::npos) s = {{"enum", named_values(t)}};
  else s = Json::object();  // not in the vocabulary: untyped (runner/tests/test_schema.cpp refuses this)
  s["description"] = p.description + " (" + p.type + "; default: " + p.default_value + ")";
  return s;
}

// Every MCA parameter of every registered component, typed by its declaration (dimension, range, choices); a scenario's
// "mca" takes no other key (the run then checks that a component of its stack reads each one).
Json mca_schema() {
  Json props = Json::object();
  McaParams mca = component_registry().defaults();
  for (const auto& c : component_registry().all())
    for (const auto& r : c.param_list(mca)) {
      Json s = param_schema(r.info);
      s["description"] = fmt::format("{}: {}; default {} ({})", c.id(), s["description"].get<std::string>(),
                                     format_param(r.p->value, r.info), r.p->source);
      props[r.info.name] = s;
    }
  return {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
}

// A preset name (any NIC kind's), or an object of components named by framework as parse_stack_object reads it, each
// framework as its entry in stack_frameworks() says it is given (a list, a selection string, one name).
Json stack_schema() {
  std::set<std::string> presets;
  for (auto& p : stack_registry().all()) presets.insert(p.name);
  Json fws = Json::object();
  for (const StackFramework& f : stack_frameworks()) {
    Json names = {{"enum", component_registry().names(f.name)}};
    switch (f.value) {
      case StackFramework::Value::List:
        fws[f.name] = {{"type", "array"}, {"items", names}, {"minItems", 1}, {"uniqueItems", true}};
        break;
      case StackFramework::Value::Selection: fws[f.name] = {{"type", "string"}, {"examples", f.examples}}; break;
      case StackFramework::Value::One: fws[f.name] = names; break;
    }
  }
  return {{"type", {"string", "object"}},
          {"if", {{"type", "string"}}},
          {"then", {{"enum", presets}}},
          {"else", {{"minProperties", 1}, {"properties", fws}, {"additionalProperties", false}}}};
}

// "name" one of the registered benchmarks; then that benchmark's keys and no other (one if/then per benchmark: a
// misspelled key is reported as the key it is, not as "valid under none of the given schemas").
Json benchmark_schema() {
  Json names = Json::array(), rules = Json::array();
  for (auto& d : bench::driver_registry().all()) {
    names.push_back(d.name);
    Json bp = Json::object();
    bp["name"] = {{"const", d.name}, {"description", d.description}};
    for (auto& p : d.params) bp[p.name] = benchmark_param_schema(p);
    rules.push_back({{"if", {{"properties", {{"name", {{"const", d.name}}}}}, {"required", {"name"}}}},
                     {"then", {{"title", d.name}, {"properties", bp}, {"additionalProperties", false}}}});
  }
  return {{"type", "object"}, {"required", {"name"}}, {"properties", {{"name", {{"enum", names}}}}}, {"allOf", rules}};
}

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

namespace {
Json machine_names(const std::vector<std::string>& more) {
  std::set<std::string> names(more.begin(), more.end());
  for (auto& [n, f] : list_machines()) names.insert(n);
  return names;
}
Json with_description(Json s, const Json& from) {
  if (from.contains("description")) s["description"] = from["description"];
  return s;
}
}  // namespace

Json scenario_schema(const std::vector<std::string>& machines) {
  Json props = Json::object(), required = Json::array();
  key_properties(scenario_keys(), props, required);
  props["stack"] = with_description(stack_schema(), props["stack"]);
  props["engine"]["enum"] = engines().names();
  props["machine"]["enum"] = machine_names(machines);  // the installed ones and those of `schema --machine-file`
  props["routing"]["enum"] = topology::route_policies().names();
  props["mca"] = with_description(mca_schema(), props["mca"]);
  props["benchmark"] = with_description(benchmark_schema(), props["benchmark"]);
  // the quantities the parser reads with their units (runner/scenario.cpp: Scenario's engine_window, engine_grid,
  // packet_trains), with the spellings it accepts
  props["engine_window"] = with_description(quantity_schema(Dim::Time, 1e-15, 1.0), props["engine_window"]);
  props["engine_grid"] = with_description(quantity_schema(Dim::Time, 0.0, 1e-6), props["engine_grid"]);
  props["packet_trains"] = with_description(quantity_schema(Dim::Bytes, 0, 1073741824.0), props["packet_trains"]);
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

// The machine file (platform/machine.cpp load_machine): its top-level keys as the loader reads them, and in each
// network the NIC kind, the topology kind and the route policy from their registries. A topology's shape keys (dims,
// arity, ...) and a NIC's parameter sections stay with the loader: they depend on the kind.
Json machine_schema() {
  const Json any_object = {{"type", "object"}};
  const Json topology = {
      {"type", "object"},
      {"description", "the network's shape: kind, route policy, the kind's own keys (dims, arity, groups, ...)"},
      {"properties",
       {{"kind", {{"enum", topology::topologies().names()}, {"description", "a registered topology (ompisim list)"}}},
        {"routing", {{"enum", topology::route_policies().names()}, {"description", "route policy (default minimal)"}}},
        {"source", {{"type", "string"}}},
        {"note", {{"type", "string"}}}}}};
  const Json network = {
      {"type", "object"},
      {"description", "one network: its NIC with parameter sections (nic, software, ...), topology, ports per node"},
      {"properties",
       {{"nic", {{"type", "object"}, {"properties", {{"kind", {{"enum", nic_kinds().names()}}}}}}},
        {"topology", topology},
        {"ports_per_node", {{"type", "integer"}, {"minimum", 1}, {"maximum", 64}}}}},
      {"additionalProperties", any_object}};
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "https://ompisim/schema/machine.json"},
          {"title", "ompisim machine"},
          {"description", "A machine file (models/*/machines/<name>.json, or run --machine-file): networks, node "
                          "types and list, OS costs, MCA defaults; or a base machine and what differs from it"},
          {"type", "object"},
          {"properties",
           {{"machine", {{"type", "string"}, {"description", "the machine's name (the file's name)"}}},
            {"description", {{"type", "string"}}},
            {"base", {{"type", "string"}, {"description", "a machine this one starts from (its name)"}}},
            {"networks", {{"type", "object"}, {"additionalProperties", network}}},
            {"node_types", any_object},
            {"node_list", {{"type", "array"}, {"items", any_object}}},
            {"os", any_object},
            {"mca_defaults", any_object}}},
          {"required", {"machine"}},
          {"additionalProperties", false}};
}

}  // namespace ompisim

namespace ompisim {

namespace {

// An axis key (a grid's "axes" key, or a key of one of its "points"): "mca.<a parameter of a registered component>",
// "benchmark.<a key of a registered benchmark>", a scenario key an axis may set, or a machine parameter (whose names
// depend on the machine: not checked here). `each` maps a value's schema to the schema of the key's entry (a list of
// values in "axes", one value in "points").
Json axis_object(const Json& scenario_props, Json (*each)(Json)) {
  Json props = Json::object(), mca_keys = Json::array();
  std::set<std::string> bench_keys;
  for (auto& [name, s] : scenario_props["mca"]["properties"].items()) {
    mca_keys.push_back("mca." + name);
    props["mca." + name] = each(s);
    props[name] = each(s);  // an MCA parameter as `run --set` takes it
  }
  for (auto& d : bench::driver_registry().all())
    for (auto& p : d.params) bench_keys.insert("benchmark." + p.name);
  for (auto& k : sweep_scenario_axes()) props[k] = each(scenario_props[k]);
  Json names = {{"allOf",
                 {{{"if", {{"pattern", "^mca\\."}}}, {"then", {{"enum", mca_keys}}}},
                  {{"if", {{"pattern", "^benchmark\\."}}}, {"then", {{"enum", bench_keys}}}}}}};
  return {{"type", "object"}, {"minProperties", 1}, {"propertyNames", names}, {"properties", props}};
}

Json axis_values(Json value) { return {{"type", "array"}, {"minItems", 1}, {"items", std::move(value)}}; }
Json axis_value(Json value) { return value; }

}  // namespace

Json grid_schema(const std::vector<std::string>& machines) {
  Json scenario = scenario_schema(machines);
  const Json scenario_props = scenario["properties"];
  scenario.erase("$schema");
  scenario.erase("$id");
  Json axes = axis_object(scenario_props, axis_values);
  axes["additionalProperties"] = axis_values(Json::object());
  axes["description"] = "axis key -> non-empty list of values (runner/sweep.hpp)";
  Json point = axis_object(scenario_props, axis_value);
  Json props = {
      {"base", {{"type", {"string", "object"}},
                {"description", "the base scenario: a file (relative to the current folder, to the grid or to the tool's data folder) or an object"},
                {"if", {{"type", "object"}}},
                {"then", {{"$ref", "#/$defs/scenario"}}}}},
      {"axes", axes},
      {"combine", {{"enum", {"product", "zip"}}, {"description", "product (default) or zip (axes of equal length)"}}},
      {"points", {{"type", "array"}, {"minItems", 1}, {"items", point}, {"description", "explicit points instead of axes"}}},
      {"description", {{"type", "string"}}}};
  for (auto& k : sweep_grid_keys())
    if (!props.contains(k)) throw std::logic_error("grid schema: no schema for grid key '" + k + "'");
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "https://ompisim/schema/grid.json"},
          {"title", "ompisim sweep grid"},
          {"description", "A sweep's grid (ompisim sweep GRID.json): a base scenario and axes, or explicit points"},
          {"type", "object"},
          {"properties", props},
          {"required", {"base"}},
          {"if", {{"required", {"axes"}}}},
          // with axes, no points: an error at "points" (a false schema would report no path)
          {"then", {{"properties", {{"points", {{"not", Json::object()}, {"description", "give axes or points"}}}}}}},
          {"else", {{"required", {"points"}}}},
          {"additionalProperties", false},
          {"$defs", {{"scenario", scenario}}}};
}

Json sweep_schema() {
  Json units = Json::array();
  for (const char* u : sweep_axis_display_units()) units.push_back(u);
  Json props = {
      {"grid", {{"type", "string"}, {"description", "the grid file"}}},
      {"axes", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "the axis keys, in order"}}},
      {"columns", {{"type", "array"}, {"items", {{"type", "string"}}},
                   {"description", "the axes, then the result points' fields, each quantity once (a field an axis sets is the "
                                   "axis's column, or \"result.<field>\" where the rows' values differ from the axis's), "
                                   "then \"point\""}}},
      {"units", {{"type", "object"}, {"additionalProperties", {{"enum", units}}},
                 {"description", "axis -> the unit its values (written with units in the grid) are numbers of"}}},
      {"rows", {{"type", "array"},
                {"items", {{"type", "object"}, {"required", {"point"}},
                           {"properties", {{"point", {{"type", "string"}, {"pattern", "^[0-9a-f]{16}$"}}}}}}},
                {"description", "one row per (grid point, result point): axis values, result fields, the point's hash"}}},
      {"provenance",
       {{"type", "object"},
        {"required", {"overrides", "engine"}},
        {"additionalProperties", false},
        {"properties",
         {{"overrides", {{"type", "array"},
                         {"items", {{"type", "array"}, {"items", {{"type", "string"}}}, {"minItems", 2}, {"maxItems", 2}}},
                         {"description", "sweep --set: [key, value] pairs applied to every point"}}},
          {"engine", {{"type", {"string", "null"}}, {"description", "sweep --engine; null: each point's scenario's own"}}},
          {"machine_file", {{"type", "string"}, {"description", "sweep --machine-file (absent without one)"}}},
          {"unread_overrides",
           {{"type", "array"},
            {"items", {{"type", "string"}}},
            {"description", "parameters set by --set or an axis that no point's run read, or whose component "
                            "carried no message of any point (so they changed nothing; absent when there is none)"}}}}},
        {"description", "what the sweep applied to every point from its command line"}}}};
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "https://ompisim/schema/sweep.json"},
          {"title", "ompisim sweep table"},
          {"description", "A sweep's merged table (sweep.json in the sweep's --out folder)"},
          {"type", "object"},
          {"properties", props},
          {"required", {"grid", "axes", "columns", "units", "rows", "provenance"}},
          {"additionalProperties", false}};
}

}  // namespace ompisim

namespace ompisim {

// The validation table (validation.json, written by validate and reproduce: validation/validate.cpp validate()): its
// sections, each a list of rows, and the keys that identify a row of each.
Json validation_schema() {
  static const std::vector<std::pair<const char*, std::vector<const char*>>> sections = {
      {"points", {"id", "scenario", "reference", "simulated"}},
      {"held_out", {"id", "scenario", "reference", "simulated"}},
      {"claims", {"id", "text", "status"}},
      {"sampling", {"method", "reference"}},
      {"pairs", {"a", "b", "paper"}},
      {"untested", {}},
      {"value_checks", {"id", "reference", "status"}}};
  Json props = Json::object(), required = Json::array();
  for (auto& [name, keys] : sections) {
    props[name] = {{"type", "array"}, {"items", {{"type", "object"}, {"required", keys}}}};
    required.push_back(name);
  }
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", "https://ompisim/schema/validation.json"},
          {"title", "ompisim validation table"},
          {"description", "validation.json (validate, reproduce): every reference point, held-out value, claim, "
                          "interval sampling, calibration pair, untested claim and value check, one row each"},
          {"type", "object"},
          {"properties", props},
          {"required", required},
          {"additionalProperties", {{"type", "array"}, {"items", {{"type", "object"}}}}}};
}

}  // namespace ompisim
