// The whole-machine Frontier what-ifs (scenarios/slingshot/whatif_routing_*_74groups.json) and the dragonfly of the
// frontier machine file they run on.
#include "platform/machine.hpp"
#include "platform/topology/dragonfly.hpp"
#include "runner/registries.hpp"
#include "runner/scenario.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <utility>

using namespace ompisim;

// Configuration: the four whole-machine what-ifs (1 MiB allreduce on 9,408 ranks, 64 KiB alltoall on 4,096 ranks,
// each with minimal and with UGAL routing), loaded as `ompisim run` loads them (no run).
// Expected: each parses with its routing, rank count and one rank per node; the alltoall lists 4,096 distinct nodes
// touching all 74 groups; the allreduce's "tuned" choice at 9,408 ranks and 1 MiB is accepted (coll/tuned v5:
// rabenseifner, implemented; a choice not implemented would be refused at load).
// How validated: the Scenario fields; a broken file, an unknown key or an algorithm the model lacks throws here.
TEST_CASE("frontier whole-machine what-ifs: the four scenarios load", "[runner][frontier]") {
  const std::string dir = "scenarios/slingshot/";
  for (const char* r : {"minimal", "ugal"}) {
    INFO(r);
    Scenario ar = load_scenario(dir + "whatif_routing_" + r + "_allreduce_1m_9408p_74groups.json");
    CHECK(ar.routing == r);
    CHECK(ar.ranks == std::vector<long long>{9408});
    CHECK(ar.ranks_per_node == 1);
    CHECK(!ar.description.empty());
    Scenario aa = load_scenario(dir + "whatif_routing_" + r + "_alltoall_64k_4096p_74groups.json");
    CHECK(aa.routing == r);
    CHECK(aa.ranks == std::vector<long long>{4096});
    CHECK(aa.ranks_per_node == 1);
    REQUIRE(aa.nodes.size() == 4096);
    std::set<long long> nodes(aa.nodes.begin(), aa.nodes.end()), groups;
    CHECK(nodes.size() == 4096);
    for (long long n : aa.nodes) groups.insert(n / 128);  // 128 nodes (32 switches x 4) per group
    CHECK(groups.size() == 74);
    CHECK(*nodes.rbegin() < 9408);
  }
}

// Configuration: models/slingshot/machines/frontier.json as loaded (its cxi network's dragonfly).
// Expected (hardware-sources.md §2b): 9,408 nodes in 74 groups of 32 switches with 4 nodes each; 4 global links
// between every pair of groups, each way (21,608 directed global links in all), so each group uses 73 x 4 = 292 global
// ports, and 292 x 200 Gb/s = 58.4 Tb/s of global bandwidth per group, the documented taper (102.4 Tb/s injection:
// 512 ports x 200 Gb/s).
// How validated: counting the topology's Global links by (source group, destination group) and those leaving group 0
// (the model's links carry 25 GB/s x the packet payload efficiency, so the taper is checked as a port count); a
// machine file with another global_links_per_router or group count fails the counts.
TEST_CASE("frontier machine: 9,408 nodes, 74 groups, 4 global links between every pair of groups", "[topology][frontier]") {
  auto m = load_machine("frontier", nic_kinds());
  CHECK(m->nodes == 9408);
  REQUIRE(m->networks().size() == 1);
  const auto* df = dynamic_cast<const topology::Dragonfly*>(m->networks()[0].topology.get());
  REQUIRE(df != nullptr);
  CHECK(df->compute_nodes() == 9408);
  CHECK(df->groups() == 74);
  CHECK(df->routers_per_group() == 32);
  CHECK(df->nodes_per_router() == 4);
  CHECK(df->slices() == 4);
  std::map<std::pair<int, int>, int> between;
  int out_of_group0 = 0;
  std::size_t global = 0;
  for (std::size_t id = 0; id < df->link_count(); ++id) {
    const auto& l = df->link(static_cast<topology::LinkId>(id));
    if (l.cls != topology::LinkClass::Global) continue;
    ++global;
    ++between[{df->group_of(l.from), df->group_of(l.to)}];
    if (df->group_of(l.from) == 0) ++out_of_group0;
  }
  CHECK(global == 74u * 73u * 4u);
  CHECK(between.size() == 74u * 73u);
  for (const auto& [pair, n] : between) {
    INFO(pair.first << " -> " << pair.second);
    CHECK(pair.first != pair.second);
    CHECK(n == 4);
  }
  CHECK(out_of_group0 == 292);  // x 200 Gb/s = 58.4 Tb/s
}

// Configuration: frontier's dragonfly, the default (minimal) route between every switch of group 0 and every switch
// of group 1. Expected: the shortest route, ties to the lowest link, takes global link 0 for 847 of the 1,024 switch
// pairs and links 1, 2, 3 for 61, 59 and 57 (a switch that owns link s, or one where link s lands, is one hop closer
// by it), the funnel models/slingshot/README.md describes. How validated: the global link on each default route,
// compared with global_link(0, 1, s).
TEST_CASE("frontier machine: minimal routes between two groups mostly share one global link", "[topology][frontier]") {
  auto m = load_machine("frontier", nic_kinds());
  const auto* df = dynamic_cast<const topology::Dragonfly*>(m->networks()[0].topology.get());
  REQUIRE(df != nullptr);
  std::map<int, int> per_link;
  for (int a = 0; a < 32; ++a)
    for (int b = 32; b < 64; ++b) {
      int used = -1;
      for (auto id : df->default_route(a, b))
        for (int s = 0; s < df->slices(); ++s)
          if (id == df->global_link(0, 1, s)) used = s;
      ++per_link[used];
    }
  CHECK(per_link == std::map<int, int>{{0, 847}, {1, 61}, {2, 59}, {3, 57}});
}
