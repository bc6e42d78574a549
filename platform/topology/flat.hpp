// Flat network: one crossbar switch (router 0) holding every node, so there are no router-to-router links and every
// route is empty (min_hops is always 0). Used by the LogGP reference machine, whose network is a latency L and a gap
// G per byte charged at the NICs.
// Sources: Alexandrov, Ionescu, Schauser, Scheiman, "LogGP", SPAA 1995 (models/loggp/); SimGrid's star/cluster zone
// with a single backbone is the same idea (simgrid-3.32-notes.md §1).
// LIMITATIONS: the switch has unbounded capacity: two flows between different node pairs never share a link; only
// the nodes' injection/ejection (the NIC's resources) can be contended. (A router per node with a full mesh of links
// was the alternative; it costs n^2 links and adds nothing that the NIC resources do not already model.)
#pragma once
#include "platform/topology/topology.hpp"

#include <memory>

namespace ompisim::topology {

class Flat : public Topology {
public:
  // Throws std::invalid_argument when compute_nodes < 1.
  Flat(long long compute_nodes, const LinkParams& params);
  // Shape keys (under "topology"): compute_nodes (required: it is also the number of node slots).
  static std::unique_ptr<Topology> from_shape(const nlohmann::json& shape, const LinkParams& params,
                                              const std::string& file, const std::string& path = kShapePath);

  std::string kind() const override { return "flat"; }
  long long node_slots() const override { return slots_; }
  RouterId router_of_node(long long) const override { return 0; }
  int routers() const override { return 1; }
  int min_hops(RouterId a, RouterId b) const override;
  Route default_route(RouterId a, RouterId b) const override;
  std::vector<Route> minimal_routes(RouterId a, RouterId b, std::size_t max) const override;
  nlohmann::json describe() const override;

private:
  long long slots_;
};

}  // namespace ompisim::topology
