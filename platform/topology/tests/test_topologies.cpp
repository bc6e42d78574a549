// Property tests of every topology in platform/topology/ (torus, fat_tree, dragonfly, flat), the topology registry and
// the shape errors. Route policies are in test_route_policies.cpp; the route checks both use in route_checks.hpp.
#include "core/errors.hpp"
#include "platform/topology/dragonfly.hpp"
#include "platform/topology/fat_tree.hpp"
#include "platform/topology/flat.hpp"
#include "platform/topology/topology_registry.hpp"
#include "platform/topology/tests/route_checks.hpp"
#include "platform/topology/torus.hpp"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace ompisim;
using namespace ompisim::topology;
using ompisim::topology::test::count_class;
using ompisim::topology::test::is_chain;

namespace {

LinkParams test_params() {
  return LinkParams{{{LinkClass::X, 4e9},
                     {LinkClass::Y, 2e9},
                     {LinkClass::Z, 4e9},
                     {LinkClass::Up, 1e9},
                     {LinkClass::Down, 1e9},
                     {LinkClass::Local, 5e9},
                     {LinkClass::Global, 3e9}},
                    1e-7};
}

// Edge filter for boost::filtered_graph (must be default-constructible and assignable): every link, or Local only.
struct EdgeKeep {
  const Topology* t = nullptr;
  bool local_only = false;
  bool operator()(Graph::edge_descriptor e) const {
    return !local_only || t->link(t->graph()[e].id).cls == LinkClass::Local;
  }
};

// BFS distances (in links) from `src`, over every link or over Local links only.
std::vector<int> bfs(const Topology& t, RouterId src, bool local_only = false) {
  boost::filtered_graph<Graph, EdgeKeep> fg(t.graph(), EdgeKeep{&t, local_only});
  std::vector<int> dist(static_cast<std::size_t>(t.routers()), -1);
  dist[static_cast<std::size_t>(src)] = 0;
  auto vis = boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()));
  boost::breadth_first_search(fg, static_cast<std::size_t>(src), boost::visitor(vis));
  return dist;
}

// Every ordered pair of endpoint routers: default route is a chain of min_hops links, min_hops equals `expected_dist`
// (a BFS distance), every minimal candidate is a distinct chain with the default first.
template <class Dist> void check_every_pair(const Topology& t, Dist expected_dist) {
  for (RouterId a = 0; a < t.endpoint_routers(); ++a) {
    auto dist = expected_dist(a);
    for (RouterId b = 0; b < t.endpoint_routers(); ++b) {
      CAPTURE(t.kind(), a, b);
      Route r = t.default_route(a, b);
      REQUIRE(is_chain(t, r, a, b));
      REQUIRE(static_cast<int>(r.size()) == t.min_hops(a, b));
      REQUIRE(t.min_hops(a, b) == dist[static_cast<std::size_t>(b)]);
      auto cands = t.minimal_routes(a, b, 64);
      REQUIRE(!cands.empty());
      REQUIRE(cands.front() == r);
      std::set<Route> distinct(cands.begin(), cands.end());
      REQUIRE(distinct.size() == cands.size());
      for (const auto& c : cands) REQUIRE(is_chain(t, c, a, b));
      REQUIRE(t.minimal_routes(a, b, 1).size() == 1);
    }
  }
}

}  // namespace

