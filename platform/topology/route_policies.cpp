// See route_policies.hpp.
#include "platform/topology/route_policies.hpp"

#include "platform/topology/dragonfly.hpp"
#include "platform/topology/fat_tree.hpp"

#include <limits>
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

double cost(const Route& r, const LinkLoad* load) { return route_load(r, load) * static_cast<double>(r.size()); }
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

Route valiant_route(const Topology& t, RouterId a, RouterId b, const LinkLoad*, std::uint64_t key) {
  const auto& df = as<Dragonfly>(t, "valiant");
  int ga = df.group_of(a), gb = df.group_of(b);
  if (ga == gb || df.groups() < 3) return df.default_route(a, b);
  std::uint64_t h = mix_flow_key(key);
  auto others = static_cast<std::uint64_t>(df.groups() - 2);
  int idx = static_cast<int>(h % others);
  int c = -1;
  for (int g = 0; g < df.groups(); ++g) {
    if (g == ga || g == gb) continue;
    if (idx-- == 0) {
      c = g;
      break;
    }
  }
  int slice = static_cast<int>((h / others) % static_cast<std::uint64_t>(df.slices()));
  return df.valiant_route(a, c, slice, b);
}

Route ugal_route(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t key) {
  const auto& df = as<Dragonfly>(t, "ugal");
  auto mins = df.minimal_routes(a, b, std::numeric_limits<std::size_t>::max());
  std::size_t best = 0;
  for (std::size_t i = 1; i < mins.size(); ++i)
    if (cost(mins[i], load) < cost(mins[best], load)) best = i;
  if (df.group_of(a) == df.group_of(b) || df.groups() < 3) return mins[best];
  Route v = valiant_route(t, a, b, load, key);
  return cost(v, load) < cost(mins[best], load) ? v : mins[best];
}

}  // namespace ompisim::topology
