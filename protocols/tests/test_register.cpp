// The component registry (protocols/register.hpp): every registered component is complete, and stacks naming an
// unknown component are refused with file, key and reason.
#include "protocols/btl/btl.hpp"
#include "protocols/mtl/mtl.hpp"
#include "protocols/register.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace ompisim;

// Configuration: every registered component. Expected: a framework, a name, a one-line description, a source, NIC
// kinds, exactly one factory (none for a sub-component, whose parent is registered); every MCA parameter has a unit dimension, a description and a source for its default,
// and its default lies in its range; BTLs declare flags that include SEND or RDMA. How validated: field by field.
TEST_CASE("every registered component declares description, source, factory and sourced parameters", "[unit][register]") {
  const auto& reg = component_registry();
  REQUIRE(reg.all().size() >= 10);
  std::set<std::string> ids;
  for (auto& c : reg.all()) {
    INFO(c.id());
    CHECK(ids.insert(c.id()).second);
    CHECK_FALSE(c.description.empty());
    CHECK(c.description.find('\n') == std::string::npos);
    CHECK_FALSE(c.source.empty());
    CHECK_FALSE(c.nic_kinds.empty());
    CHECK(!!c.make_btl + !!c.make_mtl + !!c.make_pml + !!c.make_stack == (c.part_of.empty() ? 1 : 0));
    if (!c.part_of.empty()) CHECK(reg.find(c.part_of.substr(0, c.part_of.find('/')), c.part_of.substr(c.part_of.find('/') + 1)));
    if (c.make_btl) CHECK((c.btl_flags & (btl::flag::Send | btl::flag::Rdma)) != 0);
    McaParams own;
    if (c.params) c.params.declare(own);
    for (auto& p : c.param_list(own)) {
      INFO(p.info.name);
      CHECK_FALSE(p.info.description.empty());
      CHECK_FALSE(p.p->source.empty());
      CHECK(p.p->value >= p.info.min);
      CHECK(p.p->value <= p.info.max);
    }
    for (auto& row : c.describe_params()) CHECK_FALSE(row["unit"].get<std::string>().empty());  // "-" for counts
  }
  // The run's McaParams has one block per component with parameters, and each block is the one its component reads.
  McaParams all = reg.defaults();
  std::size_t with_params = 0;
  for (auto& c : reg.all()) with_params += static_cast<bool>(c.params);
  CHECK(all.blocks() == with_params);
}

// Configuration: the registry's checks on registration. Expected: a component without a description, without a
// factory, with two factories or registered twice is refused. How validated: std::invalid_argument.
TEST_CASE("the component registry refuses incomplete entries", "[unit][register]") {
  ComponentRegistry r;
  auto stack = [](const PlatformParts&, const McaParams&, const std::string&) -> std::unique_ptr<Stack> { return nullptr; };
  CHECK_THROWS_AS(r.add({.framework = "model", .name = "x", .description = ""}), std::invalid_argument);
  CHECK_THROWS_AS(r.add({.framework = "model", .name = "x", .description = "d"}), std::invalid_argument);
  CHECK_THROWS_AS(r.add({.framework = "model", .name = "x", .description = "d",
                         .make_mtl = [](const PlatformParts&, const McaParams&,
                                       const std::string&) { return std::unique_ptr<mtl::Mtl>(); },
                         .make_stack = stack}),
                  std::invalid_argument);
  r.add({.framework = "model", .name = "x", .description = "d", .make_stack = stack});
  CHECK_THROWS_AS(r.add({.framework = "model", .name = "x", .description = "d", .make_stack = stack}),
                  std::invalid_argument);
  CHECK(r.find("model", "x") != nullptr);
}

// Configuration: a scenario whose stack object names an unknown BTL, an unknown PML and an unknown framework.
// Expected: InputError (exit status 2 from the tool) naming the scenario file, the key path and the reason with the
// known components. How validated: the error text.
TEST_CASE("a stack naming an unknown component is refused with file, key and reason", "[unit][register]") {
  auto error = [](const Json& stack) -> std::string {
    Json j{{"id", "u"}, {"machine", "cielo"}, {"stack", stack}, {"ranks", 2},
           {"benchmark", {{"name", "osu_latency"}, {"sizes", {1}}}}};
    try {
      Scenario s = scenario_from_json(j, "unknown.json");
      run_one(s, 2, {});
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  using Catch::Contains;
  CHECK_THAT(error({{"pml", "ob1"}, {"btl", {"self", "ugnii"}}}),
             Contains("unknown.json") && Contains("key 'stack.btl[1]'") && Contains("unknown btl component 'ugnii'") &&
                 Contains("did you mean 'ugni'") && Contains("known: self, vader, ugni, portals"));
  CHECK_THAT(error({{"pml", "ob2"}, {"btl", {"self"}}}),
             Contains("unknown.json") && Contains("key 'stack.pml'") && Contains("unknown pml component 'ob2'"));
  CHECK_THAT(error({{"coll", "tuned"}}), Contains("key 'stack.coll'") && Contains("unknown framework 'coll'"));
}

// Configuration: stacks by preset and by object. Expected: network atomics (Cheetah's uGNI BCOL) come with a BTL
// that has MCA_BTL_FLAGS_ATOMIC_OPS and reaches the network (btl/ugni), not with btl/vader's on-node atomics, a
// BTL without the flag or a native library. How validated: stack_has_network_atomics.
TEST_CASE("network atomics come from a BTL's ATOMIC_OPS flag, not from its name", "[unit][register]") {
  CHECK(stack_has_network_atomics(Json("openmpi"), "t.json"));
  CHECK_FALSE(stack_has_network_atomics(Json("native"), "t.json"));
  CHECK_FALSE(stack_has_network_atomics(Json("openmpi-ob1"), "t.json"));
  CHECK(stack_has_network_atomics(Json{{"pml", "ob1"}, {"btl", {"self", "ugni"}}}, "t.json"));
  CHECK_FALSE(stack_has_network_atomics(Json{{"pml", "ob1"}, {"btl", {"self", "vader"}}}, "t.json"));
  CHECK((component_registry().find("btl", "vader")->btl_flags & btl::flag::AtomicOps) != 0);
}
