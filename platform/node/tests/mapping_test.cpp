#include "platform/node/mapping.hpp"
#include "platform/node/tests/node_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using namespace ompisim::platform;
using ompisim::platform::test::magny_cours;

namespace {

struct Row {
  long long rank;
  long long node;
  int core;
};

void check_table(const RankMap& m, const std::vector<Row>& rows) {
  for (auto& r : rows) {
    INFO("rank " << r.rank);
    RankLocation loc = m.locate(r.rank);
    CHECK(loc.node_index == r.node);
    CHECK(loc.core == r.core);
  }
}

MappingPolicy policy(const Json& j, const NodeType& node) {
  ObjectReader r(j, "scenario.json", "placement");
  MappingPolicy p = read_mapping_policy(r, node);
  r.finish();
  return p;
}

InputError policy_error(const Json& j, const NodeType& node) {
  try {
    policy(j, node);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError thrown");
  throw std::logic_error("unreachable");
}

}  // namespace

// Configuration: Open MPI v1.8 defaults (no map_by, no bind_to).
// Expected:      np <= 2 -> map by core, bind to core; np > 2 -> map by socket, bind to socket; an explicit map_by
//                binds to its object, map_by node to none, map_by slot follows the np rule.
// How validated: v1.8.8 orte/mca/rmaps/base/rmaps_base_map_job.c:119-141 and 251-334, and the orterun.1 (v1.8.8)
//                sentence "Bind to core: when the number of processes is <= 2 / Bind to socket: ... > 2".
TEST_CASE("platform/mapping: Open MPI v1.8 default policies", "[unit][platform]") {
  CHECK(default_map_by(1) == MapBy::Core);
  CHECK(default_map_by(2) == MapBy::Core);
  CHECK(default_map_by(3) == MapBy::Socket);
  CHECK(default_map_by(300000) == MapBy::Socket);
  CHECK(default_bind_to(std::nullopt, 2) == BindTo::Core);
  CHECK(default_bind_to(std::nullopt, 3) == BindTo::Socket);
  CHECK(default_bind_to(MapBy::Core, 64) == BindTo::Core);
  CHECK(default_bind_to(MapBy::Numa, 64) == BindTo::Numa);
  CHECK(default_bind_to(MapBy::Socket, 1) == BindTo::Socket);
  CHECK(default_bind_to(MapBy::Node, 64) == BindTo::None);
  CHECK(default_bind_to(MapBy::Slot, 2) == BindTo::Core);
  CHECK(default_bind_to(MapBy::Slot, 64) == BindTo::Socket);
}

// Configuration: the orterun.1 (v1.8.8) example node, 2 sockets x 4 cores (here 2 packages x 1 NUMA x 4 cores),
//                np 4, "--map-by core --bind-to core" and "--map-by socket --bind-to socket".
// Expected:      the man page's --report-bindings masks: by core 0001 0002 0004 0008 (cores 0 1 2 3); by socket
//                000f 00f0 000f 00f0 (packages 0 1 0 1; the model puts them on cores 0 4 1 5).
// How validated: masks transcribed from orterun.1 "Mapping, Ranking, and Binding: Oh My!" into allowed_cores.
TEST_CASE("platform/mapping: the orterun.1 binding example", "[unit][platform]") {
  NodeType node({2, 1, 4}, {}, {});
  auto mask = [](CoreRange r) {
    unsigned m = 0;
    for (int c = r.first; c < r.first + r.count; ++c) m |= 1u << c;
    return m;
  };
  RankMap by_core(node, 4, 1, 8, {MapBy::Core, BindTo::Core, {}});
  RankMap by_socket(node, 4, 1, 8, {MapBy::Socket, BindTo::Socket, {}});
  const unsigned core_masks[4] = {0x1, 0x2, 0x4, 0x8}, socket_masks[4] = {0x0f, 0xf0, 0x0f, 0xf0};
  const int socket_cores[4] = {0, 4, 1, 5};
  for (int r = 0; r < 4; ++r) {
    CHECK(mask(by_core.allowed_cores(r)) == core_masks[r]);
    CHECK(mask(by_socket.allowed_cores(r)) == socket_masks[r]);
    CHECK(by_socket.locate(r).core == socket_cores[r]);
    CHECK(by_socket.locate(r).package == r % 2);
  }
}

// Configuration: Cielo-shaped node (2 packages x 2 NUMA x 4 cores), one node, 16 slots, default policy, np = 2.
// Expected:      map by core, bind to core: rank 0 -> core 0, rank 1 -> core 1 (both on NUMA 0, package 0).
// How validated: table from the v1.8 default (bycore for np <= 2) and orte_rmaps_rr_byobj filling cores in order.
TEST_CASE("platform/mapping: np=2 default on a 2x2x4 node", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap m(node, 2, 1, 16, {});
  CHECK(m.map_by() == MapBy::Core);
  CHECK(m.bind_to() == BindTo::Core);
  check_table(m, {{0, 0, 0}, {1, 0, 1}});
  CHECK(m.locate(1) == RankLocation{0, 1, 0, 0});
  CHECK(m.allowed_cores(1) == CoreRange{1, 1});
}

// Configuration: Cielo-shaped node, one node, 16 slots, default policy, np = 16.
// Expected:      map by socket (round robin over the 2 packages), bind to socket: rank i on package i % 2, the
//                (i / 2)-th core of that package: 0->0 1->8 2->1 3->9 4->2 5->10 6->3 7->11 8->4 9->12 10->5 11->13
//                12->6 13->14 14->7 15->15; bound to the package's 8 cores.
// How validated: orte_rmaps_rr_byobj (v1.8.8) cycles objects per node; ranking by slot numbers procs in placement
//                order, which orterun.1 shows for -np 4 on 2 sockets (sockets 0 1 0 1).
TEST_CASE("platform/mapping: np=16 default on a 2x2x4 node", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap m(node, 16, 1, 16, {});
  CHECK(m.map_by() == MapBy::Socket);
  CHECK(m.bind_to() == BindTo::Socket);
  check_table(m, {{0, 0, 0},  {1, 0, 8},  {2, 0, 1},  {3, 0, 9},   {4, 0, 2},   {5, 0, 10},  {6, 0, 3},  {7, 0, 11},
                  {8, 0, 4},  {9, 0, 12}, {10, 0, 5}, {11, 0, 13}, {12, 0, 6},  {13, 0, 14}, {14, 0, 7}, {15, 0, 15}});
  CHECK(m.locate(9) == RankLocation{0, 12, 3, 1});
  CHECK(m.allowed_cores(9) == CoreRange{8, 8});
  CHECK(m.allowed_cores(2) == CoreRange{0, 8});
}

// Configuration: Cielo-shaped node, 3 nodes x 16 slots, np = 40, default (socket) policy: block over nodes.
// Expected:      ranks 0-15 on node 0, 16-31 on node 1, 32-39 on node 2; within each node the socket round robin
//                restarts (rank 17 = local 1 -> core 8; rank 39 = local 7 -> core 11); 3 nodes used.
// How validated: orte_rmaps_rr_byobj no-span mode: fill a node's slots, then the next node; arithmetic by hand.
TEST_CASE("platform/mapping: block over nodes", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap m(node, 40, 3, 16, {});
  check_table(m, {{0, 0, 0}, {15, 0, 15}, {16, 1, 0}, {17, 1, 8}, {32, 2, 0}, {39, 2, 11}});
  CHECK(m.ranks_on_node(0) == 16);
  CHECK(m.ranks_on_node(2) == 8);
  CHECK(m.ranks_on_node(3) == 0);
  CHECK(m.nodes_used() == 3);
  CHECK(m.local_rank(39) == 7);
}

// Configuration: Cielo-shaped node, one node, 16 slots, np = 8 with map_by core, then with map_by numa.
// Expected:      by core: rank i -> core i, bound to it. By NUMA: rank i on NUMA i % 4, its (i / 4)-th core:
//                0->0 1->4 2->8 3->12 4->1 5->5 6->9 7->13, bound to the NUMA node's 4 cores.
// How validated: tables by hand from the round-robin rule of orte_rmaps_rr_byobj.
TEST_CASE("platform/mapping: --map-by core and --map-by numa", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap core(node, 8, 1, 16, policy(Json{{"map_by", "core"}}, node));
  CHECK(core.bind_to() == BindTo::Core);
  check_table(core, {{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {3, 0, 3}, {4, 0, 4}, {5, 0, 5}, {6, 0, 6}, {7, 0, 7}});
  RankMap numa(node, 8, 1, 16, policy(Json{{"map_by", "numa"}}, node));
  CHECK(numa.bind_to() == BindTo::Numa);
  check_table(numa, {{0, 0, 0}, {1, 0, 4}, {2, 0, 8}, {3, 0, 12}, {4, 0, 1}, {5, 0, 5}, {6, 0, 9}, {7, 0, 13}});
  CHECK(numa.locate(6).numa == 2);
  CHECK(numa.allowed_cores(6) == CoreRange{8, 4});
}

// Configuration: 4 nodes x 16 slots, np = 10, map_by node; also the orterun.1 example (3 nodes, np 6).
// Expected:      rank i on node i % 4 as local rank i / 4: node 0 holds 0 4 8, node 1 holds 1 5 9, node 2 holds 2 6,
//                node 3 holds 3 7; bind to none (any of the 16 cores). orterun.1: "--map-by node  0 3 | 1 4 | 2 5".
// How validated: orte_rmaps_rr_bynode balances counts, rank-by node numbers round robin; man page table.
TEST_CASE("platform/mapping: --map-by node over 4 nodes", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap m(node, 10, 4, 16, policy(Json{{"map_by", "node"}}, node));
  CHECK(m.bind_to() == BindTo::None);
  check_table(m, {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 0}, {4, 0, 1}, {5, 1, 1}, {6, 2, 1}, {7, 3, 1}, {8, 0, 2},
                  {9, 1, 2}});
  const long long counts[4] = {3, 3, 2, 2};
  for (int n = 0; n < 4; ++n) CHECK(m.ranks_on_node(n) == counts[n]);
  CHECK(m.allowed_cores(9) == CoreRange{0, 16});
  CHECK(m.nodes_used() == 4);

  RankMap man(node, 6, 3, 4, policy(Json{{"map_by", "node"}}, node));
  check_table(man, {{0, 0, 0}, {3, 0, 1}, {1, 1, 0}, {4, 1, 1}, {2, 2, 0}, {5, 2, 1}});
}

// Configuration: 300,000 ranks over 18,750 Cielo-shaped nodes at 16 per node (default: by socket).
// Expected:      the last rank is local rank 15 on node 18749, core 15; located without a per-rank table.
// How validated: arithmetic; the class holds no per-rank storage (sizeof is independent of the rank count).
TEST_CASE("platform/mapping: whole-machine rank counts are arithmetic", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap m(node, 300000, 18750, 16, {});
  CHECK(m.locate(299999) == RankLocation{18749, 15, 3, 1});
  CHECK(m.locate(150001) == RankLocation{9375, 8, 2, 1});
  CHECK(m.ranks_on_node(18749) == 16);
}

// Configuration: cpu_list [3, 2, 1, 0] on a Cielo-shaped node, np 4, one node.
// Expected:      local rank k on cpu_list[k]: ranks 0..3 on cores 3 2 1 0 (map by core over the list); np > 2 keeps
//                the default socket binding.
// How validated: table by hand.
TEST_CASE("platform/mapping: cpu_list places local ranks on the listed cores", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap m(node, 4, 1, 4, policy(Json{{"cpu_list", {3, 2, 1, 0}}}, node));
  CHECK(m.map_by() == MapBy::Core);
  check_table(m, {{0, 0, 3}, {1, 0, 2}, {2, 0, 1}, {3, 0, 0}});
  CHECK_THROWS_AS(RankMap(node, 8, 1, 8, policy(Json{{"cpu_list", {3, 2, 1, 0}}}, node), "s.json", "placement"),
                  InputError);
}

// Configuration: scenario placements with one mistake each.
// Expected:      InputError naming the key: cpu_list naming core 16 of a 16-core node ("placement.cpu_list[1]"), a core
//                listed twice, map_by "sockt" (did you mean 'socket'), map_by "l3cache" (an mpirun policy not
//                modelled), bind_to "cores" (did you mean 'core'), cpu_list with map_by socket, too many ranks per
//                node, too many ranks for the nodes.
// How validated: key() and reason() of the thrown InputError.
TEST_CASE("platform/mapping: bad placements are input errors naming the key", "[unit][platform]") {
  NodeType node = magny_cours();
  auto e = policy_error(Json{{"cpu_list", {0, 16}}}, node);
  CHECK(e.file() == "scenario.json");
  CHECK(e.key() == "placement.cpu_list[1]");
  CHECK_THAT(e.reason(), Catch::Contains("core 16 does not exist"));

  e = policy_error(Json{{"cpu_list", {0, 0}}}, node);
  CHECK(e.key() == "placement.cpu_list[1]");
  CHECK_THAT(e.reason(), Catch::Contains("listed twice"));

  e = policy_error(Json{{"map_by", "sockt"}}, node);
  CHECK(e.key() == "placement.map_by");
  CHECK_THAT(e.reason(), Catch::Contains("did you mean 'socket'"));

  e = policy_error(Json{{"map_by", "l3cache"}}, node);
  CHECK_THAT(e.reason(), Catch::Contains("does not support"));

  e = policy_error(Json{{"bind_to", "cores"}}, node);
  CHECK(e.key() == "placement.bind_to");
  CHECK_THAT(e.reason(), Catch::Contains("did you mean 'core'"));

  e = policy_error(Json{{"map_by", "socket"}, {"cpu_list", {0, 1}}}, node);
  CHECK(e.key() == "placement.cpu_list");

  try {
    RankMap(node, 17, 1, 17, {}, "s.json", "placement");
    FAIL("no error");
  } catch (const InputError& x) {
    CHECK(x.key() == "placement.ranks_per_node");
  }
  try {
    RankMap(node, 33, 2, 16, {}, "s.json", "placement");
    FAIL("no error");
  } catch (const InputError& x) {
    CHECK(x.key() == "placement.ranks");
  }
}

// Configuration: Cielo-shaped node (2 packages x 2 NUMA x 4 cores), one node, np 8: the rmaps_base_ranking.c rank_by()
//                comment's picture (objects cycled, one proc each per pass) applied to --map-by core --rank-by
//                socket and --rank-by numa, and --map-by socket --rank-by core.
// Expected:      map-by core places procs on cores 0..7 (package 0: cores 0-7, NUMA 0: 0-3, NUMA 1: 4-7); rank-by
//                socket finds them all on package 0, so ranks follow the cores: 0..7. Rank-by numa alternates NUMA 0
//                and 1: cores 0 4 1 5 2 6 3 7. Map-by socket places cores 0 8 1 9 2 10 3 11; rank-by core numbers
//                them in core order: 0 1 2 3 8 9 10 11.
// How validated: tables by hand from orte/mca/rmaps/base/rmaps_base_ranking.c rank_by() (v1.8.8).
TEST_CASE("platform/mapping: --rank-by cycles the objects of a node", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap by_socket(node, 8, 1, 16, policy(Json{{"map_by", "core"}, {"rank_by", "socket"}}, node));
  CHECK(by_socket.rank_by() == RankBy::Socket);
  check_table(by_socket, {{0, 0, 0}, {1, 0, 1}, {4, 0, 4}, {7, 0, 7}});
  RankMap by_numa(node, 8, 1, 16, policy(Json{{"map_by", "core"}, {"rank_by", "numa"}}, node));
  check_table(by_numa, {{0, 0, 0}, {1, 0, 4}, {2, 0, 1}, {3, 0, 5}, {4, 0, 2}, {5, 0, 6}, {6, 0, 3}, {7, 0, 7}});
  CHECK(by_numa.local_rank(3) == 3);
  RankMap by_core(node, 8, 1, 16, policy(Json{{"map_by", "socket"}, {"rank_by", "core"}}, node));
  check_table(by_core, {{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {3, 0, 3}, {4, 0, 8}, {5, 0, 9}, {6, 0, 10}, {7, 0, 11}});
  // Binding follows the proc, not the rank: rank 4 (core 8) is bound to package 1 under map-by socket's binding.
  CHECK(by_core.allowed_cores(4) == CoreRange{8, 8});
  // 16 ranks by socket (the default for np 16) and ranked by core: rank i on core i.
  RankMap full(node, 16, 1, 16, policy(Json{{"rank_by", "core"}}, node));
  for (int r = 0; r < 16; ++r) CHECK(full.locate(r).core == r);
}

// Configuration: 2 nodes x 4 slots, np 7, --map-by core with --rank-by node (node 0 holds 4 procs, node 1 holds 3);
//                4 nodes x 16 slots, np 10, --map-by node with --rank-by slot.
// Expected:      rank-by node deals the ranks over the nodes: 0 1 | 2 3 | 4 5 on cores 0 1 2 of nodes 0 1, rank 6 on
//                node 0 core 3 (node 1 has no proc left); local ranks 0 0 1 1 2 2 3. Map-by node with rank-by slot
//                keeps the balanced counts 3 3 2 2 and numbers each node's procs contiguously: 0-2 on node 0, 3-5
//                on node 1, 6-7 on node 2, 8-9 on node 3.
// How validated: orte_rmaps_base_compute_vpids (v1.8.8) by-node and by-slot loops; by hand.
TEST_CASE("platform/mapping: --rank-by node and slot across nodes", "[unit][platform]") {
  NodeType node = magny_cours();
  RankMap rr(node, 7, 2, 4, policy(Json{{"map_by", "core"}, {"rank_by", "node"}}, node));
  check_table(rr, {{0, 0, 0}, {1, 1, 0}, {2, 0, 1}, {3, 1, 1}, {4, 0, 2}, {5, 1, 2}, {6, 0, 3}});
  const int locals[7] = {0, 0, 1, 1, 2, 2, 3};
  for (int r = 0; r < 7; ++r) CHECK(rr.local_rank(r) == locals[r]);
  CHECK(rr.ranks_on_node(0) == 4);
  CHECK(rr.ranks_on_node(1) == 3);

  RankMap slot(node, 10, 4, 16, policy(Json{{"map_by", "node"}, {"rank_by", "slot"}}, node));
  check_table(slot, {{0, 0, 0}, {2, 0, 2}, {3, 1, 0}, {5, 1, 2}, {6, 2, 0}, {7, 2, 1}, {8, 3, 0}, {9, 3, 1}});
  CHECK(slot.local_rank(7) == 1);

  auto e = policy_error(Json{{"rank_by", "sokcet"}}, node);
  CHECK(e.key() == "placement.rank_by");
  CHECK_THAT(e.reason(), Catch::Contains("did you mean 'socket'"));
  e = policy_error(Json{{"rank_by", "l3cache"}}, node);
  CHECK_THAT(e.reason(), Catch::Contains("does not support"));
}
