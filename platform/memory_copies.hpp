// Memory copies by a context's core inside one node: the cache-resident part of a copy is analytic; the DRAM part is a
// flow over the node resources between the two memories (the core's copy rate, the memory controllers, the inter-die
// or inter-socket links, buses), shared with the node's other copies. Holds the node-local copy resources of the
// job's nodes. CPU time around a copy (the core busy until it ends) is platform/cpu_timeline.hpp's.
#pragma once
#include "core/sim.hpp"
#include "platform/buffer.hpp"
#include "platform/contexts.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ompisim {

class MemoryCopies {
public:
  MemoryCopies(Simulator& sim, const Contexts& contexts) : sim_(sim), ctx_(contexts) {}
  // Declares the copy resource of every context's core and, on every node of the placement, each NUMA node's memory
  // controller and the links between NUMA nodes and packages that copies may cross. std::logic_error when called twice.
  void declare();
  bool declared() const { return !core_res_.empty(); }
  // A memory copy of `bytes` by ctx's core: cache-resident part analytic, DRAM part a flow over the core and the
  // node's memory system (shared with the other cores of the node); then done. `src`/`dst`: the memories copied from
  // and to (default: the context's own NUMA node; for a copy between NUMA nodes the links' latency comes first).
  void copy(int ctx, double bytes, Callback done, MemSpace src = {}, MemSpace dst = {});
  // The length of a copy that stays in ctx's cache and own memory (no flow through the shared memory system), counted
  // as copied; nullopt for a copy that needs the flow of copy().
  std::optional<double> cache_copy(int ctx, double bytes, MemSpace src, MemSpace dst);
  double copy_time_uncontended(double bytes, int rank = 0) const;  // on rank's node type
  std::uint64_t bytes_copied = 0;

private:
  static long long node_key(long long node, platform::ResourceKey k);
  ResourceId node_resource(long long node, platform::ResourceKey k) const;
  platform::MemSpace node_space(int ctx, MemSpace m) const;  // "local" resolved to the context's NUMA node
  bool is_local(int ctx, MemSpace src, MemSpace dst) const;  // both in the context's own NUMA node

  Simulator& sim_;
  const Contexts& ctx_;
  std::unordered_map<long long, ResourceId> node_res_;  // node-local copy resources by node_key
  std::vector<ResourceId> core_res_;  // per execution context: the copy resource of the core it is bound to
};

}  // namespace ompisim
