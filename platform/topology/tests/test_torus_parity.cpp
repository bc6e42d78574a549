// Parity of platform/topology/Torus with the class it replaces, models/topology/Torus. Remove this file, together
// with legacy_torus_dump.{hpp,cpp}, when models/topology/ is deleted; the property tests in test_topologies.cpp stay.
#include "platform/topology/tests/legacy_torus_dump.hpp"
#include "platform/topology/torus.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::topology;
using ompisim::topology_test::legacy_torus_dump;

// Configuration: four shapes, each built by both classes with X/Y/Z bandwidths 2, 1, 3 GB/s and a 100 ns hop:
//   4x3x2 with Y a mesh (wrap false) and Z a 2-long ring; 5x4x3 all wrapped; 2x3x1 with X a 2-long mesh and a
//   length-1 Z; 6x1x4 with Z a mesh.
// Expected: identical link count, and for every link id the same source, target, dimension, direction, bandwidth,
//   latency and name; for every ordered router pair the same route (link ids in order) and hop count; the same router
//   for every node slot.
// How validated: exact comparison of every field (doubles compared exactly: both compute them the same way).
TEST_CASE("platform/topology torus: same links, names, routes and hops as models/topology/torus", "[unit][topology]") {
  struct Shape {
    Torus::Coord dims;
    int npr;
    std::array<bool, 3> wrap;
  };
  for (const auto& s : {Shape{{4, 3, 2}, 2, {true, false, true}}, Shape{{5, 4, 3}, 1, {true, true, true}},
                        Shape{{2, 3, 1}, 3, {false, true, true}}, Shape{{6, 1, 4}, 2, {true, true, false}}}) {
    CAPTURE(s.dims[0], s.dims[1], s.dims[2], s.wrap[0], s.wrap[1], s.wrap[2]);
    LinkParams p{{{LinkClass::X, 2e9}, {LinkClass::Y, 1e9}, {LinkClass::Z, 3e9}}, 100e-9};
    Torus t(s.dims, s.npr, s.wrap, p);
    auto old = legacy_torus_dump(s.dims, s.npr, {2e9, 1e9, 3e9}, 100e-9, s.wrap);
    REQUIRE(t.routers() == old.routers);
    REQUIRE(t.node_slots() == old.node_slots);
    REQUIRE(t.link_count() == old.links.size());
    for (LinkId id = 0; id < t.link_count(); ++id) {
      const auto& n = t.link(id);
      const auto& o = old.links[id];
      CHECK(n.id == o.id);
      CHECK(n.from == o.from);
      CHECK(n.to == o.to);
      CHECK(n.dim == o.dim);
      CHECK(n.dir == o.dir);
      CHECK(n.bandwidth == o.bandwidth);
      CHECK(n.latency == o.latency);
      CHECK(t.link_name(id) == old.names[id]);
    }
    for (int a = 0; a < t.routers(); ++a)
      for (int b = 0; b < t.routers(); ++b) {
        auto k = static_cast<std::size_t>(a * t.routers() + b);
        REQUIRE(t.default_route(a, b) == old.routes[k]);
        REQUIRE(t.min_hops(a, b) == old.hops[k]);
      }
    for (long long n = 0; n < t.node_slots(); ++n) CHECK(t.router_of_node(n) == old.router_of_node[static_cast<std::size_t>(n)]);
  }
}
