// Tests of coll/base's tree reduces as coll/tuned v5 calls them (reduce/tree_reduce.cpp: binomial, in_order_binary,
// binary, pipeline and chain, one segment), the nonoverlapping allreduce built on them (allreduce/nonoverlapping.cpp) and the v5 reduce table that
// chooses its reduce (decision/ompi_v5_tuned.json).
#include "collectives/check.hpp"
#include "collectives/data_colls.hpp"
#include "collectives/decision.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/registry.hpp"
#include "collectives/tests/coll_helpers.hpp"
#include "collectives/tuned_colls.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace ompisim::coll;

namespace {
constexpr OpKind kSnd = OpKind::Send, kRcv = OpKind::Recv, kRed = OpKind::Reduce;
Op pml_send(int peer, std::uint32_t b) { return Op{kSnd, peer, b, true}; }
}  // namespace

// Configuration: reduce binomial on 8 ranks, root 0, and on 6 ranks, root 2; 64-byte vectors.
// Expected (ompi_coll_base_topo_build_in_order_bmtree, hand-run): root 0 on 8: 0 -> 1, 2, 4; 2 -> 3; 4 -> 5, 6; 6 -> 7.
// ompi_coll_base_reduce_generic, one segment: a node receives and reduces each child's vector in child order, then
// sends to its parent with a blocking send; a leaf sends at once. Rank 0: [recv 1] [reduce] [recv 2] [reduce] [recv 4]
// [reduce]; rank 4: [recv 5] [reduce] [recv 6] [reduce] [send 0]; rank 7: [send 6]. Root 2 on 6 (v = rank - 2 mod 6):
// rank 2 (v 0) -> 3 (v 1), 4 (v 2), 0 (v 4); rank 0 (v 4) -> 1 (v 5); rank 4 (v 2) -> 5 (v 3).
// How validated: the schedules op by op; run_schedules for completion (P-1 messages, P-1 reductions).
TEST_CASE("tuned reduce: binomial over the in-order binomial tree rank by rank", "[collective]") {
  AlgoParams p;
  p.bytes = 64;
  using V = std::vector<std::vector<Op>>;
  const Op red{kRed, -1, 64};
  CHECK(all_ops(reduce_binomial(0, 8, p)) ==
        V{{Op{kRcv, 1, 64}}, {red}, {Op{kRcv, 2, 64}}, {red}, {Op{kRcv, 4, 64}}, {red}});
  CHECK(all_ops(reduce_binomial(4, 8, p)) == V{{Op{kRcv, 5, 64}}, {red}, {Op{kRcv, 6, 64}}, {red}, {pml_send(0, 64)}});
  CHECK(all_ops(reduce_binomial(7, 8, p)) == V{{pml_send(6, 64)}});
  p.root = 2;
  CHECK(all_ops(reduce_binomial(2, 6, p)) ==
        V{{Op{kRcv, 3, 64}}, {red}, {Op{kRcv, 4, 64}}, {red}, {Op{kRcv, 0, 64}}, {red}});
  CHECK(all_ops(reduce_binomial(0, 6, p)) == V{{Op{kRcv, 1, 64}}, {red}, {pml_send(2, 64)}});
  CHECK(all_ops(reduce_binomial(4, 6, p)) == V{{Op{kRcv, 5, 64}}, {red}, {pml_send(2, 64)}});
}

