// See torus.hpp.
#include "platform/topology/torus.hpp"

#include "core/json_input.hpp"
#include "core/limits.hpp"
#include "platform/topology/topology_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace ompisim::topology {

namespace {
LinkClass dim_class(int d) { return d == 0 ? LinkClass::X : d == 1 ? LinkClass::Y : LinkClass::Z; }
}  // namespace

Torus::Torus(Coord dims, int nodes_per_router, std::array<bool, 3> wrap, const LinkParams& params,
             long long compute_nodes)
    : Topology(std::max(dims[0], 1) * std::max(dims[1], 1) * std::max(dims[2], 1)), dims_(dims),
      nodes_per_router_(nodes_per_router), wrap_(wrap) {
  for (int d = 0; d < 3; ++d)
    if (dims_[d] < 1) throw std::invalid_argument("torus dimension must be >= 1");
  if (nodes_per_router < 1) throw std::invalid_argument("nodes_per_router must be >= 1");
  params_ = params;
  set_compute_nodes(compute_nodes == 0 ? node_slots() : compute_nodes);
  out_.assign(static_cast<std::size_t>(routers()), {-1, -1, -1, -1, -1, -1});
  for (int r = 0; r < routers(); ++r) {
    Coord c = coord(r);
    for (int d = 0; d < 3; ++d) {
      if (dims_[d] == 1) continue;
      for (int dir : {-1, +1}) {
        int x = c[d] + dir;
        if (x < 0 || x >= dims_[d]) {
          if (!wrap_[d]) continue;
          x = (x + dims_[d]) % dims_[d];
        }
        if (dims_[d] == 2 && dir < 0 && wrap_[d]) continue;  // a 2-long ring has a single link each way
        Coord n = c;
        n[d] = x;
        LinkProps p;
        p.from = r;
        p.to = router_at(n);
        p.cls = dim_class(d);
        p.dim = d;
        p.dir = dir;
        out_[static_cast<std::size_t>(r)][2 * d + (dir > 0)] = static_cast<std::int32_t>(add_link(p));
      }
    }
  }
}

std::unique_ptr<Topology> Torus::from_shape(const nlohmann::json& shape, const LinkParams& params,
                                            const std::string& file, const std::string& path) {
  ObjectReader t(shape, file, path);
  auto dims = t.int_list("dims", 1, 4096);
  if (dims.size() != 3)
    t.fail("dims", "a torus needs exactly 3 dimensions, got " + std::to_string(dims.size()) +
                       " (use 1 for an unused dimension)");
  if (dims[0] * dims[1] * dims[2] > limits::kMaxTorusRouters)
    t.fail("dims", fmt::format("{} routers, above the limit of {} (core/limits.hpp: the memory the torus's model takes)",
                               dims[0] * dims[1] * dims[2], limits::kMaxTorusRouters));
  int npr = static_cast<int>(t.integer("nodes_per_router", 1, 64));
  std::array<bool, 3> wrap{true, true, true};
  if (t.has("wrap")) {
    const auto& w = t.raw("wrap");
    if (!w.is_array() || w.size() != 3 || !std::all_of(w.begin(), w.end(), [](auto& x) { return x.is_boolean(); }))
      t.fail("wrap", "expected three booleans (false = mesh dimension), got " + w.dump());
    for (int d = 0; d < 3; ++d) wrap[d] = w[static_cast<std::size_t>(d)].get<bool>();
  }
  long long slots = dims[0] * dims[1] * dims[2] * npr;
  long long nodes = slots;
  if (t.has("compute_nodes")) {
    nodes = t.integer("compute_nodes", 1, 1LL << 40);
    if (nodes > slots)
      t.fail("compute_nodes", fmt::format("{} nodes do not fit: a {} x {} x {} torus with {} node(s) per router holds at "
                                          "most {} nodes",
                                          nodes, dims[0], dims[1], dims[2], npr, slots));
  }
  t.finish(allowed_shape_keys({"wrap", "compute_nodes"}));
  return std::make_unique<Torus>(Coord{int(dims[0]), int(dims[1]), int(dims[2])}, npr, wrap, params, nodes);
}

Torus::Coord Torus::coord(RouterId r) const {
  return {r % dims_[0], (r / dims_[0]) % dims_[1], r / (dims_[0] * dims_[1])};
}

RouterId Torus::router_at(Coord c) const { return c[0] + dims_[0] * (c[1] + dims_[1] * c[2]); }

int Torus::step(int from, int to, int d) const {
  if (from == to) return 0;
  if (!wrap_[d]) return to > from ? +1 : -1;
  int fwd = ((to - from) % dims_[d] + dims_[d]) % dims_[d];
  int back = dims_[d] - fwd;
  if (dims_[d] == 2) return +1;
  return fwd <= back ? +1 : -1;
}

int Torus::min_hops(RouterId a, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  Coord ca = coord(a), cb = coord(b);
  int sum = 0;
  for (int d = 0; d < 3; ++d) {
    int diff = std::abs(ca[d] - cb[d]);
    sum += wrap_[d] ? std::min(diff, dims_[d] - diff) : diff;
  }
  return sum;
}

Route Torus::route_in_order(RouterId a, RouterId b, const std::array<int, 3>& order) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  Route out;
  Coord c = coord(a), t = coord(b);
  for (int d : order) {
    while (c[d] != t[d]) {
      int s = step(c[d], t[d], d);
      int r = router_at(c);
      out.push_back(static_cast<LinkId>(out_[static_cast<std::size_t>(r)][2 * d + (s > 0)]));
      c[d] = ((c[d] + s) % dims_[d] + dims_[d]) % dims_[d];
    }
  }
  return out;
}

Route Torus::default_route(RouterId a, RouterId b) const { return route_in_order(a, b, {0, 1, 2}); }

std::vector<Route> Torus::minimal_routes(RouterId a, RouterId b, std::size_t max) const {
  std::vector<Route> out;
  std::array<int, 3> order{0, 1, 2};  // lexicographic permutations: XYZ (the default) first
  do {
    if (out.size() >= std::max<std::size_t>(max, 1)) break;
    Route r = route_in_order(a, b, order);
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(std::move(r));
  } while (std::next_permutation(order.begin(), order.end()));
  return out;
}

std::string Torus::link_name(LinkId id) const {
  static const char* dn = "XYZ";
  const auto& l = link(id);
  return "r" + std::to_string(l.from) + (l.dir > 0 ? "+" : "-") + dn[l.dim];
}

nlohmann::json Torus::describe() const {
  nlohmann::json j = describe_common();
  j["kind"] = kind();
  j["dims"] = dims_;
  j["wrap"] = wrap_;
  j["nodes_per_router"] = nodes_per_router_;
  return j;
}

}  // namespace ompisim::topology
