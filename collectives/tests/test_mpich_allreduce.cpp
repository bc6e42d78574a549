// Tests of MPICH v3.4a2's allreduce path as Cray MPICH 8.1.x runs it: the ch4 node-aware composition
// MPIDI_Allreduce_intra_composition_alpha (allreduce/mpich_smp.cpp), MPIR_Reduce_intra_reduce_scatter_gather
// (reduce/mpich_reduce_scatter_gather.cpp) and the decision data that selects them (decision/mpich_default.json).
#include "collectives/check.hpp"
#include "collectives/data_colls.hpp"
#include "collectives/decision.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/registry.hpp"
#include "collectives/tests/coll_helpers.hpp"
#include "collectives/tuned_colls.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::coll;

namespace {
constexpr OpKind Snd = OpKind::Send, Rcv = OpKind::Recv, Red = OpKind::Reduce;
Op mpi_send(int peer, std::uint32_t b) { return Op{Snd, peer, b, true}; }
// A composition's parameters: the layout, the stages' choice, a vector of `bytes`, the root.
AlgoParams composed(const NodeLayout& L, const StageChooser& stages, std::uint32_t bytes, int root = 0) {
  AlgoParams p;
  p.bytes = bytes;
  p.root = root;
  p.layout = &L;
  p.stages = &stages;
  return p;
}
// Every byte a rank receives over a whole schedule.
std::uint64_t bytes_received(const Schedule& s) {
  std::uint64_t b = 0;
  for (const auto& r : s.rounds)
    for (const auto& op : r.ops) b += op.kind == Rcv ? op.value : 0;
  return b;
}
}  // namespace

// Configuration: reduce mpich_reduce_scatter_gather on P = 5 (pof2 4, rem 1), a 32-byte vector of 4-byte elements
// (8 elements: 4 pieces of 2 elements, 8 B each), root 0; then root 1 (a rank that sits out the reduce-scatter).
// Expected (reduce_intra_reduce_scatter_gather.c v3.4a2, hand-run): rank 1 (odd, < 2 rem) sends its 32 B to rank 0 and
// stops; rank 0 receives and reduces (new rank 0); ranks 2, 3, 4 are new ranks 1, 2, 3. Reduce-scatter: mask 1 pairs
// new 0-1 (ranks 0-2) and 2-3 (ranks 3-4), 16 B each way; mask 2 pairs new 0-2 (ranks 0-3) and 1-3 (ranks 2-4), 8 B
// each way. Gather to new root 0: mask 2: new 2 (rank 3) sends its piece 1 (8 B) to rank 0, new 3 (rank 4) its piece 3
// to new 1 (rank 2); mask 1: new 1 (rank 2) sends pieces 2-3 (16 B) to rank 0. Root 0 receives 32 + 16 + 8 + 8 + 16 B.
// Root 1: new rank 0 (rank 0) sends its piece 0 (8 B) to rank 1 after the reduce-scatter and stops; rank 1 plays new
// rank 0 and receives 8 B from rank 3 and 16 B from rank 2: its 32 B.
// How validated: rank 0's, 2's, 3's and 1's schedules against the hand-run; run_schedules for completion.
TEST_CASE("mpich reduce: MPIR_Reduce_intra_reduce_scatter_gather rank by rank", "[collective][mpich]") {
  AlgoParams p;
  p.bytes = 32;
  p.elem_bytes = 4;
  using V = std::vector<std::vector<Op>>;
  CHECK(all_ops(reduce_mpich_reduce_scatter_gather(0, 5, p)) ==
        V{{Op{Rcv, 1, 32}}, {Op{Red, -1, 32}}, {Op{Rcv, 2, 16}, mpi_send(2, 16)}, {Op{Red, -1, 16}},
          {Op{Rcv, 3, 8}, mpi_send(3, 8)}, {Op{Red, -1, 8}}, {Op{Rcv, 3, 8}}, {Op{Rcv, 2, 16}}});
  CHECK(all_ops(reduce_mpich_reduce_scatter_gather(1, 5, p)) == V{{mpi_send(0, 32)}});
  CHECK(all_ops(reduce_mpich_reduce_scatter_gather(2, 5, p)) ==
        V{{Op{Rcv, 0, 16}, mpi_send(0, 16)}, {Op{Red, -1, 16}}, {Op{Rcv, 4, 8}, mpi_send(4, 8)}, {Op{Red, -1, 8}},
          {Op{Rcv, 4, 8}}, {mpi_send(0, 16)}});
  CHECK(all_ops(reduce_mpich_reduce_scatter_gather(3, 5, p)) ==
        V{{Op{Rcv, 4, 16}, mpi_send(4, 16)}, {Op{Red, -1, 16}}, {Op{Rcv, 0, 8}, mpi_send(0, 8)}, {Op{Red, -1, 8}},
          {mpi_send(0, 8)}});
  p.root = 1;
  const Schedule root1 = reduce_mpich_reduce_scatter_gather(1, 5, p);
  CHECK(all_ops(root1) == V{{mpi_send(0, 32)}, {Op{Rcv, 0, 8}}, {Op{Rcv, 3, 8}}, {Op{Rcv, 2, 16}}});
  CHECK(all_ops(reduce_mpich_reduce_scatter_gather(0, 5, p)).back() == std::vector<Op>{mpi_send(1, 8)});
  for (int root : {0, 1}) {
    p.root = root;
    CheckResult r = run_schedules(5, &reduce_mpich_reduce_scatter_gather, p);
    INFO("root " << root << ": " << r.error);
    REQUIRE(r.completed);
    CHECK(r.unmatched_sends == 0);
  }
}

