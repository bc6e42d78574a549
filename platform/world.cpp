#include "platform/world.hpp"

#include "core/trace.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace ompisim {

World::World(Simulator& sim, Machine& machine, Placement placement, const topology::RoutePolicyInfo* routing)
    : sim_(sim), machine_(machine), contexts_(machine, std::move(placement)), copies_(sim, contexts_),
      cpus_(sim, contexts_, copies_, machine.os.context_switch_cost) {
  const bool several = machine.networks().size() > 1;
  for (std::size_t i = 0; i < machine.networks().size(); ++i) {
    const Network& net = machine.networks()[i];
    fabrics_.push_back(std::make_unique<Fabric>(sim, contexts_, static_cast<int>(i), net,
                                                routing ? *routing : *net.routing, several ? net.name + ":" : "",
                                                flow_seq_));
  }
  if (TraceSink* t = sim_.trace)
    for (long long r = 0; r < contexts_.ranks(); ++r) t->rank_node(static_cast<int>(r), contexts_.node_of(static_cast<int>(r)));
}

const Fabric& World::fabric(int net) const { return select_fabric(fabrics_, machine_, net); }

void World::set_neighbour_job(NeighbourJob job) {
  if (copies_.declared()) throw std::logic_error("World::set_neighbour_job after declare_resources");
  if (!sim_.shares_bandwidth())
    throw std::logic_error("engine '" + sim_.name() + "' does not share bandwidth: a neighbour job needs one that does");
  (void)fabric(job.net);  // the network exists (or the machine has only one)
  for (long long n : job.nodes) {
    if (n < 0 || n >= machine_.nodes)
      throw std::invalid_argument(fmt::format("node {} is not in machine {} (nodes 0..{})", n, machine_.name, machine_.nodes - 1));
    for (long long p : contexts_.placement().nodes)
      if (p == n) throw std::invalid_argument(fmt::format("node {} runs ranks of this job: a neighbour job runs on other nodes", n));
  }
  neighbour_ = std::make_unique<NeighbourJob>(std::move(job));
}

void World::declare_resources() {
  copies_.declare();
  const Fabric* neighbour_fabric = neighbour_ ? &fabric(neighbour_->net) : nullptr;
  for (auto& f : fabrics_) f->declare(f.get() == neighbour_fabric ? neighbour_.get() : nullptr);
}

std::uint64_t World::neighbour_streams() const {
  std::uint64_t n = 0;
  for (auto& f : fabrics_) n += f->neighbour_streams;
  return n;
}

}  // namespace ompisim
