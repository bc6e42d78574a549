// Where a job's ranks run: the machine nodes it occupies and mpirun's mapping of ranks to nodes and cores
// (platform/node/mapping.hpp: Open MPI v1.8's defaults unless the scenario says "map_by", "bind_to", "rank_by",
// "cpu_list"), read from a scenario by make_placement.
#pragma once
#include "core/params.hpp"
#include "platform/machine.hpp"
#include "platform/node/mapping.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ompisim {

struct Placement {
  long long ranks = 0;
  int ranks_per_node = 1;
  std::vector<long long> nodes;  // machine node id of each node index used
  std::shared_ptr<const platform::RankMap> map;
  // "gpu_list": local rank k uses GPU gpu_list[k] of its node (HIP_VISIBLE_DEVICES / srun --gpu-bind); empty: the GPU
  // nearest its core (NodeType::nearest_gpu).
  std::vector<int> gpu_list;
  long long node_of(long long rank) const {
    return nodes[static_cast<std::size_t>(map->node_index(rank))];
  }
  int core_of(long long rank) const { return map->locate(rank).core; }
  long long node_count() const { return static_cast<long long>(nodes.size()); }
};

// Placement from a scenario: block over the machine's node order, or over an explicit node list.
// `mapping`: the scenario object holding the optional "map_by", "bind_to", "rank_by" and "cpu_list" keys (read, not
// finished). InputError naming `file` and the key for a job that does not fit or a bad key.
Placement make_placement(const Machine& m, long long ranks, int ranks_per_node, const std::vector<long long>& nodes,
                         const std::string& file, const Json& mapping = Json::object());

}  // namespace ompisim
