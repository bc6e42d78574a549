// k-ary n-tree fat tree: k^n node slots; n levels (0 = leaves .. n-1 = top) of k^(n-1) switches each; a leaf switch
// attaches k nodes; every switch below the top has k up ports, every switch above the leaves k down ports. Quadrics
// QsNet/QsNetII is a quaternary (4-ary) n-tree of Elite switches (8 ports: 4 down, 4 up).
// Sources: F. Petrini, M. Vanneschi, "k-ary n-trees: High Performance Networks for Massively Parallel
// Architectures", IPPS 1997 (the shape and its up*/down* minimal routing); Beecroft et al., "QsNetII: Defining
// High-Performance Network Design", IEEE Micro 25(4), 2005 (hardware-sources.md §3); the default up-port choice is
// destination-mod-k (Gomez et al., "Deterministic versus Adaptive Routing in Fat-Trees", IPDPS 2007 workshops;
// Zahavi, "D-Mod-K Routing Providing Non-Blocking Traffic for Shift Permutations on Real Life Fat Trees", 2010).
// Wiring: switch (level l, index w), w written with n-1 base-k digits w_{n-2}..w_0. Up port j of (l, w) goes to
// (l+1, w with digit l set to j); down port i of (l+1, w) goes to (l, w with digit l set to i). Node p sits on leaf
// p / k. Router id = l * k^(n-1) + w, so the leaves are routers [0, k^(n-1)) and the only endpoint routers.
// Routing between leaves a and b: up L levels, L = 0 if a == b, else 1 + the highest base-k digit where a and b
// differ (the level of their nearest common ancestors), then down; any choice of up ports gives a minimal route
// (k^L of them), the down path is then unique. Default up port at level l: digit l of the destination leaf (d-mod-k
// on the leaf index), so all routes to one leaf descend the same tree.
// min_hops(a, b) = 2 * L, counting switch-to-switch links only; node-to-leaf links are not links of the topology (the
// NIC owns the node's attachment), so two nodes on the same leaf are 0 hops apart.
// LIMITATIONS: only full k-ary n-trees (no slimmed/tapered trees, no XGFT with different up/down arity); routes are
// only defined between leaf switches; no switch-internal model (Elite-4 switch latency is not known: §3 lists it as a
// gap), every link has hop_latency.
#pragma once
#include "platform/topology/topology.hpp"

#include <memory>

namespace ompisim::topology {

class FatTree : public Topology {
public:
  // Throws std::invalid_argument for arity < 2, levels < 1, or compute_nodes > arity^levels (0 = every slot).
  FatTree(int arity, int levels, const LinkParams& params, long long compute_nodes = 0);
  // Shape keys (under "topology"): arity (k), levels (n), optional compute_nodes (<= k^n). InputError names the key.
  static std::unique_ptr<Topology> from_shape(const nlohmann::json& shape, const LinkParams& params,
                                              const std::string& file, const std::string& path = kShapePath);

  std::string kind() const override { return "fat_tree"; }
  long long node_slots() const override { return static_cast<long long>(switches_per_level_) * k_; }
  RouterId router_of_node(long long node) const override { return static_cast<RouterId>(node / k_); }
  int routers() const override { return n_ * switches_per_level_; }
  int endpoint_routers() const override { return switches_per_level_; }
  std::string link_name(LinkId id) const override;  // "r<from>-up<port>" / "r<from>-down<port>"
  int min_hops(RouterId a, RouterId b) const override;  // 2 * nca_level(a, b)
  Route default_route(RouterId a, RouterId b) const override;  // d-mod-k up ports
  std::vector<Route> minimal_routes(RouterId a, RouterId b, std::size_t max) const override;
  nlohmann::json describe() const override;

  int arity() const { return k_; }
  int levels() const { return n_; }
  int switches_per_level() const { return switches_per_level_; }
  int level_of(RouterId r) const { return r / switches_per_level_; }
  int index_of(RouterId r) const { return r % switches_per_level_; }
  int digit(int w, int pos) const { return (w / pow_[static_cast<std::size_t>(pos)]) % k_; }
  // Level of the nearest common ancestors of leaves a and b (0 when a == b).
  int nca_level(RouterId a, RouterId b) const;
  // The up link leaving switch `r` (not a top switch) by up port `port`, and the switch it reaches.
  LinkId up_link(RouterId r, int port) const;
  RouterId parent(RouterId r, int port) const;
  // The d-mod-k up port at level l towards leaf b: digit l of b.
  int dmodk_port(RouterId b, int level) const { return digit(b, level); }
  // Route from leaf a to leaf b taking up port up_ports[l] at level l (size nca_level(a, b)), then down.
  Route route_with_up_ports(RouterId a, RouterId b, const std::vector<int>& up_ports) const;

private:
  int set_digit(int w, int pos, int v) const { return w + (v - digit(w, pos)) * pow_[static_cast<std::size_t>(pos)]; }
  LinkId down_link(RouterId upper, int port) const;
  int k_, n_, switches_per_level_;
  std::vector<int> pow_;  // k^0 .. k^n
  LinkId first_down_ = 0;
};

}  // namespace ompisim::topology
