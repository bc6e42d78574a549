// Stacks composed from registered components (protocols/register.hpp). A scenario's "stack" is a preset name or an
// object naming components by framework (the frameworks, their JSON form and how they combine: stack_frameworks.hpp):
//   {"pml": "ob1", "btl": ["self", "vader", "ugni"]}   pml/ob1 + bml/r2 over these BTLs, in this order
//   {"pml": "cm", "mtl": "ofi", "ofi": "shm+cxi:linkx"} pml/cm over mtl/ofi over a libfabric provider (link)
//   {"native": "mpich_gni"}                            a comparator library as a single component
// Presets are such objects, per NIC kind (register_stacks; `ompisim list` prints them). On a machine with several
// networks a preset is found by any of its NIC kinds.
#pragma once
#include "mpi/stack.hpp"
#include "platform/world.hpp"
#include "protocols/register.hpp"
#include "runner/stack_frameworks.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ompisim {

// One (framework, component) of a stack; for a Selection framework (ofi) `name` is the selection text.
struct StackPart {
  std::string framework, name;
  bool operator==(const StackPart&) const = default;
};
// A stack: its parts in stack order (the order of stack_frameworks(); a List framework's in the order given).
struct StackSpec {
  std::vector<StackPart> parts{};
  bool operator==(const StackSpec&) const = default;
  bool has(const std::string& framework) const;
  // The name (or selection text) of a One or Selection framework; empty when absent.
  std::string get(const std::string& framework) const;
  // The names of a framework's parts, in order.
  std::vector<std::string> list(const std::string& framework) const;
  // Adds a part at its framework's place in stack order (after the parts of the same framework).
  void add(const std::string& framework, const std::string& name);
  // (framework, name, JSON key path) of every component, in order; a selection gives each component it names.
  struct Component {
    std::string framework, name, key;
  };
  std::vector<Component> components() const;
  Json to_json() const;
};

// What a stack's components may add to a run's result (derived parameters, what-if tables): ComponentInfo::report.
using StackReport = ComponentReport;
// A preset: a name, the NIC kind it runs on, a description and the components it is made of; the Open MPI version it
// models (with its source: the paper's words), and that version's MCA defaults where they differ from the components'
// code defaults ({name: {"value", "source"}}: a parameter of a component of `spec`). A run of the preset (by name, or a
// stack object equal to it on that NIC kind) starts from them; the machine's "mca_defaults", the scenario's "mca" and
// --set still override them.
// The preset's collective decision: the library whose default algorithm choice its MPI version makes, by the names
// of collectives/decision.hpp decision_file ("tuned", "mpich", "tuned-v1.1", "tuned-v1.3", "mpich2-1.0"), with the
// source that ties the version to the table. Empty when no decision of that version is transcribed: a benchmark then
// keeps its own default (benchmarks/driver.hpp DriverContext::stack_collectives).
struct CollLibrary {
  std::string name, source;
  bool operator==(const CollLibrary&) const = default;
};
struct StackInfo {
  std::string name, nic_kind, description;
  StackSpec spec;
  std::string version{};
  Json mca = Json::object();
  CollLibrary collectives{};
};
class StackRegistry {
public:
  void add(StackInfo info);  // std::invalid_argument on an empty name or a duplicate (name, nic_kind)
  // Sets a registered preset's collective library; std::invalid_argument when (name, nic_kind) is not registered or
  // the library has no decision file.
  void set_collectives(const std::string& name, const std::string& nic_kind, CollLibrary lib);
  const StackInfo* find(const std::string& name, const std::string& nic_kind) const;
  const std::vector<StackInfo>& all() const { return entries_; }

private:
  std::vector<StackInfo> entries_;
};
void register_stacks(StackRegistry& reg);
const StackRegistry& stack_registry();
// The presets that contain the component, in registration order.
std::vector<const StackInfo*> presets_with(const ComponentInfo& c);
// The preset a resolved stack is (equal components, for one of the machine's NIC kinds), or null.
const StackInfo* stack_preset(const StackSpec& spec, const std::vector<std::string>& nic_kinds);

