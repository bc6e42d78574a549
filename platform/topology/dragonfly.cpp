// See dragonfly.hpp.
#include "platform/topology/dragonfly.hpp"

#include "core/json_input.hpp"
#include "core/limits.hpp"
#include "platform/topology/topology_registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::topology {

namespace {
constexpr long long kMaxLinks = limits::kMaxDragonflyLinks;  // core/limits.hpp

long long link_total(long long g, long long a, long long h) {
  long long slices = g > 1 ? a * h / (g - 1) : 0;
  return g * a * (a - 1) + g * slices * (g - 1);
}
}  // namespace

Dragonfly::Dragonfly(int groups, int routers_per_group, int nodes_per_router, int global_links_per_router,
                     const LinkParams& params, long long compute_nodes)
    : Topology(groups >= 1 && routers_per_group >= 1 ? groups * routers_per_group : 0), g_(groups),
      a_(routers_per_group), p_(nodes_per_router), h_(global_links_per_router) {
  if (g_ < 1 || a_ < 1 || p_ < 1 || h_ < 0)
    throw std::invalid_argument("dragonfly: groups, routers_per_group, nodes_per_router must be >= 1");
  if (static_cast<long long>(a_) * h_ < g_ - 1)
    throw std::invalid_argument("dragonfly: " + std::to_string(a_) + " routers x " + std::to_string(h_) +
                                " global ports cannot join " + std::to_string(g_) + " groups");
  if (link_total(g_, a_, h_) > kMaxLinks) throw std::invalid_argument("dragonfly: too many links");
  params_ = params;
  set_compute_nodes(compute_nodes == 0 ? node_slots() : compute_nodes);
  const int m = g_ - 1;
  slices_ = g_ > 1 ? a_ * h_ / m : 0;
  for (int grp = 0; grp < g_; ++grp)
    for (int r = 0; r < a_; ++r)
      for (int s = 0; s < a_; ++s) {
        if (s == r) continue;
        LinkProps p;
        p.from = grp * a_ + r;
        p.to = grp * a_ + s;
        p.cls = LinkClass::Local;
        add_link(p);
      }
  first_global_ = static_cast<LinkId>(link_count());
  for (int q = 0; q < slices_ * m; ++q) {
    int off = q % m, slice = q / m;
    port_routers_.emplace_back(q / h_, (slice * m + (m - 1 - off)) / h_);
  }
  for (int grp = 0; grp < g_; ++grp)
    for (int q = 0; q < slices_ * m; ++q) {
      int off = q % m;
      int to_group = (grp + 1 + off) % g_;
      LinkProps p;
      p.from = grp * a_ + port_routers_[static_cast<std::size_t>(q)].first;
      p.to = to_group * a_ + port_routers_[static_cast<std::size_t>(q)].second;
      p.cls = LinkClass::Global;
      p.dim = q;  // the global port number within the source group
      add_link(p);
    }
}

std::unique_ptr<Topology> Dragonfly::from_shape(const nlohmann::json& shape, const LinkParams& params,
                                                const std::string& file, const std::string& path) {
  ObjectReader t(shape, file, path);
  int g = static_cast<int>(t.integer("groups", 1, 65536));
  int a = static_cast<int>(t.integer("routers_per_group", 1, 4096));
  int p = static_cast<int>(t.integer("nodes_per_router", 1, 1024));
  int h = static_cast<int>(t.integer("global_links_per_router", 0, 4096));
  if (static_cast<long long>(a) * h < g - 1) {
    long long need = (g - 1 + a - 1) / a;
    t.fail("global_links_per_router",
           std::to_string(h) + " global links per router x " + std::to_string(a) + " routers per group = " +
               std::to_string(static_cast<long long>(a) * h) + " global ports per group cannot join each of the " +
               std::to_string(g) + " groups to the other " + std::to_string(g - 1) + " (need at least " +
               std::to_string(need) + " per router)");
  }
  if (link_total(g, a, h) > kMaxLinks)
    t.fail("groups", "the shape has more than " + std::to_string(kMaxLinks) +
                         " links (core/limits.hpp: the memory the dragonfly's model takes)");
  long long slots = static_cast<long long>(g) * a * p;
  long long nodes = slots;
  if (t.has("compute_nodes")) {
    nodes = t.integer("compute_nodes", 1, 1LL << 40);
    if (nodes > slots)
      t.fail("compute_nodes", std::to_string(nodes) + " nodes do not fit: " + std::to_string(g) + " groups x " +
                                  std::to_string(a) + " routers x " + std::to_string(p) + " nodes = " +
                                  std::to_string(slots) + " node slots");
  }
  t.finish(allowed_shape_keys({"compute_nodes"}));
  return std::make_unique<Dragonfly>(g, a, p, h, params, nodes);
}

LinkId Dragonfly::local_link(RouterId from, RouterId to) const {
  if (from == to || group_of(from) != group_of(to))
    throw std::invalid_argument("dragonfly: no local link from " + std::to_string(from) + " to " + std::to_string(to));
  int grp = group_of(from), r = from % a_, s = to % a_;
  return static_cast<LinkId>(grp * a_ * (a_ - 1) + r * (a_ - 1) + (s < r ? s : s - 1));
}

LinkId Dragonfly::global_link(int from_group, int to_group, int slice) const {
  return global_ends(from_group, to_group, slice).id;
}

