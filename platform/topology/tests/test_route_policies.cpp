// Tests of the route policies (platform/topology/route_policies.hpp) and their registry.
#include "core/errors.hpp"
#include "platform/topology/dragonfly.hpp"
#include "platform/topology/fat_tree.hpp"
#include "platform/topology/flat.hpp"
#include "platform/topology/route_policies.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/tests/route_checks.hpp"
#include "platform/topology/torus.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

using namespace ompisim;
using namespace ompisim::topology;
using ompisim::topology::test::is_chain;

namespace {

class MapLoad : public LinkLoad {
public:
  std::map<LinkId, double> m;
  double load(LinkId id) const override {
    auto it = m.find(id);
    return it == m.end() ? 0.0 : it->second;
  }
};

bool uses(const Route& r, LinkId l) { return std::find(r.begin(), r.end(), l) != r.end(); }

int globals(const Topology& t, const Route& r) { return test::count_class(t, r, LinkClass::Global); }

RouteFn policy(const std::string& name, const std::string& kind) {
  return find_route_policy(name, kind, "m.json", "routing.policy").route;
}

}  // namespace

// Configuration: 4-ary 3-tree; flow leaf 0 -> leaf 15 (nearest common ancestors at level 2, 4 hops). A LinkLoad
//   reports 1e9 on the up link the d-mod-k route takes first (leaf 0, up port 3), 0 elsewhere.
// Expected: "minimal" keeps the d-mod-k route through the saturated link; "updown_adaptive" takes another up port
//   (the lowest-numbered unloaded one, port 0), stays minimal (4 links, up then down) and ends at leaf 15; with no
//   load (null) or equal loads it is the d-mod-k route; every leaf pair under a random-looking load gives a chain of
//   min_hops links that never takes an up link more loaded than the d-mod-k alternative at that step.
// How validated: link ids and classes along the routes.
TEST_CASE("platform/topology policy updown_adaptive: avoids a saturated up link, minimal does not",
          "[unit][topology]") {
  FatTree t(4, 3, LinkParams{});
  MapLoad load;
  LinkId hot = t.up_link(0, 3);
  load.m[hot] = 1e9;
  Route det = policy("minimal", "fat_tree")(t, 0, 15, &load, 7);
  Route ada = policy("updown_adaptive", "fat_tree")(t, 0, 15, &load, 7);
  CHECK(uses(det, hot));
  CHECK_FALSE(uses(ada, hot));
  CHECK(ada.size() == 4);
  CHECK(is_chain(t, ada, 0, 15));
  CHECK(ada.front() == t.up_link(0, 0));
  CHECK(t.link(ada[2]).cls == LinkClass::Down);
  CHECK(policy("updown_adaptive", "fat_tree")(t, 0, 15, nullptr, 7) == t.default_route(0, 15));
  MapLoad flat;
  for (LinkId id = 0; id < t.link_count(); ++id) flat.m[id] = 5;
  CHECK(policy("updown_adaptive", "fat_tree")(t, 0, 15, &flat, 7) == t.default_route(0, 15));
  MapLoad mixed;
  for (LinkId id = 0; id < t.link_count(); ++id) mixed.m[id] = static_cast<double>(mix_flow_key(id) % 5);
  for (RouterId a = 0; a < t.endpoint_routers(); ++a)
    for (RouterId b = 0; b < t.endpoint_routers(); ++b) {
      Route r = updown_adaptive_route(t, a, b, &mixed, 0);
      REQUIRE(is_chain(t, r, a, b));
      REQUIRE(static_cast<int>(r.size()) == t.min_hops(a, b));
      RouterId cur = a;
      for (int l = 0; l < t.nca_level(a, b); ++l) {
        REQUIRE(mixed.load(r[static_cast<std::size_t>(l)]) <= mixed.load(t.up_link(cur, t.dmodk_port(b, l))));
        cur = t.link(r[static_cast<std::size_t>(l)]).to;
      }
    }
}

