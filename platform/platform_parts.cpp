#include "platform/platform_parts.hpp"

#include "core/trace.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace ompisim {

Fabric& select_fabric(const FabricList& fabrics, const Machine& machine, int net) {
  if (net < 0) {
    if (fabrics.size() != 1)
      throw std::logic_error(fmt::format("machine '{}' has {} networks: the fabric call must name one", machine.name,
                                         fabrics.size()));
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
