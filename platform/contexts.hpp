// The execution contexts of a job and where each runs. Contexts 0 .. ranks-1 are the ranks' main threads (each on
// the core its placement binds it to); a progress thread (Open MPI's asynchronous progress, a PTL's progress
// threads) is another context bound to a core of its rank's node. Answers "which node, which core, which node type,
// which memory" for a rank or a context; knows nothing of time (platform/cpu_timeline.hpp) or copies
// (platform/memory_copies.hpp).
#pragma once
#include "platform/buffer.hpp"
#include "platform/machine.hpp"
#include "platform/placement.hpp"

#include <vector>

namespace ompisim {

class Contexts {
public:
  Contexts(const Machine& machine, Placement placement);
  const Machine& machine() const { return machine_; }
  const Placement& placement() const { return placement_; }
  long long ranks() const { return placement_.ranks; }
  long long node_of(int rank) const { return placement_.node_of(rank); }
  int local_ranks(int rank) const;  // ranks sharing rank's node
  // The core a rank runs on: looked up per copy, cache-line hand-off and NIC choice, so kept per rank (4 bytes a rank,
  // 1.2 MB at 300,000 ranks) instead of asking the rank map each time.
  int core_of(int rank) const { return rank_core_[static_cast<std::size_t>(rank)]; }
  // The node type of the node rank runs on (a machine may have several node types).
  const platform::NodeType& node_type(int rank) const { return machine_.node_type(node_of(rank)); }
  // A cache line written by rank `from`'s core becomes visible to rank `to`'s polling core (same node): by the
  // distance between their cores (same NUMA node, other NUMA node, other package).
  double signal_latency(int from, int to) const;
  // The host memory of rank's NUMA node (where its buffers live), for copies from a peer's buffer.
  MemSpace local_memory(int rank) const;
  // The GPU a rank uses (its device buffers live there): Placement::gpu_list, else the GPU nearest its core; -1 when
  // the node has none.
  int gpu_of(int rank) const;

  // A progress thread of `rank` bound to `core` of its node: the new context's index. std::invalid_argument for a
  // rank or core the job's node does not have.
  int add(int rank, int core);
  int count() const { return static_cast<int>(placement_.ranks) + static_cast<int>(ctx_rank_.size()); }
  int rank_of(int ctx) const { return ctx < placement_.ranks ? ctx : ctx_rank_[ctx - placement_.ranks]; }
  int core_of_context(int ctx) const { return ctx < placement_.ranks ? core_of(ctx) : ctx_core_[ctx - placement_.ranks]; }
  const platform::NodeType& type_of(int ctx) const { return node_type(rank_of(ctx)); }

private:
  const Machine& machine_;
  Placement placement_;
  std::vector<int> rank_core_;            // core of each rank (Placement::core_of, computed once)
  std::vector<int> ctx_rank_, ctx_core_;  // progress threads (contexts from ranks on): their rank and core
};

}  // namespace ompisim
