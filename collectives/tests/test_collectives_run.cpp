#include "benchmarks/benchmarks.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ompisim;

// Configuration: the loggp reference machine (L = 1 us, o = 0.5 us, g = 0.2 us), bruck (dissemination) barrier.
// Expected: ceil(log2 P) x (2o + L) per call, the LogP closed form. How validated: relative error below 1e-9.
TEST_CASE("loggp: dissemination barrier matches ceil(log2 P)(2o + L)", "[collective][golden]") {
  for (int p : {2, 3, 5, 8, 13, 64, 100}) {
    test::Fixture f("loggp", p, 1, "loggp");
    bench::BarrierConfig c;
    c.algorithm = "bruck";
    c.iterations = 5;
    c.skip = 0;
    Json r = bench::run_barrier(*f.world, *f.stack, c, "test");
    double expect = std::ceil(std::log2(p)) * (2 * 0.5 + 1.0);
    INFO("P = " << p);
    CHECK(r["latency_us"].get<double>() == Approx(expect).epsilon(1e-9));
  }
}

// Configuration: every barrier algorithm on the openmpi stack (Cielo, DES engine) and on loggp, several sizes
// including non-powers of two. Expected: completes, every send received once, no request left.
TEST_CASE("every barrier algorithm completes with conservation on real stacks", "[collective]") {
  for (auto& algo : bench::barrier_algorithm_names()) {
    for (int p : {2, 3, 7, 16, 33}) {
      if (algo == "two_proc" && p != 2) continue;
      for (std::string st : {"openmpi", "loggp"}) {
        test::Fixture f(st == "loggp" ? "loggp" : "cielo", p, st == "loggp" ? 1 : 4, st);
        bench::BarrierConfig c;
        c.algorithm = algo;
        c.iterations = 3;
        c.skip = 1;
        if (st == "loggp" && (algo.rfind("cheetah", 0) == 0)) c.radix = 3;
        Json r = bench::run_barrier(*f.world, *f.stack, c, "test");
        auto s = f.stack->stats();
        INFO(algo << " P=" << p << " " << st);
        CHECK(r["latency_us"].get<double>() > 0);
        CHECK(s.sends_completed == s.sends_posted);
        CHECK(s.recvs_completed == s.recvs_posted);
        CHECK(s.sends_posted == s.recvs_posted);
        CHECK(s.live_requests == 0);
      }
    }
  }
}

// Configuration: 64 ranks, one per Cielo node. Expected: the atomic barrier is faster than the p2p barrier? The paper
// says so; this model (calibrated on the atomic point) does not reproduce it (see README §Validation), so the test
// asserts what the model must do regardless: the atomic barrier posts no MPI message, only AMOs (2 per non-root
// rank per call), and the p2p barrier only messages.
TEST_CASE("cheetah barriers: atomic uses AMOs only, p2p uses messages only", "[collective]") {
  for (std::string algo : {"cheetah-atomic", "cheetah-p2p"}) {
    test::Fixture f("cielo", 64, 1, "openmpi");
    bench::BarrierConfig c;
    c.algorithm = algo;
    c.iterations = 2;
    c.skip = 0;
    bench::run_barrier(*f.world, *f.stack, c, "test");
    auto s = f.stack->stats();
    if (algo == "cheetah-atomic") {
      CHECK(s.amos == 2u * 63u * 2u);
      CHECK(s.sends_posted == 0);
    } else {
      CHECK(s.amos == 0);
      CHECK(s.sends_posted > 0);
    }
  }
}
