// Tests of MPICH v3.4a2's bcast path as Cray MPICH 8.1.x runs it: MPIR_Bcast_intra_binomial (bcast/mpich_binomial.cpp),
// the ch4 node-aware composition MPIDI_Bcast_intra_composition_alpha (bcast/mpich_smp.cpp), the node layout of
// MPIR_Comm_create_subcomms (NodeLayout) and the decision data that selects them (decision/mpich_default.json).
#include "collectives/check.hpp"
#include "collectives/data_colls.hpp"
#include "collectives/decision.hpp"
#include "collectives/tests/coll_helpers.hpp"
#include "collectives/tuned_colls.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::coll;

namespace {
std::vector<Op> one(OpKind k, int peer, std::uint32_t bytes) { return {Op{k, peer, bytes}}; }
constexpr OpKind S = OpKind::Send, R = OpKind::Recv;
// The rounds of a hand-derived sequence: one operation (kind, peer) of `bytes` each, in order.
std::vector<std::vector<Op>> rounds_of(std::initializer_list<std::pair<OpKind, int>> seq, std::uint32_t bytes) {
  std::vector<std::vector<Op>> r;
  for (auto [k, peer] : seq) r.push_back(one(k, peer, bytes));
  return r;
}
}  // namespace

// Configuration: bcast mpich_binomial, P = 8 root 0 and P = 7 root 3, a 100-byte message.
// Expected (bcast_intra_binomial.c, v3.4a2, hand-run): with rel = (rank - root) mod P the receive loop finds the lowest
// set bit m of rel and receives from rank - m; the send loop then sends to rank + m' for m' = m/2 .. 1 (the root:
// from the largest power of two < P) while rel + m' < P, one blocking MPIC_Send each. P = 8: rank 0 sends to 4, 2,
// 1 in that order; 4 receives from 0 and sends to 6 then 5; 6 receives from 4 and sends to 7; 7 and 5 only receive
// (from 6 and 4). P = 7, root 3: the root sends to 0 (rel 4), 5 (rel 2), 4 (rel 1); rank 0 (rel 4) receives from 3
// and sends to 2 (rel 6) then 1 (rel 5); rank 2 (rel 6) receives from 0 and sends nothing (rel 7 >= 7). Open MPI's
// binomial (bcast/binomial.cpp) differs: its root sends to 1, 2, 4 at once. P = 1 or 0 bytes: no operation.
// How validated: the schedules' rounds against the hand-derived sequence.
TEST_CASE("mpich bcast: MPIR_Bcast_intra_binomial rank by rank", "[collective][mpich]") {
  AlgoParams p;
  p.bytes = 100;
  CHECK(all_ops(bcast_mpich_binomial(0, 8, p)) == rounds_of({{S, 4}, {S, 2}, {S, 1}}, 100));
  CHECK(all_ops(bcast_mpich_binomial(4, 8, p)) == rounds_of({{R, 0}, {S, 6}, {S, 5}}, 100));
  CHECK(all_ops(bcast_mpich_binomial(6, 8, p)) == rounds_of({{R, 4}, {S, 7}}, 100));
  CHECK(all_ops(bcast_mpich_binomial(7, 8, p)) == rounds_of({{R, 6}}, 100));
  CHECK(all_ops(bcast_mpich_binomial(5, 8, p)) == rounds_of({{R, 4}}, 100));
  p.root = 3;
  CHECK(all_ops(bcast_mpich_binomial(3, 7, p)) == rounds_of({{S, 0}, {S, 5}, {S, 4}}, 100));
  CHECK(all_ops(bcast_mpich_binomial(0, 7, p)) == rounds_of({{R, 3}, {S, 2}, {S, 1}}, 100));
  CHECK(all_ops(bcast_mpich_binomial(2, 7, p)) == rounds_of({{R, 0}}, 100));
  p.root = 0;
  CHECK(bcast_binomial(0, 8, p).rounds.size() == 1);  // Open MPI's: 1, 2, 4 in one round
  CHECK(bcast_mpich_binomial(0, 1, p).rounds.empty());
  p.bytes = 0;
  CHECK(bcast_mpich_binomial(0, 8, p).rounds.empty());
  for (int n : {1, 2, 3, 7, 8, 13, 64, 100})
    for (int root : {0, n - 1}) {
      AlgoParams a;
      a.bytes = 8;
      a.root = root;
      CheckResult r = run_schedules(n, &bcast_mpich_binomial, a);
      INFO("P=" << n << " root=" << root << ": " << r.error);
      REQUIRE(r.completed);
      CHECK(r.unmatched_sends == 0);
      CHECK(static_cast<long long>(r.sends) == n - 1);
    }
}