// Configuration: P = 1 .. 40, every root of the small ones and roots 0, 1, P-1 of the others, vectors of 4-byte
// elements from pof2 elements to pof2 x 3 + 5 (uneven pieces) and one below pof2.
// Expected: every schedule completes with no unmatched message, the root receives at least the whole vector's worth
// (its pieces arrive once each after the reduce-scatter, which itself moved data into it), and below pof2 elements the
// generator is the binomial fan-in MPIR_Reduce_intra_auto takes there (reduce basic_log / mpich_binomial).
// How validated: run_schedules; the schedules compared op by op with reduce_basic_log below pof2.
TEST_CASE("mpich reduce: reduce_scatter_gather conserves messages over P and counts", "[collective][mpich]") {
  for (int n = 1; n <= 40; ++n) {
    int pof2 = 1;
    while (pof2 * 2 <= n) pof2 *= 2;
    std::vector<int> roots = n <= 8 ? std::vector<int>{} : std::vector<int>{0, 1, n - 1};
    if (n <= 8)
      for (int r = 0; r < n; ++r) roots.push_back(r);
    for (int root : roots)
      for (std::uint32_t count : {std::uint32_t(pof2), std::uint32_t(pof2 * 3 + 5)}) {
        AlgoParams p;
        p.elem_bytes = 4;
        p.bytes = count * 4;
        p.root = root;
        CheckResult r = run_schedules(n, &reduce_mpich_reduce_scatter_gather, p);
        INFO("P=" << n << " root=" << root << " count=" << count << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        if (n > 1) CHECK(bytes_received(reduce_mpich_reduce_scatter_gather(root, n, p)) >= p.bytes);
      }
    if (pof2 > 1) {
      AlgoParams small;
      small.elem_bytes = 4;
      small.bytes = static_cast<std::uint32_t>(pof2 - 1) * 4;
      for (int me = 0; me < n; ++me)
        CHECK(all_ops(reduce_mpich_reduce_scatter_gather(me, n, small)) == all_ops(reduce_basic_log(me, n, small)));
    }
  }
}

// Configuration: allreduce mpich_smp on 12 ranks, 4 a node (leaders 0, 4, 8), a 10-byte vector; stages: the reduce
// within a node MPIR_Reduce_intra_binomial (reduce basic_log), the leaders' allreduce recursive doubling, the bcast
// within a node MPIR_Bcast_intra_binomial.
// Expected (MPIDI_Allreduce_intra_composition_alpha, ch4_coll_impl.h v3.4a2, hand-run): within each node local 1 sends
// to 0, local 3 to 2, then 2 to 0 (0 reducing after each receive); the leaders' recursive doubling on 3 ranks folds
// node 0 into node 1 (rank 0 sends to 4, receives the result back), node 1 exchanges with node 2 (ranks 4 and 8), then
// returns the result to rank 0; every node then bcasts from local 0: to local 2, then 1; 2 to 3.
// Rank 4: [recv 5] [reduce] [recv 6] [reduce] [recv 0] [reduce] [send 8, recv 8] [reduce] [send 0] [send 6] [send 5]
// (the leaders' recursive doubling reduces after the fold and after the exchange); rank 0: [recv 1]
// [reduce] [recv 2] [reduce] [send 4] [recv 4] [send 2] [send 1]; rank 6: [recv 7] [reduce] [send 4] [recv 4]
// [send 7]; rank 5: [send 4] [recv 4]. Without a layout or stages: refused.
// How validated: the schedules against the hand-run; run_schedules for completion and the message count (per node
// 3 up and 3 down, 4 among the leaders: 22).
TEST_CASE("mpich allreduce: ch4 node-aware composition alpha rank by rank", "[collective][mpich]") {
  const NodeLayout L = NodeLayout::block(12, 4);
  const StageChooser stages = [](Stage st, int) -> Generator {
    switch (st) {
      case Stage::Node: return &reduce_basic_log;
      case Stage::Roots: return &allreduce_recursive_doubling;
      case Stage::NodeAfter: return &bcast_mpich_binomial;
    }
    return nullptr;
  };
  const AlgoParams p = composed(L, stages, 10);
  using V = std::vector<std::vector<Op>>;
  const Op red{Red, -1, 10};
  CHECK(all_ops(allreduce_mpich_smp(4, 12, p)) ==
        V{{Op{Rcv, 5, 10}}, {red}, {Op{Rcv, 6, 10}}, {red}, {Op{Rcv, 0, 10}}, {red}, {Op{Rcv, 8, 10}, mpi_send(8, 10)},
          {red}, {mpi_send(0, 10)}, {Op{Snd, 6, 10}}, {Op{Snd, 5, 10}}});
  CHECK(all_ops(allreduce_mpich_smp(0, 12, p)) ==
        V{{Op{Rcv, 1, 10}}, {red}, {Op{Rcv, 2, 10}}, {red}, {mpi_send(4, 10)}, {Op{Rcv, 4, 10}}, {Op{Snd, 2, 10}},
          {Op{Snd, 1, 10}}});
  CHECK(all_ops(allreduce_mpich_smp(6, 12, p)) ==
        V{{Op{Rcv, 7, 10}}, {red}, {Op{Snd, 4, 10}}, {Op{Rcv, 4, 10}}, {Op{Snd, 7, 10}}});
  CHECK(all_ops(allreduce_mpich_smp(5, 12, p)) == V{{Op{Snd, 4, 10}}, {Op{Rcv, 4, 10}}});
  CheckResult r = run_schedules(12, &allreduce_mpich_smp, p);
  INFO(r.error);
  REQUIRE(r.completed);
  CHECK(r.unmatched_sends == 0);
  CHECK(r.sends == 22);
  AlgoParams bare;
  CHECK_THROWS_WITH(allreduce_mpich_smp(0, 12, bare), Catch::Contains("node layout"));
  CHECK(default_registry().find("allreduce", "mpich_smp")->composition);
}

// Configuration: reduce mpich_smp on 10 ranks placed 4, 4 and 2 a node (leaders 0, 4, 8), root 5 (local 1 of node 1),
// a 10-byte vector; every stage MPIR_Reduce_intra_binomial (reduce basic_log).
// Expected (MPIDI_Reduce_intra_composition_alpha, ch4_coll_impl.h v3.4a2, hand-run): nodes 0 and 2 reduce to their
// leader (node 0: 1 -> 0, 3 -> 2, 2 -> 0; node 2: 9 -> 8); node 1 does not reduce first. The leaders' binomial to the
// root's node (node 1, rank 4): relative ranks 0 (node 1), 1 (node 2), 2 (node 0): node 2's leader 8 sends to 4, node
// 0's leader 0 sends to 4 (mask 2); then node 1's reduce to local 1 (rank 5): relative ranks 0 = 5, 1 = 6, 2 = 7,
// 3 = 4: 6 sends to 5, 4 sends to 7, 7 sends to 5. Rank 4: [recv 8] [reduce] [recv 0] [reduce] [send 7];
// rank 5: [recv 6] [reduce] [recv 7] [reduce]; rank 0: [recv 1] [reduce] [recv 2] [reduce] [send 4]; rank 9: [send 8].
// Messages: 3 + 1 up within nodes 0 and 2, 2 among the leaders, 3 within node 1: 9 = P - 1, each of the whole vector,
// each reduced once. Every root of a 2-node and a 3-node layout completes with P - 1 messages and P - 1 reductions.
// Without a layout: refused.
// How validated: the schedules against the hand-run; run_schedules for completion and the message count.
TEST_CASE("mpich reduce: ch4 node-aware composition alpha rank by rank", "[collective][mpich]") {
  const NodeLayout L = NodeLayout(std::vector<long long>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2});
  const StageChooser stages = [](Stage, int) -> Generator { return &reduce_basic_log; };
  const AlgoParams p = composed(L, stages, 10, 5);
  using V = std::vector<std::vector<Op>>;
  const Op red{Red, -1, 10};
  CHECK(all_ops(reduce_mpich_smp(4, 10, p)) ==
        V{{Op{Rcv, 8, 10}}, {red}, {Op{Rcv, 0, 10}}, {red}, {Op{Snd, 7, 10}}});
  CHECK(all_ops(reduce_mpich_smp(5, 10, p)) == V{{Op{Rcv, 6, 10}}, {red}, {Op{Rcv, 7, 10}}, {red}});
  CHECK(all_ops(reduce_mpich_smp(0, 10, p)) ==
        V{{Op{Rcv, 1, 10}}, {red}, {Op{Rcv, 2, 10}}, {red}, {Op{Snd, 4, 10}}});
  CHECK(all_ops(reduce_mpich_smp(9, 10, p)) == V{{Op{Snd, 8, 10}}});
  CheckResult r = run_schedules(10, &reduce_mpich_smp, p);
  INFO(r.error);
  REQUIRE(r.completed);
  CHECK(r.unmatched_sends == 0);
  CHECK(r.sends == 9);
  CHECK(r.reduces == 9);
  for (const NodeLayout& lay : {NodeLayout::block(8, 4), NodeLayout(std::vector<long long>{0, 1, 2, 0, 1, 2, 0})}) {
    AlgoParams a = p;
    a.layout = &lay;
    for (int root = 0; root < lay.nranks(); ++root) {
      a.root = root;
      CheckResult c = run_schedules(lay.nranks(), &reduce_mpich_smp, a);
      INFO("root " << root << ": " << c.error);
      REQUIRE(c.completed);
      CHECK(c.unmatched_sends == 0);
      CHECK(static_cast<int>(c.sends) == lay.nranks() - 1);
      CHECK(static_cast<int>(c.reduces) == lay.nranks() - 1);
    }
  }
  AlgoParams bare;
  CHECK_THROWS_WITH(reduce_mpich_smp(0, 10, bare), Catch::Contains("node layout"));
  CHECK(default_registry().find("reduce", "mpich_smp")->composition);
}

