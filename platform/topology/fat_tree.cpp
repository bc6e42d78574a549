// See fat_tree.hpp.
#include "platform/topology/fat_tree.hpp"

#include "core/json_input.hpp"
#include "core/limits.hpp"
#include "platform/topology/topology_registry.hpp"

#include <stdexcept>

namespace ompisim::topology {

namespace {
constexpr long long kMaxSlots = limits::kMaxFatTreeSlots;  // core/limits.hpp (and ids stay in 32 bits)

long long ipow(long long k, int n) {
  long long p = 1;
  for (int i = 0; i < n; ++i) {
    p *= k;
    if (p > kMaxSlots) return kMaxSlots + 1;
  }
  return p;
}
}  // namespace

FatTree::FatTree(int arity, int levels, const LinkParams& params, long long compute_nodes)
    : Topology(static_cast<int>(levels >= 1 && arity >= 2 && ipow(arity, levels) <= kMaxSlots
                                    ? levels * ipow(arity, levels - 1)
                                    : 0)),
      k_(arity), n_(levels) {
  if (arity < 2) throw std::invalid_argument("fat_tree: arity must be >= 2");
  if (levels < 1) throw std::invalid_argument("fat_tree: levels must be >= 1");
  if (ipow(arity, levels) > kMaxSlots) throw std::invalid_argument("fat_tree: arity^levels is too large");
  switches_per_level_ = static_cast<int>(ipow(k_, n_ - 1));
  for (int i = 0; i <= n_; ++i) pow_.push_back(static_cast<int>(ipow(k_, i)));
  params_ = params;
  set_compute_nodes(compute_nodes == 0 ? node_slots() : compute_nodes);
  const int S = switches_per_level_;
  // Up links first, id = (l*S + w)*k + j; then down links, id = first_down_ + (l*S + w_upper)*k + i, l the lower level.
  for (int l = 0; l + 1 < n_; ++l)
    for (int w = 0; w < S; ++w)
      for (int j = 0; j < k_; ++j) {
        LinkProps p;
        p.from = l * S + w;
        p.to = (l + 1) * S + set_digit(w, l, j);
        p.cls = LinkClass::Up;
        p.dim = j;
        p.dir = +1;
        p.level = l;
        add_link(p);
      }
  first_down_ = static_cast<LinkId>(link_count());
  for (int l = 0; l + 1 < n_; ++l)
    for (int w = 0; w < S; ++w)
      for (int i = 0; i < k_; ++i) {
        LinkProps p;
        p.from = (l + 1) * S + w;
        p.to = l * S + set_digit(w, l, i);
        p.cls = LinkClass::Down;
        p.dim = i;
        p.dir = -1;
        p.level = l;
        add_link(p);
      }
}

std::unique_ptr<Topology> FatTree::from_shape(const nlohmann::json& shape, const LinkParams& params,
                                              const std::string& file, const std::string& path) {
  ObjectReader t(shape, file, path);
  int k = static_cast<int>(t.integer("arity", 2, 64));
  int n = static_cast<int>(t.integer("levels", 1, 24));
  long long slots = ipow(k, n);
  if (slots > kMaxSlots)
    t.fail("levels", "a " + std::to_string(k) + "-ary " + std::to_string(n) + "-tree has more than " +
                         std::to_string(kMaxSlots) + " node slots (core/limits.hpp: the memory the fat tree's model takes)");
  long long nodes = slots;
  if (t.has("compute_nodes")) {
    nodes = t.integer("compute_nodes", 1, kMaxSlots);
    if (nodes > slots)
      t.fail("compute_nodes", std::to_string(nodes) + " nodes do not fit: a " + std::to_string(k) + "-ary " +
                                  std::to_string(n) + "-tree (arity " + std::to_string(k) + ", levels " +
                                  std::to_string(n) + ") holds at most " + std::to_string(slots) + " nodes");
  }
  t.finish(allowed_shape_keys({"compute_nodes"}));
  return std::make_unique<FatTree>(k, n, params, nodes);
}

int FatTree::nca_level(RouterId a, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  for (int pos = n_ - 2; pos >= 0; --pos)
    if (digit(a, pos) != digit(b, pos)) return pos + 1;
  return 0;
}

int FatTree::min_hops(RouterId a, RouterId b) const { return 2 * nca_level(a, b); }

LinkId FatTree::up_link(RouterId r, int port) const {
  if (level_of(r) + 1 >= n_ || port < 0 || port >= k_)
    throw std::out_of_range("fat_tree: router " + std::to_string(r) + " has no up port " + std::to_string(port));
  return static_cast<LinkId>(r * k_ + port);
}

RouterId FatTree::parent(RouterId r, int port) const { return link(up_link(r, port)).to; }

LinkId FatTree::down_link(RouterId upper, int port) const {
  return first_down_ + static_cast<LinkId>((upper - switches_per_level_) * k_ + port);
}

Route FatTree::route_with_up_ports(RouterId a, RouterId b, const std::vector<int>& up_ports) const {
  int L = nca_level(a, b);
  if (static_cast<int>(up_ports.size()) != L)
    throw std::invalid_argument("fat_tree: route from " + std::to_string(a) + " to " + std::to_string(b) + " needs " +
                                std::to_string(L) + " up ports, got " + std::to_string(up_ports.size()));
  Route out;
  RouterId cur = a;
  for (int l = 0; l < L; ++l) {
    LinkId id = up_link(cur, up_ports[static_cast<std::size_t>(l)]);
    out.push_back(id);
    cur = link(id).to;
  }
  for (int l = L - 1; l >= 0; --l) {
    LinkId id = down_link(cur, digit(b, l));
    out.push_back(id);
    cur = link(id).to;
  }
  return out;
}

Route FatTree::default_route(RouterId a, RouterId b) const {
  int L = nca_level(a, b);
  std::vector<int> ports(static_cast<std::size_t>(L));
  for (int l = 0; l < L; ++l) ports[static_cast<std::size_t>(l)] = dmodk_port(b, l);
  return route_with_up_ports(a, b, ports);
}

std::vector<Route> FatTree::minimal_routes(RouterId a, RouterId b, std::size_t max) const {
  std::vector<Route> out{default_route(a, b)};
  int L = nca_level(a, b);
  std::vector<int> ports(static_cast<std::size_t>(L), 0);
  // Every combination of up ports, level 0 varying fastest; the default (already first) is skipped.
  while (out.size() < max && L > 0) {
    Route r = route_with_up_ports(a, b, ports);
    if (r != out.front()) out.push_back(std::move(r));
    int l = 0;
    while (l < L && ++ports[static_cast<std::size_t>(l)] == k_) ports[static_cast<std::size_t>(l++)] = 0;
    if (l == L) break;
  }
  return out;
}

std::string FatTree::link_name(LinkId id) const {
  const auto& l = link(id);
  return "r" + std::to_string(l.from) + (l.cls == LinkClass::Up ? "-up" : "-down") + std::to_string(l.dim);
}

nlohmann::json FatTree::describe() const {
  nlohmann::json j = describe_common();
  j["kind"] = kind();
  j["arity"] = k_;
  j["levels"] = n_;
  j["switches_per_level"] = switches_per_level_;
  return j;
}

}  // namespace ompisim::topology
