#include "platform/world.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>

namespace ompisim {

World::World(Simulator& sim, Machine& machine, Placement placement, const topology::RoutePolicyInfo* routing)
    : sim_(sim), machine_(machine), placement_(std::move(placement)), routing_(routing ? routing : machine.routing),
      cpu_free_(static_cast<std::size_t>(placement_.ranks), 0.0),
      copying_(static_cast<std::size_t>(placement_.ranks), 0) {}

int World::local_ranks(int rank) const {
  long long idx = placement_.round_robin ? rank % placement_.node_count() : rank / placement_.ranks_per_node;
  return static_cast<int>(placement_.map->ranks_on_node(idx));
}

int World::add_progress_thread(int rank, int core) {
  if (rank < 0 || rank >= placement_.ranks)
    throw std::invalid_argument(fmt::format("progress thread: rank {} is not in the job (0..{})", rank, placement_.ranks - 1));
  if (core < 0 || core >= machine_.node.cores())
    throw std::invalid_argument(fmt::format("progress thread: core {} does not exist on a {} node (0..{})", core,
                                            machine_.name, machine_.node.cores() - 1));
  if (!core_res_.empty()) throw std::logic_error("progress threads are added before World::declare_resources");
  ctx_rank_.push_back(rank);
  ctx_core_.push_back(core);
  cpu_free_.push_back(0.0);
  copying_.push_back(0);
  if (!stolen_.empty()) stolen_.push_back(0.0);
  return static_cast<int>(cpu_free_.size()) - 1;
}

double World::signal_latency(int from, int to) const {
  const auto& m = *placement_.map;
  return machine_.node.cache_line_latency(m.locate(from).core, m.locate(to).core);
}

void World::cpu(int rank, double cost, Callback fn) {
  if (copying_[rank]) {
    waiting_[rank].push_back({false, cost, std::move(fn)});
    return;
  }
  double& f = cpu_free_[rank];
  double start = std::max(f, sim_.now());
  f = start + cost;
  sim_.at(f, std::move(fn));
}

void World::cpu_copy(int rank, double bytes, Callback fn, MemSpace src, MemSpace dst) {
  if (copying_[rank]) {
    waiting_[rank].push_back({true, bytes, std::move(fn), src, dst});
    return;
  }
  if (bytes <= 0) {
    // Nothing to copy: no CPU time, and no event when the core is not busy.
    if (cpu_free_[rank] <= sim_.now()) fn();
    else cpu(rank, 0, std::move(fn));
    return;
  }
  if (auto s = machine_.node.split_copy(bytes); is_local(rank, src, dst) && s.dram_bytes <= 0) {
    // Within the cache the copy is CPU time of known length, not a flow through the shared memory bus.
    bytes_copied += static_cast<std::uint64_t>(bytes);
    cpu(rank, s.cache_time, std::move(fn));
    return;
  }
  copying_[rank] = 1;
  double start = std::max(cpu_free_[rank], sim_.now());
  sim_.at(start, [this, rank, bytes, src, dst, fn = std::move(fn)]() mutable {
    double stolen_before = stolen_.empty() ? 0.0 : stolen_[rank];
    copy(rank, bytes, [this, rank, stolen_before, fn = std::move(fn)]() mutable {
      copying_[rank] = 0;
      // Interrupts taken during the copy (World::steal) delay what the core does next, as after a CPU step.
      double stolen = (stolen_.empty() ? 0.0 : stolen_[rank]) - stolen_before;
      cpu_free_[rank] = sim_.now() + stolen;
      drain(rank);  // work queued behind the copy keeps its place ahead of what fn starts
      fn();
    }, src, dst);
  });
}

void World::drain(int rank) {
  auto it = waiting_.find(rank);
  if (it == waiting_.end()) return;
  std::vector<CpuTask> tasks = std::move(it->second);
  waiting_.erase(it);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (copying_[rank]) {  // a copy started again: requeue the rest in order
      auto& w = waiting_[rank];
      w.insert(w.begin(), std::make_move_iterator(tasks.begin() + static_cast<long>(i)), std::make_move_iterator(tasks.end()));
      return;
    }
    // A queued zero-byte copy becomes a zero-length step, never the inline path: it keeps its place behind the
    // tasks queued before it and behind the finished copy's own continuation.
    if (tasks[i].is_copy && tasks[i].amount > 0)
      cpu_copy(rank, tasks[i].amount, std::move(tasks[i].fn), tasks[i].src, tasks[i].dst);
    else cpu(rank, tasks[i].is_copy ? 0.0 : tasks[i].amount, std::move(tasks[i].fn));
  }
}

double World::wire_time(long long a, long long b, double bytes) const {
  return machine_.nic->wire_time(path(a, b), bytes);
}

