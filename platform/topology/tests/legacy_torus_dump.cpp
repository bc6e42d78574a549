// See legacy_torus_dump.hpp. Includes only the OLD torus header.
#include "platform/topology/tests/legacy_torus_dump.hpp"

#include "platform/torus/torus.hpp"

namespace ompisim::topology_test {

LegacyTorusDump legacy_torus_dump(std::array<int, 3> dims, int nodes_per_router, std::array<double, 3> bandwidth,
                                  double hop_latency, std::array<bool, 3> wrap) {
  ompisim::topology::Torus t(dims, nodes_per_router, bandwidth, hop_latency, wrap);
  LegacyTorusDump d;
  d.routers = t.routers();
  d.node_slots = t.node_slots();
  d.links.resize(t.link_count());
  d.names.resize(t.link_count());
  const auto& g = t.graph();
  for (auto [it, end] = boost::edges(g); it != end; ++it) {
    const auto& p = g[*it];
    d.links.at(p.id) = LegacyLink{static_cast<int>(boost::source(*it, g)), static_cast<int>(boost::target(*it, g)),
                                  p.dim, p.dir, p.bandwidth, p.latency, p.id};
  }
  for (std::uint32_t id = 0; id < t.link_count(); ++id) d.names[id] = t.link_name(id);
  for (int a = 0; a < t.routers(); ++a)
    for (int b = 0; b < t.routers(); ++b) {
      d.routes.push_back(t.route(a, b));
      d.hops.push_back(t.hops(a, b));
    }
  for (long long n = 0; n < t.node_slots(); ++n) d.router_of_node.push_back(t.router_of_node(n));
  return d;
}

}  // namespace ompisim::topology_test
