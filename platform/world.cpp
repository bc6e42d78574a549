#include "platform/world.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>

namespace ompisim {

World::World(Simulator& sim, Machine& machine, Placement placement, const topology::RoutePolicyInfo* routing)
    : sim_(sim), machine_(machine), placement_(std::move(placement)),
      cpu_free_(static_cast<std::size_t>(placement_.ranks), 0.0),
      copying_(static_cast<std::size_t>(placement_.ranks), 0) {
  const bool several = machine.networks().size() > 1;
  fabrics_.resize(machine.networks().size());
  for (std::size_t i = 0; i < fabrics_.size(); ++i) {
    Fabric& f = fabrics_[i];
    f.net = &machine.networks()[i];
    f.routing = routing ? routing : f.net->routing;
    f.prefix = several ? f.net->name + ":" : "";
  }
  rank_core_.resize(static_cast<std::size_t>(placement_.ranks));
  for (long long r = 0; r < placement_.ranks; ++r) rank_core_[static_cast<std::size_t>(r)] = placement_.core_of(r);
  if (TraceSink* t = sim_.trace)
    for (long long r = 0; r < placement_.ranks; ++r) t->rank_node(static_cast<int>(r), node_of(static_cast<int>(r)));
}

void World::throw_several_networks() const {
  throw std::logic_error(fmt::format("machine '{}' has {} networks: the fabric call must name one", machine_.name,
                                     fabrics_.size()));
}

int World::local_ranks(int rank) const {
  return static_cast<int>(placement_.map->ranks_on_node(placement_.map->node_index(rank)));
}

int World::add_progress_thread(int rank, int core) {
  if (rank < 0 || rank >= placement_.ranks)
    throw std::invalid_argument(fmt::format("progress thread: rank {} is not in the job (0..{})", rank, placement_.ranks - 1));
  if (core < 0 || core >= node_type(rank).cores())
    throw std::invalid_argument(fmt::format("progress thread: core {} does not exist on a {} node (0..{})", core,
                                            machine_.name, node_type(rank).cores() - 1));
  if (!core_res_.empty()) throw std::logic_error("progress threads are added before World::declare_resources");
  ctx_rank_.push_back(rank);
  ctx_core_.push_back(core);
  cpu_free_.push_back(0.0);
  copying_.push_back(0);
  if (!stolen_.empty()) stolen_.push_back(0.0);
  const int ctx = static_cast<int>(cpu_free_.size()) - 1;
  if (TraceSink* t = sim_.trace) t->context_rank(ctx, rank);
  // The core's contexts: the main thread of the rank bound there (ranks never share a core) and earlier threads.
  auto key = [](long long node, int c) { return (static_cast<std::uint64_t>(node) << 20) | static_cast<std::uint64_t>(c); };
  if (ctx_shared_.empty()) {
    ctx_shared_.assign(static_cast<std::size_t>(ctx), -1);
    rank_at_core_.reserve(static_cast<std::size_t>(placement_.ranks));
    for (long long r = 0; r < placement_.ranks; ++r)
      rank_at_core_.emplace(key(node_of(static_cast<int>(r)), core_of(static_cast<int>(r))), static_cast<int>(r));
  }
  auto [it, fresh] = shared_core_index_.try_emplace(key(node_of(rank), core), static_cast<int>(shared_cores_.size()));
  if (fresh) {
    shared_cores_.push_back({});
    if (auto m = rank_at_core_.find(key(node_of(rank), core)); m != rank_at_core_.end())
      ctx_shared_[static_cast<std::size_t>(m->second)] = it->second;
  }
  ctx_shared_.push_back(it->second);
  return ctx;
}

double World::core_start(int ctx, SharedCore& c, double ready) {
  double start = std::max(ready, c.free);
  if (c.last >= 0 && c.last != ctx) {
    const double sw = machine_.os.context_switch_cost;
    if (TraceSink* t = sim_.trace; t && sw > 0) t->cpu(ctx, start, start + sw, "context switch");
    start += sw;
    ++context_switches;
  }
  c.last = ctx;
  return start;
}

double World::signal_latency(int from, int to) const {
  return node_type(from).cache_line_latency(core_of(from), core_of(to));
}

void World::cpu(int rank, double cost, Callback fn, const char* what) {
  if (copying_[rank]) {
    waiting_[rank].push_back({false, cost, std::move(fn), {}, {}, what});
    return;
  }
  double& f = cpu_free_[rank];
  double start = std::max(f, sim_.now());
  SharedCore* c = shared_core(rank);
  if (c) start = core_start(rank, *c, start);
  f = start + cost;
  if (c) c->free = f;
  if (TraceSink* t = sim_.trace; t && cost > 0) t->cpu(rank, start, f, what);
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
  if (auto s = ctx_type(rank).split_copy(bytes); is_local(rank, src, dst) && s.dram_bytes <= 0) {
    // Within the cache the copy is CPU time of known length, not a flow through the shared memory bus.
    bytes_copied += static_cast<std::uint64_t>(bytes);
    cpu(rank, s.cache_time, std::move(fn), "memcpy");
    return;
  }
  copying_[rank] = 1;
  double start = std::max(cpu_free_[rank], sim_.now());
  // On a shared core the copy starts when the core is free (LIMITATION: while it runs, the core's other contexts are
  // not held back: its length is known only at its end).
  if (SharedCore* c = shared_core(rank)) start = c->free = core_start(rank, *c, start);
  sim_.at(start, [this, rank, bytes, src, dst, start, fn = std::move(fn)]() mutable {
    double stolen_before = stolen_.empty() ? 0.0 : stolen_[rank];
    copy(rank, bytes, [this, rank, stolen_before, start, fn = std::move(fn)]() mutable {
      if (TraceSink* t = sim_.trace) t->cpu(rank, start, sim_.now(), "memcpy");
      copying_[rank] = 0;
      // Interrupts taken during the copy (World::steal) delay what the core does next, as after a CPU step.
      double stolen = (stolen_.empty() ? 0.0 : stolen_[rank]) - stolen_before;
      cpu_free_[rank] = sim_.now() + stolen;
      if (SharedCore* c = shared_core(rank)) c->free = std::max(c->free, cpu_free_[rank]);
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
    else cpu(rank, tasks[i].is_copy ? 0.0 : tasks[i].amount, std::move(tasks[i].fn), tasks[i].what);
  }
}

double World::wire_time(long long a, long long b, double bytes, int net) const {
  return fabric(net).net->nic->wire_time(path(a, b, net), bytes);
}

topology::Route World::route(long long a, long long b, int net) const {
  const Fabric& f = fabric(net);
  const auto& t = *f.net->topology;
  topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
  if (ra == rb) return {};
  // The flow key is the node pair: a deterministic policy's choice is the same for every transfer between them.
  auto key = static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b);
  return f.routing->route(t, ra, rb, nullptr, key);
}

PathCost World::path(long long a, long long b, int net) const {
  constexpr std::size_t kMemo = 4096;
  if (path_memo_.empty()) path_memo_.resize(kMemo);
  const std::uint64_t h = (static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull) ^
                          (static_cast<std::uint64_t>(b) * 0xC2B2AE3D27D4EB4Full) ^ static_cast<std::uint64_t>(net + 1);
  PathMemo& m = path_memo_[(h >> 20) & (kMemo - 1)];
  if (m.a != a || m.b != b || m.net != net) m = {a, b, net, compute_path(a, b, net)};
  return m.cost;
}

PathCost World::compute_path(long long a, long long b, int net) const {
  const Network& n = *fabric(net).net;
  PathCost c{n.nic_latency(), n.injection_bandwidth()};
  const auto& t = *n.topology;
  for (auto id : route(a, b, net)) {
    c.bandwidth = std::min(c.bandwidth, t.link(id).bandwidth);
    c.latency += t.link(id).latency;
  }
  return c;
}

void World::steal(int rank, double cost) {
  double& f = cpu_free_[rank];
  if (TraceSink* t = sim_.trace) t->cpu(rank, std::max(f, sim_.now()), std::max(f, sim_.now()) + cost, "interrupt");
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
  SharedCore* c = shared_core(rank);
  if (double busy = std::max(cpu_free_[rank], c ? c->free : 0.0); busy > sim_.now()) {
    sim_.at(busy, [this, rank, seconds, done = std::move(done)]() mutable {
      sim_.after(0, [this, rank, seconds, done = std::move(done)]() mutable { compute(rank, seconds, std::move(done)); });
    });
    return;
  }
  double before = stolen_.empty() ? 0.0 : stolen_[rank];
  double end = (c ? core_start(rank, *c, sim_.now()) : sim_.now()) + seconds;
  if (c) c->free = end;
  if (TraceSink* t = sim_.trace; t && seconds > 0) t->cpu(rank, end - seconds, end, "compute");
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

void World::add_route(Fabric& f, const topology::Route& r, std::vector<ResourceId>& path) {
  const auto& t = *f.net->topology;
  for (auto id : r) {
    auto it = f.link_res.find(id);
    if (it == f.link_res.end())
      it = f.link_res.emplace(id, resource(f.prefix + t.link_name(id), t.link(id).bandwidth)).first;
    path.push_back(it->second);
  }
}

int World::port_of(int rank, int net) const {
  const Network& n = *fabric(net).net;
  if (rank < 0 || n.ports_per_node <= 1) return 0;
  const platform::NodeType& nt = node_type(rank);
  if (nt.nic_count(n.name) <= 1) return 0;
  return nt.nearest_nic(core_of(rank), n.name, n.ports_per_node).index;
}

ResourceId World::nic_resource(Fabric& f, long long node, const std::string& name, int port) {
  std::size_t k = 0;
  while (k < f.nic_resources.size() && f.nic_resources[k].name != name) ++k;
  if (k == f.nic_resources.size())
    throw std::logic_error("NIC kind '" + f.net->nic_kind() + "' names an undeclared resource '" + name + "'");
  const std::size_t per_node = f.nic_resources.size() * static_cast<std::size_t>(f.net->ports_per_node);
  if (f.nic_res.empty()) f.nic_res.assign(static_cast<std::size_t>(machine_.nodes) * per_node, kNoResource);
  ResourceId& id = f.nic_res.at(static_cast<std::size_t>(node) * per_node +
                                static_cast<std::size_t>(port) * f.nic_resources.size() + k);
  if (id == kNoResource)
    id = resource(f.prefix + (port ? fmt::format("n{}-{}-p{}", node, name, port) : fmt::format("n{}-{}", node, name)),
                  f.nic_resources[k].capacity);
  return id;
}

// The resources of a bulk transfer a -> b driven by `initiator` (a for a PUT, b for a GET), from the NIC kind's
// declared path: its node-side resources before the route, the route's links, its node-side resources after it.
std::vector<ResourceId> World::bulk_resources(Fabric& f, long long a, long long b, long long initiator,
                                              const topology::Route& r, int port_a, int port_b) {
  std::vector<ResourceId> path;
  auto node = [&](End e) { return e == End::Src ? a : e == End::Dst ? b : initiator; };
  auto port = [&](End e) { return e == End::Src ? port_a : e == End::Dst ? port_b : (initiator == a ? port_a : port_b); };
  for (auto& [end, name] : f.bulk_path.before_route) path.push_back(nic_resource(f, node(end), name, port(end)));
  add_route(f, r, path);
  for (auto& [end, name] : f.bulk_path.after_route) path.push_back(nic_resource(f, node(end), name, port(end)));
  return path;
}

void World::declare_resources() {
  if (!core_res_.empty()) throw std::logic_error("World::declare_resources called twice");
  // Copies: the core of every execution context (ranks, then progress threads) and, on every node of the placement,
  // each NUMA node's memory controller and the links between NUMA nodes and packages that copies may cross.
  core_res_.resize(cpu_free_.size());
  for (std::size_t ctx = 0; ctx < core_res_.size(); ++ctx) {
    int i = static_cast<int>(ctx);
    core_res_[ctx] = resource(fmt::format("n{}-c{}-copy", node_of(rank_of_context(i)), core_of_context(i)),
                              ctx_type(i).memory().dram_copy_bandwidth);
  }
  using K = platform::ResourceKind;
  for (long long n : placement_.nodes) {
    const platform::NodeType& nt = machine_.node_type(n);
    for (K kind : {K::NumaMemory, K::InterDie, K::InterSocket, K::GpuMemory, K::GpuPeer, K::Bus})
      for (int i = 0; i < nt.resource_slots(kind); ++i)
        if (platform::ResourceKey key{kind, i}; nt.has_resource(key))
          node_res_.emplace(node_key(n, key), resource(fmt::format("n{}-{}", n, nt.describe(key)), nt.resource_capacity(key)));
  }
  for (Fabric& f : fabrics_) {
    // The NIC kind's node-side resources of every port of every node of the placement.
    f.nic_resources = f.net->nic->node_resources();
    f.bulk_path = f.net->nic->bulk_path();
    f.max_active = f.net->nic->max_active_transfers();
    for (long long n : placement_.nodes)
      for (int p = 0; p < f.net->ports_per_node; ++p)
        for (auto& nr : f.nic_resources) nic_resource(f, n, nr.name, p);
    // Every link of the topology, once (routes may take any of them).
    const auto& t = *f.net->topology;
    for (topology::LinkId id = 0; id < t.link_count(); ++id)
      f.link_res.emplace(id, resource(f.prefix + t.link_name(id), t.link(id).bandwidth));
    f.link_load.flows.assign(t.link_count(), 0);
    if (neighbour_ && &fabric(neighbour_->net) == &f) declare_neighbour(f);
  }
}

// The route of one bulk transfer a -> b, chosen now by the run's policy from the flows already routed over each link;
// its links' flow counts are raised (the caller lowers them when the transfer ends). Each transfer has its own key,
// so Valiant spreads the transfers of one node pair over intermediate groups.
topology::Route World::route_flow(Fabric& f, long long a, long long b) {
  const auto& t = *f.net->topology;
  topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
  topology::Route r;
  if (ra != rb) {
    std::uint64_t key = (static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b)) +
                        0xBF58476D1CE4E5B9ull * ++flow_seq_;
    r = f.routing->route(t, ra, rb, &f.link_load, key);
  }
  for (auto id : r) ++f.link_load.flows[id];
  return r;
}

void World::set_neighbour_job(NeighbourJob job) {
  if (!core_res_.empty()) throw std::logic_error("World::set_neighbour_job after declare_resources");
  if (!sim_.shares_bandwidth())
    throw std::logic_error("engine '" + sim_.name() + "' does not share bandwidth: a neighbour job needs one that does");
  (void)fabric(job.net);  // the network exists (or the machine has only one)
  for (long long n : job.nodes) {
    if (n < 0 || n >= machine_.nodes)
      throw std::invalid_argument(fmt::format("node {} is not in machine {} (nodes 0..{})", n, machine_.name, machine_.nodes - 1));
    for (long long p : placement_.nodes)
      if (p == n) throw std::invalid_argument(fmt::format("node {} runs ranks of this job: a neighbour job runs on other nodes", n));
  }
  neighbour_ = std::make_unique<NeighbourJob>(std::move(job));
}

void World::declare_neighbour(Fabric& f) {
  const NeighbourJob& j = *neighbour_;
  for (long long n : j.nodes)
    for (auto& nr : f.nic_resources) nic_resource(f, n, nr.name, 0);
  for (auto [a, b] : j.pairs())
    for (int k = 0; k < j.flows_per_pair; ++k) {
      topology::Route r = route_flow(f, a, b);  // counted for the whole run: adaptive policies see the neighbour
      sim_.stream(bulk_resources(f, a, b, a, r, 0, 0));
      ++neighbour_streams;
    }
}

long long World::node_key(long long node, platform::ResourceKey k) {
  return (node << 20) | (static_cast<long long>(k.kind) << 16) | static_cast<long long>(k.index);
}

ResourceId World::node_resource(long long node, platform::ResourceKey k) const {
  auto it = node_res_.find(node_key(node, k));
  if (it == node_res_.end())
    throw std::logic_error(fmt::format("node {} has no declared resource {}", node, machine_.node_type(node).describe(k)));
  return it->second;
}

platform::MemSpace World::node_space(int ctx, MemSpace m) const {
  if (m.kind == MemKind::Device) {
    int g = m.index >= 0 ? m.index : gpu_of(rank_of_context(ctx));
    if (g < 0) throw std::logic_error("a device buffer on a node without GPUs (the scenario check should refuse it)");
    return platform::MemSpace::gpu(g);
  }
  return platform::MemSpace::host(m.index < 0 ? ctx_type(ctx).numa_of(core_of_context(ctx)) : m.index);
}

bool World::is_local(int ctx, MemSpace src, MemSpace dst) const {
  if (src.kind == MemKind::Device || dst.kind == MemKind::Device) {
    platform::MemSpace home = platform::MemSpace::host(ctx_type(ctx).numa_of(core_of_context(ctx)));
    return node_space(ctx, src) == home && node_space(ctx, dst) == home;
  }
  // Two host buffers: "local" (index < 0) is the context's own NUMA node, so only explicit indices need the lookup.
  if (src.index < 0 && dst.index < 0) return true;
  int home = ctx_type(ctx).numa_of(core_of_context(ctx));
  return (src.index < 0 || src.index == home) && (dst.index < 0 || dst.index == home);
}

int World::gpu_of(int rank) const {
  if (!placement_.gpu_list.empty())
    return placement_.gpu_list[static_cast<std::size_t>(placement_.map->local_rank(rank))];
  return node_type(rank).nearest_gpu(core_of(rank));
}

MemSpace World::local_memory(int rank) const { return {MemKind::Host, node_type(rank).numa_of(core_of(rank))}; }

void World::bulk(long long a, long long b, double bytes, double latency, Callback done, bool pulled, int rank_a,
                 int rank_b, int net) {
  Fabric& f = fabric(net);
  ++bulk_flows;
  if (bytes <= 0) {
    sim_.after(latency, std::move(done));
    return;
  }
  // The path is built when the flow starts. A pulled transfer (GET) is driven by b: with a NIC kind whose bulk path
  // names the initiator's resources, it occupies b's engine instead of a's.
  sim_.after(latency, [this, &f, a, b, bytes, pulled, pa = port_of(rank_a, net), pb = port_of(rank_b, net),
                       done = std::move(done)]() mutable {
    // The port whose DMA engine drives the transfer (the sender's for a PUT, the receiver's for a GET) works on at
    // most max_active transfers at once; the others wait for it in order (NicModel::max_active_transfers).
    Fabric::PortQueue* q = nullptr;
    if (f.max_active > 0) {
      long long in = pulled ? b : a;
      int ip = pulled ? pb : pa;
      q = &f.port_queues[static_cast<std::uint64_t>(in) * 64u + static_cast<std::uint64_t>(ip)];
    }
    auto start = [this, &f, a, b, bytes, pulled, pa, pb, q, done = std::move(done)]() mutable {
      // The route is chosen now, by the run's policy, seeing the flows already routed over each link (an adaptive
      // policy steers around busy links; a deterministic one ignores the load). Each flow has its own key, so Valiant
      // spreads the flows of one node pair over intermediate groups.
      topology::Route r = route_flow(f, a, b);
      if (TraceSink* t = sim_.trace) t->flow_nodes(a, b);
      sim_.flow(bulk_resources(f, a, b, pulled ? b : a, r, pa, pb), bytes,
                [&f, r, q, done = std::move(done)]() mutable {
                  for (auto id : r) --f.link_load.flows[id];
                  if (q) {
                    --q->active;
                    if (!q->waiting.empty()) {
                      Callback next = std::move(q->waiting.front());
                      q->waiting.pop_front();
                      ++q->active;
                      next();
                    }
                  }
                  done();
                });
    };
    if (!q || q->active < static_cast<std::uint32_t>(f.max_active)) {
      if (q) ++q->active;
      start();
    } else {
      q->waiting.push_back(std::move(start));
    }
  });
}

double World::copy_time_uncontended(double bytes, int rank) const {
  const platform::NodeType& nt = node_type(rank);
  auto s = nt.split_copy(bytes);
  double bw = std::min<double>(nt.memory().dram_copy_bandwidth, nt.memory().numa_copy_bandwidth);
  return s.cache_time + s.dram_bytes / bw;
}

void World::copy(int ctx, double bytes, Callback done, MemSpace src, MemSpace dst) {
  bytes_copied += static_cast<std::uint64_t>(bytes);
  const platform::NodeType& nt = ctx_type(ctx);
  auto split = nt.split_copy(bytes);
  long long n = node_of(rank_of_context(ctx));
  int c = core_of_context(ctx);
  platform::MemSpace s = node_space(ctx, src), d = node_space(ctx, dst);
  bool local = is_local(ctx, src, dst);
  // The part of the working set that fits the cache moves at the cache copy rate (for a copy from another NUMA node:
  // a cache-to-cache transfer of data its writer just touched), analytically; the rest streams from DRAM over the
  // resources between the two memories (the core's copy rate, the memory controllers, the inter-die or inter-socket
  // links), a flow shared with other copies. A copy between NUMA nodes first pays the links' latency.
  double first = split.cache_time + (local ? 0.0 : nt.copy_latency(c, s, d));
  if (split.dram_bytes <= 0) {
    sim_.after(first, std::move(done));
    return;
  }
  std::vector<ResourceId> path;
  for (auto k : nt.copy_path(c, s, d))
    path.push_back(k.kind == platform::ResourceKind::CoreCopy ? core_res_.at(static_cast<std::size_t>(ctx))
                                                              : node_resource(n, k));
  double dram = split.dram_bytes;
  sim_.after(first, [this, n, path = std::move(path), dram, done = std::move(done)]() mutable {
    if (TraceSink* t = sim_.trace) t->flow_nodes(n, n);
    sim_.flow(path, dram, std::move(done));
  });
}

Placement make_placement(const Machine& m, long long ranks, int rpn, const std::vector<long long>& nodes,
                         const std::string& file, const Json& mapping) {
  if (ranks < 1) throw InputError(file, "ranks", "must be at least 1");
  if (rpn < 1) throw InputError(file, "ranks_per_node", "must be at least 1");
  // The node type of the job's first node (all of the job's nodes must have its shape: checked below).
  const platform::NodeType& first =
      m.node_type(!nodes.empty() && nodes[0] >= 0 && nodes[0] < m.nodes ? nodes[0] : 0);
  if (rpn > first.cores())
    throw InputError(file, "ranks_per_node",
                     fmt::format("{} ranks per node, but a {} node has {} cores (one rank per core)", rpn, m.name,
                                 first.cores()));
  long long need = (ranks + rpn - 1) / rpn;
  if (ranks > m.total_cores())
    throw InputError(file, "ranks",
                     m.node_types().size() == 1
                         ? fmt::format("{} ranks do not fit on {} ({} nodes x {} cores = {} cores)", ranks, m.name,
                                       m.nodes, first.cores(), m.total_cores())
                         : fmt::format("{} ranks do not fit on {} ({} nodes, {} cores in all)", ranks, m.name, m.nodes,
                                       m.total_cores()));
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
  // One rank map serves the job: its nodes must share one node shape (they may be of different types).
  for (long long n : p.nodes) {
    const auto& s = m.node_type(n).shape();
    const auto& f = first.shape();
    if (s.packages != f.packages || s.numa_per_package != f.numa_per_package || s.cores_per_numa != f.cores_per_numa)
      throw InputError(file, "nodes",
                       fmt::format("the job spans node types '{}' and '{}' of different shapes (nodes {} and {}): a "
                                   "job's nodes must share one shape",
                                   m.node_type_def(p.nodes[0]).name, m.node_type_def(n).name, p.nodes[0], n));
  }
  ObjectReader mr(mapping, file, "");
  if (mr.has("gpu_list")) {
    auto list = mr.int_list("gpu_list", 0, 1 << 20);
    for (long long n : p.nodes) {  // every node of the job must have the GPUs listed
      const auto ngpu = static_cast<long long>(m.node_type(n).gpus().size());
      for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i] >= ngpu)
          throw InputError(file, fmt::format("gpu_list[{}]", i),
                           ngpu == 0 ? fmt::format("GPU {} does not exist: a {} node has no GPU", list[i], m.name)
                                     : fmt::format("GPU {} does not exist: a {} node has {} (0..{})", list[i], m.name,
                                                   ngpu, ngpu - 1));
    }
    if (static_cast<long long>(list.size()) < rpn)
      throw InputError(file, "gpu_list", fmt::format("{} GPUs listed for {} ranks per node (one per local rank)",
                                                     list.size(), rpn));
    for (auto g : list) p.gpu_list.push_back(static_cast<int>(g));
  }
  platform::MappingPolicy policy = platform::read_mapping_policy(mr, first);
  p.map = std::make_shared<const platform::RankMap>(first, ranks, need, rpn, policy, file, "");
  return p;
}

}  // namespace ompisim
