// 3-D torus of routers (Cray Gemini: one router serves `nodes_per_router` nodes), held as a Boost.Graph with one
// directed edge per link direction; per-dimension link bandwidth; static dimension-order routing (X, then Y, then Z,
// each the shorter way round, ties to the + direction), as the Gemini routing tables do for quiet networks.
// Sources: Alverson et al., "The Gemini System Interconnect", HOTI 2010 (via hardware-sources.md §1a).
// LIMITATIONS: no adaptive routing; a mesh dimension (no wrap) is supported by `wrap` for SeaStar-class machines;
// nodes are numbered router-major (node n sits on router n / nodes_per_router).
#pragma once
#include <array>
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::topology {

struct LinkProps {
  int dim = 0;        // 0 = X, 1 = Y, 2 = Z
  int dir = +1;       // +1 or -1
  double bandwidth = 0;
  double latency = 0;
  std::uint32_t id = 0;  // dense edge index
};

using TorusGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, LinkProps>;

class Torus {
public:
  using Coord = std::array<int, 3>;
  Torus(Coord dims, int nodes_per_router, std::array<double, 3> link_bandwidth, double hop_latency,
        std::array<bool, 3> wrap = {true, true, true});

  int routers() const { return dims_[0] * dims_[1] * dims_[2]; }
  long long node_slots() const { return static_cast<long long>(routers()) * nodes_per_router_; }
  int nodes_per_router() const { return nodes_per_router_; }
  const Coord& dims() const { return dims_; }
  const std::array<bool, 3>& wrap() const { return wrap_; }
  Coord coord(int router) const;
  int router_at(Coord c) const;
  int router_of_node(long long node) const { return static_cast<int>(node / nodes_per_router_); }

  // Links (edge ids) from router a to router b, in order. Empty when a == b.
  std::vector<std::uint32_t> route(int a, int b) const;
  int hops(int a, int b) const;            // = route(a, b).size(), computed arithmetically
  int distance(int a, int b) const;        // torus (or mesh) distance: sum over dimensions of the shorter way
  const LinkProps& link(std::uint32_t id) const { return links_.at(id); }
  std::size_t link_count() const { return links_.size(); }
  const TorusGraph& graph() const { return g_; }
  std::string link_name(std::uint32_t id) const;

private:
  int step(int from, int to, int dim) const;  // +1 / -1 / 0: direction of the next hop in dimension dim
  Coord dims_;
  int nodes_per_router_;
  std::array<bool, 3> wrap_;
  TorusGraph g_;
  std::vector<LinkProps> links_;
  std::vector<std::array<std::int32_t, 6>> out_;  // out_[router][2*dim + (dir>0)] = edge id, or -1
};

}  // namespace ompisim::topology