topology::Route World::route(long long a, long long b) const {
  const auto& t = *machine_.topology;
  topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
  if (ra == rb) return {};
  // The flow key is the node pair: a deterministic policy's choice is the same for every transfer between them.
  auto key = static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b);
  return routing_->route(t, ra, rb, nullptr, key);
}

PathCost World::path(long long a, long long b) const {
  PathCost c{machine_.nic_latency(), machine_.injection_bandwidth()};
  const auto& t = *machine_.topology;
  for (auto id : route(a, b)) {
    c.bandwidth = std::min(c.bandwidth, t.link(id).bandwidth);
    c.latency += t.link(id).latency;
  }
  return c;
}

void World::steal(int rank, double cost) {
  double& f = cpu_free_[rank];
  f = std::max(f, sim_.now()) + cost;
  if (stolen_.empty()) stolen_.assign(cpu_free_.size(), 0.0);
  stolen_[rank] += cost;
}

void World::compute(int rank, double seconds, Callback done) {
  // The work starts when the MPI calls before it have returned: once the core has no queued MPI work left (the chain
  // of protocol steps an MPI call performs runs before control returns to the application).
  if (copying_[rank]) {  // behind the copy in progress
    waiting_[rank].push_back({false, 0.0, [this, rank, seconds, done = std::move(done)]() mutable {
                                compute(rank, seconds, std::move(done));
                              }});
    return;
  }
  if (cpu_free_[rank] > sim_.now()) {
    sim_.at(std::max(cpu_free_[rank], sim_.now()), [this, rank, seconds, done = std::move(done)]() mutable {
      sim_.after(0, [this, rank, seconds, done = std::move(done)]() mutable { compute(rank, seconds, std::move(done)); });
    });
    return;
  }
  double before = stolen_.empty() ? 0.0 : stolen_[rank];
  double end = sim_.now() + seconds;
  cpu_free_[rank] = std::max(cpu_free_[rank], end);
  extend_compute(rank, end, before, std::move(done));
}

void World::extend_compute(int rank, double end, double stolen_before, Callback done) {
  sim_.at(end, [this, rank, stolen_before, done = std::move(done)]() mutable {
    double now_stolen = stolen_.empty() ? 0.0 : stolen_[rank];
    if (now_stolen > stolen_before) {  // interrupts ran during the work: it ends that much later
      extend_compute(rank, sim_.now() + (now_stolen - stolen_before), now_stolen, std::move(done));
      return;
    }
    done();
  });
}

ResourceId World::resource(const std::string& name, double capacity) { return sim_.add_resource(name, capacity); }

void World::add_route(const topology::Route& r, std::vector<ResourceId>& path) {
  const auto& t = *machine_.topology;
  for (auto id : r) {
    auto it = link_res_.find(id);
    if (it == link_res_.end()) it = link_res_.emplace(id, resource(t.link_name(id), t.link(id).bandwidth)).first;
    path.push_back(it->second);
  }
}

int World::nic_ports() const { return std::max(1, machine_.node.nic_count(machine_.nic_kind())); }

int World::port_of(int rank) const {
  if (rank < 0 || machine_.node.nic_count(machine_.nic_kind()) <= 1) return 0;
  return machine_.node.nearest_nic(core_of(rank), machine_.nic_kind()).index;
}

ResourceId World::nic_resource(long long node, const std::string& name, int port) {
  std::size_t k = 0;
  while (k < nic_resources_.size() && nic_resources_[k].name != name) ++k;
  if (k == nic_resources_.size())
    throw std::logic_error("NIC kind '" + machine_.nic_kind() + "' names an undeclared resource '" + name + "'");
  const std::size_t per_node = nic_resources_.size() * static_cast<std::size_t>(nic_ports());
  if (nic_res_.empty()) nic_res_.assign(static_cast<std::size_t>(machine_.nodes) * per_node, kNoResource);
  ResourceId& id = nic_res_.at(static_cast<std::size_t>(node) * per_node +
                               static_cast<std::size_t>(port) * nic_resources_.size() + k);
  if (id == kNoResource)
    id = resource(port ? fmt::format("n{}-{}-p{}", node, name, port) : fmt::format("n{}-{}", node, name),
                  nic_resources_[k].capacity);
  return id;
}

