#include "platform/fabric.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>

namespace ompisim {

Fabric::Fabric(Simulator& sim, const Contexts& contexts, int index, const Network& net,
               const topology::RoutePolicyInfo& routing, std::string prefix, std::uint64_t& flow_seq)
    : sim_(sim), ctx_(contexts), index_(index), net_(net), routing_(routing), prefix_(std::move(prefix)),
      flow_seq_(flow_seq), by_router_pair_(routing.by_router_pair) {}

topology::Route Fabric::route(long long a, long long b) const {
  const auto& t = *net_.topology;
  topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
  if (ra == rb) return {};
  // The flow key is the node pair: a deterministic policy's choice is the same for every transfer between them.
  auto key = static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b);
  return routing_.route(t, ra, rb, nullptr, key);
}

// The route between two routers and its cost (NIC latency plus the links'; the slowest rate), by the run's policy,
// which reads neither loads nor the key (by_router_pair_). Index: the low 6 bits of each router number side by side,
// XORed with a hash of the high bits: the pairs within one block of 64 x 64 router numbers never collide (an alltoall
// over up to 64 routers), and blocks spread over the table.
const Fabric::RouteMemo& Fabric::router_pair(topology::RouterId ra, topology::RouterId rb) const {
  constexpr std::size_t kMemo = 4096;
  if (route_memo_.empty()) route_memo_.resize(kMemo);
  const auto ua = static_cast<std::uint64_t>(ra), ub = static_cast<std::uint64_t>(rb);
  const std::uint64_t high = ((ua >> 6) * 0x9E3779B97F4A7C15ull) ^ ((ub >> 6) * 0xC2B2AE3D27D4EB4Full);
  RouteMemo& m = route_memo_[(((ua & 63) << 6 | (ub & 63)) ^ (high >> 52)) & (kMemo - 1)];
  if (m.ra == ra && m.rb == rb) return m;
  const auto& t = *net_.topology;
  m.ra = ra;
  m.rb = rb;
  m.route = ra == rb ? topology::Route{} : routing_.route(t, ra, rb, nullptr, 0);
  m.cost = route_cost(m.route);
  return m;
}

// The node pair's answer if the node-pair table holds it (a hit reads no router numbers); else, with a policy of the
// router pair, the router-pair table's (computed once for all the node pairs of two routers), else computed.
PathCost Fabric::path(long long a, long long b) const {
  constexpr std::size_t kMemo = 4096;
  if (path_memo_.empty()) path_memo_.resize(kMemo);
  const std::uint64_t h = (static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull) ^
                          (static_cast<std::uint64_t>(b) * 0xC2B2AE3D27D4EB4Full) ^ static_cast<std::uint64_t>(index_ + 1);
  PathMemo& m = path_memo_[(h >> 20) & (kMemo - 1)];
  if (m.a != a || m.b != b) {
    const auto& t = *net_.topology;
    m = {a, b, by_router_pair_ ? router_pair(t.router_of_node(a), t.router_of_node(b)).cost : compute_path(a, b)};
  }
  return m.cost;
}

PathCost Fabric::compute_path(long long a, long long b) const { return route_cost(route(a, b)); }

double Fabric::packet_wait(long long a, long long b, double bytes, int rank_a, int rank_b, double depart) {
  return queue_wait(a, b, bytes, rank_a, rank_b, depart, nullptr, a);
}

// The route a packet or train a -> b takes: none within a router, the router pair's with a policy of the router pair,
// else the deterministic route, built into `own`.
const topology::Route& Fabric::packet_route(long long a, long long b, topology::Route& own) {
  const auto& t = *net_.topology;
  const topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
  if (ra == rb) return own;
  if (by_router_pair_) return router_pair(ra, rb).route;
  own = route(a, b);
  return own;
}

