#include "runner/stack_frameworks.hpp"

#include "protocols/mtl/ofi/ofi_stacks.hpp"
#include "protocols/register.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ompisim {

namespace {
using Value = StackFramework::Value;
using Role = StackFramework::Role;

// mtl/ofi's provider selection (opal_common_ofi_provider_include): "cxi", or core providers linked, "shm+cxi:linkx"
// (ofi/shm, ofi/cxi, ofi/linkx).
std::optional<std::vector<std::string>> ofi_providers(const std::string& text, std::string& why) {
  auto link = mtl::ofi::parse_provider_link(text, component_registry().names("ofi"), why);
  if (!link) return std::nullopt;
  std::vector<std::string> out = link->cores;
  if (link->linkx) out.push_back("linkx");
  return out;
}

std::vector<StackFramework> make_table() {
  return {
      {.name = "pml", .value = Value::One, .role = Role::Pml, .noun = "PML", .examples = {"ob1"}},
      // Open MPI's BTLs, ranked per peer by bml/r2 in the order given.
      {.name = "btl", .value = Value::List, .role = Role::Modules, .noun = "BTL", .examples = {"self", "vader", "ugni"},
       .driven_by = "ob1", .need = "at least one BTL"},
      {.name = "mtl", .value = Value::One, .role = Role::Modules, .noun = "MTL", .examples = {"portals"},
       .driven_by = "cm", .need = "an MTL"},
      // Open MPI 2004's PTLs (pml/teg).
      {.name = "ptl", .value = Value::List, .role = Role::Modules, .noun = "PTL", .examples = {"elan4"},
       .driven_by = "teg", .need = "a PTL"},
      // libfabric's first (fastest) provider on a Slingshot node is cxi.
      {.name = "ofi", .value = Value::Selection, .role = Role::Selection, .noun = "a libfabric provider",
       .examples = {"cxi", "shm+cxi:linkx"}, .selection_of = "mtl/ofi", .default_selection = "cxi",
       .expand = ofi_providers},
      {.name = "native", .value = Value::One, .role = Role::WholeStack, .noun = "native library",
       .examples = {"mpich_gni"}},
      {.name = "model", .value = Value::One, .role = Role::WholeStack, .noun = "model", .examples = {"loggp"}},
  };
}
}  // namespace

const std::vector<StackFramework>& stack_frameworks() {
  static const std::vector<StackFramework> table = make_table();
  return table;
}

std::size_t stack_framework_index(const std::string& name) {
  const auto& t = stack_frameworks();
  return static_cast<std::size_t>(
      std::find_if(t.begin(), t.end(), [&](const StackFramework& f) { return f.name == name; }) - t.begin());
}

const StackFramework* find_stack_framework(const std::string& name) {
  const std::size_t i = stack_framework_index(name);
  return i < stack_frameworks().size() ? &stack_frameworks()[i] : nullptr;
}

std::vector<std::string> stack_framework_names() {
  std::vector<std::string> out;
  for (auto& f : stack_frameworks()) out.push_back(f.name);
  return out;
}

std::string stack_framework_example(const StackFramework& f) {
  switch (f.value) {
    case Value::List: return fmt::format("[\"{}\"]", fmt::join(f.examples, "\", \""));
    case Value::Selection: return fmt::format("\"{}\"", fmt::join(f.examples, "\" or \""));
    case Value::One: break;
  }
  return fmt::format("\"{}\"", f.examples.empty() ? std::string() : f.examples.front());
}

}  // namespace ompisim
