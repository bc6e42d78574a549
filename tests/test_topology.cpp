#include "models/gemini/nic.hpp"
#include "runner/registries.hpp"
#include "platform/topology/torus.hpp"

#include <boost/graph/breadth_first_search.hpp>
#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: Cielo's 16x12x24 torus. Expected: dimension-order routes whose length is the torus distance (checked
// against a BFS on the Boost graph from a few sources), reverse routes of equal length, X/Z links twice the Y
// bandwidth. How validated: BFS distances, route lengths, per-link properties.
TEST_CASE("torus: hop counts equal torus distance, routes symmetric, link bandwidth by dimension", "[topology]") {
  auto m = load_machine("cielo");
  const auto& t = dynamic_cast<const topology::Torus&>(*m->network().topology);
  CHECK(m->network().routing->name == "dimension_order");
  REQUIRE(t.routers() == 16 * 12 * 24);
  for (int src : {0, 17, 1000, 4607}) {
    std::vector<int> dist(static_cast<std::size_t>(t.routers()), -1);
    dist[static_cast<std::size_t>(src)] = 0;
    auto vis = boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()));
    boost::breadth_first_search(t.graph(), static_cast<std::size_t>(src), boost::visitor(vis));
    for (int dst = 0; dst < t.routers(); dst += 7) {
      auto r = t.default_route(src, dst);
      REQUIRE(static_cast<int>(r.size()) == dist[static_cast<std::size_t>(dst)]);
      REQUIRE(t.min_hops(src, dst) == dist[static_cast<std::size_t>(dst)]);
      REQUIRE(t.default_route(dst, src).size() == r.size());
    }
  }
  for (std::uint32_t id = 0; id < t.link_count(); ++id) {
    const auto& l = t.link(id);
    double y = gemini::nic(*m).p.link_bandwidth_y * gemini::nic(*m).p.packet_payload_efficiency;
    CHECK(l.bandwidth == Approx(l.dim == 1 ? y : 2.003 * y).epsilon(0.01));
  }
  // Hand-checked route: router 0 (0,0,0) to (15,1,0): one X- hop across the wrap, then one Y+ hop.
  auto r = t.default_route(0, t.router_at({15, 1, 0}));
  REQUIRE(r.size() == 2);
  CHECK(t.link(r[0]).dim == 0);
  CHECK(t.link(r[0]).dir == -1);
  CHECK(t.link(r[1]).dim == 1);
  CHECK(t.link_name(r[0]) == "r0-X");
  // Two nodes share a Gemini: zero router hops.
  CHECK(t.router_of_node(0) == t.router_of_node(1));
}