// Configuration: 4x3x2 torus, Y a mesh dimension, Z a 2-long ring, 2 nodes per router; X/Z 4 GB/s, Y 2 GB/s.
// Expected: for every ordered router pair the default (X, Y, Z) route is a chain of min_hops links, min_hops equals
//   the BFS distance on the Boost graph; the up to 6 dimension-order candidates are all shortest and distinct, and
//   there are exactly as many as distinct orders of the dimensions that differ; bandwidth by dimension; hand-checked
//   route 0 -> (3, 2, 1): one X- across the wrap, two Y+ (mesh), one Z+.
// How validated: BFS (boost::breadth_first_search) from every router; exact counts and link fields.
TEST_CASE("platform/topology torus: routes are chains of min_hops links, min_hops = BFS distance", "[unit][topology]") {
  Torus t({4, 3, 2}, 2, {true, false, true}, test_params());
  REQUIRE(t.routers() == 24);
  REQUIRE(t.node_slots() == 48);
  REQUIRE(t.router_of_node(5) == 2);
  check_every_pair(t, [&](RouterId a) { return bfs(t, a); });
  for (RouterId a = 0; a < t.routers(); ++a)
    for (RouterId b = 0; b < t.routers(); ++b) {
      auto ca = t.coord(a), cb = t.coord(b);
      int differing = (ca[0] != cb[0]) + (ca[1] != cb[1]) + (ca[2] != cb[2]);
      std::size_t orders = differing == 3 ? 6 : differing == 2 ? 2 : 1;
      auto cands = t.minimal_routes(a, b, 6);
      CHECK(cands.size() == orders);
      for (const auto& c : cands) CHECK(static_cast<int>(c.size()) == t.min_hops(a, b));
    }
  for (LinkId id = 0; id < t.link_count(); ++id) CHECK(t.link(id).bandwidth == (t.link(id).dim == 1 ? 2e9 : 4e9));
  Route r = t.default_route(0, t.router_at({3, 2, 1}));
  REQUIRE(r.size() == 4);
  CHECK(t.link_name(r[0]) == "r0-X");
  CHECK(t.link(r[1]).cls == LinkClass::Y);
  CHECK(t.link(r[2]).dir == +1);
  CHECK(t.link(r[3]).cls == LinkClass::Z);
  // No link across the Y edge of the mesh: router (0,0,0) has no Y- link.
  for (LinkId id = 0; id < t.link_count(); ++id)
    CHECK_FALSE((t.link(id).from == 0 && t.link(id).dim == 1 && t.link(id).dir < 0));
}

// Configuration: 4-ary 3-tree (64 nodes, 3 levels of 16 switches) and 2-ary 4-tree (16 nodes, 4 levels of 8).
// Expected: every ordered leaf pair: default route a chain of 2 * (NCA level) links, equal to the BFS distance; every
//   candidate route goes strictly up (Up links, levels 0, 1, ...) then strictly down (Down links, levels ..., 1, 0);
//   there are k^L candidates (capped at 64); the default takes the d-mod-k up port (digit l of the destination leaf)
//   so it ends on the destination's own spine; nodes 0..k-1 share leaf 0; link counts 2 (n-1) k^n.
// How validated: BFS on the Boost graph; link classes and levels along every candidate; hand-checked 0 -> 15 in the
//   4-ary 3-tree (4 hops: up ports 3, 3).
TEST_CASE("platform/topology fat_tree: up then down, 2 x NCA level hops = BFS distance", "[unit][topology]") {
  for (auto [k, n] : {std::pair{4, 3}, std::pair{2, 4}}) {
    FatTree t(k, n, test_params());
    CAPTURE(k, n);
    int S = t.switches_per_level();
    REQUIRE(t.node_slots() == S * k);
    REQUIRE(t.routers() == n * S);
    REQUIRE(t.endpoint_routers() == S);
    REQUIRE(static_cast<long long>(t.link_count()) == 2LL * (n - 1) * S * k);
    REQUIRE(t.router_of_node(k - 1) == 0);
    REQUIRE(t.router_of_node(k) == 1);
    check_every_pair(t, [&](RouterId a) { return bfs(t, a); });
    for (RouterId a = 0; a < S; ++a)
      for (RouterId b = 0; b < S; ++b) {
        int L = t.nca_level(a, b);
        auto cands = t.minimal_routes(a, b, 64);
        std::size_t expect = 1;
        for (int i = 0; i < L; ++i) expect *= static_cast<std::size_t>(k);
        CHECK(cands.size() == std::min<std::size_t>(expect, 64));
        for (const auto& r : cands) {
          REQUIRE(static_cast<int>(r.size()) == 2 * L);
          for (int i = 0; i < L; ++i) {
            REQUIRE(t.link(r[static_cast<std::size_t>(i)]).cls == LinkClass::Up);
            REQUIRE(t.link(r[static_cast<std::size_t>(i)]).level == i);
            REQUIRE(t.link(r[static_cast<std::size_t>(2 * L - 1 - i)]).cls == LinkClass::Down);
            REQUIRE(t.link(r[static_cast<std::size_t>(2 * L - 1 - i)]).level == i);
          }
        }
        // d-mod-k: after the up phase the default route stands on switch (L, b).
        if (L > 0) CHECK(t.link(cands.front()[static_cast<std::size_t>(L - 1)]).to == L * S + b);
      }
  }
  FatTree q(4, 3, test_params());
  Route r = q.default_route(0, 15);
  REQUIRE(r.size() == 4);
  CHECK(q.link_name(r[0]) == "r0-up3");
  CHECK(q.link(r[1]).dim == 3);
  CHECK(q.min_hops(0, 1) == 2);
  CHECK(q.min_hops(0, 0) == 0);
  CHECK_THROWS_AS(q.default_route(0, 16), std::out_of_range);  // router 16 is a level-1 switch, not a leaf
}

