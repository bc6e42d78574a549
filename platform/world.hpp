// The simulated platform of one job: a thin owner of its parts, each with one job. Knows nothing of MPI: the MPI
// interface (`Stack`) is mpi/stack.hpp, above this layer.
//   contexts()  platform/contexts.hpp      where each rank and progress thread runs (node, core, node type, memory)
//   cpus()      platform/cpu_timeline.hpp  each context's CPU timeline: software costs in order, interrupts, compute
//   copies()    platform/memory_copies.hpp memory copies inside a node (cache part analytic, DRAM part a flow)
//   fabric(net) platform/fabric.hpp        one per network: path cost, route, wire time, ports, bulk flows
//   nic_services() platform/nic_services.hpp  the NIC models shared by every protocol component on their ports
//   parts()     platform/platform_parts.hpp  all of them by reference: what a component factory receives
// Models and components take the parts they use, never the World (tests/arch/check_world_parts.py). The one-line
// calls below forward to the parts, for the runner, the benchmarks and the tests that drive a whole job.
#pragma once
#include "core/sim.hpp"
#include "platform/buffer.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "platform/machine.hpp"
#include "platform/memory_copies.hpp"
#include "platform/neighbour_job.hpp"
#include "platform/nic_services.hpp"
#include "platform/placement.hpp"
#include "platform/platform_parts.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace ompisim {

class World {
public:
  // `routing`: the route policy of this run (a scenario's "routing"), for every network (the caller checked that it
  // applies to each network's topology kind); null for each network's own.
  World(Simulator& sim, Machine& machine, Placement placement, const topology::RoutePolicyInfo* routing = nullptr);
  Simulator& sim() { return sim_; }
  Machine& machine() { return machine_; }

  // --- The parts ---
  Contexts& contexts() { return contexts_; }
  const Contexts& contexts() const { return contexts_; }
  CpuTimeline& cpus() { return cpus_; }
  MemoryCopies& copies() { return copies_; }
  // The fabric of network `net` (position in Machine::networks()); the default, -1, is the machine's only network
  // (std::logic_error on a machine with several: the caller must say which).
  Fabric& fabric(int net = -1) { return const_cast<Fabric&>(std::as_const(*this).fabric(net)); }
  const Fabric& fabric(int net = -1) const;
  int networks() const { return static_cast<int>(fabrics_.size()); }
  NicServices& nic_services() { return *nic_services_; }
  // The parts by reference (platform/platform_parts.hpp), valid while the World lives.
  PlatformParts parts() { return {sim_, machine_, contexts_, cpus_, copies_, fabrics_, *nic_services_}; }

  // A progress thread of `rank` on `core` of its node: PlatformParts::add_progress_thread.
  int add_progress_thread(int rank, int core) { return parts().add_progress_thread(rank, core); }
  // Another job's traffic (platform/neighbour_job.hpp), set before declare_resources(): its nodes' NIC resources are
  // declared with the placement's, and each of its transfers is routed by the run's policy (seeing the neighbour's
  // transfers routed before it) and handed to the engine as an endless stream. std::invalid_argument for a node the
  // machine lacks or that runs one of the job's ranks; std::logic_error on an engine that does not share bandwidth.
  void set_neighbour_job(NeighbourJob job);
  // Declares the shared resources to the engine (before seal()): the copy resources (MemoryCopies::declare), then
  // per network its fabric's (Fabric::declare). Flow paths are not declared: each is built when its flow starts.
  // With several networks, fabric resource names carry the network's name ("<net>:n0-ht", "<net>:<link>").
  void declare_resources();
  std::uint64_t neighbour_streams() const;

private:
  Simulator& sim_;
  Machine& machine_;
  Contexts contexts_;
  MemoryCopies copies_;
  CpuTimeline cpus_;
  std::uint64_t flow_seq_ = 0;  // bulk flows started on any fabric (each flow's routing key)
  FabricList fabrics_;
  std::unique_ptr<NeighbourJob> neighbour_;
  std::unique_ptr<NicServices> nic_services_ = std::make_unique<NicServices>();  // last: destroyed first
};

}  // namespace ompisim
