// The framework table (runner/stack_frameworks.hpp) drives a stack object's parse, its result JSON
// (StackSpec::to_json), its composed label and its components with their key paths.
#include "protocols/register.hpp"
#include "runner/stack_frameworks.hpp"
#include "runner/stacks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace ompisim;

namespace {
// "framework/name@key" of each component, in order.
std::vector<std::string> component_text(const StackSpec& s) {
  std::vector<std::string> out;
  for (auto& c : s.components()) out.push_back(c.framework + "/" + c.name + "@" + c.key);
  return out;
}
}  // namespace

// Configuration: one stack object per framework of the table (a list, a single name, a selection with its default,
// a whole stack), with its keys out of stack order; compositions that are no preset and presets.
// Expected: the parse keeps stack order (pml first, then the modules, a selection after its MTL, a list in the order
// given); to_json gives each framework in the form its entry says (a list an array, the others a string) and reads
// back to the same stack; the label is the preset's name or "fw/name" joined by '+' in stack order ("btl/{a,b}" for
// a list); each component carries its key path ("stack.btl[1]"; every provider of a selection "stack.ofi").
// How validated: exact values; every framework of the table appears in some case, so a new entry without a case, an
// entry of the wrong kind or a reordered table fails here.
TEST_CASE("stack frameworks: each entry drives parse, to_json, label and component keys", "[unit][stack]") {
  struct Case {
    Json object, json;  // as written; as to_json gives it (null: the same)
    std::string label;
    std::vector<std::string> components;
  };
  const std::vector<Case> cases{
      {{{"btl", {"vader", "self"}}, {"pml", "ob1"}}, nullptr, "pml/ob1+btl/{vader,self}",
       {"pml/ob1@stack.pml", "btl/vader@stack.btl[0]", "btl/self@stack.btl[1]"}},
      {{{"mtl", "portals"}, {"pml", "cm"}}, nullptr, "openmpi-cm", {"pml/cm@stack.pml", "mtl/portals@stack.mtl"}},
      {{{"ptl", {"elan4"}}, {"pml", "teg"}}, nullptr, "openmpi-elan4", {"pml/teg@stack.pml", "ptl/elan4@stack.ptl[0]"}},
      {{{"ofi", "cxi+shm:linkx"}, {"mtl", "ofi"}, {"pml", "cm"}}, nullptr, "pml/cm+mtl/ofi+ofi/cxi+shm:linkx",
       {"pml/cm@stack.pml", "mtl/ofi@stack.mtl", "ofi/cxi@stack.ofi", "ofi/shm@stack.ofi", "ofi/linkx@stack.ofi"}},
      {{{"ofi", "shm+cxi:linkx"}, {"mtl", "ofi"}, {"pml", "cm"}}, nullptr, "openmpi-linkx",
       {"pml/cm@stack.pml", "mtl/ofi@stack.mtl", "ofi/shm@stack.ofi", "ofi/cxi@stack.ofi", "ofi/linkx@stack.ofi"}},
      {{{"mtl", "ofi"}, {"pml", "cm"}}, {{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", "cxi"}}, "openmpi-cxi",
       {"pml/cm@stack.pml", "mtl/ofi@stack.mtl", "ofi/cxi@stack.ofi"}},
      {{{"native", "mpich_gni"}}, nullptr, "native", {"native/mpich_gni@stack.native"}},
      {{{"model", "loggp"}}, nullptr, "loggp", {"model/loggp@stack.model"}},
  };
  std::set<std::string> seen;
  for (auto& c : cases) {
    INFO(c.object.dump());
    const StackSpec s = parse_stack_object(c.object, "t.json");
    const Json j = s.to_json();
    CHECK(j == (c.json.is_null() ? c.object : c.json));
    CHECK(parse_stack_object(j, "t.json") == s);
    CHECK(stack_label(c.object, "t.json") == c.label);
    CHECK(component_text(s) == c.components);
    for (std::size_t i = 1; i < s.parts.size(); ++i)
      CHECK(stack_framework_index(s.parts[i - 1].framework) <= stack_framework_index(s.parts[i].framework));
    for (const StackFramework& f : stack_frameworks()) {
      if (!j.contains(f.name)) continue;
      seen.insert(f.name);
      CHECK(j[f.name].is_array() == (f.value == StackFramework::Value::List));
      CHECK(j[f.name].is_string() == (f.value != StackFramework::Value::List));
    }
  }
  CHECK(seen.size() == stack_frameworks().size());
  CHECK(parse_stack_object(cases[0].object, "t.json").parts ==
        std::vector<StackPart>{{"pml", "ob1"}, {"btl", "vader"}, {"btl", "self"}});
}

// Configuration: the component registry and the framework table. Expected: every framework a component registers
// under has an entry (else a stack could not name it), and every entry has components; a Modules entry names a
// registered PML, a Selection entry a registered component whose sub-components are its framework's.
// How validated: lookups in both.
TEST_CASE("stack frameworks: the table and the component registry agree", "[unit][stack]") {
  for (auto& fw : component_registry().frameworks()) {
    INFO(fw);
    CHECK(find_stack_framework(fw) != nullptr);
  }
  for (const StackFramework& f : stack_frameworks()) {
    INFO(f.name);
    CHECK_FALSE(component_registry().names(f.name).empty());
    CHECK_FALSE(f.examples.empty());
    if (f.role == StackFramework::Role::Modules) CHECK(component_registry().find("pml", f.driven_by) != nullptr);
    if (f.role == StackFramework::Role::Selection) {
      for (auto& c : component_registry().all())
        if (c.framework == f.name) CHECK(c.part_of == f.selection_of);
      std::string why;
      CHECK(f.expand(f.default_selection, why));
    }
  }
  CHECK(find_stack_framework("coll") == nullptr);
  CHECK(stack_framework_index("coll") == stack_frameworks().size());
}

// Configuration: stack objects that break a combination rule of the table. Expected: InputError at the framework's
// key with the reason. How validated: the error text.
TEST_CASE("stack frameworks: combination rules come from the roles", "[unit][stack]") {
  auto error = [](const Json& stack) -> std::string {
    try {
      parse_stack_object(stack, "c.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  using Catch::Contains;
  CHECK_THAT(error({{"btl", {"self"}}}), Contains("key 'stack.pml'") && Contains("btl components need a PML (ob1)"));
  CHECK_THAT(error({{"pml", "ob1"}, {"ptl", {"elan4"}}}),
             Contains("key 'stack.ptl'") && Contains("pml/ob1 drives BTLs, not PTLs (PTLs need pml 'teg')"));
  CHECK_THAT(error({{"pml", "teg"}}),
             Contains("key 'stack.ptl'") && Contains("missing: pml/teg needs a PTL, e.g. [\"elan4\"]"));
  CHECK_THAT(error({{"pml", "cm"}, {"mtl", "portals"}, {"ofi", "cxi"}}),
             Contains("key 'stack.ofi'") &&
                 Contains("a libfabric provider is chosen for mtl/ofi only (\"mtl\": \"ofi\")"));
  CHECK_THAT(error({{"native", "mpich_gni"}, {"model", "loggp"}}),
             Contains("key 'stack.model'") && Contains("each a whole stack"));
  CHECK_THAT(error({{"native", "mpich_cxi"}, {"ofi", "cxi"}}),
             Contains("key 'stack.ofi'") &&
                 Contains("stack.native is a whole stack (native/mpich_cxi); it takes no ofi"));
  CHECK_THAT(error({{"pml", "ob1"}, {"btl", "self"}}),
             Contains("key 'stack.btl'") &&
                 Contains("expected a non-empty list of btl names, e.g. [\"self\", \"vader\", \"ugni\"]"));
  CHECK_THAT(error({{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", 1}}),
             Contains("key 'stack.ofi'") &&
                 Contains("expected a libfabric provider selection, e.g. \"cxi\" or \"shm+cxi:linkx\""));
  CHECK_THAT(error({{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", "shm+cxi"}}),
             Contains("key 'stack.ofi'") && Contains("linkx"));
}