// Configuration: reduce in_order_binary on 9 ranks, root 8 and root 0; 16-byte vectors.
// Expected (ompi_coll_base_topo_build_in_order_bintree, hand-run): the tree is rooted at 8: 8 -> 7, 3; 7 -> 6, 5;
// 5 -> 4; 3 -> 2, 1; 1 -> 0 (the left child is the rank below a subtree's top, the right one the top of its first
// size/2 ranks). Root 0: after the tree's reduce, 8 sends the result to 0, which receives it last.
// How validated: the schedules op by op; run_schedules.
TEST_CASE("tuned reduce: in_order_binary over the in-order binary tree rank by rank", "[collective]") {
  AlgoParams p;
  p.bytes = 16;
  p.root = 8;
  using V = std::vector<std::vector<Op>>;
  const Op red{kRed, -1, 16};
  CHECK(all_ops(reduce_in_order_binary(8, 9, p)) == V{{Op{kRcv, 7, 16}}, {red}, {Op{kRcv, 3, 16}}, {red}});
  CHECK(all_ops(reduce_in_order_binary(7, 9, p)) ==
        V{{Op{kRcv, 6, 16}}, {red}, {Op{kRcv, 5, 16}}, {red}, {pml_send(8, 16)}});
  CHECK(all_ops(reduce_in_order_binary(5, 9, p)) == V{{Op{kRcv, 4, 16}}, {red}, {pml_send(7, 16)}});
  CHECK(all_ops(reduce_in_order_binary(6, 9, p)) == V{{pml_send(7, 16)}});
  CHECK(all_ops(reduce_in_order_binary(1, 9, p)) == V{{Op{kRcv, 0, 16}}, {red}, {pml_send(3, 16)}});
  CHECK(all_ops(reduce_in_order_binary(0, 9, p)) == V{{pml_send(1, 16)}});
  p.root = 0;
  CHECK(all_ops(reduce_in_order_binary(0, 9, p)) == V{{pml_send(1, 16)}, {Op{kRcv, 8, 16}}});
  CHECK(all_ops(reduce_in_order_binary(8, 9, p)) ==
        V{{Op{kRcv, 7, 16}}, {red}, {Op{kRcv, 3, 16}}, {red}, {pml_send(0, 16)}});
}

// Configuration: reduce binary on 7 ranks root 0 and on 8 ranks root 3; pipeline on 5 ranks root 2; chain the same;
// 32-byte vectors.
// Expected (ompi_coll_base_topo_build_tree(2) and build_chain(1), hand-run): binary, root 0 on 7: 0 -> 1, 2; 1 -> 3, 5;
// 2 -> 4, 6 (children v + 2^l, v + 2^(l+1) on level l). Root 3 on 8 (v = rank - 3 mod 8): rank 3 (v 0) -> 4 (v 1), 5
// (v 2); rank 4 (v 1) -> 6 (v 3), 0 (v 5); rank 6 (v 3) -> 2 (v 7); rank 2 sends to 6 and stops. Pipeline, root 2 on 5:
// 2 <- 3 <- 4 <- 0 <- 1 (v 1 .. 4): rank 1 (v 4) sends to 0; rank 0 receives from 1, reduces, sends to 4; rank 2
// receives from 3 and reduces. Chain: coll/tuned passes fanout 0, build_chain forces 1: the pipeline's schedule.
// How validated: the schedules op by op.
TEST_CASE("tuned reduce: binary, pipeline and chain rank by rank", "[collective]") {
  AlgoParams p;
  p.bytes = 32;
  using V = std::vector<std::vector<Op>>;
  const Op red{kRed, -1, 32};
  CHECK(all_ops(reduce_binary(0, 7, p)) == V{{Op{kRcv, 1, 32}}, {red}, {Op{kRcv, 2, 32}}, {red}});
  CHECK(all_ops(reduce_binary(1, 7, p)) ==
        V{{Op{kRcv, 3, 32}}, {red}, {Op{kRcv, 5, 32}}, {red}, {pml_send(0, 32)}});
  CHECK(all_ops(reduce_binary(6, 7, p)) == V{{pml_send(2, 32)}});
  p.root = 3;
  CHECK(all_ops(reduce_binary(3, 8, p)) == V{{Op{kRcv, 4, 32}}, {red}, {Op{kRcv, 5, 32}}, {red}});
  CHECK(all_ops(reduce_binary(4, 8, p)) ==
        V{{Op{kRcv, 6, 32}}, {red}, {Op{kRcv, 0, 32}}, {red}, {pml_send(3, 32)}});
  CHECK(all_ops(reduce_binary(6, 8, p)) == V{{Op{kRcv, 2, 32}}, {red}, {pml_send(4, 32)}});
  CHECK(all_ops(reduce_binary(2, 8, p)) == V{{pml_send(6, 32)}});
  p.root = 2;
  CHECK(all_ops(reduce_pipeline(1, 5, p)) == V{{pml_send(0, 32)}});
  CHECK(all_ops(reduce_pipeline(0, 5, p)) == V{{Op{kRcv, 1, 32}}, {red}, {pml_send(4, 32)}});
  CHECK(all_ops(reduce_pipeline(2, 5, p)) == V{{Op{kRcv, 3, 32}}, {red}});
  const AlgoInfo* chain = default_registry().find("reduce", "chain");
  REQUIRE(chain);
  for (int me = 0; me < 5; ++me) CHECK(all_ops(chain->make(me, 5, p)) == all_ops(reduce_pipeline(me, 5, p)));
}

