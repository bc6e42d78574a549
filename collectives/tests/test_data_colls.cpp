// Tests of the data-carrying collective generators (collectives/data_colls.hpp): allreduce recursive_doubling,
// alltoall pairwise, bcast binomial, run on the zero-time checker (collectives/check.hpp).
#include <catch2/catch.hpp>
#include <stdexcept>

#include "collectives/check.hpp"
#include "collectives/data_colls.hpp"

using namespace ompisim::coll;

namespace {
std::uint64_t sends_expected(const std::string& coll, int n) {
  if (coll == "alltoall") return static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n - 1);
  if (coll == "bcast") return static_cast<std::uint64_t>(n - 1);
  int p2 = 1, lg = 0;
  while (p2 * 2 <= n) p2 *= 2, ++lg;
  const int extra = n - p2;
  return static_cast<std::uint64_t>(p2) * lg + 2u * static_cast<std::uint64_t>(extra);  // exchange + fold/unfold
}
}  // namespace

// Configuration: each data collective, P in {1, 2, 3, 5, 7, 8, 13, 16, 33, 100} (non-powers of two included), 8 B and
// 64 KiB messages; bcast with roots 0, 1 and P-1.
// Expected: every rank finishes exactly once, every message is received exactly once with the size it was sent with,
// and the number of messages is the algorithm's: allreduce p2 log2(p2) + 2 (P - p2), alltoall P(P-1), bcast P-1.
// How validated: the zero-time checker (FIFO matching per ordered pair, size checked on every match).
TEST_CASE("data collectives: complete, conserve messages, algorithm message counts", "[collective]") {
  CollRegistry reg;
  register_data_collectives(reg);
  for (const auto& info : reg.all()) {
    for (int n : {1, 2, 3, 5, 7, 8, 13, 16, 33, 100}) {
      for (std::uint32_t bytes : {8u, 65536u}) {
        std::vector<int> roots{0};
        if (info.coll == "bcast" && n > 1) roots = {0, 1, n - 1};
        for (int root : roots) {
          AlgoParams p;
          p.bytes = bytes;
          p.root = root;
          CheckResult r = run_schedules(n, info.make, p);
          INFO(info.coll << "/" << info.algo << " P=" << n << " bytes=" << bytes << " root=" << root << ": " << r.error);
          REQUIRE(r.completed);
          CHECK(r.sends == r.recvs);
          CHECK(r.unmatched_sends == 0);
          for (int rel : r.releases) CHECK(rel == 1);
          CHECK(r.sends == sends_expected(info.coll, n));
        }
      }
    }
  }
}

// Configuration: the bcast tree for P = 13, root 5. Expected: the root only sends, and every other rank receives
// exactly once, before it sends. How validated: the first round of each non-root rank is a single Recv.
TEST_CASE("bcast binomial: non-root ranks receive once before sending", "[collective]") {
  AlgoParams p;
  p.root = 5;
  p.bytes = 8;
  for (int me = 0; me < 13; ++me) {
    Schedule s = bcast_binomial(me, 13, p);
    int recvs = 0;
    for (auto& rd : s.rounds)
      for (auto& op : rd.ops) recvs += op.kind == OpKind::Recv;
    if (me == 5) {
      CHECK(recvs == 0);
    } else {
      CHECK(recvs == 1);
      REQUIRE(!s.rounds.empty());
      CHECK(s.rounds[0].ops.size() == 1);
      CHECK(s.rounds[0].ops[0].kind == OpKind::Recv);
    }
  }
}

// Configuration: bad arguments. Expected: std::invalid_argument naming the algorithm. How validated: the exception.
TEST_CASE("data collectives: invalid arguments throw", "[collective]") {
  AlgoParams p;
  CHECK_THROWS_AS(allreduce_recursive_doubling(4, 4, p), std::invalid_argument);
  CHECK_THROWS_AS(alltoall_pairwise(0, 0, p), std::invalid_argument);
  p.root = 7;
  CHECK_THROWS_WITH(bcast_binomial(0, 4, p), Catch::Contains("bcast/binomial: root = 7"));
}
