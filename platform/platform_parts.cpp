#include "platform/platform_parts.hpp"

#include "core/errors.hpp"
#include "core/trace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

namespace ompisim {

Fabric& select_fabric(const FabricList& fabrics, const Machine& machine, int net) {
  if (net < 0) {
    // A component that drives one network (a NIC library, an MTL, a whole stack) on a machine file of several: bad
    // input, named by the stack's builder (runner/stacks.cpp build_stack) with the component and the scenario file.
    if (fabrics.size() != 1)
      throw InputError("", "stack", fmt::format("drives the network without naming one, but machine '{}' ({}) has {} "
                                                "networks (NIC kinds {}): it runs on a machine of one network",
                                                machine.name, machine.file, fabrics.size(),
                                                fmt::join(machine.nic_kinds(), ", ")));
    return *fabrics[0];
  }
  return *fabrics.at(static_cast<std::size_t>(net));
}

int PlatformParts::add_progress_thread(int rank, int core) const {
  if (copies.declared()) throw std::logic_error("progress threads are added before World::declare_resources");
  const int ctx = contexts.add(rank, core);
  cpus.add_context(ctx, rank, core);
  if (TraceSink* t = sim.trace) t->context_rank(ctx, rank);
  return ctx;
}

}  // namespace ompisim
