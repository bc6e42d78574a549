// barrier_loop's steady-state cutoff (benchmarks/barrier.cpp): once the back-to-back calls repeat with a period of 1 .. 4
// calls, whole periods are cut out of the middle of the loop and the end time moves by their length.
#include "benchmarks/driver.hpp"
#include "runner/scenario.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
struct BarrierCase {
  const char* machine;
  const char* stack;
  int ranks, rpn;
  Json block;
};

Json run_barrier_block(const BarrierCase& c, const Json& extra) {
  Json block = c.block;
  block["name"] = "barrier_loop";
  for (auto& [k, v] : extra.items()) block[k] = v;
  Scenario s = scenario_from_json(Json{{"machine", c.machine}, {"stack", c.stack}, {"ranks", c.ranks},
                                       {"ranks_per_node", c.rpn}, {"benchmark", block}},
                                  "barrier.json");
  test::Fixture f(c.machine, c.ranks, c.rpn, c.stack);
  Json pts = s.driver->run(*f.world, *f.stack, "barrier.json");
  REQUIRE(pts.size() == 1);
  return pts[0];
}
}  // namespace

// Configuration: barrier loops of 60 timed calls after 10 warm-up calls: the Cheetah atomic barrier (radix 4) and the
// p2p barrier on 64 Cielo ranks (one per node); coll/tuned's barrier on the 64-node QsNetII what-if machine
// (openmpi-elan4 and native) and on the 512-node one (openmpi-elan4, a loop that repeats every two calls); bruck on 13
// loggp ranks. Each once with "steady_state": 0 (every call simulated) and once with the default.
// Expected: the same latency within 1e-9 relative; the cut run simulated fewer calls than 70 but at least the warm-up
// and two periods' window (kSteadyWindow = 8, plus the two calls under way); the full run records no calls_simulated.
// How validated: the driver's points compared. (A cut in the wrong place, an end time moved by the wrong number of
// periods or a period misread moves the average by a whole call's share: 1/60 of a call, far above 1e-9.)
TEST_CASE("barrier_loop: the steady-state cutoff gives the full loop's latency", "[benchmark][barrier]") {
  const Json loop{{"iterations", 60}, {"skip", 10}};
  std::vector<BarrierCase> cases{
      {"cielo", "openmpi", 64, 1, Json{{"algorithm", "cheetah-atomic"}, {"radix", 4}}},
      {"cielo", "openmpi", 64, 1, Json{{"algorithm", "cheetah-p2p"}}},
      {"whatif-qsnet-64", "openmpi-elan4", 64, 1, Json{{"algorithm", "tuned"}}},
      {"whatif-qsnet-64", "native", 64, 1, Json{{"algorithm", "tuned"}}},
      {"whatif-qsnet-512", "openmpi-elan4", 512, 1, Json{{"algorithm", "tuned"}}},  // repeats every two calls
      {"loggp", "loggp", 13, 1, Json{{"algorithm", "bruck"}}},
  };
  for (BarrierCase& c : cases) {
    for (auto& [k, v] : loop.items()) c.block[k] = v;
    INFO(c.machine << " " << c.stack << " " << c.block.dump());
    Json full = run_barrier_block(c, Json{{"steady_state", 0}});
    Json cut = run_barrier_block(c, Json::object());
    CHECK_FALSE(full.contains("calls_simulated"));
    REQUIRE(cut.contains("calls_simulated"));
    const long long n = cut["calls_simulated"];
    INFO("calls simulated " << n);
    CHECK(n >= 10 + 2);
    CHECK(n < 70);
    const double a = full["latency_us"], b = cut["latency_us"];
    INFO(a << " vs " << b);
    CHECK(std::abs(a - b) <= 1e-9 * a);
  }
}

// Configuration: the Cheetah atomic barrier on 16 Cielo ranks, 5 timed calls after 1 warm-up call (fewer than the
// window a period must hold over). Expected: every call simulated (calls_simulated 6) and the latency of the loop
// without the cutoff, exactly.
TEST_CASE("barrier_loop: a loop shorter than the steady-state window is simulated in full", "[benchmark][barrier]") {
  BarrierCase c{"cielo", "openmpi", 16, 1, Json{{"algorithm", "cheetah-atomic"}, {"iterations", 5}, {"skip", 1}}};
  Json full = run_barrier_block(c, Json{{"steady_state", 0}});
  Json cut = run_barrier_block(c, Json::object());
  CHECK(cut["calls_simulated"] == 6);
  CHECK(cut["latency_us"].get<double>() == full["latency_us"].get<double>());
}

// Configuration: "steady_state" outside [0, 0.5], and as text. Expected: InputError naming the file and
// benchmark.steady_state.
TEST_CASE("barrier_loop: a steady_state tolerance out of range is refused", "[benchmark][barrier]") {
  for (Json bad : {Json(2), Json(-1e-3), Json("small")}) {
    Json sc{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 4},
            {"benchmark", {{"name", "barrier_loop"}, {"steady_state", bad}}}};
    INFO(bad.dump());
    try {
      (void)scenario_from_json(sc, "barrier.json");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains("barrier.json") && Catch::Contains("benchmark.steady_state"));
    }
  }
}