// Configuration: reduce rabenseifner on 3 ranks (pof2 2, rem 1), an 8-byte vector of 1-byte elements, root 0 and root
// 1 (an odd rank that sits out the reduce-scatter); a 4-byte vector of one 4-byte element.
// Expected (ompi_coll_base_reduce_intra_redscat_gather, hand-run): root 0: rank 1 sendrecvs halves with 0 (4 B each
// way), reduces its right half and sends it to 0; rank 0 reduces its left half and receives the right; ranks 0 and 2
// (new ranks 0 and 1) swap halves (0 keeps the left), reduce, and 2 sends its kept half to 0: rank 0 [send 1, recv 1]
// [reduce] [recv 1] [send 2, recv 2] [reduce] [recv 2]; rank 2 [send 0, recv 0] [reduce] [send 0]. Root 1: rank 0,
// new rank 0, sends its piece (4 B) to 1 and stops; rank 2's gather partner (new rank 0) is the root itself: rank 1
// [send 0, recv 0] [reduce] [send 0] [recv 0] [recv 2]; rank 2 [send 0, recv 0] [reduce] [send 1]. One element, below
// pof2: the basic linear reduce, as reduce "linear". P = 1 .. 40 at three roots, 64 B: every schedule completes.
// How validated: the schedules op by op; run_schedules.
TEST_CASE("tuned reduce: rabenseifner (redscat_gather) rank by rank", "[collective]") {
  AlgoParams p;
  p.bytes = 8;
  using V = std::vector<std::vector<Op>>;
  const Op red{kRed, -1, 4};
  CHECK(all_ops(reduce_rabenseifner(0, 3, p)) == V{{Op{kRcv, 1, 4}, pml_send(1, 4)}, {red}, {Op{kRcv, 1, 4}},
                                                   {Op{kRcv, 2, 4}, pml_send(2, 4)}, {red}, {Op{kRcv, 2, 4}}});
  CHECK(all_ops(reduce_rabenseifner(1, 3, p)) == V{{Op{kRcv, 0, 4}, pml_send(0, 4)}, {red}, {pml_send(0, 4)}});
  CHECK(all_ops(reduce_rabenseifner(2, 3, p)) == V{{Op{kRcv, 0, 4}, pml_send(0, 4)}, {red}, {pml_send(0, 4)}});
  p.root = 1;
  CHECK(all_ops(reduce_rabenseifner(1, 3, p)) ==
        V{{Op{kRcv, 0, 4}, pml_send(0, 4)}, {red}, {pml_send(0, 4)}, {Op{kRcv, 0, 4}}, {Op{kRcv, 2, 4}}});
  CHECK(all_ops(reduce_rabenseifner(0, 3, p)) == V{{Op{kRcv, 1, 4}, pml_send(1, 4)}, {red}, {Op{kRcv, 1, 4}},
                                                   {Op{kRcv, 2, 4}, pml_send(2, 4)}, {red}, {pml_send(1, 4)}});
  CHECK(all_ops(reduce_rabenseifner(2, 3, p)) == V{{Op{kRcv, 0, 4}, pml_send(0, 4)}, {red}, {pml_send(1, 4)}});
  p.bytes = 4;
  p.elem_bytes = 4;
  for (int me = 0; me < 3; ++me) CHECK(all_ops(reduce_rabenseifner(me, 3, p)) == all_ops(reduce_linear(me, 3, p)));
  for (int n = 1; n <= 40; ++n)
    for (int root : {0, n / 2, n - 1}) (void)completes(&reduce_rabenseifner, n, root, 64);
}