// Configuration: decision/mpich_default.json's allreduce and reduce tables (MPIDI_Allreduce_select,
// MPIR_Allreduce_intra_auto, MPIDI_POSIX_Reduce_select; v3.4a2), MPI_FLOAT elements unless said.
// Expected: a node-aware communicator takes mpich_smp at every size; a flat one recursive doubling up to 2048 B and
// below pof2 elements (4 KiB = 1,024 floats on 4,096 ranks; the same 4 KiB as 4,096 bytes of 1 B is not below),
// Rabenseifner above; the reduce table binomial up to 2048 B, reduce-scatter-gather above; the composition's stages
// are roots, node and node_after, read without the stack's tunables (Cray MPICH's bcast tunables are MPI_Bcast's);
// bcast's stages read them.
// How validated: decide_algorithm, stage_list, stage_tunables, stage_table on the shipped file.
TEST_CASE("mpich allreduce: the default selection's tables", "[collective][mpich]") {
  const auto mpich = decision_data("mpich_default.json");
  for (std::uint64_t b : {4ull, 2048ull, 1048576ull})
    CHECK(decide_algorithm(mpich, "allreduce", CommShape{64, true}, b, {}, 4) == "mpich_smp");
  CHECK(decide_algorithm(mpich, "allreduce", CommShape{64, false}, 2048, {}, 4) == "recursive_doubling");
  CHECK(decide_algorithm(mpich, "allreduce", CommShape{64, false}, 2052, {}, 4) == "mpich_rabenseifner");
  CHECK(decide_algorithm(mpich, "allreduce", CommShape{4096, false}, 4096, {}, 4) == "recursive_doubling");
  CHECK(decide_algorithm(mpich, "allreduce", CommShape{4096, false}, 4096, {}, 1) == "mpich_rabenseifner");
  CHECK(decide_algorithm(mpich, "allreduce", CommShape{4096, false}, 16384, {}, 4) == "mpich_rabenseifner");
  CHECK(decide_algorithm(mpich, "reduce", CommShape{8, false}, 2048, {}, 4) == "mpich_binomial");
  CHECK(decide_algorithm(mpich, "reduce", CommShape{8, false}, 4096, {}, 4) == "mpich_reduce_scatter_gather");
  CHECK(decide_algorithm(mpich, "reduce", CommShape{8, true}, 4096, {}, 4) == "mpich_smp");
  CHECK(stage_list(mpich, "reduce") == std::vector<Stage>{Stage::Roots, Stage::Node, Stage::NodeAfter});
  CHECK(stage_table(mpich, "reduce", Stage::NodeAfter) == "reduce");
  CHECK_FALSE(stage_tunables(mpich, "reduce"));
  CHECK(stage_list(mpich, "allreduce") == std::vector<Stage>{Stage::Roots, Stage::Node, Stage::NodeAfter});
  CHECK(stage_list(mpich, "bcast") == std::vector<Stage>{Stage::Roots, Stage::Node});
  CHECK_FALSE(stage_tunables(mpich, "allreduce"));
  CHECK(stage_tunables(mpich, "bcast"));
  CHECK(stage_table(mpich, "allreduce", Stage::Node) == "reduce");
  CHECK(stage_table(mpich, "allreduce", Stage::NodeAfter) == "bcast");
  CHECK(std::string(to_string(Stage::NodeAfter)) == "node_after");
}