// The constructor's arrangement read backwards: port q = slice * m + off of from_group, off = the distance to
// to_group minus one; its routers are port_routers_[q].
Dragonfly::GlobalEnds Dragonfly::global_ends(int from_group, int to_group, int slice) const {
  if (from_group == to_group || slice < 0 || slice >= slices_ || from_group < 0 || from_group >= g_ || to_group < 0 ||
      to_group >= g_)
    throw std::invalid_argument("dragonfly: no global link " + std::to_string(slice) + " from group " +
                                std::to_string(from_group) + " to group " + std::to_string(to_group));
  const int m = g_ - 1;
  const int off = to_group > from_group ? to_group - from_group - 1 : to_group - from_group - 1 + g_;
  const int q = slice * m + off;
  const auto [from, to] = port_routers_[static_cast<std::size_t>(q)];
  return {first_global_ + static_cast<LinkId>(from_group * slices_ * m + q), from_group * a_ + from, to_group * a_ + to};
}

Route Dragonfly::minimal_via(RouterId a, RouterId b, const GlobalEnds& gl) const {
  Route r;
  if (a != gl.from) r.push_back(local_link(a, gl.from));
  r.push_back(gl.id);
  if (gl.to != b) r.push_back(local_link(gl.to, b));
  return r;
}

Route Dragonfly::minimal_route_via(RouterId a, RouterId b, int slice) const {
  return minimal_via(a, b, global_ends(group_of(a), group_of(b), slice));
}

Dragonfly::MinimalHops Dragonfly::minimal_hops_via(RouterId a, RouterId b, int slice) const {
  const GlobalEnds gl = global_ends(group_of(a), group_of(b), slice);
  MinimalHops m;
  if (a != gl.from) m.links[m.hops++] = local_link(a, gl.from);
  m.links[m.hops++] = gl.id;
  if (gl.to != b) m.links[m.hops++] = local_link(gl.to, b);
  return m;
}

std::vector<Route> Dragonfly::minimal_routes(RouterId a, RouterId b, std::size_t max) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  if (a == b) return {Route{}};
  int ga = group_of(a), gb = group_of(b);
  if (ga == gb) return {Route{local_link(a, b)}};
  std::vector<Route> all;
  for (int s = 0; s < slices_; ++s) all.push_back(minimal_via(a, b, global_ends(ga, gb, s)));
  std::stable_sort(all.begin(), all.end(), [](const Route& x, const Route& y) { return x.size() < y.size(); });
  all.resize(std::min(all.size(), std::max<std::size_t>(max, 1)));
  return all;
}

// The first slice whose minimal route from a to b (different groups) is shortest.
int Dragonfly::first_minimal_slice(RouterId a, RouterId b) const {
  const int ga = group_of(a), gb = group_of(b);
  int best = 0, best_hops = 4;
  for (int s = 0; s < slices_; ++s) {
    const GlobalEnds gl = global_ends(ga, gb, s);
    const int hops = (a != gl.from) + 1 + (gl.to != b);
    if (hops < best_hops) best = s, best_hops = hops;
  }
  return best;
}

// minimal_routes(a, b, 1).front() without building the other slices' routes: the first slice whose route is shortest.
Route Dragonfly::default_route(RouterId a, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  if (a == b) return {};
  if (group_of(a) == group_of(b)) return {local_link(a, b)};
  return minimal_route_via(a, b, first_minimal_slice(a, b));
}

int Dragonfly::min_hops(RouterId a, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  if (a == b) return 0;
  if (group_of(a) == group_of(b)) return 1;
  return minimal_hops_via(a, b, first_minimal_slice(a, b)).hops;
}

Dragonfly::ValiantHops Dragonfly::valiant_hops(RouterId a, int via_group, int slice, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  if (via_group == group_of(a) || via_group == group_of(b) || via_group < 0 || via_group >= g_)
    throw std::invalid_argument("dragonfly: Valiant intermediate group " + std::to_string(via_group) +
                                " must differ from the source and destination groups");
  const GlobalEnds gl = global_ends(group_of(a), via_group, slice);
  ValiantHops v;
  if (a != gl.from) v.links[v.hops++] = local_link(a, gl.from);
  v.links[v.hops++] = gl.id;
  // Then the default route from the landing router (in via_group, so another group than b's).
  const MinimalHops rest = minimal_hops_via(gl.to, b, first_minimal_slice(gl.to, b));
  for (int i = 0; i < rest.hops; ++i) v.links[v.hops++] = rest.links[i];
  return v;
}

Route Dragonfly::valiant_route(RouterId a, int via_group, int slice, RouterId b) const {
  const ValiantHops v = valiant_hops(a, via_group, slice, b);
  return Route(v.links, v.links + v.hops);
}

std::string Dragonfly::link_name(LinkId id) const {
  const auto& l = link(id);
  if (l.cls == LinkClass::Local) return "r" + std::to_string(l.from) + "-l-r" + std::to_string(l.to);
  return "r" + std::to_string(l.from) + "-g" + std::to_string(l.dim) + "-r" + std::to_string(l.to);
}

nlohmann::json Dragonfly::describe() const {
  nlohmann::json j = describe_common();
  j["kind"] = kind();
  j["groups"] = g_;
  j["routers_per_group"] = a_;
  j["nodes_per_router"] = p_;
  j["global_links_per_router"] = h_;
  j["global_arrangement"] = "consecutive";
  j["global_links_between_groups"] = slices_;
  j["unused_global_ports_per_group"] = g_ > 1 ? a_ * h_ - slices_ * (g_ - 1) : a_ * h_;
  return j;
}

}  // namespace ompisim::topology