double Fabric::queue_wait(long long a, long long b, double bytes, int rank_a, int rank_b, double depart,
                          const ResolvedPath* nic_path, long long initiator) {
  const auto& t = *net_.topology;
  topology::Route own;
  const topology::Route* r = &packet_route(a, b, own);
  if (link_free_.empty()) link_free_.assign(t.link_count(), Busy{});
  const auto ports = static_cast<std::size_t>(std::max(1, net_.ports_per_node));
  if (port_free_.empty()) port_free_.assign(2 * ports * static_cast<std::size_t>(t.node_slots()), Busy{});
  const double inj = net_.injection_bandwidth();
  double at = sim_.now() + depart + net_.nic_latency(), wait = 0;
  // the packet reaches each resource after the latencies before it, and waits there for the packets ahead of it
  // (a packet that reaches a resource and leaves it before the busy period reserved there starts passes in that gap:
  // packets are reserved when sent, ahead of the time they arrive, so a later one may arrive first)
  const double now = sim_.now();
  auto pass = [&](Busy& u, double rate) {
    const double d = bytes / rate;
    if (train_max_ > 0) {  // with packet trains: the first gap at or after `at` that holds d, on the calendar
      auto& c = u.periods;
      // periods over before now: nothing arrives before now from here on (skipped, erased once they are half)
      while (u.head < c.size() && c[u.head].end <= now) ++u.head;
      if (u.head >= 64 && 2 * u.head >= c.size()) {
        c.erase(c.begin(), c.begin() + u.head);
        u.head = 0;
      }
      const auto first = c.begin() + u.head;
      auto i = std::partition_point(first, c.end(), [&](const Span& s) { return s.end <= at; });
      for (; i != c.end() && at + d > i->start; ++i) {  // the gap before *i is too short (or at is within it)
        wait += i->end - at;
        at = i->end;
      }
      const bool after_prev = i != first && std::prev(i)->end >= at;  // touches the period before: one period
      if (after_prev) {
        std::prev(i)->end = at + d;
        if (i != c.end() && i->start <= at + d) {
          std::prev(i)->end = i->end;
          c.erase(i);
        }
      } else if (i != c.end() && i->start <= at + d) {
        i->start = at;
      } else {
        c.insert(i, Span{at, at + d});
      }
      return;
    }
    if (at + d <= u.start) return;  // before the busy period: it passes in the gap
    if (u.end >= at) {  // within the busy period: after its last packet
      wait += u.end - at;
      at = u.end;
      u.end = at + d;
      return;
    }
    u.start = at, u.end = at + d;  // the resource was idle: a new busy period
  };
  const int pa = port_of(rank_a), pb = port_of(rank_b);
  // a train's NIC resources (its path's, NicModel::bulk_path or pio_path): per (node, port, resource), at capacity
  auto nic = [&](const std::vector<std::pair<End, std::size_t>>& side) {
    if (!nic_path) return;
    const std::size_t per_node = nic_resources_.size() * ports;
    if (nic_free_.empty()) nic_free_.assign(static_cast<std::size_t>(ctx_.machine().nodes) * per_node, Busy{});
    for (auto [end, k] : side) {
      const long long node = end == End::Src ? a : end == End::Dst ? b : initiator;
      const int port = end == End::Src ? pa : end == End::Dst ? pb : (initiator == a ? pa : pb);
      pass(nic_free_[static_cast<std::size_t>(node) * per_node + static_cast<std::size_t>(port) * nic_resources_.size() +
                     k],
           nic_resources_[k].capacity);
    }
  };
  pass(port_free_[2 * (static_cast<std::size_t>(a) * ports + static_cast<std::size_t>(pa))], inj);
  if (nic_path) nic(nic_path->before);
  for (auto id : *r) {
    at += t.link_latency(id);
    pass(link_free_[id], t.link_bandwidth(id));
  }
  if (nic_path) nic(nic_path->after);
  pass(port_free_[2 * (static_cast<std::size_t>(b) * ports + static_cast<std::size_t>(pb)) + 1], inj);
  if (wait > 0) ++packets_delayed;
  return wait;
}

// A route's cost: the NIC latency plus its links' latencies, the slowest of the injection and link rates.
PathCost Fabric::route_cost(const topology::Route& r) const {
  read_link_params(r);
  PathCost c{net_.nic_latency(), net_.injection_bandwidth()};
  const auto& t = *net_.topology;
  for (auto id : r) {
    c.bandwidth = std::min(c.bandwidth, t.link_bandwidth(id));
    c.latency += t.link_latency(id);
  }
  return c;
}

