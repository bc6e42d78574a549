// `ompisim schema`: what the schemas take from the declarations. The suite's validation of every scenario, grid,
// result and machine file with python3-jsonschema is tests/e2e/schema.sh.
#include "core/param_schema.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/topology_registry.hpp"
#include "protocols/register.hpp"
#include "runner/registries.hpp"
#include "runner/schema.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: every key of every registered benchmark. Expected: its declared type gives a JSON type or an enum
// (a new type text outside the vocabulary fails here instead of leaving the key untyped). How validated: the schema
// of each key has "type" or "enum"; a few keys checked by value.
TEST_CASE("schema: every benchmark key is typed from its declaration", "[unit]") {
  int keys = 0;
  for (auto& d : bench::driver_registry().all())
    for (auto& p : d.params) {
      INFO(d.name << "." << p.name << ": " << p.type);
      Json s = benchmark_param_schema(p);
      CHECK((s.contains("type") || s.contains("enum")));
      ++keys;
    }
  CHECK(keys > 50);
  Json b = scenario_schema()["properties"]["benchmark"];
  CHECK(b["properties"]["name"]["enum"].size() == bench::driver_registry().all().size());
  Json barrier;
  for (auto& r : b["allOf"])
    if (r["then"]["title"] == "barrier_loop") barrier = r["then"]["properties"];
  CHECK(barrier["radix"]["type"] == Json({"integer", "array"}));
  CHECK(barrier["radix"]["minimum"] == 2);
  CHECK(barrier["iterations"]["minimum"] == 1);
}

// Configuration: the scenario schema's "mca". Expected: one property per MCA parameter of every registered component,
// typed by its dimension (btl_ugni_smsg_limit a size: integer or "<n> KiB", range [0, 64 KiB]), choices as an enum, no
// other key. How validated: the property count and three parameters' schemas.
TEST_CASE("schema: MCA parameters are typed from their component's declaration", "[unit]") {
  Json mca = scenario_schema()["properties"]["mca"];
  CHECK(mca["additionalProperties"] == false);
  std::size_t n = 0;
  for (auto& c : component_registry().all()) n += c.param_names().size();
  CHECK(mca["properties"].size() == n);
  Json smsg = mca["properties"]["btl_ugni_smsg_limit"];
  CHECK(smsg["type"] == Json({"integer", "string"}));
  CHECK(smsg["maximum"] == 65536);
  CHECK(smsg["pattern"] == quantity_pattern(Dim::Bytes));
  CHECK(mca["properties"]["ptl_elan4_rdma"].contains("enum"));
}

// Configuration: the grid schema. Expected: its keys are the grid loader's, an MCA axis is typed as the scenario's
// "mca" types that parameter, and a scenario axis as the scenario key (packet_trains and engine_window too, with the
// quantity patterns their parser accepts). How validated: the schema's structure.
TEST_CASE("schema: a grid's axes are typed like the scenario keys they set", "[unit]") {
  Json g = grid_schema();
  CHECK(g["additionalProperties"] == false);
  Json axes = g["properties"]["axes"]["properties"];
  CHECK(axes["mca.btl_ugni_smsg_limit"]["items"]["maximum"] == 65536);
  CHECK(axes["stack"]["items"]["then"].contains("enum"));
  CHECK(g["$defs"]["scenario"]["properties"].contains("benchmark"));
  // the approximations are axes too, as quantities with the parser's unit spellings
  CHECK(axes["packet_trains"]["items"]["pattern"] == quantity_pattern(Dim::Bytes));
  CHECK(axes["engine_window"]["items"]["pattern"] == quantity_pattern(Dim::Time));
  Json scen = scenario_schema()["properties"];
  CHECK(scen["packet_trains"]["type"] == Json({"integer", "string"}));
  CHECK(scen["packet_trains"]["maximum"] == 1073741824.0);
  CHECK(scen["engine_grid"]["pattern"] == quantity_pattern(Dim::Time));
}

// Configuration: the machine schema. Expected: a network's topology kind, route policy and NIC kind are enumerations
// holding exactly the registered names (a topology registered later joins without a schema edit), and the top level
// refuses keys the loader refuses. How validated: the three enums against topology::topologies(),
// topology::route_policies() and nic_kinds(); "additionalProperties" false at the top.
TEST_CASE("schema: a machine file's topology, route policy and NIC kinds come from their registries", "[unit]") {
  Json m = machine_schema();
  CHECK(m["additionalProperties"] == false);
  Json net = m["properties"]["networks"]["additionalProperties"]["properties"];
  CHECK(net["topology"]["properties"]["kind"]["enum"] == Json(topology::topologies().names()));
  CHECK(net["topology"]["properties"]["routing"]["enum"] == Json(topology::route_policies().names()));
  CHECK(net["nic"]["properties"]["kind"]["enum"] == Json(nic_kinds().names()));
  CHECK(net["topology"]["properties"]["kind"]["enum"].size() >= 4);
}