// Configuration: dragonfly 5 groups x 4 routers x 2 nodes x 2 global links per router (2 global links between every
//   pair of groups). Flow router 0 (group 0) -> router 4 (group 1); the default minimal route is r0-g0-r5, r5-l-r4.
// Expected: (1) global link r0 -> r5 saturated: "minimal" still uses it; "ugal" does not (it takes the other minimal
//   route, through r2 -> r7, 3 links, one global). (2) both global links from group 0 to group 1 saturated: "ugal"
//   takes the Valiant route (2 global links, neither saturated). (3) no load: "ugal" is the default route.
// How validated: link ids and global-link counts along the routes; the rule load x hops written out in the header.
TEST_CASE("platform/topology policy ugal: avoids a saturated global link, minimal does not", "[unit][topology]") {
  Dragonfly t(5, 4, 2, 2, LinkParams{});
  auto ugal = policy("ugal", "dragonfly");
  auto minimal = policy("minimal", "dragonfly");
  LinkId g0 = t.global_link(0, 1, 0), g1 = t.global_link(0, 1, 1);
  MapLoad load;
  load.m[g0] = 1e9;
  for (std::uint64_t key : {0ULL, 1ULL, 12345ULL}) {
    CAPTURE(key);
    Route m = minimal(t, 0, 4, &load, key);
    Route u = ugal(t, 0, 4, &load, key);
    CHECK(uses(m, g0));
    CHECK_FALSE(uses(u, g0));
    CHECK(uses(u, g1));
    CHECK(u.size() == 3);
    CHECK(globals(t, u) == 1);
    CHECK(is_chain(t, u, 0, 4));
  }
  load.m[g1] = 1e9;
  for (std::uint64_t key : {0ULL, 1ULL, 12345ULL}) {
    Route u = ugal(t, 0, 4, &load, key);
    CHECK(globals(t, u) == 2);
    CHECK_FALSE(uses(u, g0));
    CHECK_FALSE(uses(u, g1));
    CHECK(is_chain(t, u, 0, 4));
    CHECK(u == valiant_route(t, 0, 4, &load, key));
  }
  CHECK(ugal(t, 0, 4, nullptr, 3) == t.default_route(0, 4));
  // Within a group, equal loads everywhere: the direct link (1 x 9 against 2 x 9).
  MapLoad all;
  for (LinkId id = 0; id < t.link_count(); ++id) all.m[id] = 9;
  CHECK(ugal(t, 0, 1, &all, 3) == t.default_route(0, 1));
}

// Configuration: the dragonfly above; flows from router 0 to router 1 (both in group 0, routers 0..3).
// Expected: no load, or the direct local link r0-l-r1 at most twice as loaded as the links through an intermediate
//   router: the direct link; more than twice: the two local links through router 2 or 3 (never 0 or 1), chosen by the
//   flow key, both used over 64 keys; "minimal" keeps the direct link whatever the load; a group of 2 routers has no
//   intermediate router and keeps it too.
// How validated: the rule (take the two-hop route when 2 x its most loaded link < the direct link's load) applied by
//   hand to loads 0, 2, 4 and 5 on the direct link and 2 on every other link.
TEST_CASE("platform/topology policy ugal: inside a group, around a loaded local link", "[unit][topology]") {
  Dragonfly t(5, 4, 2, 2, LinkParams{});
  auto ugal = policy("ugal", "dragonfly");
  auto minimal = policy("minimal", "dragonfly");
  const LinkId direct = t.local_link(0, 1);
  MapLoad load;
  for (LinkId id = 0; id < t.link_count(); ++id) load.m[id] = 2;
  CHECK(ugal(t, 0, 1, nullptr, 7) == Route{direct});
  for (double d : {0.0, 2.0, 4.0}) {
    load.m[direct] = d;
    CHECK(ugal(t, 0, 1, &load, 7) == Route{direct});
  }
  load.m[direct] = 5;
  std::set<RouterId> via;
  for (std::uint64_t key = 0; key < 64; ++key) {
    CAPTURE(key);
    Route u = ugal(t, 0, 1, &load, key);
    REQUIRE(u.size() == 2);
    CHECK(is_chain(t, u, 0, 1));
    CHECK(u == ugal(t, 0, 1, &load, key));
    const RouterId c = t.link(u[0]).to;
    CHECK((c == 2 || c == 3));
    via.insert(c);
    CHECK(minimal(t, 0, 1, &load, key) == Route{direct});
  }
  CHECK(via.size() == 2);
  Dragonfly pair(3, 2, 2, 2, LinkParams{});
  MapLoad heavy;
  heavy.m[pair.local_link(0, 1)] = 100;
  CHECK(ugal(pair, 0, 1, &heavy, 7) == Route{pair.local_link(0, 1)});
}

// Configuration: the same dragonfly; every ordered router pair in different groups, flow keys 0..63.
// Expected: "valiant" routes are chains with exactly 2 global links, through a third group (the landing router of the
//   first global link is in neither the source nor the destination group), at most 5 links; the same key gives the
//   same route; over 64 keys every one of the 3 possible intermediate groups is used; within a group the route is
//   the minimal one.
// How validated: link classes and groups along the routes; a set of intermediate groups.
TEST_CASE("platform/topology policy valiant: two global links through a hashed intermediate group", "[unit][topology]") {
  Dragonfly t(5, 4, 2, 2, LinkParams{});
  auto val = policy("valiant", "dragonfly");
  for (RouterId a = 0; a < t.routers(); ++a)
    for (RouterId b = 0; b < t.routers(); ++b) {
      CAPTURE(a, b);
      if (t.group_of(a) == t.group_of(b)) {
        CHECK(val(t, a, b, nullptr, 9) == t.default_route(a, b));
        continue;
      }
      std::set<int> mids;
      for (std::uint64_t key = 0; key < 64; ++key) {
        Route r = val(t, a, b, nullptr, key);
        REQUIRE(is_chain(t, r, a, b));
        REQUIRE(globals(t, r) == 2);
        REQUIRE(r.size() <= 5);
        auto first = std::find_if(r.begin(), r.end(), [&](LinkId l) { return t.link(l).cls == LinkClass::Global; });
        int mid = t.group_of(t.link(*first).to);
        REQUIRE(mid != t.group_of(a));
        REQUIRE(mid != t.group_of(b));
        mids.insert(mid);
        REQUIRE(val(t, a, b, nullptr, key) == r);
      }
      CHECK(mids.size() == 3);
    }
}