// Configuration: node keys {7, 3, 7, 3, 5} (ranks 0 and 2 on one node, 1 and 3 on another, 4 alone), a block layout
// of 12 ranks 4 per node, and 5 ranks on 5 nodes.
// Expected (MPIR_Comm_create_subcomms, commutil.c v3.4a2): nodes numbered by their lowest rank, node_comm ranks in
// rank order, leaders = local rank 0; node-aware unless every rank is alone on its node.
// How validated: the layout's accessors against the hand-built split.
TEST_CASE("mpich bcast: the node layout of MPIR_Comm_create_subcomms", "[collective][mpich]") {
  NodeLayout l({7, 3, 7, 3, 5});
  CHECK(l.nnodes() == 3);
  CHECK(l.node(2) == 0);
  CHECK(l.node(3) == 1);
  CHECK(l.node(4) == 2);
  CHECK(l.local(2) == 1);
  CHECK(l.leader(1) == 1);
  CHECK(l.member(0, 1) == 2);
  CHECK(l.node_size(2) == 1);
  CHECK(l.node_aware());
  CHECK_FALSE(NodeLayout({1, 2, 3, 4, 5}).node_aware());
  NodeLayout b = NodeLayout::block(12, 4);
  CHECK(b.nnodes() == 3);
  CHECK(b.leader(2) == 8);
  CHECK(b.local(7) == 3);
  CHECK_THROWS_WITH(NodeLayout::block(4, 0), Catch::Contains("ranks_per_node = 0"));
}

// Configuration: bcast mpich_smp on 12 ranks, 4 a node (leaders 0, 4, 8), both stages MPIR_Bcast_intra_binomial, a
// 10-byte message; root 5 (local rank 1 of node 1) and root 0 (a leader). Without a layout or stages: refused.
// Expected (MPIDI_Bcast_intra_composition_alpha, ch4_coll_impl.h v3.4a2, hand-run): root 5 is not in node_roots_comm,
// so it sends to its node's local rank 0 (rank 4), which receives; the leaders' bcast (3 ranks, root = node 1) makes
// rank 4 send to leader 0 (node 0, rel 2) then leader 8 (node 2, rel 1); every node then runs a binomial bcast from
// local rank 0 over 4 ranks (local 0 -> 2, 0 -> 1, 2 -> 3), the root receiving the message again from rank 4.
// Rank 5: [send 4] [recv 4]; rank 4: [recv 5] [send 0] [send 8] [send 6] [send 5]; rank 8: [recv 4] [send 10]
// [send 9]; rank 0: [recv 4] [send 2] [send 1]; rank 11: [recv 10]. Messages: 1 + 2 + 3 x 3 = 12 with root 5,
// 11 = P - 1 with root 0 (no first step).
// How validated: the schedules against the hand-derived sequence; run_schedules for completion and message counts.
TEST_CASE("mpich bcast: ch4 node-aware composition alpha rank by rank", "[collective][mpich]") {
  const NodeLayout L = NodeLayout::block(12, 4);
  const StageChooser binomial = [](Stage, int) -> Generator { return &bcast_mpich_binomial; };
  AlgoParams p;
  p.bytes = 10;
  p.root = 5;
  p.layout = &L;
  p.stages = &binomial;
  CHECK(all_ops(bcast_mpich_smp(5, 12, p)) == rounds_of({{S, 4}, {R, 4}}, 10));
  CHECK(all_ops(bcast_mpich_smp(4, 12, p)) == rounds_of({{R, 5}, {S, 0}, {S, 8}, {S, 6}, {S, 5}}, 10));
  CHECK(all_ops(bcast_mpich_smp(8, 12, p)) == rounds_of({{R, 4}, {S, 10}, {S, 9}}, 10));
  CHECK(all_ops(bcast_mpich_smp(0, 12, p)) == rounds_of({{R, 4}, {S, 2}, {S, 1}}, 10));
  CHECK(all_ops(bcast_mpich_smp(11, 12, p)) == rounds_of({{R, 10}}, 10));
  for (int root : {5, 0}) {
    p.root = root;
    CheckResult r = run_schedules(12, &bcast_mpich_smp, p);
    INFO("root " << root << ": " << r.error);
    REQUIRE(r.completed);
    CHECK(r.unmatched_sends == 0);
    CHECK(static_cast<long long>(r.sends) == (root == 5 ? 12 : 11));
  }
  AlgoParams bare;
  CHECK_THROWS_WITH(bcast_mpich_smp(0, 12, bare), Catch::Contains("node layout"));
  p.layout = nullptr;
  CHECK_THROWS_WITH(bcast_mpich_smp(0, 12, p), Catch::Contains("node layout"));
}