// The resources of a bulk transfer a -> b driven by `initiator` (a for a PUT, b for a GET), from the NIC kind's
// declared path: its node-side resources before the route, the route's links, its node-side resources after it.
std::vector<ResourceId> World::bulk_resources(long long a, long long b, long long initiator, const topology::Route& r,
                                              int port_a, int port_b) {
  std::vector<ResourceId> path;
  auto node = [&](End e) { return e == End::Src ? a : e == End::Dst ? b : initiator; };
  auto port = [&](End e) { return e == End::Src ? port_a : e == End::Dst ? port_b : (initiator == a ? port_a : port_b); };
  for (auto& [end, name] : bulk_path_.before_route) path.push_back(nic_resource(node(end), name, port(end)));
  add_route(r, path);
  for (auto& [end, name] : bulk_path_.after_route) path.push_back(nic_resource(node(end), name, port(end)));
  return path;
}

void World::declare_resources() {
  if (!core_res_.empty() || !nic_res_.empty()) throw std::logic_error("World::declare_resources called twice");
  const platform::NodeType& nt = machine_.node;
  // Copies: the core of every execution context (ranks, then progress threads) and, on every node of the placement,
  // each NUMA node's memory controller and the links between NUMA nodes and packages that copies may cross.
  core_res_.resize(cpu_free_.size());
  for (std::size_t ctx = 0; ctx < core_res_.size(); ++ctx) {
    int i = static_cast<int>(ctx);
    core_res_[ctx] = resource(fmt::format("n{}-c{}-copy", node_of(rank_of_context(i)), core_of_context(i)),
                              nt.memory().dram_copy_bandwidth);
  }
  using K = platform::ResourceKind;
  for (long long n : placement_.nodes)
    for (K kind : {K::NumaMemory, K::InterDie, K::InterSocket, K::GpuMemory, K::GpuPeer, K::Bus})
      for (int i = 0; i < nt.resource_slots(kind); ++i)
        if (platform::ResourceKey key{kind, i}; nt.has_resource(key))
          node_res_.emplace(node_key(n, key), resource(fmt::format("n{}-{}", n, nt.describe(key)), nt.resource_capacity(key)));
  // The NIC kind's node-side resources of every node of the placement.
  nic_resources_ = machine_.nic->node_resources();
  bulk_path_ = machine_.nic->bulk_path();
  for (long long n : placement_.nodes)
    for (int p = 0; p < nic_ports(); ++p)
      for (auto& nr : nic_resources_) nic_resource(n, nr.name, p);
  // Every link of the topology, once (routes may take any of them).
  const auto& t = *machine_.topology;
  for (topology::LinkId id = 0; id < t.link_count(); ++id) link_res_.emplace(id, resource(t.link_name(id), t.link(id).bandwidth));
  link_load_.flows.assign(t.link_count(), 0);
}

long long World::node_key(long long node, platform::ResourceKey k) {
  return (node << 20) | (static_cast<long long>(k.kind) << 16) | static_cast<long long>(k.index);
}

ResourceId World::node_resource(long long node, platform::ResourceKey k) const {
  auto it = node_res_.find(node_key(node, k));
  if (it == node_res_.end())
    throw std::logic_error(fmt::format("node {} has no declared resource {}", node, machine_.node.describe(k)));
  return it->second;
}

platform::MemSpace World::node_space(int ctx, MemSpace m) const {
  if (m.kind == MemKind::Device) {
    int g = m.index >= 0 ? m.index : machine_.node.nearest_gpu(core_of_context(ctx));
    if (g < 0) throw std::logic_error("a device buffer on a node without GPUs (the scenario check should refuse it)");
    return platform::MemSpace::gpu(g);
  }
  return platform::MemSpace::host(m.index < 0 ? machine_.node.numa_of(core_of_context(ctx)) : m.index);
}

bool World::is_local(int ctx, MemSpace src, MemSpace dst) const {
  platform::MemSpace home = platform::MemSpace::host(machine_.node.numa_of(core_of_context(ctx)));
  return node_space(ctx, src) == home && node_space(ctx, dst) == home;
}

MemSpace World::local_memory(int rank) const { return {MemKind::Host, machine_.node.numa_of(core_of(rank))}; }

void World::bulk(long long a, long long b, double bytes, double latency, Callback done, bool pulled, int rank_a,
                 int rank_b) {
  ++bulk_flows;
  if (bytes <= 0) {
    sim_.after(latency, std::move(done));
    return;
  }
  // The path is built when the flow starts. A pulled transfer (GET) is driven by b: with a NIC kind whose bulk path
  // names the initiator's resources, it occupies b's engine instead of a's.
  sim_.after(latency, [this, a, b, bytes, pulled, pa = port_of(rank_a), pb = port_of(rank_b), done = std::move(done)]() mutable {
    // The route is chosen now, by the run's policy, seeing the flows already routed over each link (an adaptive
    // policy steers around busy links; a deterministic one ignores the load). Each flow has its own key, so Valiant
    // spreads the flows of one node pair over intermediate groups.
    const auto& t = *machine_.topology;
    topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
    topology::Route r;
    if (ra != rb) {
      std::uint64_t key = (static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b)) +
                          0xBF58476D1CE4E5B9ull * ++flow_seq_;
      r = routing_->route(t, ra, rb, &link_load_, key);
    }
    for (auto id : r) ++link_load_.flows[id];
    sim_.flow(bulk_resources(a, b, pulled ? b : a, r, pa, pb), bytes, [this, r, done = std::move(done)]() mutable {
      for (auto id : r) --link_load_.flows[id];
      done();
    });
  });
}

