// Dragonfly: `groups` groups of `routers_per_group` routers; `nodes_per_router` nodes on each router; the routers of
// a group are fully connected by Local links (one each way between every pair); each router has
// `global_links_per_router` global ports, and every pair of groups is joined by at least one Global link (one each
// way). Slingshot (Rosetta, Frontier): 32 switches per group, 16 node ports, 31 local, up to 17 global ports, 4 global
// links between every pair of groups, at most 3 switch-to-switch hops (hardware-sources.md §2).
// Sources: J. Kim, W. J. Dally, S. Scott, D. Abts, "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA 2008
// (the shape; minimal routing local-global-local; Valiant through a random intermediate group; UGAL); De Sensi et
// al., "An In-Depth Analysis of the Slingshot Interconnect", SC20 (hop bound); SST merlin's topo_dragonfly (port
// layout, "slices" of global links between a pair of groups; simgrid's DragonflyZone is minimal-only).
// Global-link arrangement ("consecutive", deterministic): the a*h global ports of group i are numbered
// q = r*h + s (router r, slot s). Let m = g - 1 and R = floor(a*h / m) (the "slices"). Port q < R*m goes to group
// (i + 1 + q mod m) mod g and lands on port (q div m)*m + (m - 1 - q mod m) of that group, which leads back: the
// arrangement is symmetric, and every pair of groups is joined by exactly R links each way (slice 0..R-1). Ports
// q >= R*m are left unconnected. A shape with a*h < g - 1 cannot join every pair of groups and is refused.
// Routes: minimal = [local hop to the router owning a global link to the destination group] + global link + [local
// hop to the destination router]: at most 1 global link and 3 links. With R > 1 slices, minimal_routes() offers one
// route per slice, shortest first (ties: lower slice); default_route() is the first. min_hops(a, b) = 0 (same
// router), 1 (same group), else the minimum over slices of (a != owner) + 1 + (landing != b).
// valiant_route(a, c, slice, b): through intermediate group c: [local] + global to c + the minimal route from the
// landing router to b (2 global links, at most 5 links), as merlin routes a Valiant packet onwards from the router it
// lands on.
// LIMITATIONS: "minimal" means at most one global link, as in Kim et al.: the graph may hold a shorter path with two
// global links (min_hops is not always the BFS distance of the whole graph; it is the BFS distance of paths with at
// most one global link); one arrangement only (no "absolute"/"relative"/custom global_link_map); no virtual channels;
// Local and Global links differ only by LinkClass bandwidth (the longer optical global cables' extra latency is not
// modelled: every link has hop_latency).
#pragma once
#include "platform/topology/topology.hpp"

#include <memory>

namespace ompisim::topology {

class Dragonfly : public Topology {
public:
  // Throws std::invalid_argument for a count < 1 (global_links_per_router may be 0 when groups == 1), a shape whose
  // global ports cannot join every pair of groups, or compute_nodes > node slots (0 = every slot).
  Dragonfly(int groups, int routers_per_group, int nodes_per_router, int global_links_per_router,
            const LinkParams& params, long long compute_nodes = 0);
  // Shape keys (under "topology"): groups, routers_per_group, nodes_per_router, global_links_per_router, optional
  // compute_nodes. InputError names the key (global_links_per_router when the groups cannot all be joined).
  static std::unique_ptr<Topology> from_shape(const nlohmann::json& shape, const LinkParams& params,
                                              const std::string& file, const std::string& path = kShapePath);

  std::string kind() const override { return "dragonfly"; }
  long long node_slots() const override { return static_cast<long long>(routers()) * p_; }
  RouterId router_of_node(long long node) const override { return static_cast<RouterId>(node / p_); }
  int routers() const override { return g_ * a_; }
  std::string link_name(LinkId id) const override;  // "r<from>-l-r<to>" (local), "r<from>-g<port>-r<to>" (global)
  int min_hops(RouterId a, RouterId b) const override;
  Route default_route(RouterId a, RouterId b) const override;
  std::vector<Route> minimal_routes(RouterId a, RouterId b, std::size_t max) const override;
  nlohmann::json describe() const override;

  int groups() const { return g_; }
  int routers_per_group() const { return a_; }
  int nodes_per_router() const { return p_; }
  int global_links_per_router() const { return h_; }
  int slices() const { return slices_; }  // global links between every pair of groups
  int group_of(RouterId r) const { return r / a_; }
  LinkId local_link(RouterId from, RouterId to) const;       // same group, from != to
  LinkId global_link(int from_group, int to_group, int slice) const;
  // Valiant route from a to b through intermediate group `via_group` (!= the groups of a and b), leaving a's group
  // by global link `slice` towards via_group.
  Route valiant_route(RouterId a, int via_group, int slice, RouterId b) const;
  // The minimal route from a to b (different groups) over global slice `slice`, and its links without building it.
  Route minimal_route_via(RouterId a, RouterId b, int slice) const;
  struct MinimalHops {
    int hops = 0;
    LinkId links[3] = {};
  };
  MinimalHops minimal_hops_via(RouterId a, RouterId b, int slice) const;
  // The links of valiant_route(a, via_group, slice, b) without building it (at most 5).
  struct ValiantHops {
    int hops = 0;
    LinkId links[5] = {};
  };
  ValiantHops valiant_hops(RouterId a, int via_group, int slice, RouterId b) const;

private:
  // A global link's id and its two routers, computed from the arrangement (the same as link(id).from / .to, without
  // reading the link table: a route's choice reads no LinkProps).
  struct GlobalEnds {
    LinkId id;
    RouterId from, to;
  };
  GlobalEnds global_ends(int from_group, int to_group, int slice) const;
  Route minimal_via(RouterId a, RouterId b, const GlobalEnds& gl) const;  // [local] + global + [local]
  int first_minimal_slice(RouterId a, RouterId b) const;                  // different groups
  int g_, a_, p_, h_, slices_ = 0;
  LinkId first_global_ = 0;
  // By global port q of a group (q < slices * (g - 1)): the router it leaves from and the router it lands on, as
  // router indices within their groups (the arrangement above, computed once).
  std::vector<std::pair<int, int>> port_routers_;
};

}  // namespace ompisim::topology
