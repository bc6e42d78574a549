#include "platform/contexts.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace ompisim {

Contexts::Contexts(const Machine& machine, Placement placement) : machine_(machine), placement_(std::move(placement)) {
  rank_core_.resize(static_cast<std::size_t>(placement_.ranks));
  for (long long r = 0; r < placement_.ranks; ++r) rank_core_[static_cast<std::size_t>(r)] = placement_.core_of(r);
}

int Contexts::local_ranks(int rank) const {
  return static_cast<int>(placement_.map->ranks_on_node(placement_.map->node_index(rank)));
}

double Contexts::signal_latency(int from, int to) const {
  return node_type(from).cache_line_latency(core_of(from), core_of(to));
}

int Contexts::add(int rank, int core) {
  if (rank < 0 || rank >= placement_.ranks)
    throw std::invalid_argument(fmt::format("progress thread: rank {} is not in the job (0..{})", rank, placement_.ranks - 1));
  if (core < 0 || core >= node_type(rank).cores())
    throw std::invalid_argument(fmt::format("progress thread: core {} does not exist on a {} node (0..{})", core,
                                            machine_.name, node_type(rank).cores() - 1));
  ctx_rank_.push_back(rank);
  ctx_core_.push_back(core);
  return count() - 1;
}

int Contexts::gpu_of(int rank) const {
  if (!placement_.gpu_list.empty())
    return placement_.gpu_list[static_cast<std::size_t>(placement_.map->local_rank(rank))];
  return node_type(rank).nearest_gpu(core_of(rank));
}

MemSpace Contexts::local_memory(int rank) const { return {MemKind::Host, node_type(rank).numa_of(core_of(rank))}; }

}  // namespace ompisim