// Configuration: the two Rabenseifner reduces (coll/base's redscat_gather, MPICH's reduce_scatter_gather) with 4-byte
// elements (IMB's MPI_FLOAT), P = 2 .. 33, roots 0 and P-1, vectors of 1, 2, 3, 257 and 1025 elements.
// Expected: every message and every reduction is a whole number of elements (Open MPI and MPICH split element counts;
// the executor refuses a part of an element on a rank that converts, found by probe_algorithms.py with IMB Reduce on
// the heterogeneous cluster).
// How validated: each op's byte count modulo 4.
TEST_CASE("tuned reduce: the Rabenseifner reduces split whole elements", "[collective]") {
  for (Generator g : {&reduce_rabenseifner, &reduce_mpich_reduce_scatter_gather})
    for (int n = 2; n <= 33; ++n)
      for (int root : {0, n - 1})
        for (std::uint32_t count : {1u, 2u, 3u, 257u, 1025u}) {
          AlgoParams p;
          p.bytes = 4 * count;
          p.elem_bytes = 4;
          p.root = root;
          for (int me = 0; me < n; ++me)
            for (const auto& round : g(me, n, p).rounds)
              for (const Op& op : round.ops) {
                INFO("P=" << n << " root=" << root << " count=" << count << " rank " << me);
                CHECK(op.value % 4 == 0);
              }
        }
}

