#include "platform/memory_copies.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <stdexcept>

namespace ompisim {

void MemoryCopies::declare() {
  if (declared()) throw std::logic_error("World::declare_resources called twice");
  core_res_.resize(static_cast<std::size_t>(ctx_.count()));
  for (std::size_t ctx = 0; ctx < core_res_.size(); ++ctx) {
    int i = static_cast<int>(ctx);
    core_res_[ctx] = sim_.add_resource(fmt::format("n{}-c{}-copy", ctx_.node_of(ctx_.rank_of(i)), ctx_.core_of_context(i)),
                                       ctx_.type_of(i).memory().dram_copy_bandwidth.value);
  }
  using K = platform::ResourceKind;
  const Machine& m = ctx_.machine();
  for (long long n : ctx_.placement().nodes) {
    const platform::NodeType& nt = m.node_type(n);
    for (K kind : {K::NumaMemory, K::InterDie, K::InterSocket, K::GpuMemory, K::GpuPeer, K::GpuLink, K::Bus})
      for (int i = 0; i < nt.resource_slots(kind); ++i)
        if (platform::ResourceKey key{kind, i}; nt.has_resource(key))
          node_res_.emplace(node_key(n, key),
                            sim_.add_resource(fmt::format("n{}-{}", n, nt.describe(key)), nt.resource_capacity(key)));
  }
}

long long MemoryCopies::node_key(long long node, platform::ResourceKey k) {
  return (node << 20) | (static_cast<long long>(k.kind) << 16) | static_cast<long long>(k.index);
}

ResourceId MemoryCopies::node_resource(long long node, platform::ResourceKey k) const {
  auto it = node_res_.find(node_key(node, k));
  if (it == node_res_.end())
    throw std::logic_error(
        fmt::format("node {} has no declared resource {}", node, ctx_.machine().node_type(node).describe(k)));
  return it->second;
}

platform::MemSpace MemoryCopies::node_space(int ctx, MemSpace m) const {
  if (m.kind == MemKind::Device) {
    int g = m.index >= 0 ? m.index : ctx_.gpu_of(ctx_.rank_of(ctx));
    if (g < 0) throw std::logic_error("a device buffer on a node without GPUs (the scenario check should refuse it)");
    return platform::MemSpace::gpu(g);
  }
  return platform::MemSpace::host(m.index < 0 ? ctx_.type_of(ctx).numa_of(ctx_.core_of_context(ctx)) : m.index);
}

bool MemoryCopies::is_local(int ctx, MemSpace src, MemSpace dst) const {
  if (src.kind == MemKind::Device || dst.kind == MemKind::Device) {
    platform::MemSpace home = platform::MemSpace::host(ctx_.type_of(ctx).numa_of(ctx_.core_of_context(ctx)));
    return node_space(ctx, src) == home && node_space(ctx, dst) == home;
  }
  // Two host buffers: "local" (index < 0) is the context's own NUMA node, so only explicit indices need the lookup.
  if (src.index < 0 && dst.index < 0) return true;
  int home = ctx_.type_of(ctx).numa_of(ctx_.core_of_context(ctx));
  return (src.index < 0 || src.index == home) && (dst.index < 0 || dst.index == home);
}

std::optional<double> MemoryCopies::cache_copy(int ctx, double bytes, MemSpace src, MemSpace dst) {
  auto s = ctx_.type_of(ctx).split_copy(bytes);
  if (!is_local(ctx, src, dst) || s.dram_bytes > 0) return std::nullopt;
  bytes_copied += static_cast<std::uint64_t>(bytes);
  return s.cache_time;
}

double MemoryCopies::copy_time_uncontended(double bytes, int rank) const {
  const platform::NodeType& nt = ctx_.node_type(rank);
  auto s = nt.split_copy(bytes);
  double bw = std::min<double>(nt.memory().dram_copy_bandwidth, nt.memory().numa_copy_bandwidth);
  return s.cache_time + s.dram_bytes / bw;
}

void MemoryCopies::copy(int ctx, double bytes, Callback done, MemSpace src, MemSpace dst) {
  bytes_copied += static_cast<std::uint64_t>(bytes);
  const platform::NodeType& nt = ctx_.type_of(ctx);
  // A copy to or from a GPU's memory is made by the GPU (its DMA engines, or an IPC copy between two GPUs), not by the
  // core: no part of it is a CPU cache copy, and every byte crosses the resources of its path (the GPU links and
  // memories, the CPU-GPU interface); only a copy between two host buffers has a part that fits the cache.
  const bool device = src.kind == MemKind::Device || dst.kind == MemKind::Device;
  const platform::CopySplit split = device ? platform::CopySplit{0.0, bytes} : nt.split_copy(bytes);
  long long n = ctx_.node_of(ctx_.rank_of(ctx));
  int c = ctx_.core_of_context(ctx);
  platform::MemSpace s = node_space(ctx, src), d = node_space(ctx, dst);
  bool local = is_local(ctx, src, dst);
  // The part of the working set that fits the cache moves at the cache copy rate, analytically (for a copy from
  // another NUMA node: a cache-to-cache transfer of data its writer just touched, which also crosses the links between
  // the two, below); the rest then streams from DRAM over the resources between the two memories (the core's copy
  // rate, the memory controllers, the inter-die or inter-socket links), a flow shared with other copies. A copy
  // between NUMA nodes first pays the links' latency.
  double first = split.cache_time + (local ? 0.0 : nt.copy_latency(c, s, d));
  // Declaring the resources read none of their parameters (NodeType::resource_param): a flow crossing one reads it.
  std::vector<ResourceId> path, links;
  if (split.dram_bytes > 0 || !local)
    for (auto k : nt.copy_path(c, s, d)) {
      (void)nt.resource_param(k).get();
      const ResourceId r = k.kind == platform::ResourceKind::CoreCopy ? core_res_.at(static_cast<std::size_t>(ctx))
                                                                      : node_resource(n, k);
      path.push_back(r);
      if (k.kind == platform::ResourceKind::InterDie || k.kind == platform::ResourceKind::InterSocket) links.push_back(r);
    }
  const double dram = split.dram_bytes;
  Callback rest = [this, n, path = std::move(path), dram, done = std::move(done)]() mutable {
    if (dram <= 0) return done();
    if (TraceSink* t = sim_.trace) t->flow_nodes(n, n);
    sim_.flow(path, dram, std::move(done));
  };
  const double cached = bytes - dram;
  if (links.empty() || cached <= 0) {
    sim_.after(first, std::move(rest));
    return;
  }
  // A copy between NUMA nodes moves its cached part over the links between them as well: the cache copy rate bounds
  // it alone, the links (shared with every other copy and flow that crosses them) beside other traffic. The DRAM part
  // starts when both are done.
  auto pending = std::make_shared<int>(2);
  auto join = std::make_shared<Callback>(std::move(rest));
  auto one = [pending, join] {
    if (--*pending == 0) (*join)();
  };
  sim_.after(first, one);
  if (TraceSink* t = sim_.trace) t->flow_nodes(n, n);
  sim_.flow(links, cached, one);
}

}  // namespace ompisim
