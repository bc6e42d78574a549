// See route_policies.hpp.
#include "platform/topology/route_policies.hpp"

#include "platform/topology/dragonfly.hpp"
#include "platform/topology/fat_tree.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <limits>
#include <utility>
#include <stdexcept>

namespace ompisim::topology {

std::uint64_t mix_flow_key(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

namespace {
template <class T> const T& as(const Topology& t, const char* policy) {
  const auto* p = dynamic_cast<const T*>(&t);
  if (p == nullptr)
    throw std::invalid_argument(std::string("route policy '") + policy + "' does not apply to topology kind '" +
                                t.kind() + "'");
  return *p;
}
}  // namespace

Route default_route_policy(const Topology& t, RouterId a, RouterId b, const LinkLoad*, std::uint64_t) {
  return t.default_route(a, b);
}

Route updown_adaptive_route(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t) {
  const auto& ft = as<FatTree>(t, "updown_adaptive");
  if (load == nullptr) return ft.default_route(a, b);
  int L = ft.nca_level(a, b);
  std::vector<int> ports;
  RouterId cur = a;
  for (int l = 0; l < L; ++l) {
    int best = ft.dmodk_port(b, l);
    double best_load = load->load(ft.up_link(cur, best));
    for (int j = 0; j < ft.arity(); ++j) {
      double x = load->load(ft.up_link(cur, j));
      if (x < best_load) best = j, best_load = x;
    }
    ports.push_back(best);
    cur = ft.parent(cur, best);
  }
  return ft.route_with_up_ports(a, b, ports);
}

namespace {
// The (h mod (n-2))-th of 0 .. n-1 other than x and y (x != y, n >= 3), in ascending order: an intermediate group,
// or an intermediate router within a group.
int nth_other(std::uint64_t h, int n, int x, int y) {
  int c = static_cast<int>(h % static_cast<std::uint64_t>(n - 2));
  if (c >= std::min(x, y)) ++c;
  if (c >= std::max(x, y)) ++c;
  return c;
}

// The Valiant choice for `key`: the intermediate group (nth_other of the groups, ga and gb left out) and the global
// slice leaving ga towards it. Needs ga != gb and at least 3 groups.
std::pair<int, int> valiant_choice(const Dragonfly& df, int ga, int gb, std::uint64_t key) {
  const std::uint64_t h = mix_flow_key(key);
  const auto others = static_cast<std::uint64_t>(df.groups() - 2);
  return {nth_other(h, df.groups(), ga, gb), static_cast<int>((h / others) % static_cast<std::uint64_t>(df.slices()))};
}
}  // namespace

Route valiant_route(const Topology& t, RouterId a, RouterId b, const LinkLoad*, std::uint64_t key) {
  const auto& df = as<Dragonfly>(t, "valiant");
  int ga = df.group_of(a), gb = df.group_of(b);
  if (ga == gb || df.groups() < 3) return df.default_route(a, b);
  auto [c, slice] = valiant_choice(df, ga, gb, key);
  return df.valiant_route(a, c, slice, b);
}

// Without a load every candidate costs 0 and the minimal route wins (the first minimal route: default_route). With
// one, the minimal candidates are scored slice by slice without building them, each slice once: the candidates in
// minimal_routes() order (hops ascending, then slice) and the first of the smallest cost, so the choice is the one
// minimal_routes() would give; the Valiant candidate is scored from its links too, and only the chosen route is built.
namespace {
// Within a group: the direct local link against the two local links through the intermediate router the key picks
// (nth_other of the group's routers, a and b left out), each scored as below.
Route ugal_in_group(const Dragonfly& df, RouterId a, RouterId b, const LinkLoad& load, std::uint64_t key) {
  if (a == b || df.routers_per_group() < 3) return df.default_route(a, b);
  const RouterId base = df.group_of(a) * df.routers_per_group();
  const RouterId c = base + nth_other(mix_flow_key(key), df.routers_per_group(), a - base, b - base);
  const LinkId direct = df.local_link(a, b), first = df.local_link(a, c), second = df.local_link(c, b);
  if (2.0 * std::max(load.load(first), load.load(second)) < load.load(direct)) return Route{first, second};
  return Route{direct};
}
}  // namespace

Route ugal_route(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t key) {
  const auto& df = as<Dragonfly>(t, "ugal");
  int ga = df.group_of(a), gb = df.group_of(b);
  if (load == nullptr) return df.default_route(a, b);
  if (ga == gb) return ugal_in_group(df, a, b, *load, key);
  auto worst = [load](const LinkId* links, int hops) {
    double x = 0;
    for (int i = 0; i < hops; ++i) x = std::max(x, load->load(links[i]));
    return x * static_cast<double>(hops);
  };
  boost::container::small_vector<std::pair<int, double>, 8> scored;  // (hops, cost) of each slice
  for (int s = 0; s < df.slices(); ++s) {
    const Dragonfly::MinimalHops m = df.minimal_hops_via(a, b, s);
    scored.emplace_back(m.hops, worst(m.links, m.hops));
  }
  int best = -1;
  double best_cost = 0;
  for (int hops = 1; hops <= 3; ++hops)
    for (int s = 0; s < df.slices(); ++s) {
      const auto [h, x] = scored[static_cast<std::size_t>(s)];
      if (h == hops && (best < 0 || x < best_cost)) best = s, best_cost = x;
    }
  if (df.groups() < 3) return df.minimal_route_via(a, b, best);
  auto [c, slice] = valiant_choice(df, ga, gb, key);
  const Dragonfly::ValiantHops v = df.valiant_hops(a, c, slice, b);
  if (worst(v.links, v.hops) < best_cost) return Route(v.links, v.links + v.hops);
  return df.minimal_route_via(a, b, best);
}

}  // namespace ompisim::topology
