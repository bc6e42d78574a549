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

void World::cpu_copy(int rank, double bytes, Callback fn) {
  if (copying_[rank]) {
    waiting_[rank].push_back({true, bytes, std::move(fn)});
    return;
  }
  if (bytes <= 0) {
    // Nothing to copy: no CPU time, and no event when the core is not busy.
    if (cpu_free_[rank] <= sim_.now()) fn();
    else cpu(rank, 0, std::move(fn));
    return;
  }
  if (auto s = machine_.node.split_copy(bytes); s.dram_bytes <= 0) {
    // Within the cache the copy is CPU time of known length, not a flow through the shared memory bus.
    bytes_copied += static_cast<std::uint64_t>(bytes);
    cpu(rank, s.cache_time, std::move(fn));
    return;
  }
  copying_[rank] = 1;
  double start = std::max(cpu_free_[rank], sim_.now());
  sim_.at(start, [this, rank, bytes, fn = std::move(fn)]() mutable {
    double stolen_before = stolen_.empty() ? 0.0 : stolen_[rank];
    copy(rank, bytes, [this, rank, stolen_before, fn = std::move(fn)]() mutable {
      copying_[rank] = 0;
      // Interrupts taken during the copy (World::steal) delay what the core does next, as after a CPU step.
      double stolen = (stolen_.empty() ? 0.0 : stolen_[rank]) - stolen_before;
      cpu_free_[rank] = sim_.now() + stolen;
      drain(rank);  // work queued behind the copy keeps its place ahead of what fn starts
      fn();
    });
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
    if (tasks[i].is_copy && tasks[i].amount > 0) cpu_copy(rank, tasks[i].amount, std::move(tasks[i].fn));
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

EndpointId World::node_endpoint(long long node) {
  auto it = node_ep_.find(node);
  if (it != node_ep_.end()) return it->second;
  return node_ep_[node] = sim_.add_endpoint(fmt::format("n{}", node));
}
EndpointId World::pull_endpoint(long long node) {
  auto it = pull_ep_.find(node);
  if (it != pull_ep_.end()) return it->second;
  return pull_ep_[node] = sim_.add_endpoint(fmt::format("n{}-pull", node));
}
EndpointId World::mem_endpoint(long long numa_key) {
  auto it = mem_ep_.find(numa_key);
  if (it != mem_ep_.end()) return it->second;
  return mem_ep_[numa_key] = sim_.add_endpoint(fmt::format("numa{}-mem", numa_key));
}
EndpointId World::core_endpoint(long long node, int core) {
  auto key = std::make_pair(node, core);
  auto it = core_ep_.find(key);
  if (it != core_ep_.end()) return it->second;
  return core_ep_[key] = sim_.add_endpoint(fmt::format("n{}-c{}", node, core));
}

void World::add_route(long long a, long long b, std::vector<ResourceId>& path) {
  const auto& t = *machine_.topology;
  for (auto id : route(a, b)) {
    auto it = link_res_.find(id);
    if (it == link_res_.end()) it = link_res_.emplace(id, resource(t.link_name(id), t.link(id).bandwidth)).first;
    path.push_back(it->second);
  }
}

ResourceId World::nic_resource(long long node, const std::string& name) {
  auto key = std::make_pair(node, name);
  auto it = nic_res_.find(key);
  if (it != nic_res_.end()) return it->second;
  double cap = -1;
  for (auto& r : nic_resources_)
    if (r.name == name) cap = r.capacity;
  if (cap < 0) throw std::logic_error("NIC kind '" + machine_.nic_kind() + "' names an undeclared resource '" + name + "'");
  return nic_res_[key] = resource(fmt::format("n{}-{}", node, name), cap);
}

// The resources of a bulk transfer a -> b driven by `initiator` (a for a PUT, b for a GET), from the NIC kind's
// declared path: its node-side resources before the route, the route's links, its node-side resources after it.
std::vector<ResourceId> World::bulk_resources(long long a, long long b, long long initiator) {
  std::vector<ResourceId> path;
  auto node = [&](End e) { return e == End::Src ? a : e == End::Dst ? b : initiator; };
  for (auto& [end, name] : bulk_path_.before_route) path.push_back(nic_resource(node(end), name));
  add_route(a, b, path);
  for (auto& [end, name] : bulk_path_.after_route) path.push_back(nic_resource(node(end), name));
  return path;
}

void World::declare_bulk_paths(const std::vector<std::pair<long long, long long>>& pairs_in, bool all_pairs) {
  std::set<long long> active(placement_.nodes.begin(), placement_.nodes.end());
  // Intra-node copy paths: every core of every active node that hosts a rank.
  for (long long r = 0; r < placement_.ranks; ++r) {
    long long n = placement_.node_of(r);
    int c = placement_.core_of(r);
    auto core_key = std::make_pair(n, c);
    if (!core_res_.count(core_key))
      core_res_[core_key] = resource(fmt::format("n{}-c{}-copy", n, c), machine_.node.memory().dram_copy_bandwidth);
    // A rank's own copies stay in its NUMA node: its core's copy rate and that NUMA node's memory controller.
    long long numa = n * machine_.node.numa_count() + machine_.node.numa_of(c);
    if (!mem_res_.count(numa))
      mem_res_[numa] = resource(fmt::format("n{}-numa{}-mem", n, machine_.node.numa_of(c)),
                                machine_.node.memory().numa_copy_bandwidth);
    sim_.add_path(core_endpoint(n, c), mem_endpoint(numa), {core_res_[core_key], mem_res_[numa]});
  }
  nic_resources_ = machine_.nic->node_resources();
  bulk_path_ = machine_.nic->bulk_path();
  bool pull_paths = bulk_path_.initiator_dependent();
  std::vector<std::pair<long long, long long>> pairs = pairs_in;
  if (all_pairs)
    for (long long a : active)
      for (long long b : active)
        if (a != b) pairs.emplace_back(a, b);
  for (auto [a, b] : pairs) {
    if (a == b || sim_.has_path(node_endpoint(a), node_endpoint(b))) continue;
    sim_.add_path(node_endpoint(a), node_endpoint(b), bulk_resources(a, b, a));
    // The same data path driven by b (a GET issued by b), when the NIC kind's path depends on the initiator.
    if (pull_paths) sim_.add_path(pull_endpoint(a), pull_endpoint(b), bulk_resources(a, b, b));
  }
  paths_declared_ = true;
}

void World::bulk(long long a, long long b, double bytes, double latency, Callback done, bool pulled) {
  ++bulk_flows;
  if (bytes <= 0) {
    sim_.after(latency, std::move(done));
    return;
  }
  // Pull paths exist only when the NIC kind's bulk path depends on the initiator (a DMA engine on the path).
  bool pull = pulled && !pull_ep_.empty();
  EndpointId ea = pull ? pull_ep_.at(a) : node_ep_.at(a), eb = pull ? pull_ep_.at(b) : node_ep_.at(b);
  sim_.after(latency, [this, ea, eb, bytes, done = std::move(done)]() mutable { sim_.flow(ea, eb, bytes, std::move(done)); });
}

double World::copy_time_uncontended(double bytes) const {
  auto s = machine_.node.split_copy(bytes);
  double bw = std::min<double>(machine_.node.memory().dram_copy_bandwidth, machine_.node.memory().numa_copy_bandwidth);
  return s.cache_time + s.dram_bytes / bw;
}

void World::copy(int rank, double bytes, Callback done) {
  bytes_copied += static_cast<std::uint64_t>(bytes);
  auto s = machine_.node.split_copy(bytes);
  if (s.dram_bytes <= 0) {
    sim_.after(s.cache_time, std::move(done));
    return;
  }
  long long n = node_of(rank_of_context(rank));
  int c = core_of_context(rank);

  EndpointId src = core_ep_.at({n, c}), dst = mem_ep_.at(n * machine_.node.numa_count() + machine_.node.numa_of(c));
  double dram = s.dram_bytes;
  sim_.after(s.cache_time, [this, src, dst, dram, done = std::move(done)]() mutable { sim_.flow(src, dst, dram, std::move(done)); });
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
