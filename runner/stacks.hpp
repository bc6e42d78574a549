// Stack presets: each assembles a named MPI stack over a World (registration is explicit, no static constructors).
//   openmpi : pml/ob1 + bml/r2 + btl/{self, vader, ugni}; Cheetah's uGNI BCOL atomics through uGNI  (gemini)
//   native  : Cray MPT (MPICH2 uGNI netmod + Nemesis shared memory)                                   (gemini)
//   loggp   : LogGOPS reference                                                                        (loggp)
#pragma once
#include "mpi/stack.hpp"
#include "platform/world.hpp"
#include "protocols/base/mca_params.hpp"

#include <functional>

#include <memory>
#include <string>
#include <vector>

namespace ompisim {

// What a preset may add to a run's result (derived parameters, what-if tables of its own components).
struct StackReport {
  const Placement& placement;
  const McaParams& mca;
  const StackStats& stats;
};
// A stack preset: a name, the NIC kind it runs on, a factory assembling its components over a World, and an optional
// report hook.
struct StackInfo {
  std::string name, nic_kind, description;
  std::function<std::unique_ptr<Stack>(World&, const McaParams&)> make;
  std::function<void(Json& result, const StackReport&)> report = nullptr;
};
class StackRegistry {
public:
  void add(StackInfo info);  // std::invalid_argument on an empty name, no factory, or a duplicate (name, nic_kind)
  const StackInfo* find(const std::string& name, const std::string& nic_kind) const;
  const std::vector<StackInfo>& all() const { return entries_; }

private:
  std::vector<StackInfo> entries_;
};
void register_stacks(StackRegistry& reg);
const StackRegistry& stack_registry();
// Throws InputError (file, "stack") when the stack is unknown or does not run on the machine's NIC kind.
std::unique_ptr<Stack> make_stack(World& w, const McaParams& mca, const std::string& name, const std::string& file);

}  // namespace ompisim
