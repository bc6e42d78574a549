// The frameworks a scenario's "stack" object may name, one entry each (stack_frameworks()): the JSON key, whether it
// takes one component, a list or a selection string, how it combines with the others, and its place in the stack.
// Their order is the stack's order everywhere: in StackSpec, in the components a stack builds (modules before the PML
// that drives them is the builder's rule, not the order's), in the composed label ("pml/ob1+btl/{self,vader}").
// Parsing, the result JSON, the label, the JSON Schema and the combination checks read this table; a new framework is
// one entry in stack_frameworks.cpp, its components are entries of the component registry (protocols/register.hpp).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ompisim {

struct StackFramework {
  // What a stack object gives for it.
  enum class Value {
    One,        // one component name: "pml": "ob1"
    List,       // an ordered list of distinct component names: "btl": ["self", "vader", "ugni"]
    Selection,  // a string naming sub-components of one component: "ofi": "shm+cxi:linkx" (for mtl/ofi)
  };
  // How it combines with the others.
  enum class Role {
    Pml,         // the PML: drives the Modules frameworks whose `driven_by` is its component
    Modules,     // transport modules, built before the PML that drives them (needs pml `driven_by`)
    Selection,   // selects the sub-components of the component `selection_of` (needs that component)
    WholeStack,  // a whole stack alone (a comparator library, a reference model): no other framework beside it
  };
  std::string name;  // the JSON key and the framework of its components (ComponentInfo::framework)
  Value value = Value::One;
  Role role = Role::Pml;
  std::string noun{};                   // in messages: "BTL", "MTL", "libfabric provider"
  std::vector<std::string> examples{};  // in messages and in the JSON Schema
  std::string driven_by{};              // Modules: the PML component that drives them ("ob1")
  std::string need{};                   // Modules: what the driving PML needs, in a message ("at least one BTL")
  std::string selection_of{};           // Selection: the component ("mtl/ofi")
  std::string default_selection{};      // Selection: the value when that component is given without one
  // Selection: the components the text names (each of this framework), or nullopt with `why` set.
  std::function<std::optional<std::vector<std::string>>(const std::string& text, std::string& why)> expand{};
};

// Every framework, in stack order.
const std::vector<StackFramework>& stack_frameworks();
// By name (nullptr: unknown).
const StackFramework* find_stack_framework(const std::string& name);
// Its place in stack order (the table's size for an unknown name).
std::size_t stack_framework_index(const std::string& name);
// The names, in stack order.
std::vector<std::string> stack_framework_names();
// Its examples as a message shows them: ["self", "vader"] for a list, "portals" for one, "cxi" or "shm+cxi:linkx".
std::string stack_framework_example(const StackFramework& f);

}  // namespace ompisim
