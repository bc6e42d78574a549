#include "platform/world.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>

namespace ompisim {

World::World(Simulator& sim, Machine& machine, Placement placement)
    : sim_(sim), machine_(machine), placement_(std::move(placement)),
      cpu_free_(static_cast<std::size_t>(placement_.ranks), 0.0),
      copying_(static_cast<std::size_t>(placement_.ranks), 0) {}

int World::local_ranks(int rank) const {
  long long n = rank / placement_.ranks_per_node;
  long long first = n * placement_.ranks_per_node;
  return static_cast<int>(std::min<long long>(placement_.ranks_per_node, placement_.ranks - first));
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
  if (auto s = host::split_copy(machine_.host, bytes); s.dram_bytes <= 0) {
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

int World::hops(long long a, long long b) const {
  if (!machine_.torus) return a == b ? 0 : 1;
  return machine_.torus->hops(machine_.torus->router_of_node(a), machine_.torus->router_of_node(b));
}

double World::wire_time(long long a, long long b, double bytes) const {
  return machine_.nic->wire_time(path(a, b), bytes);
}

PathCost World::path(long long a, long long b) const {
  PathCost c{machine_.nic_latency(), machine_.injection_bandwidth()};
  if (!machine_.torus) return c;
  const auto& t = *machine_.torus;
  int ra = t.router_of_node(a), rb = t.router_of_node(b);
  if (ra != rb)
    for (auto id : t.route(ra, rb)) {
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

void World::add_route(long long a, long long b, std::vector<ResourceId>& path) {
  if (!machine_.torus) return;
  const auto& t = *machine_.torus;
  for (auto id : t.route(t.router_of_node(a), t.router_of_node(b))) {
    auto it = link_res_.find(id);
    if (it == link_res_.end()) it = link_res_.emplace(id, resource(t.link_name(id), t.link(id).bandwidth)).first;
    path.push_back(it->second);
  }
}

ResourceId World::nic_resource(long long node, const std::string& name) {
  std::size_t k = 0;
  while (k < nic_resources_.size() && nic_resources_[k].name != name) ++k;
  if (k == nic_resources_.size())
    throw std::logic_error("NIC kind '" + machine_.nic_kind() + "' names an undeclared resource '" + name + "'");
  if (nic_res_.empty()) nic_res_.assign(static_cast<std::size_t>(machine_.nodes) * nic_resources_.size(), kNoResource);
  ResourceId& id = nic_res_.at(static_cast<std::size_t>(node) * nic_resources_.size() + k);
  if (id == kNoResource) id = resource(fmt::format("n{}-{}", node, name), nic_resources_[k].capacity);
  return id;
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

void World::declare_resources() {
  if (!core_res_.empty() || !nic_res_.empty()) throw std::logic_error("World::declare_resources called twice");
  // Intra-node copies: the core of every rank (one rank per core) and the memory system of its node.
  core_res_.resize(static_cast<std::size_t>(placement_.ranks));
  for (long long r = 0; r < placement_.ranks; ++r) {
    long long n = placement_.node_of(r);
    int c = placement_.core_of(r);
    core_res_[static_cast<std::size_t>(r)] =
        resource(fmt::format("n{}-c{}-copy", n, c), machine_.host.dram_copy_bandwidth);
    if (!mem_res_.count(n)) mem_res_[n] = resource(fmt::format("n{}-membus", n), machine_.host.node_copy_bandwidth);
  }
  // The NIC kind's node-side resources of every node of the placement.
  nic_resources_ = machine_.nic->node_resources();
  bulk_path_ = machine_.nic->bulk_path();
  for (long long n : placement_.nodes)
    for (auto& nr : nic_resources_) nic_resource(n, nr.name);
  // Every link of the topology, once (routes may take any of them).
  if (machine_.torus)
    for (std::uint32_t id = 0; id < machine_.torus->link_count(); ++id)
      link_res_.emplace(id, resource(machine_.torus->link_name(id), machine_.torus->link(id).bandwidth));
}

void World::bulk(long long a, long long b, double bytes, double latency, Callback done, bool pulled) {
  ++bulk_flows;
  if (bytes <= 0) {
    sim_.after(latency, std::move(done));
    return;
  }
  // The path is built when the flow starts. A pulled transfer (GET) is driven by b: with a NIC kind whose bulk path
  // names the initiator's resources, it occupies b's engine instead of a's.
  sim_.after(latency, [this, a, b, bytes, pulled, done = std::move(done)]() mutable {
    sim_.flow(bulk_resources(a, b, pulled ? b : a), bytes, std::move(done));
  });
}

double World::copy_time_uncontended(double bytes) const {
  auto s = host::split_copy(machine_.host, bytes);
  double bw = std::min<double>(machine_.host.dram_copy_bandwidth, machine_.host.node_copy_bandwidth);
  return s.cache_time + s.dram_bytes / bw;
}

void World::copy(int rank, double bytes, Callback done) {
  bytes_copied += static_cast<std::uint64_t>(bytes);
  auto s = host::split_copy(machine_.host, bytes);
  if (s.dram_bytes <= 0) {
    sim_.after(s.cache_time, std::move(done));
    return;
  }
  ResourceId core = core_res_.at(static_cast<std::size_t>(rank)), mem = mem_res_.at(node_of(rank));
  double dram = s.dram_bytes;
  sim_.after(s.cache_time, [this, core, mem, dram, done = std::move(done)]() mutable {
    sim_.flow({core, mem}, dram, std::move(done));
  });
}

Placement make_placement(const Machine& m, long long ranks, int rpn, const std::vector<long long>& nodes,
                         const std::string& file) {
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
  return p;
}

}  // namespace ompisim
