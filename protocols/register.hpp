// The component registry of protocols/: every component a stack can be composed of. Each component registers itself
// once, from a `*_component.cpp` in its own folder (as Open MPI's `*_component.c` register function does), with its
// framework ("pml", "btl", "mtl", "ofi", "native", "model"), name, one-line description, the NIC kinds it drives, the source
// it mirrors, its MCA parameter block (name, default, unit, description, source of every parameter: the struct
// declared beside it) and the factory of its framework. Every factory receives the job's platform parts
// (platform/platform_parts.hpp) and hands each module the parts it uses:
//   btl     make_btl   a BTL module (pml/ob1 drives it through bml/r2)
//   mtl     make_mtl   an MTL module (pml/cm drives it)
//   pml     make_pml   the MPI stack over the modules built for it (PmlModules)
//   native, model      make_stack: a whole stack (a comparator library, the LogGOPS reference)
// Registration is explicit (register_components calls every component's register function, no static constructors);
// runner/stacks.cpp composes stacks from these entries by looking them up, never by testing their names.
#pragma once
#include "core/json_input.hpp"
#include "core/params.hpp"
#include "core/statistics.hpp"
#include "mpi/stack.hpp"
#include "platform/placement.hpp"
#include "platform/platform_parts.hpp"
#include "protocols/base/mca_params.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ompisim {

namespace btl {
class Btl;
}
namespace mtl {
class Mtl;
}

// The modules a PML drives: pml/ob1 the BTLs (bml/r2 ranks them per peer), pml/cm one MTL.
struct PmlModules {
  std::vector<btl::Btl*> btls;
  mtl::Mtl* mtl = nullptr;
};

// What a finished run hands a component that adds to the result (derived parameters, what-if tables).
struct ComponentReport {
  const Placement& placement;
  const McaParams& mca;
  const StackStats& stats;
};

// What a component may check of a run's input before anything is simulated (ComponentInfo::check): the machine with
// the run's --set values, the run's MCA values, and the largest message the benchmark's input sends with the scenario
// key that sets it (message_key empty: the benchmark does not say, bench::Driver::largest_message).
struct ComponentCheck {
  const Machine& machine;
  const McaParams& mca;
  std::uint64_t largest_message = 0;
  std::string message_key;
  long long ranks = 0;  // the rank count being prepared
  std::vector<std::string> stack_components{};  // the ids of the stack's components ("mtl/ofi", "ofi/linkx")
};

// A parameter whose value depends on the job (an "auto" resolved for a job size), resolved by one function: `describe`
// shows it by job size and a run's provenance records it as "<name> (effective)" (stack_report).
struct EffectiveParam {
  std::string name;  // the MCA parameter it resolves
  std::string rule;  // how, in one line
  std::function<double(const McaParams&, long long ranks)> value;
};

// Which peers a BTL serves: only oneself, the ranks of its node, or ranks over the network.
enum class Reach : std::uint8_t { Self, Node, Network };
const char* to_string(Reach r);

struct ComponentInfo {
  std::string framework, name, description;
  std::vector<std::string> nic_kinds{};  // empty: runs on any NIC kind
  std::string source{};                  // the Open MPI (or library) version and file the model follows
  ParamBlock params{};                   // its MCA parameter block (unset: it has none)
  // The factory of its framework (exactly one is set, none for a part_of component).
  std::function<std::unique_ptr<btl::Btl>(const PlatformParts&, const McaParams&)> make_btl{};
  // `selection`: the stack's choice of the MTL's sub-components (mtl/ofi: the provider link, "shm+cxi:linkx").
  std::function<std::unique_ptr<mtl::Mtl>(const PlatformParts&, const McaParams&, const std::string& selection)>
      make_mtl{};
  std::function<std::unique_ptr<Stack>(const PlatformParts&, const McaParams&, const PmlModules&, const std::string& name)>
      make_pml{};
  std::function<std::unique_ptr<Stack>(const PlatformParts&, const McaParams&, const std::string& name)> make_stack{};
  // BTLs: the module's MCA_BTL_FLAGS_* (the same constant its capability record uses) and the peers it reaches.
  std::uint32_t btl_flags = 0;
  Reach reach = Reach::Network;
  std::vector<StatisticInfo> statistics{};  // its counters (core/statistics.hpp), in the order it reports them
  std::vector<EffectiveParam> effective{};  // its parameters resolved per job
  // Optional: refuses input it cannot run before anything is simulated (a message over its one-packet limit), with an
  // InputError whose file is empty (the runner names the scenario's) and whose key is the scenario's (message_key).
  std::function<void(const ComponentCheck&)> check{};
  // Optional: adds the component's own report to a run's result.
  std::function<void(Json& result, const ComponentReport&)> report{};
  // A sub-component built by another component's factory ("mtl/ofi" for the libfabric providers ofi/cxi, ofi/shm,
  // ofi/linkx, selected by the stack's "ofi" string): it has no factory of its own.
  std::string part_of{};
  // Components whose MCA parameters this one also reads, by id (native/mpich_cxi builds the ofi/cxi provider from its
  // FI_CXI_* parameters): a stack of it takes and reports theirs too.
  std::vector<std::string> reads{};

  std::string id() const { return framework + "/" + name; }
  bool runs_on(const std::string& nic_kind) const;
  ParamList param_list(McaParams& mca) const;  // its parameters inside a run's McaParams
  std::vector<std::string> param_names() const;  // of the defaults
  // [{"name","value","unit","dimension","description","source","fitted"}] of its defaults
  Json describe_params() const;
};

class ComponentRegistry {
public:
  // std::invalid_argument on an empty name or framework, a missing description, a duplicate, or not exactly one
  // factory.
  void add(ComponentInfo info);
  const ComponentInfo* find(const std::string& framework, const std::string& name) const;
  const std::vector<ComponentInfo>& all() const { return entries_; }
  std::vector<std::string> frameworks() const;  // in registration order, once each
  std::vector<std::string> names(const std::string& framework) const;
  // Every registered component's parameter block with its defaults, in registration order.
  McaParams defaults() const;

private:
  std::vector<ComponentInfo> entries_;
};
void register_components(ComponentRegistry& reg);
const ComponentRegistry& component_registry();
// The component whose parameter this is (nullptr: none).
const ComponentInfo* mca_owner(const std::string& key);

}  // namespace ompisim