// Configuration: bcast mpich_smp on 36 ranks on 4 nodes of 8, 3, 12 and 13 ranks (interleaved node keys), a 13-byte
// message, every root; the stages chosen by the flat rows' shape (binomial below 8 ranks, scatter + recursive doubling
// for a power of two, scatter + ring otherwise), once directly and once through memoise_stages.
// Expected: the memoised chooser asks the direct one exactly once per distinct (stage, size) of the layout ((Roots, 4),
// (Node, 8), (Node, 3), (Node, 12), (Node, 13): 5 calls) when it is made and never again while every rank's schedule is
// generated (the direct chooser: 2 calls per leader and 1 per other rank on a node of more than one rank), and every
// rank's schedule is identical. Without the memoisation the counter grows with the ranks and this fails.
// How validated: the call counters and the schedules compared op by op.
TEST_CASE("mpich bcast: the stages' choice is made once per layout and size", "[collective][mpich]") {
  std::vector<long long> keys;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < std::vector<int>{8, 3, 12, 13}[static_cast<std::size_t>(k)]; ++i) keys.push_back(k * 7 % 5);
  std::vector<long long> mixed;  // interleave: not a block layout
  for (std::size_t i = 0; i < keys.size(); ++i) mixed.push_back(keys[(i * 7) % keys.size()]);
  const NodeLayout L(mixed);
  REQUIRE(L.nnodes() == 4);
  int calls = 0;
  const StageChooser direct = [&calls](Stage, int n) -> Generator {
    ++calls;
    if (n < 8) return &bcast_mpich_binomial;
    return (n & (n - 1)) == 0 ? &bcast_mpich_scatter_rdb_allgather : &bcast_mpich_scatter_ring_allgather;
  };
  const StageChooser memo = memoise_stages(direct, L, {Stage::Roots, Stage::Node});
  CHECK(calls == 5);
  calls = 0;
  AlgoParams a, b;
  a.bytes = b.bytes = 13;
  a.layout = b.layout = &L;
  a.stages = &direct;
  b.stages = &memo;
  for (int root = 0; root < 36; ++root) {
    a.root = b.root = root;
    for (int me = 0; me < 36; ++me) {
      const int before = calls;
      Schedule want = bcast_mpich_smp(me, 36, a);
      CHECK(calls > before);  // the direct chooser is asked per rank per call
      const int mid = calls;
      CHECK(all_ops(bcast_mpich_smp(me, 36, b)) == all_ops(want));
      CHECK(calls == mid);  // the memoised one is not
    }
  }
}