void Fabric::add_route(const topology::Route& r, std::vector<ResourceId>& path) {
  if (first_link_res_ != kNoResource) {
    for (auto id : r) path.push_back(first_link_res_ + id);
    return;
  }
  const auto& t = *net_.topology;
  for (auto id : r) {
    if (id >= link_res_.size()) link_res_.resize(static_cast<std::size_t>(id) + 1, kNoResource);
    ResourceId& res = link_res_[id];
    if (res == kNoResource) res = sim_.add_resource(prefix_ + t.link_name(id), t.link(id).bandwidth);
    path.push_back(res);
  }
}

// With several ports per node, a rank's port is found once (the node type's NICs, matched by network name) and kept
// in a byte per rank: a bulk transfer asks for both ends' ports.
int Fabric::port_of(int rank) const {
  if (rank < 0 || net_.ports_per_node <= 1) return 0;
  const auto i = static_cast<std::size_t>(rank);
  if (i < port_memo_.size() && port_memo_[i] != kNoPort) return port_memo_[i];
  const platform::NodeType& nt = ctx_.node_type(rank);
  const int port = nt.nic_count(net_.name) <= 1 ? 0 : nt.nearest_nic(ctx_.core_of(rank), net_.name, net_.ports_per_node).index;
  if (port > std::numeric_limits<std::int8_t>::max()) return port;
  if (i >= port_memo_.size()) port_memo_.resize(std::max<std::size_t>(i + 1, static_cast<std::size_t>(ctx_.ranks())), kNoPort);
  port_memo_[i] = static_cast<std::int8_t>(port);
  return port;
}

ResourceId Fabric::nic_resource(long long node, const std::string& name, int port) {
  std::size_t k = 0;
  while (k < nic_resources_.size() && nic_resources_[k].name != name) ++k;
  if (k == nic_resources_.size())
    throw std::logic_error("NIC kind '" + net_.nic_kind() + "' names an undeclared resource '" + name + "'");
  return nic_resource_at(node, k, port);
}

ResourceId Fabric::nic_resource_at(long long node, std::size_t k, int port) {
  const std::size_t per_node = nic_resources_.size() * static_cast<std::size_t>(net_.ports_per_node);
  if (nic_res_.empty()) nic_res_.assign(static_cast<std::size_t>(ctx_.machine().nodes) * per_node, kNoResource);
  ResourceId& id = nic_res_.at(static_cast<std::size_t>(node) * per_node +
                               static_cast<std::size_t>(port) * nic_resources_.size() + k);
  if (id == kNoResource)
    id = sim_.add_resource(prefix_ + (port ? fmt::format("n{}-{}-p{}", node, nic_resources_[k].name, port)
                                           : fmt::format("n{}-{}", node, nic_resources_[k].name)),
                           nic_resources_[k].capacity);
  return id;
}

// The resources of a bulk transfer a -> b driven by `initiator` (a for a PUT, b for a GET), from the NIC kind's
// declared path: its node-side resources before the route, the route's links, its node-side resources after it.
void Fabric::bulk_resources(Drive d, long long a, long long b, long long initiator, const topology::Route& r,
                            int port_a, int port_b, std::vector<ResourceId>& path) {
  const ResolvedPath& rp = paths_[static_cast<std::size_t>(d)];
  path.clear();
  path.reserve(rp.before.size() + r.size() + rp.after.size());
  auto node = [&](End e) { return e == End::Src ? a : e == End::Dst ? b : initiator; };
  auto port = [&](End e) { return e == End::Src ? port_a : e == End::Dst ? port_b : (initiator == a ? port_a : port_b); };
  auto add = [&](const std::vector<std::pair<End, std::size_t>>& resolved,
                 const std::vector<std::pair<End, std::string>>& named) {
    for (std::size_t i = 0; i < resolved.size(); ++i) {
      auto [end, k] = resolved[i];
      if (k != kUnresolved && !nic_read_[k]) read_nic_params(k);
      path.push_back(k == kUnresolved ? nic_resource(node(end), named[i].second, port(end))
                                      : nic_resource_at(node(end), k, port(end)));
    }
  };
  add(rp.before, rp.named.before_route);
  add_route(r, path);
  add(rp.after, rp.named.after_route);
}

