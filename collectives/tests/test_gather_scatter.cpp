// Tests of the allgather/gather/scatter generators (collectives/gather_scatter.hpp).
#include "collectives/check.hpp"
#include "collectives/gather_scatter.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::coll;

// Configuration: every generator of register_gather_scatter, P in {1, 2, 3, 5, 8, 13, 64}, roots 0 and P-1.
// Expected: the schedules complete on the zero-time executor with every send matched; message counts are P(P-1) for
//           the ring allgather and P-1 for gather and scatter; the gather root receives from every other rank once.
// How validated: run_schedules' counters.
TEST_CASE("gather_scatter: allgather ring, gather and scatter basic_linear complete and match", "[collective]") {
  CollRegistry reg;
  register_gather_scatter(reg);
  REQUIRE(reg.all().size() == 3);
  for (const auto& info : reg.all())
    for (int n : {1, 2, 3, 5, 8, 13, 64})
      for (int root : {0, n - 1}) {
        AlgoParams p;
        p.bytes = 4096;
        p.root = root;
        CheckResult r = run_schedules(n, info.make, p);
        INFO(info.coll << "/" << info.algo << " P=" << n << " root=" << root << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        CHECK(r.sends == r.recvs);
        long long want = info.coll == "allgather" ? static_cast<long long>(n) * (n - 1) : n - 1;
        CHECK(static_cast<long long>(r.sends) == want);
      }
  AlgoParams bad;
  bad.root = 4;
  CHECK_THROWS_WITH(gather_basic_linear(0, 4, bad), Catch::Contains("root 4 outside [0, 4)"));
}