// Configuration: the policy registry; a 4x4x4 torus; a flat network.
// Expected: five policies with descriptions and sources, kinds as documented; dimension_order and minimal are the
//   default route on the torus; find_route_policy refuses an unknown name (did you mean, and the torus's policies)
//   and a policy that does not apply to the kind, as InputErrors naming the file and key; every policy is
//   deterministic (same inputs, same route) on the topologies it applies to, and one marked by_router_pair
//   (dimension_order and minimal only) gives the same route with no load and another key; a registry refuses
//   duplicates.
// How validated: InputError key and text; repeated calls compared.
TEST_CASE("platform/topology policy registry: lookup, applicability and errors", "[unit][topology]") {
  const auto& reg = route_policies();
  CHECK(reg.names() == std::vector<std::string>{"dimension_order", "minimal", "updown_adaptive", "valiant", "ugal"});
  for (const auto& e : reg.all()) {
    CHECK_FALSE(e.description.empty());
    CHECK_FALSE(e.source.empty());
  }
  CHECK(reg.names_for("torus") == std::vector<std::string>{"dimension_order", "minimal"});
  CHECK(reg.names_for("fat_tree") == std::vector<std::string>{"minimal", "updown_adaptive"});
  CHECK(reg.names_for("dragonfly") == std::vector<std::string>{"minimal", "valiant", "ugal"});
  CHECK(reg.names_for("flat") == std::vector<std::string>{"minimal"});
  for (const auto& e : reg.all())
    CHECK(e.by_router_pair == (e.name == "dimension_order" || e.name == "minimal"));

  Torus tor({4, 4, 4}, 1, {true, true, true}, LinkParams{});
  CHECK(policy("dimension_order", "torus")(tor, 0, 63, nullptr, 0) == tor.default_route(0, 63));
  Flat flat(4, LinkParams{});
  CHECK(policy("minimal", "flat")(flat, 0, 0, nullptr, 0).empty());

  try {
    find_route_policy("valiantt", "torus", "m.json", "routing.policy");
    FAIL("no InputError");
  } catch (const InputError& e) {
    CHECK(e.key() == "routing.policy");
    CHECK_THAT(e.what(), Catch::Contains("m.json") && Catch::Contains("did you mean 'valiant'") &&
                             Catch::Contains("dimension_order, minimal"));
  }
  try {
    find_route_policy("ugal", "torus", "m.json", "routing.policy");
    FAIL("no InputError");
  } catch (const InputError& e) {
    CHECK(e.key() == "routing.policy");
    CHECK_THAT(e.what(), Catch::Contains("does not apply to topology kind 'torus'") && Catch::Contains("dragonfly"));
  }
  CHECK_THROWS_AS(find_route_policy("updown_adaptive", "dragonfly", "m.json", "k"), InputError);

  FatTree ft(2, 4, LinkParams{});
  Dragonfly df(5, 4, 2, 2, LinkParams{});
  MapLoad load;
  for (LinkId id = 0; id < 200; ++id) load.m[id] = static_cast<double>(mix_flow_key(id) % 3);
  for (const auto& e : reg.all()) {
    for (const Topology* t : {static_cast<const Topology*>(&tor), static_cast<const Topology*>(&ft),
                              static_cast<const Topology*>(&df), static_cast<const Topology*>(&flat)}) {
      if (!e.applies_to(t->kind())) continue;
      CAPTURE(e.name, t->kind());
      for (RouterId a = 0; a < t->endpoint_routers(); a += 3)
        for (RouterId b = 0; b < t->endpoint_routers(); b += 2) {
          Route r = e.route(*t, a, b, &load, 77);
          REQUIRE(is_chain(*t, r, a, b));
          REQUIRE(e.route(*t, a, b, &load, 77) == r);
          if (e.by_router_pair) REQUIRE(e.route(*t, a, b, nullptr, mix_flow_key(a * 131 + b)) == r);
        }
    }
  }
  RoutePolicyRegistry r2;
  register_route_policies(r2);
  CHECK_THROWS_AS(r2.add({"ugal", "dup", {}, "", &ugal_route}), std::invalid_argument);
  CHECK_THROWS_AS(r2.add({"x", "no function", {}, "", nullptr}), std::invalid_argument);
}