// A flow crosses node resource k for the first time: the parameters of its capacity count as read (declaring the
// resource read none of them; NicResource::params).
void Fabric::read_nic_params(std::size_t k) {
  for (const Sourced* s : nic_resources_[k].params) (void)s->get();
  nic_read_[k] = 1;
}

// A route crosses links: the factors of their classes' bandwidth and the hop latency count as read, once a class
// (building the topology from the NIC kind's link parameters read none of them; NicLinks).
void Fabric::read_link_params(const topology::Route& r) const {
  if (links_unread_ == 0) return;
  const auto& t = *net_.topology;
  for (auto id : r) {
    const topology::LinkClass c = t.link_class(id);
    char& done = link_read_[static_cast<std::size_t>(c)];
    if (done) continue;
    done = 1;
    --links_unread_;
    if (auto it = links_.bandwidth.find(c); it != links_.bandwidth.end())
      for (const Sourced* f : it->second) (void)f->get();
    if (links_.hop_latency != nullptr) (void)links_.hop_latency->get();
    if (links_unread_ == 0) return;
  }
}

void Fabric::declare(const NeighbourJob* neighbour) {
  nic_resources_ = net_.nic->node_resources();
  nic_read_.assign(nic_resources_.size(), 0);
  links_ = net_.nic->links();
  link_read_.fill(0);
  links_unread_ = net_.topology->link_classes().size();
  paths_[static_cast<std::size_t>(Drive::Dma)].named = net_.nic->bulk_path();
  paths_[static_cast<std::size_t>(Drive::Pio)].named = net_.nic->pio_path();
  auto resolve = [&](const std::vector<std::pair<End, std::string>>& named) {
    std::vector<std::pair<End, std::size_t>> out;
    for (auto& [end, name] : named) {
      std::size_t k = 0;
      while (k < nic_resources_.size() && nic_resources_[k].name != name) ++k;
      out.emplace_back(end, k < nic_resources_.size() ? k : kUnresolved);
    }
    return out;
  };
  for (ResolvedPath& rp : paths_) {
    rp.before = resolve(rp.named.before_route);
    rp.after = resolve(rp.named.after_route);
  }
  max_active_ = net_.nic->max_active_transfers();
  for (long long n : ctx_.placement().nodes)
    for (int p = 0; p < net_.ports_per_node; ++p)
      for (auto& nr : nic_resources_) nic_resource(n, nr.name, p);
  const auto& t = *net_.topology;
  link_res_.assign(t.link_count(), kNoResource);
  for (topology::LinkId id = 0; id < t.link_count(); ++id)
    link_res_[id] = sim_.add_resource(prefix_ + t.link_name(id), t.link(id).bandwidth);
  bool consecutive = !link_res_.empty();
  for (std::size_t id = 0; consecutive && id < link_res_.size(); ++id)
    consecutive = link_res_[id] == link_res_[0] + static_cast<ResourceId>(id);
  first_link_res_ = consecutive ? link_res_[0] : kNoResource;
  link_load_.flows.assign(t.link_count(), 0);
  if (neighbour) declare_neighbour(*neighbour);
}

// The route of one bulk transfer a -> b, chosen now by the run's policy from the flows already routed over each link;
// its links' flow counts are raised (the caller lowers them when the transfer ends). Each transfer has its own key,
// so Valiant spreads the transfers of one node pair over intermediate groups.
topology::Route Fabric::route_flow(long long a, long long b) {
  const auto& t = *net_.topology;
  topology::RouterId ra = t.router_of_node(a), rb = t.router_of_node(b);
  topology::Route r;
  if (ra != rb) {
    std::uint64_t key = (static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b)) +
                        0xBF58476D1CE4E5B9ull * ++flow_seq_;
    r = routing_.route(t, ra, rb, &link_load_, key);
  }
  for (auto id : r) ++link_load_.flows[id];
  read_link_params(r);
  return r;
}

void Fabric::declare_neighbour(const NeighbourJob& j) {
  for (long long n : j.nodes)
    for (auto& nr : nic_resources_) nic_resource(n, nr.name, 0);
  for (auto [a, b] : j.pairs())
    for (int k = 0; k < j.flows_per_pair; ++k) {
      topology::Route r = route_flow(a, b);  // counted for the whole run: adaptive policies see the neighbour
      bulk_resources(Drive::Dma, a, b, a, r, 0, 0, path_);
      sim_.stream(path_);
      ++neighbour_streams;
    }
}

