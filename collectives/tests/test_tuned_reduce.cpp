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
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <catch2/catch.hpp>

using namespace ompisim::coll;

namespace {
constexpr OpKind kSnd = OpKind::Send, kRcv = OpKind::Recv, kRed = OpKind::Reduce;
Op pml_send(int peer, std::uint32_t b) { return Op{kSnd, peer, b, true}; }
Op post(int peer, std::uint32_t b) { return Op{OpKind::PostRecv, peer, b}; }  // an irecv waited for a step later
const Op kWait{OpKind::Wait, -1, 0};
}  // namespace

// Configuration: reduce binomial on 8 ranks, root 0, and on 6 ranks, root 2; 64-byte vectors.
// Expected (ompi_coll_base_topo_build_in_order_bmtree, hand-run): root 0 on 8: 0 -> 1, 2, 4; 2 -> 3; 4 -> 5, 6; 6 -> 7.
// ompi_coll_base_reduce_generic, one segment: a node posts the receive of child i, waits for the receive posted before
// it (child i-1's) and reduces it; after the last child's it sends to its parent with a blocking send; a leaf sends at
// once. Rank 0: [post 1] [post 2, wait] [reduce] [post 4, wait] [reduce] [wait] [reduce]; rank 4: [post 5] [post 6,
// wait] [reduce] [wait] [reduce] [send 0]; rank 7: [send 6]. Root 2 on 6 (v = rank - 2 mod 6):
// rank 2 (v 0) -> 3 (v 1), 4 (v 2), 0 (v 4); rank 0 (v 4) -> 1 (v 5); rank 4 (v 2) -> 5 (v 3).
// How validated: the schedules op by op; run_schedules for completion (P-1 messages, P-1 reductions).
TEST_CASE("tuned reduce: binomial over the in-order binomial tree rank by rank", "[collective]") {
  AlgoParams p;
  p.bytes = 64;
  using V = std::vector<std::vector<Op>>;
  const Op red{kRed, -1, 64};
  CHECK(all_ops(reduce_binomial(0, 8, p)) ==
        V{{post(1, 64)}, {post(2, 64), kWait}, {red}, {post(4, 64), kWait}, {red}, {kWait}, {red}});
  CHECK(all_ops(reduce_binomial(4, 8, p)) ==
        V{{post(5, 64)}, {post(6, 64), kWait}, {red}, {kWait}, {red}, {pml_send(0, 64)}});
  CHECK(all_ops(reduce_binomial(7, 8, p)) == V{{pml_send(6, 64)}});
  p.root = 2;
  CHECK(all_ops(reduce_binomial(2, 6, p)) ==
        V{{post(3, 64)}, {post(4, 64), kWait}, {red}, {post(0, 64), kWait}, {red}, {kWait}, {red}});
  CHECK(all_ops(reduce_binomial(0, 6, p)) == V{{post(1, 64)}, {kWait}, {red}, {pml_send(2, 64)}});
  CHECK(all_ops(reduce_binomial(4, 6, p)) == V{{post(5, 64)}, {kWait}, {red}, {pml_send(2, 64)}});
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
  CHECK(all_ops(reduce_in_order_binary(8, 9, p)) == V{{post(7, 16)}, {post(3, 16), kWait}, {red}, {kWait}, {red}});
  CHECK(all_ops(reduce_in_order_binary(7, 9, p)) ==
        V{{post(6, 16)}, {post(5, 16), kWait}, {red}, {kWait}, {red}, {pml_send(8, 16)}});
  CHECK(all_ops(reduce_in_order_binary(5, 9, p)) == V{{post(4, 16)}, {kWait}, {red}, {pml_send(7, 16)}});
  CHECK(all_ops(reduce_in_order_binary(6, 9, p)) == V{{pml_send(7, 16)}});
  CHECK(all_ops(reduce_in_order_binary(1, 9, p)) == V{{post(0, 16)}, {kWait}, {red}, {pml_send(3, 16)}});
  CHECK(all_ops(reduce_in_order_binary(0, 9, p)) == V{{pml_send(1, 16)}});
  p.root = 0;
  CHECK(all_ops(reduce_in_order_binary(0, 9, p)) == V{{pml_send(1, 16)}, {Op{kRcv, 8, 16}}});
  CHECK(all_ops(reduce_in_order_binary(8, 9, p)) ==
        V{{post(7, 16)}, {post(3, 16), kWait}, {red}, {kWait}, {red}, {pml_send(0, 16)}});
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
  CHECK(all_ops(reduce_binary(0, 7, p)) == V{{post(1, 32)}, {post(2, 32), kWait}, {red}, {kWait}, {red}});
  CHECK(all_ops(reduce_binary(1, 7, p)) ==
        V{{post(3, 32)}, {post(5, 32), kWait}, {red}, {kWait}, {red}, {pml_send(0, 32)}});
  CHECK(all_ops(reduce_binary(6, 7, p)) == V{{pml_send(2, 32)}});
  p.root = 3;
  CHECK(all_ops(reduce_binary(3, 8, p)) == V{{post(4, 32)}, {post(5, 32), kWait}, {red}, {kWait}, {red}});
  CHECK(all_ops(reduce_binary(4, 8, p)) ==
        V{{post(6, 32)}, {post(0, 32), kWait}, {red}, {kWait}, {red}, {pml_send(3, 32)}});
  CHECK(all_ops(reduce_binary(6, 8, p)) == V{{post(2, 32)}, {kWait}, {red}, {pml_send(4, 32)}});
  CHECK(all_ops(reduce_binary(2, 8, p)) == V{{pml_send(6, 32)}});
  p.root = 2;
  CHECK(all_ops(reduce_pipeline(1, 5, p)) == V{{pml_send(0, 32)}});
  CHECK(all_ops(reduce_pipeline(0, 5, p)) == V{{post(1, 32)}, {kWait}, {red}, {pml_send(4, 32)}});
  CHECK(all_ops(reduce_pipeline(2, 5, p)) == V{{post(3, 32)}, {kWait}, {red}});
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

// Configuration: reduce binomial with segments (coll/tuned v1.3 passes 1 KiB), 4 ranks, root 0, a 3000-byte vector of
// 4-byte elements, segment size 1024 B: segments of 1024, 1024 and 952 B.
// Expected (ompi_coll_tuned_reduce_generic, v1.3.0, hand-run for segments k = 0 .. 3 and children in turn): rank 0
// (children 1, 2) posts child 1's segment 0; then posts child 2's segment 0, waits for child 1's and reduces it; posts
// child 1's segment 1, waits for child 2's segment 0 and reduces it (segment 0 complete); ... until the wait for child
// 2's last segment and its reduction. Rank 2 (child 3, parent 0) sends each segment to 0 once reduced; the leaves send
// theirs with blocking sends. Over P in {2, 3, 5, 8, 13} and roots 0 and P-1, each tree's messages conserve, and the
// bytes reduced over all ranks are (P-1) x n. How validated: the source's loop run by hand; run_schedules.
TEST_CASE("tuned reduce: segmented trees as coll/tuned v1.3's generic reduce runs them", "[collective]") {
  AlgoParams p;
  p.bytes = 3000;
  p.elem_bytes = 4;
  p.segsize = 1024;
  using V = std::vector<std::vector<Op>>;
  auto red = [](std::uint32_t b) { return Op{kRed, -1, b}; };
  CHECK(all_ops(reduce_binomial(0, 4, p)) ==
        V{{post(1, 1024)}, {post(2, 1024), kWait}, {red(1024)}, {post(1, 1024), kWait}, {red(1024)},
          {post(2, 1024), kWait}, {red(1024)}, {post(1, 952), kWait}, {red(1024)}, {post(2, 952), kWait}, {red(952)},
          {kWait}, {red(952)}});
  CHECK(all_ops(reduce_binomial(2, 4, p)) ==
        V{{post(3, 1024)}, {post(3, 1024), kWait}, {red(1024)}, {pml_send(0, 1024)}, {post(3, 952), kWait},
          {red(1024)}, {pml_send(0, 1024)}, {kWait}, {red(952)}, {pml_send(0, 952)}});
  CHECK(all_ops(reduce_binomial(3, 4, p)) == V{{pml_send(2, 1024)}, {pml_send(2, 1024)}, {pml_send(2, 952)}});
  p.segsize = 1026;  // COLL_TUNED_COMPUTED_SEGCOUNT: 256 elements and a remainder of 2 B = half an element: 1024 B
  CHECK(all_ops(reduce_binomial(3, 4, p)).front() == std::vector<Op>{pml_send(2, 1024)});
  p.segsize = 1027;  // a remainder above half an element: 257 elements
  CHECK(all_ops(reduce_binomial(3, 4, p)).front() == std::vector<Op>{pml_send(2, 1028)});
  for (const char* algo : {"binomial", "binary", "pipeline", "in_order_binary"})
    for (int n : {2, 3, 5, 8, 13})
      for (int root : {0, n - 1}) {
        INFO(algo << " on " << n << " ranks, root " << root);
        AlgoParams q;
        q.bytes = 10000;
        q.elem_bytes = 4;
        q.segsize = 1024;
        q.root = root;
        const AlgoInfo* a = default_registry().find("reduce", algo);
        REQUIRE(a);
        const CheckResult r = run_schedules(n, a->make, q);
        CHECK(r.completed);
        CHECK(r.error.empty());
        std::uint64_t reduced = 0;
        for (int me = 0; me < n; ++me)
          for (const auto& rd : a->make(me, n, q).rounds)
            for (const Op& op : rd.ops)
              if (op.kind == kRed) reduced += op.value;
        CHECK(reduced == static_cast<std::uint64_t>(n - 1) * 10000u);
      }
}

// Configuration: collectives/decision/ompi_v1_3_tuned.json's reduce and the Gemini paper's trunk r26242
// (ompi_r26242_tuned.json, based on the v1.3 file) at sizes on either side of each branch.
// Expected (ompi_coll_tuned_reduce_intra_dec_fixed, v1.3.0 and bd8b4f7f1e, hand-run with a1 = 0.6016/1024, b1 =
// 1.3496, a2 = 0.0410/1024, b2 = 9.7128, a3 = 0.0422/1024, b3 = 1.1614, a4 = 0.0033/1024, b4 = 1.6761): 4 ranks 256 B
// basic linear; 4 ranks 16 KiB binomial (below 8 ranks and 20480 B); 64 ranks 1 KiB binomial (below 2048 B); 64 ranks
// 64 KiB binomial in 1 KiB segments (64 > 39.85); 16 ranks 64 KiB pipeline in 1 KiB segments (16 > 12.34, not >
// 39.85); 16 ranks 256 KiB the a3 branch (16 > 11.96, not > 20.2): v1.3 pipeline, r26242 binary, 32 KiB segments; 8
// ranks 1 MiB pipeline in 32 KiB segments (8 > 5.06); 4 ranks 1 MiB pipeline in 64 KiB segments. r26242's other
// collectives are its base's. How validated: the branches and constants of both sources.
TEST_CASE("decision: coll/tuned v1.3's and trunk r26242's reduce, with segment sizes", "[collective][decision]") {
  const auto v13 = decision_data("ompi_v1_3_tuned.json");
  const auto r = load_library(ompisim::data_dir(), "tuned-r26242");
  struct Case {
    int p;
    std::uint64_t bytes;
    const char* v13_algo;
    const char* r26242_algo;
    std::uint32_t seg;
  };
  for (const Case& c : {Case{4, 256, "linear", "linear", 0}, Case{4, 16384, "binomial", "binomial", 0},
                        Case{64, 1024, "binomial", "binomial", 0}, Case{64, 65536, "binomial", "binomial", 1024},
                        Case{16, 65536, "pipeline", "pipeline", 1024}, Case{16, 262144, "pipeline", "binary", 32768},
                        Case{8, 1u << 20, "pipeline", "pipeline", 32768}, Case{4, 1u << 20, "pipeline", "pipeline", 65536}}) {
    INFO(c.p << " ranks, " << c.bytes << " B");
    CHECK(decide_algorithm(v13, "reduce", c.p, c.bytes) == c.v13_algo);
    CHECK(decide_algorithm(r, "reduce", c.p, c.bytes) == c.r26242_algo);
    CHECK(decide(v13, "reduce", CommShape{c.p, false}, c.bytes).segsize == c.seg);
    CHECK(decide(r, "reduce", CommShape{c.p, false}, c.bytes).segsize == c.seg);
  }
  for (const char* coll : {"allreduce", "alltoall", "bcast", "barrier"}) CHECK(r.at(coll) == v13.at(coll));
}

// Configuration: a data folder whose r26242 table names itself as its base, then one whose base table has a base.
// Expected: InputErrors naming the file and "base". How validated: the error text.
TEST_CASE("decision: a table's base must be another table without a base", "[collective][decision]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ompisim-base-" + std::to_string(::getpid()));
  fs::create_directories(dir / "collectives" / "decision");
  std::ofstream(dir / "collectives/decision/ompi_r26242_tuned.json") << R"({"base": "tuned-r26242"})";
  CHECK_THROWS_WITH(load_library(dir.string(), "tuned-r26242"),
                    Catch::Contains("ompi_r26242_tuned.json") && Catch::Contains("base"));
  std::ofstream(dir / "collectives/decision/ompi_r26242_tuned.json") << R"({"base": "tuned-v1.3"})";
  std::ofstream(dir / "collectives/decision/ompi_v1_3_tuned.json") << R"({"base": "tuned"})";
  CHECK_THROWS_WITH(load_library(dir.string(), "tuned-r26242"), Catch::Contains("a base table has no base"));
  fs::remove_all(dir);
}