double World::copy_time_uncontended(double bytes) const {
  auto s = machine_.node.split_copy(bytes);
  double bw = std::min<double>(machine_.node.memory().dram_copy_bandwidth, machine_.node.memory().numa_copy_bandwidth);
  return s.cache_time + s.dram_bytes / bw;
}

void World::copy(int ctx, double bytes, Callback done, MemSpace src, MemSpace dst) {
  bytes_copied += static_cast<std::uint64_t>(bytes);
  auto split = machine_.node.split_copy(bytes);
  long long n = node_of(rank_of_context(ctx));
  int c = core_of_context(ctx);
  platform::MemSpace s = node_space(ctx, src), d = node_space(ctx, dst);
  bool local = is_local(ctx, src, dst);
  // The part of the working set that fits the cache moves at the cache copy rate (for a copy from another NUMA node:
  // a cache-to-cache transfer of data its writer just touched), analytically; the rest streams from DRAM over the
  // resources between the two memories (the core's copy rate, the memory controllers, the inter-die or inter-socket
  // links), a flow shared with other copies. A copy between NUMA nodes first pays the links' latency.
  double first = split.cache_time + (local ? 0.0 : machine_.node.copy_latency(c, s, d));
  if (split.dram_bytes <= 0) {
    sim_.after(first, std::move(done));
    return;
  }
  std::vector<ResourceId> path;
  for (auto k : machine_.node.copy_path(c, s, d))
    path.push_back(k.kind == platform::ResourceKind::CoreCopy ? core_res_.at(static_cast<std::size_t>(ctx))
                                                              : node_resource(n, k));
  double dram = split.dram_bytes;
  sim_.after(first, [this, path = std::move(path), dram, done = std::move(done)]() mutable {
    sim_.flow(path, dram, std::move(done));
  });
}

Placement make_placement(const Machine& m, long long ranks, int rpn, const std::vector<long long>& nodes,
                         const std::string& file, const Json& mapping) {
  if (ranks < 1) throw InputError(file, "ranks", "must be at least 1");
  if (rpn < 1) throw InputError(file, "ranks_per_node", "must be at least 1");
  if (rpn > m.cores_per_node)
    throw InputError(file, "ranks_per_node",
                     fmt::format("{} ranks per node, but a {} node has {} cores (one rank per core)", rpn, m.name,
                                 m.cores_per_node));
  long long need = (ranks + rpn - 1) / rpn;
  if (ranks > m.nodes * m.cores_per_node)
    throw InputError(file, "ranks",
                     fmt::format("{} ranks do not fit on {} ({} nodes x {} cores = {} cores)", ranks, m.name, m.nodes,
                                 m.cores_per_node, m.nodes * m.cores_per_node));
  if (need > m.nodes)
    throw InputError(file, "ranks",
                     fmt::format("{} ranks at {} per node need {} nodes, but {} has {}", ranks, rpn, need, m.name,
                                 m.nodes));
  Placement p;
  p.ranks = ranks;
  p.ranks_per_node = rpn;
  if (!nodes.empty()) {
    if (static_cast<long long>(nodes.size()) < need)
      throw InputError(file, "nodes", fmt::format("{} nodes listed, {} needed for {} ranks at {} per node",
                                                  nodes.size(), need, ranks, rpn));
    std::set<long long> seen;
    for (auto n : nodes) {
      if (n < 0 || n >= m.nodes)
        throw InputError(file, "nodes", fmt::format("node {} does not exist on {} (0..{})", n, m.name, m.nodes - 1));
      if (!seen.insert(n).second) throw InputError(file, "nodes", fmt::format("node {} is listed twice", n));
    }
    p.nodes.assign(nodes.begin(), nodes.begin() + need);
  } else {
    p.nodes.resize(static_cast<std::size_t>(need));
    for (long long i = 0; i < need; ++i) p.nodes[static_cast<std::size_t>(i)] = i;
  }
  ObjectReader mr(mapping, file, "");
  platform::MappingPolicy policy = platform::read_mapping_policy(mr, m.node);
  p.map = std::make_shared<const platform::RankMap>(m.node, ranks, need, rpn, policy, file, "");
  p.round_robin = p.map->map_by() == platform::MapBy::Node;
  return p;
}

}  // namespace ompisim