void Fabric::bulk(long long a, long long b, double bytes, double latency, Callback done, bool pulled, int rank_a,
                  int rank_b) {
  if (bytes > 0 && bytes <= train_max_ && a != b) {  // a packet train, at the rate the flow would have alone
    const ResolvedPath& rp = paths_[static_cast<std::size_t>(Drive::Dma)];
    const auto& t = *net_.topology;
    double rate = std::numeric_limits<double>::infinity();
    topology::Route own;
    const topology::Route& r = packet_route(a, b, own);
    read_link_params(r);
    for (auto id : r) rate = std::min(rate, t.link_bandwidth(id));
    bool resolved = true;
    for (const auto* side : {&rp.before, &rp.after})
      for (auto [end, k] : *side) {
        if (k == kUnresolved) resolved = false;  // a name the NIC kind does not declare: a flow, which names it
        else rate = std::min(rate, nic_resources_[k].capacity);
      }
    if (resolved) {
      train(Drive::Dma, a, b, pulled ? b : a, bytes, latency, bytes / rate, std::move(done), rank_a, rank_b);
      return;
    }
  }
  ++bulk_flows;
  count_flow_between_nodes(a, b, bytes);
  // The path is built when the flow starts. A pulled transfer (GET) is driven by b: with a NIC kind whose bulk path
  // names the initiator's resources, it occupies b's engine instead of a's.
  transfer(Drive::Dma, a, b, bytes, latency, std::move(done), pulled, rank_a, rank_b);
}

void Fabric::pio(long long a, long long b, double bytes, double latency, Callback done, int rank_a, int rank_b) {
  if (bytes > 0 && bytes <= train_max_ && a != b && pio_train_ok()) {  // a train, serialized as wire_time does
    train(Drive::Pio, a, b, a, bytes, latency, wire_time(a, b, bytes) - wire_time(a, b, 0), std::move(done), rank_a,
          rank_b);
    return;
  }
  ++pio_flows;
  count_flow_between_nodes(a, b, bytes);
  transfer(Drive::Pio, a, b, bytes, latency, std::move(done), false, rank_a, rank_b);
}

// A packet train: it leaves its source `latency` less the path's wire latency from now, waits FIFO behind what was
// reserved before it on each port, NIC resource of path d and link (queue_wait), and ends `serialize` after the
// latency, plus those waits.
void Fabric::train(Drive d, long long a, long long b, long long initiator, double bytes, double latency, double serialize,
                   Callback done, int rank_a, int rank_b) {
  ++packet_trains;
  const ResolvedPath& rp = paths_[static_cast<std::size_t>(d)];
  for (const auto* side : {&rp.before, &rp.after})
    for (auto [end, k] : *side)
      if (!nic_read_[k]) read_nic_params(k);
  // a bulk train issued to a DMA engine with max_active slots leaves when the earliest of them is free (the flow's
  // arrive() queues for it the same way), and holds that slot from then until it ends
  const double depart = std::max(0.0, latency - wire_time(a, b, 0));  // from now, when the data leaves its source
  double* slot = nullptr;
  double slot_wait = 0;
  if (d == Drive::Dma && max_active_ > 0) {
    const int port = port_of(initiator == a ? rank_a : rank_b);
    auto& slots = train_slots_[static_cast<std::uint64_t>(initiator) * 64u + static_cast<std::uint64_t>(port)];
    if (slots.empty()) slots.assign(static_cast<std::size_t>(max_active_), 0.0);
    slot = &*std::min_element(slots.begin(), slots.end());
    slot_wait = std::max(0.0, *slot - (sim_.now() + depart));
  }
  const double wait = queue_wait(a, b, bytes, rank_a, rank_b, slot_wait + depart, &rp, initiator);
  const double total = slot_wait + latency + serialize + wait;
  if (slot) *slot = sim_.now() + total;
  if (sim_.trace) done = traced_train(d, a, b, initiator, bytes, slot_wait + depart, rank_a, rank_b, std::move(done));
  sim_.after(total, std::move(done));
}

