// Tests of the reduce generators (collectives/reduce/reduce.hpp) and Open MPI 1.1's reduce decision.
#include "platform/machine.hpp"
#include "collectives/check.hpp"
#include "collectives/decision.hpp"
#include "collectives/reduce/reduce.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::coll;

// Configuration: reduce linear, basic_log, mpich_binomial (basic_log's generator) and binomial (coll/base's in-order
// binomial tree), P in {1, 2, 3, 5, 8, 13, 16, 33}, every root.
// Expected: the schedules complete with every send matched; P-1 messages and P-1 Reduce operations per call (one per
//           contribution other than the reducer's own); in "linear" all of them on the root, in "basic_log" the root
//           reduces ceil(log2 P) times.
// How validated: run_schedules' counters and the root's own schedule.
TEST_CASE("reduce: linear and basic_log complete with P-1 messages and P-1 reductions", "[collective]") {
  CollRegistry reg;
  register_reduce(reg);
  REQUIRE(reg.names("reduce") ==
          std::vector<std::string>{"linear", "basic_log", "mpich_binomial", "binomial", "in_order_binary", "binary",
                                   "pipeline", "chain", "rabenseifner", "mpich_reduce_scatter_gather", "mpich_smp"});
  for (const auto& info : reg.all())
    // Open MPI 1.1's two and the binomial fan-ins (MPICH's, coll/base's) here; Rabenseifner's and the node-aware
    // composition (which needs a node layout): test_mpich_allreduce.cpp; coll/base's other tree reduces:
    // test_tuned_reduce.cpp
    if (info.algo == "linear" || info.algo == "basic_log" || info.algo == "mpich_binomial" || info.algo == "binomial")
    for (int n : {1, 2, 3, 5, 8, 13, 16, 33})
      for (int root = 0; root < n; ++root) {
        AlgoParams p;
        p.bytes = 64;
        p.root = root;
        CheckResult r = run_schedules(n, info.make, p);
        INFO(info.algo << " P=" << n << " root=" << root << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.sends == static_cast<std::uint64_t>(n - 1));
        CHECK(r.recvs == r.sends);
        CHECK(r.reduces == static_cast<std::uint64_t>(n - 1));
        int root_reduces = 0;
        for (auto& rd : info.make(root, n, p).rounds)
          for (auto& op : rd.ops) root_reduces += op.kind == OpKind::Reduce;
        if (info.algo == "linear") CHECK(root_reduces == n - 1);
        else {
          int dims = 0;  // ceil(log2 P): one receive per hypercube dimension at v = 0
          for (int mask = 1; mask < n; mask <<= 1) ++dims;
          CHECK(root_reduces == dims);
        }
      }
}

// Configuration: reduce linear, P = 5, root 2.
// Expected: the root receives from 4 first, then 3, 1, 0 (its own vector, 2, needs no receive), one blocking receive
//           per round, each followed by a Reduce round: ompi_coll_tuned_reduce_intra_basic_linear's loop.
// How validated: the root's schedule written out by hand.
TEST_CASE("reduce linear: the root's receive order is P-1, then P-2 down to 0", "[collective]") {
  AlgoParams p;
  p.bytes = 16;
  p.root = 2;
  Schedule s = reduce_linear(2, 5, p);
  std::vector<Op> seq;
  for (auto& rd : s.rounds) {
    REQUIRE(rd.ops.size() == 1);
    seq.push_back(rd.ops[0]);
  }
  std::vector<Op> want{{OpKind::Recv, 4, 16}, {OpKind::Recv, 3, 16}, {OpKind::Reduce, -1, 16},
                       {OpKind::Reduce, -1, 16},  // i = 2: the root's own vector
                       {OpKind::Recv, 1, 16}, {OpKind::Reduce, -1, 16}, {OpKind::Recv, 0, 16}, {OpKind::Reduce, -1, 16}};
  CHECK(seq == want);
  Schedule leaf = reduce_linear(4, 5, p);
  REQUIRE(leaf.rounds.size() == 1);
  CHECK(leaf.rounds[0].ops == std::vector<Op>{{OpKind::Send, 2, 16}});
  p.root = 5;
  CHECK_THROWS_WITH(reduce_linear(0, 5, p), Catch::Contains("root = 5 outside [0, 5)"));
}

// Configuration: collectives/decision/ompi_v1_1_tuned.json (Open MPI 1.1's coll/tuned fixed reduce decision).
// Expected: "linear" at every size and communicator size (v1.1's decision returns basic_linear unconditionally).
// How validated: decide_algorithm over sizes 0 .. 4 MiB and 2 .. 1024 ranks.
TEST_CASE("reduce decision: Open MPI 1.1 coll/tuned chooses linear at every size", "[collective]") {
  REQUIRE(decision_file("tuned-v1.1") == "collectives/decision/ompi_v1_1_tuned.json");
  auto lib = load_decision(ompisim::data_dir() + "/" + decision_file("tuned-v1.1"));
  for (int n : {2, 16, 1024})
    for (std::uint64_t b : {0ull, 4ull, 4096ull, 65536ull, 4194304ull}) CHECK(decide_algorithm(lib, "reduce", n, b) == "linear");
}
