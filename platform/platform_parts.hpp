// The parts of one job's platform, by reference: what a component factory receives (protocols/register.hpp) to hand
// each model or component the parts it uses. The World owns the parts and hands this view out (`World::parts()`); a
// component keeps the parts it uses, never the view. Copying the view copies references only.
//   sim           the engine
//   machine       the machine file's networks, node types and software costs
//   contexts      where each rank and progress thread runs (platform/contexts.hpp)
//   cpus          each context's CPU timeline (platform/cpu_timeline.hpp)
//   copies        memory copies inside a node (platform/memory_copies.hpp)
//   fabric(net)   one per network (platform/fabric.hpp)
//   nic_services  the NIC models shared by every component on their ports (platform/nic_services.hpp)
#pragma once
#include "core/sim.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "platform/machine.hpp"
#include "platform/memory_copies.hpp"
#include "platform/nic_services.hpp"

#include <memory>
#include <vector>

namespace ompisim {

using FabricList = std::vector<std::unique_ptr<Fabric>>;

// The fabric of network `net` (position in Machine::networks()); -1: the machine's only network (std::logic_error on
// a machine with several: the caller must say which); std::out_of_range for a network the machine lacks.
Fabric& select_fabric(const FabricList& fabrics, const Machine& machine, int net);

struct PlatformParts {
  Simulator& sim;
  const Machine& machine;
  Contexts& contexts;
  CpuTimeline& cpus;
  MemoryCopies& copies;
  const FabricList& fabrics;
  NicServices& nic_services;

  Fabric& fabric(int net = -1) const { return select_fabric(fabrics, machine, net); }
  int networks() const { return static_cast<int>(fabrics.size()); }
  // A progress thread of `rank` on `core` of its node (Contexts::add), with its own CPU timeline sharing the core
  // (CpuTimeline::add_context): the new context's index. std::invalid_argument for a rank or core the job's node does
  // not have; std::logic_error once the resources are declared (World::declare_resources).
  int add_progress_thread(int rank, int core) const;
};

}  // namespace ompisim