// A traced train: reported from the moment it leaves its source (`depart` from now) to its end, over the resources
// the flow would have crossed (its path's NIC resources and the route its queue_wait took). Only when tracing; the
// model's events are the same.
Callback Fabric::traced_train(Drive d, long long a, long long b, long long initiator, double bytes, double depart,
                              int rank_a, int rank_b, Callback done) {
  topology::Route own;
  std::vector<ResourceId> path;
  bulk_resources(d, a, b, initiator, packet_route(a, b, own), port_of(rank_a), port_of(rank_b), path);
  sim_.trace->flow_nodes(a, b);
  return [this, rec = sim_.trace->flow_started(sim_.now() + depart, path, bytes, true, sim_.now()),
          done = std::move(done)]() mutable {
    if (TraceSink* tr = sim_.trace) tr->flow_ended(rec, sim_.now());
    done();
  };
}

// Every resource of the pio path is declared (a name the NIC kind does not declare stays a flow, which names it).
bool Fabric::pio_train_ok() const {
  const ResolvedPath& rp = paths_[static_cast<std::size_t>(Drive::Pio)];
  for (const auto* side : {&rp.before, &rp.after})
    for (auto [end, k] : *side)
      if (k == kUnresolved) return false;
  return true;
}

void Fabric::transfer(Drive d, long long a, long long b, double bytes, double latency, Callback done, bool pulled,
                      int rank_a, int rank_b) {
  if (bytes <= 0) {
    sim_.after(latency, std::move(done));
    return;
  }
  const std::uint32_t t = transfers_.create(a, b, bytes, pulled, d, port_of(rank_a), port_of(rank_b), nullptr,
                                            topology::Route{}, std::move(done));
  if (d == Drive::Pio) sim_.after(latency, [this, t] { start_flow(t); });  // no DMA engine to wait for
  else sim_.after(latency, [this, t] { arrive(t); });
}

// The port whose DMA engine drives the transfer (the sender's for a PUT, the receiver's for a GET) works on at most
// max_active transfers at once; the others wait for it in order (NicModel::max_active_transfers).
void Fabric::arrive(std::uint32_t t) {
  Transfer& x = transfers_[t];
  if (max_active_ > 0) {
    const long long in = x.pulled ? x.b : x.a;
    const int ip = x.pulled ? x.pb : x.pa;
    x.q = &port_queues_[static_cast<std::uint64_t>(in) * 64u + static_cast<std::uint64_t>(ip)];
    if (x.q->active >= static_cast<std::uint32_t>(max_active_)) {
      x.q->waiting.push_back(t);
      return;
    }
    ++x.q->active;
  }
  start_flow(t);
}

// A starting transfer's route. With a policy of the router pair, the router-pair table's (the transfer keeps none
// and no link counts it; each routed flow still takes its key, shared with the World's other fabrics); else chosen
// now by route_flow and kept until the transfer ends.
const topology::Route& Fabric::flow_route(Transfer& x) {
  if (!by_router_pair_) return x.route = route_flow(x.a, x.b);
  const auto& t = *net_.topology;
  const topology::RouterId ra = t.router_of_node(x.a), rb = t.router_of_node(x.b);
  if (ra != rb) ++flow_seq_;
  return router_pair(ra, rb).route;
}

// The route is chosen when the flow starts, by the run's policy, seeing the flows already routed over each link (an
// adaptive policy steers around busy links; a deterministic one ignores the load). When it ends, the port's next
// waiting transfer starts.
void Fabric::start_flow(std::uint32_t t) {
  Transfer& x = transfers_[t];
  if (TraceSink* tr = sim_.trace) tr->flow_nodes(x.a, x.b);
  bulk_resources(x.drive, x.a, x.b, x.pulled ? x.b : x.a, flow_route(x), x.pa, x.pb, path_);
  sim_.flow(path_, x.bytes, [this, t] { end_flow(t); });
}

void Fabric::end_flow(std::uint32_t t) {
  Transfer& x = transfers_[t];
  for (auto id : x.route) --link_load_.flows[id];
  Callback done = std::move(x.done);
  if (PortQueue* q = x.q) {
    --q->active;
    if (!q->waiting.empty()) {
      const std::uint32_t next = q->waiting.front();
      q->waiting.pop_front();
      ++q->active;
      start_flow(next);
    }
  }
  transfers_.erase(t);
  done();
}

}  // namespace ompisim