// Configuration: dragonfly of 5 groups x 4 routers x 2 nodes, 2 global links per router (8 global ports per group,
//   m = 4 other groups, so 2 global links join every pair of groups).
// Expected: local links all-to-all in each group (5 * 12), 2 global links each way between every pair of groups
//   (5 * 8); every ordered router pair: default route a chain of min_hops (0..3) links with at most one Global link;
//   min_hops equals the BFS distance restricted to paths with at most one global link (BFS on the local-only graph,
//   combined over the global links joining the two groups), and the unrestricted BFS distance is never larger;
//   minimal_routes offers one route per global link (2) between different groups, shortest first;
//   route_via through a router of a third group uses exactly two Global links; hand-checked arrangement: group 0's
//   links to group 1 are r0 -> r5 and r2 -> r7, so 0 -> 4 is r0-g0-r5, r5-l-r4.
// How validated: filtered boost::breadth_first_search; link classes along routes; hand-derived port arithmetic.
TEST_CASE("platform/topology dragonfly: minimal routes use at most one global link, min_hops = restricted BFS",
          "[unit][topology]") {
  Dragonfly t(5, 4, 2, 2, test_params());
  REQUIRE(t.routers() == 20);
  REQUIRE(t.node_slots() == 40);
  REQUIRE(t.slices() == 2);
  REQUIRE(t.link_count() == 5 * 12 + 5 * 8);
  // Every pair of groups joined both ways by `slices` links.
  for (int g = 0; g < 5; ++g)
    for (int h = 0; h < 5; ++h) {
      if (g == h) continue;
      for (int s = 0; s < 2; ++s) {
        const auto& l = t.link(t.global_link(g, h, s));
        CHECK(l.cls == LinkClass::Global);
        CHECK(t.group_of(l.from) == g);
        CHECK(t.group_of(l.to) == h);
      }
    }
  std::vector<std::vector<int>> dl;
  for (RouterId r = 0; r < t.routers(); ++r) dl.push_back(bfs(t, r, /*local_only=*/true));
  auto restricted = [&](RouterId a) {
    std::vector<int> d(static_cast<std::size_t>(t.routers()), 1 << 20);
    for (RouterId b = 0; b < t.routers(); ++b) {
      if (t.group_of(a) == t.group_of(b)) {
        d[static_cast<std::size_t>(b)] = dl[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
        continue;
      }
      for (LinkId id = 0; id < t.link_count(); ++id) {
        const auto& l = t.link(id);
        if (l.cls != LinkClass::Global || t.group_of(l.from) != t.group_of(a) || t.group_of(l.to) != t.group_of(b))
          continue;
        d[static_cast<std::size_t>(b)] =
            std::min(d[static_cast<std::size_t>(b)], dl[static_cast<std::size_t>(a)][static_cast<std::size_t>(l.from)] +
                                                         1 + dl[static_cast<std::size_t>(l.to)][static_cast<std::size_t>(b)]);
      }
    }
    return d;
  };
  check_every_pair(t, restricted);
  for (RouterId a = 0; a < t.routers(); ++a) {
    auto full = bfs(t, a);
    for (RouterId b = 0; b < t.routers(); ++b) {
      CAPTURE(a, b);
      CHECK(full[static_cast<std::size_t>(b)] <= t.min_hops(a, b));
      CHECK(t.min_hops(a, b) <= 3);
      auto cands = t.minimal_routes(a, b, 8);
      CHECK(cands.size() == (t.group_of(a) == t.group_of(b) ? 1u : 2u));
      for (std::size_t i = 0; i < cands.size(); ++i) {
        CHECK(count_class(t, cands[i], LinkClass::Global) == (t.group_of(a) == t.group_of(b) ? 0 : 1));
        CHECK(cands[i].size() <= 3);
        if (i > 0) CHECK(cands[i - 1].size() <= cands[i].size());
      }
      for (RouterId via = 0; via < t.routers(); ++via) {
        if (t.group_of(via) == t.group_of(a) || t.group_of(via) == t.group_of(b)) continue;
        Route v = t.route_via(a, via, b);
        REQUIRE(is_chain(t, v, a, b));
        CHECK(count_class(t, v, LinkClass::Global) == 2);
      }
    }
  }
  Route r = t.default_route(0, 4);
  REQUIRE(r.size() == 2);
  CHECK(t.link_name(r[0]) == "r0-g0-r5");
  CHECK(t.link_name(r[1]) == "r5-l-r4");
  CHECK(t.link(t.global_link(0, 1, 1)).from == 2);
  CHECK(t.link(t.global_link(0, 1, 1)).to == 7);
  // Link names are unique (they name engine resources).
  std::set<std::string> names;
  for (LinkId id = 0; id < t.link_count(); ++id) names.insert(t.link_name(id));
  CHECK(names.size() == t.link_count());
}

// Configuration: dragonfly of 5 groups x 4 routers x 2 nodes, 2 global links per router (2 slices between groups).
// Expected: for every router pair in different groups, every intermediate group and every slice, the links
//   valiant_hops() gives without building a route are the Valiant route read from the link table: a local hop to the
//   global link's source router (when a is not it), that global link (from a's group to the intermediate one, the
//   requested slice), then default_route() from the router the link lands on; it is a chain from a to b with two
//   global links, and valiant_route() returns the same links; minimal_hops_via() equals minimal_route_via().
// How validated: each global link's routers read through link(id) (the table the constructor filled), against the
//   arithmetic the route functions use; fails when a global link's landing router is computed wrongly.
TEST_CASE("platform/topology dragonfly: Valiant and minimal links without building a route equal the link table's",
          "[unit][topology]") {
  Dragonfly t(5, 4, 2, 2, test_params());
  for (RouterId a = 0; a < t.routers(); ++a)
    for (RouterId b = 0; b < t.routers(); ++b) {
      if (t.group_of(a) == t.group_of(b)) continue;
      for (int s = 0; s < t.slices(); ++s) {
        CAPTURE(a, b, s);
        const Dragonfly::MinimalHops m = t.minimal_hops_via(a, b, s);
        CHECK(Route(m.links, m.links + m.hops) == t.minimal_route_via(a, b, s));
        for (int c = 0; c < t.groups(); ++c) {
          if (c == t.group_of(a) || c == t.group_of(b)) continue;
          CAPTURE(c);
          const LinkProps& gl = t.link(t.global_link(t.group_of(a), c, s));
          Route expected;
          if (a != gl.from) expected.push_back(t.local_link(a, gl.from));
          expected.push_back(gl.id);
          for (LinkId id : t.default_route(gl.to, b)) expected.push_back(id);
          const Dragonfly::ValiantHops v = t.valiant_hops(a, c, s, b);
          const Route got(v.links, v.links + v.hops);
          CHECK(got == expected);
          CHECK(got == t.valiant_route(a, c, s, b));
          CHECK(is_chain(t, got, a, b));
          CHECK(count_class(t, got, LinkClass::Global) == 2);
        }
      }
    }
}

// Configuration: flat network of 10 nodes (one switch).
// Expected: one router, no links, every node on router 0, empty routes, min_hops 0, BFS distance 0.
// How validated: the common every-pair check and direct field checks.
TEST_CASE("platform/topology flat: one switch, no links, empty routes", "[unit][topology]") {
  Flat t(10, test_params());
  REQUIRE(t.routers() == 1);
  REQUIRE(t.link_count() == 0);
  REQUIRE(t.node_slots() == 10);
  CHECK(t.router_of_node(9) == 0);
  check_every_pair(t, [&](RouterId a) { return bfs(t, a); });
  CHECK(t.default_route(0, 0).empty());
}

// Configuration: each topology built through the registry (make_topology) from a JSON shape, then given new
//   LinkParams.
// Expected: the registry lists torus, fat_tree, dragonfly, flat with a description and a source; describe() names the
//   kind and the shape; set_link_params changes every link's bandwidth and latency and nothing else (same link
//   count, same routes); link_classes() lists the classes the shape uses; a class missing from LinkParams is 0;
//   link_bandwidth() and link_latency() (read by class, without the link table) equal link(id)'s before and after.
// How validated: field comparisons before and after.
TEST_CASE("platform/topology registry: factories, describe, set_link_params", "[unit][topology]") {
  const auto& reg = topologies();
  CHECK(reg.names() == std::vector<std::string>{"torus", "fat_tree", "dragonfly", "flat"});
  for (const auto& e : reg.all()) {
    CHECK_FALSE(e.description.empty());
    CHECK_FALSE(e.source.empty());
  }
  struct Case {
    std::string kind;
    nlohmann::json shape;
    std::vector<LinkClass> classes;
  };
  std::vector<Case> cases{
      {"torus", {{"kind", "torus"}, {"dims", {4, 3, 2}}, {"nodes_per_router", 2}, {"wrap", {true, false, true}},
                 {"routing", "minimal"}, {"source", "test"}},
       {LinkClass::X, LinkClass::Y, LinkClass::Z}},
      {"fat_tree", {{"arity", 4}, {"levels", 3}, {"compute_nodes", 60}}, {LinkClass::Up, LinkClass::Down}},
      {"dragonfly", {{"groups", 5}, {"routers_per_group", 4}, {"nodes_per_router", 2}, {"global_links_per_router", 2}},
       {LinkClass::Local, LinkClass::Global}},
      {"flat", {{"compute_nodes", 8}}, {}}};
  for (const auto& c : cases) {
    CAPTURE(c.kind);
    auto t = make_topology(c.kind, c.shape, LinkParams{{}, 0}, "machine.json");
    CHECK(t->kind() == c.kind);
    CHECK(t->describe().at("kind") == c.kind);
    CHECK(t->link_classes() == c.classes);
    for (LinkId id = 0; id < t->link_count(); ++id) {
      CHECK(t->link(id).bandwidth == 0);
      CHECK(t->link_bandwidth(id) == 0);
    }
    Route before = t->default_route(0, t->endpoint_routers() - 1);
    std::size_t links = t->link_count();
    t->set_link_params(test_params());
    CHECK(t->link_count() == links);
    CHECK(t->default_route(0, t->endpoint_routers() - 1) == before);
    for (LinkId id = 0; id < t->link_count(); ++id) {
      CHECK(t->link(id).bandwidth == test_params().bandwidth.at(t->link(id).cls));
      CHECK(t->link(id).latency == 1e-7);
      CHECK(t->link_bandwidth(id) == t->link(id).bandwidth);
      CHECK(t->link_latency(id) == t->link(id).latency);
    }
  }
  CHECK(make_topology("fat_tree", {{"arity", 4}, {"levels", 3}, {"compute_nodes", 60}}, {}, "m.json")->compute_nodes() ==
        60);
  CHECK(to_string(LinkClass::Global) == std::string("global"));
  CHECK(link_class_from_string("up") == LinkClass::Up);
  CHECK_FALSE(link_class_from_string("sideways").has_value());
}

// Configuration: bad shapes and kinds handed to make_topology with file "m.json".
// Expected: an InputError whose key() is the offending key path and whose message names the file and the key:
//   unknown kind (did you mean), torus with 2 dims, unknown torus key (did you mean), wrap not 3 booleans, fat tree
//   whose arity and levels cannot hold compute_nodes, fat tree arity 1, dragonfly whose global ports cannot join
//   every pair of groups, flat without compute_nodes.
// How validated: InputError::key() and substrings of what().
TEST_CASE("platform/topology: bad shapes are InputErrors naming the key", "[unit][topology]") {
  auto expect = [](const std::string& kind, const nlohmann::json& shape, const std::string& key,
                   const std::string& text) {
    CAPTURE(kind, shape.dump());
    try {
      make_topology(kind, shape, LinkParams{}, "m.json");
      FAIL("no InputError");
    } catch (const InputError& e) {
      CHECK(e.key() == key);
      CHECK(e.file() == "m.json");
      CHECK_THAT(e.what(), Catch::Contains("m.json") && Catch::Contains("'" + key + "'") && Catch::Contains(text));
    }
  };
  expect("dragonfy", {{"groups", 2}}, "topology.kind", "did you mean 'dragonfly'");
  expect("mesh", {}, "topology.kind", "known: torus, fat_tree, dragonfly, flat");
  expect("torus", {{"dims", {4, 4}}, {"nodes_per_router", 2}}, "topology.dims", "exactly 3 dimensions");
  expect("torus", {{"dims", {4096, 4096, 2}}, {"nodes_per_router", 2}}, "topology.dims", "routers");
  expect("torus", {{"dims", {4, 4, 4}}, {"nodes_per_rooter", 2}}, "topology.nodes_per_router", "required key");
  expect("torus", {{"dims", {4, 4, 4}}, {"nodes_per_router", 2}, {"warp", {true, true, true}}}, "topology.warp",
         "did you mean 'wrap'");
  expect("torus", {{"dims", {4, 4, 4}}, {"nodes_per_router", 2}, {"wrap", {true, true}}}, "topology.wrap",
         "three booleans");
  expect("torus", {{"dims", {4, 4, 4}}, {"nodes_per_router", 2}, {"compute_nodes", 129}}, "topology.compute_nodes",
         "a 4 x 4 x 4 torus with 2 node(s) per router holds at most 128 nodes");
  expect("torus", {{"dims", {4, 4, 4}}, {"nodes_per_router", 2}, {"compute_nodes", 0}}, "topology.compute_nodes",
         "out of range");
  expect("fat_tree", {{"arity", 4}, {"levels", 2}, {"compute_nodes", 17}}, "topology.compute_nodes",
         "holds at most 16 nodes");
  expect("fat_tree", {{"arity", 1}, {"levels", 2}}, "topology.arity", "out of range");
  expect("fat_tree", {{"arity", 4}}, "topology.levels", "required key");
  expect("dragonfly", {{"groups", 10}, {"routers_per_group", 2}, {"nodes_per_router", 1}, {"global_links_per_router", 4}},
         "topology.global_links_per_router", "need at least 5 per router");
  expect("dragonfly", {{"groups", 10}, {"routers_per_group", 2}, {"nodes_per_router", 1}, {"global_links_per_router", 5},
                       {"compute_nodes", 21}},
         "topology.compute_nodes", "20 node slots");
  expect("flat", nlohmann::json::object(), "topology.compute_nodes", "required key");
  // The unknown-key check runs after the required keys are read: an unknown key alone is named with a suggestion.
  expect("flat", {{"compute_nodes", 4}, {"compute_node", 4}}, "topology.compute_node", "did you mean 'compute_nodes'");
}
