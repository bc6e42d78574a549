// 3-D torus (or mesh, per dimension) of routers, `nodes_per_router` nodes on each (Cray Gemini: one ASIC serves two
// nodes; SeaStar: one), per-dimension link bandwidth (LinkClass X/Y/Z), static dimension-order routing: X, then Y,
// then Z, each the shorter way round, ties to the + direction, as the Gemini routing tables do for quiet networks.
// Port of models/topology/torus.{hpp,cpp}: the same link ids, link names, routes and hop counts (tested).
// Sources: Alverson, Roweth, Kaplan, "The Gemini System Interconnect", HOTI 2010 (hardware-sources.md §1a).
// LIMITATIONS: no deadlock / virtual-channel model; candidate minimal routes are the (up to 6) dimension orders, each
// dimension still taken the shorter way with ties to + (the other direction of a tie is never offered); nodes are
// numbered router-major (node n sits on router n / nodes_per_router); router r has coordinates
// (r % X, (r / X) % Y, r / (X*Y)).
#pragma once
#include "platform/topology/topology.hpp"

#include <array>
#include <memory>

namespace ompisim::topology {

class Torus : public Topology {
public:
  using Coord = std::array<int, 3>;
  // Throws std::invalid_argument for a dimension < 1, nodes_per_router < 1, or compute_nodes > node slots.
  // compute_nodes = 0 means every node slot.
  Torus(Coord dims, int nodes_per_router, std::array<bool, 3> wrap, const LinkParams& params,
        long long compute_nodes = 0);
  // Shape keys (under "topology" in `file`): dims [X, Y, Z], nodes_per_router, optional wrap [bool x3] (default all
  // true) and compute_nodes (default every slot). Throws InputError naming the key.
  static std::unique_ptr<Topology> from_shape(const nlohmann::json& shape, const LinkParams& params,
                                              const std::string& file, const std::string& path = kShapePath);

  std::string kind() const override { return "torus"; }
  bool router_on_node() const override { return true; }
  long long node_slots() const override { return static_cast<long long>(routers()) * nodes_per_router_; }
  RouterId router_of_node(long long node) const override { return static_cast<RouterId>(node / nodes_per_router_); }
  int routers() const override { return dims_[0] * dims_[1] * dims_[2]; }
  std::string link_name(LinkId id) const override;  // "r<router><+|-><X|Y|Z>", e.g. "r0-X"
  int min_hops(RouterId a, RouterId b) const override;  // torus (or mesh) distance
  Route default_route(RouterId a, RouterId b) const override;  // X, Y, Z order
  std::vector<Route> minimal_routes(RouterId a, RouterId b, std::size_t max) const override;
  nlohmann::json describe() const override;

  int nodes_per_router() const { return nodes_per_router_; }
  const Coord& dims() const { return dims_; }
  const std::array<bool, 3>& wrap() const { return wrap_; }
  Coord coord(RouterId r) const;
  RouterId router_at(Coord c) const;
  // Dimension-order route visiting the dimensions in `order` (a permutation of 0, 1, 2).
  Route route_in_order(RouterId a, RouterId b, const std::array<int, 3>& order) const;

private:
  int step(int from, int to, int dim) const;  // +1 / -1 / 0: direction of the next hop in dimension dim
  Coord dims_;
  int nodes_per_router_;
  std::array<bool, 3> wrap_;
  std::vector<std::array<std::int32_t, 6>> out_;  // out_[router][2*dim + (dir>0)] = link id, or -1
};

}  // namespace ompisim::topology