// The collective library of the preset a scenario's "stack" is (a preset name, or an object equal to a preset) on a
// machine with these NIC kinds; with no kinds (a scenario being parsed, its machine not loaded), over every NIC kind the
// stack is defined for. Empty when that is no preset, a preset without one, or presets that differ ("native" before
// the machine is known).
CollLibrary stack_collectives(const Json& stack, const std::vector<std::string>& nic_kinds);

// The components whose MCA parameters a stack reads: its own, then those they read (ComponentInfo::reads), each once.
std::vector<const ComponentInfo*> mca_components(const StackSpec& spec);

// Reads a stack object (NIC-independent checks: known frameworks and components, possible combinations); InputError
// (file, "stack.<framework>[i]", reason) with did-you-mean.
StackSpec parse_stack_object(const Json& j, const std::string& file);
// The stack's name in results: the preset name for a string or an object equal to a preset, else a composed label
// ("pml/ob1+btl/{self,vader}").
std::string stack_label(const Json& stack, const std::string& file);
// The components of a scenario's "stack" (preset name or object) on a machine with this NIC kind. InputError (file,
// "stack" or "stack.btl[1]") when unknown or when a component does not run on this NIC kind.
// On a machine with several networks, `nic_kinds` are its networks' kinds: a preset is the first of that name for one
// of them; each component must run on at least one of them (a BTL for a network the machine lacks is refused).
StackSpec resolve_stack(const Json& stack, const std::vector<std::string>& nic_kinds, const std::string& machine,
                        const std::string& file);
StackSpec resolve_stack(const Json& stack, const std::string& nic_kind, const std::string& machine,
                        const std::string& file);
// Builds the stack's components over a World by their registered factories (BTL/MTL modules first, then the PML over
// them; a whole-stack component alone); each component reads only its own parameter block.
std::unique_ptr<Stack> build_stack(World& w, const McaParams& mca, const StackSpec& spec, const std::string& name);
// A preset (or stack object) by name: resolve_stack + build_stack.
std::unique_ptr<Stack> make_stack(World& w, const McaParams& mca, const std::string& name, const std::string& file);
// Each component's own check of the run's input (ComponentInfo::check: elan4_qdma's message over a QDMA slot), before
// anything is simulated; InputError as the component raises it.
void check_stack_input(const StackSpec& spec, const ComponentCheck& c);
// Adds each component's own report (btl/ugni: derived SMSG limit and the mailbox what-if) to a result.
void stack_report(const StackSpec& spec, Json& result, const StackReport& r);
// Whether a BTL of the stack does atomics on peers over the network (MCA_BTL_FLAGS_ATOMIC_OPS and network reach:
// btl/ugni's Gemini AMOs), as Cheetah's uGNI BCOL needs. For a preset name: on any NIC kind it is defined for.
bool stack_has_network_atomics(const StackSpec& spec);
// A preset name no machine has is refused (InputError naming `file`): the presets of installed machine `machine`,
// when given, are named first, and the hint is among them.
bool stack_has_network_atomics(const Json& stack, const std::string& file, const std::string& machine = "");

// Scenario "mca" keys: each must be a parameter of a component of the run's stack (typo: did you mean, among them;
// a parameter of another component: names its owner). InputError(file, "mca.<key>", reason).
void check_mca_keys(const std::vector<std::string>& keys, const StackSpec& spec, const std::string& stack,
                    const std::string& nic_kind, const std::string& file);
// --set keys and machine "mca_defaults" keys that are MCA names: the owning component must run on the machine's NIC
// kind. InputError(source, key, reason).
void check_mca_family(const std::string& key, const std::string& nic_kind, const std::string& source);
void check_mca_family(const std::string& key, const std::vector<std::string>& nic_kinds, const std::string& source);

}  // namespace ompisim