// Configuration: reduce binomial, in_order_binary, binary and pipeline, P = 1 .. 70, roots 0, P/2 and P-1.
// Expected: every schedule completes with no unmatched message; P-1 reductions; P-1 messages (binomial, and
// in_order_binary rooted at P-1), P when in_order_binary's root is not P-1 (the result's last hop).
// How validated: run_schedules' counters.
TEST_CASE("tuned reduce: the tree reduces conserve messages over P and roots", "[collective]") {
  for (int n = 1; n <= 70; ++n)
    for (int root : {0, n / 2, n - 1})
      for (Generator g : {&reduce_binomial, &reduce_in_order_binary, &reduce_binary, &reduce_pipeline}) {
        AlgoParams p;
        p.bytes = 8;
        p.root = root;
        CheckResult r = run_schedules(n, g, p);
        INFO("P=" << n << " root=" << root << " generator " << (g == &reduce_binomial          ? "binomial"
                                                                 : g == &reduce_in_order_binary ? "in_order_binary"
                                                                 : g == &reduce_binary          ? "binary"
                                                                                                : "pipeline")
                  << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        CHECK(r.reduces == static_cast<std::uint64_t>(n - 1));
        const bool extra_hop = g == &reduce_in_order_binary && root != n - 1;
        CHECK(r.sends == static_cast<std::uint64_t>(n - 1 + (extra_hop ? 1 : 0)));
      }
}

// Configuration: allreduce nonoverlapping on 10 ranks, 8 B, its stages reduce binomial (root 0) and bcast binomial
// (root 0); without stages.
// Expected (ompi_coll_base_allreduce_intra_nonoverlapping): every rank's schedule is its reduce schedule to root 0
// followed by its bcast schedule from root 0; 9 + 9 messages; refused without the stages' decision; the algorithms a
// scenario is offered for allreduce leave it and mpich_smp out (CollRegistry::nameable).
// How validated: the schedules against the two stages' own; run_schedules.
TEST_CASE("tuned allreduce: nonoverlapping is the module's reduce then its bcast", "[collective]") {
  const StageChooser stages = [](Stage st, int) -> Generator {
    return st == Stage::Comm ? &reduce_binomial : &bcast_binomial;
  };
  AlgoParams p;
  p.bytes = 8;
  p.stages = &stages;
  AlgoParams at0 = p;
  for (int me = 0; me < 10; ++me) {
    auto want = all_ops(reduce_binomial(me, 10, at0));
    for (auto& r : all_ops(bcast_binomial(me, 10, at0))) want.push_back(r);
    CHECK(all_ops(allreduce_nonoverlapping(me, 10, p)) == want);
  }
  p.root = 3;  // an allreduce has no root: the stages run from rank 0 whatever params.root says
  CHECK(all_ops(allreduce_nonoverlapping(3, 10, p)).front() == all_ops(reduce_binomial(3, 10, at0)).front());
  CheckResult r = run_schedules(10, &allreduce_nonoverlapping, p);
  INFO(r.error);
  REQUIRE(r.completed);
  CHECK(r.sends == 18);
  AlgoParams bare;
  CHECK_THROWS_WITH(allreduce_nonoverlapping(0, 10, bare), Catch::Contains("stages"));
  CHECK(default_registry().find("allreduce", "nonoverlapping")->composition);
  // A scenario may not name a composition: the list it is offered leaves the compositions out.
  const auto all = default_registry().names("allreduce"), offered = default_registry().nameable("allreduce");
  CHECK(std::find(all.begin(), all.end(), "nonoverlapping") != all.end());
  CHECK(std::find(offered.begin(), offered.end(), "nonoverlapping") == offered.end());
  CHECK(std::find(offered.begin(), offered.end(), "mpich_smp") == offered.end());
  CHECK(offered.size() + 2 == all.size());
}

// Configuration: decision/ompi_v5_tuned.json (coll_tuned_decision_fixed.c, v4.1-v5.0, commutative branches).
// Expected: the allreduce picks nonoverlapping at 128-255 ranks below 128 KiB, 256-511 below 4 KiB, from 512 below
// 2 KiB; its stages are the file's reduce (comm) and bcast (comm_after) tables; the reduce table gives binomial at 128
// and 1,024 ranks, in_order_binary at 300 ranks for 8-16 KiB and at 2,048 ranks for 512 B-1 KiB, binomial at 4,096
// ranks for 8 B and in_order_binary for 16 B; at 1,024 ranks 2 KiB is recursive doubling's.
// How validated: decide_algorithm, stage_list and stage_table on the shipped file.
TEST_CASE("tuned allreduce: v5 picks nonoverlapping and its reduce", "[collective]") {
  const auto ompi = decision_data("ompi_v5_tuned.json");
  struct Row {
    const char* coll;
    int nranks;
    std::uint64_t bytes;
    const char* algorithm;
  };
  for (const Row& r : {Row{"allreduce", 128, 131071, "nonoverlapping"}, Row{"allreduce", 300, 4095, "nonoverlapping"},
                       Row{"allreduce", 1024, 2047, "nonoverlapping"}, Row{"allreduce", 1024, 2048, "recursive_doubling"},
                       Row{"reduce", 128, 8, "binomial"}, Row{"reduce", 1024, 2047, "binomial"},
                       Row{"reduce", 300, 8192, "in_order_binary"}, Row{"reduce", 300, 16384, "binomial"},
                       Row{"reduce", 2048, 512, "in_order_binary"}, Row{"reduce", 2048, 1024, "binomial"},
                       Row{"reduce", 4096, 8, "binomial"}, Row{"reduce", 4096, 16, "in_order_binary"},
                       Row{"reduce", 12, 8191, "binary"}, Row{"reduce", 6, 4096, "chain"},
                       Row{"reduce", 3, 16, "pipeline"}, Row{"reduce", 3, 8, "binary"},
                       Row{"reduce", 2, 7, "rabenseifner"}}) {
    INFO(r.coll << " " << r.nranks << " ranks " << r.bytes << " B");
    CHECK(decide_algorithm(ompi, r.coll, r.nranks, r.bytes) == r.algorithm);
    CHECK(default_registry().find(r.coll, r.algorithm) != nullptr);
  }
  CHECK(stage_list(ompi, "allreduce") == std::vector<Stage>{Stage::Comm, Stage::CommAfter});
  CHECK(stage_table(ompi, "allreduce", Stage::Comm) == "reduce");
  CHECK(stage_table(ompi, "allreduce", Stage::CommAfter) == "bcast");
  CHECK(std::string(to_string(Stage::CommAfter)) == "comm_after");
}