// Configuration: collectives/decision/mpich_default.json (data_dir()).
// Expected (MPIDI_Bcast_select with MPIR_CVAR_MAX_SMP_BCAST_MSG_SIZE 0; MPIDI_OFI_Bcast_select and
// MPIDI_POSIX_Bcast_select for the stages): a node-aware communicator takes mpich_smp at every size (1 B, 12 KiB,
// 1 MiB); one that is not node-aware keeps the flat choice (mpich_binomial below 12 KiB); both stages are decided by
// the bcast table on a sub-communicator that is not node-aware: 64 leaders 1 B mpich_binomial, 64 KiB scatter + rdb,
// 1 MiB scatter + ring; 8 ranks a node: the same cut-offs (8 = MPIR_CVAR_BCAST_MIN_PROCS); 4 ranks: binomial.
// How validated: decide_algorithm and stage_table against the cut-offs read in the v3.4a2 sources.
TEST_CASE("mpich bcast: v3.4a2 decision data selects the node-aware composition", "[collective][mpich]") {
  const auto mpich = decision_data("mpich_default.json");
  for (std::uint64_t b : {1ull, 12288ull, 1048576ull}) {
    CHECK(decide_algorithm(mpich, "bcast", CommShape{512, true}, b) == "mpich_smp");
    CHECK(default_registry().find("bcast", "mpich_smp")->composition);
  }
  CHECK(decide_algorithm(mpich, "bcast", CommShape{512, false}, 1) == "mpich_binomial");
  CHECK(decide_algorithm(mpich, "allgather", CommShape{512, true}, 1) == "recursive_doubling");
  CHECK(stage_table(mpich, "bcast", Stage::Roots) == "bcast");
  CHECK(stage_table(mpich, "bcast", Stage::Node) == "bcast");
  CHECK(decide_algorithm(mpich, "bcast", 64, 1) == "mpich_binomial");
  CHECK(decide_algorithm(mpich, "bcast", 64, 65536) == "mpich_scatter_rdb_allgather");
  CHECK(decide_algorithm(mpich, "bcast", 64, 1048576) == "mpich_scatter_ring_allgather");
  CHECK(decide_algorithm(mpich, "bcast", 8, 12287) == "mpich_binomial");
  CHECK(decide_algorithm(mpich, "bcast", 8, 12288) == "mpich_scatter_rdb_allgather");
  CHECK(decide_algorithm(mpich, "bcast", 4, 1048576) == "mpich_binomial");
  CHECK_THROWS_WITH(stage_table(mpich, "allgather", Stage::Roots), Catch::Contains("no \"stages\""));
}

// Configuration: collectives/decision/mpich_default.json with Cray MPICH's bcast tunables as native/mpich_cxi declares
// them (MPICH_BCAST_ONLY_TREE, MPICH_BCAST_INTERNODE_RADIX, MPICH_BCAST_INTRANODE_RADIX), and with none.
// Expected: MPICH_BCAST_ONLY_TREE = 1 keeps the node-aware composition and makes every stage a k-nomial tree at every
// size (the flat communicator too); the stage radices are the declared values, not the table's "radix"; 0, or no
// tunable declared, falls back to the v3.4a2 rows (binomial below 12 KiB, scatter + ring at 1 MiB on 64 ranks).
// How validated: decide_algorithm and stage_radix with the tunables given; values chosen to differ from the defaults.
TEST_CASE("mpich bcast: Cray MPICH's bcast tunables select the tree and its radices", "[collective][mpich]") {
  const auto mpich = decision_data("mpich_default.json");
  const Tunables cray{{"mpich_bcast_only_tree", 1}, {"mpich_bcast_internode_radix", 8},
                      {"mpich_bcast_intranode_radix", 3}};
  for (std::uint64_t b : {1ull, 65536ull, 1048576ull}) {
    CHECK(decide_algorithm(mpich, "bcast", CommShape{512, true}, b, cray) == "mpich_smp");
    CHECK(decide_algorithm(mpich, "bcast", CommShape{64, false}, b, cray) == "knomial");
    CHECK(decide_algorithm(mpich, "bcast", CommShape{8, false}, b, cray) == "knomial");
  }
  CHECK(stage_radix(mpich, "bcast", Stage::Roots, cray) == 8);
  CHECK(stage_radix(mpich, "bcast", Stage::Node, cray) == 3);
  CHECK(stage_radix(mpich, "bcast", Stage::Roots, {}) == 0);
  CHECK(stage_radix(mpich, "allgather", Stage::Roots, cray) == 0);
  Tunables off = cray;
  off["mpich_bcast_only_tree"] = 0;
  for (const Tunables& t : {off, Tunables{}}) {
    CHECK(decide_algorithm(mpich, "bcast", CommShape{64, false}, 1, t) == "mpich_binomial");
    CHECK(decide_algorithm(mpich, "bcast", CommShape{64, false}, 1048576, t) == "mpich_scatter_ring_allgather");
  }
}
