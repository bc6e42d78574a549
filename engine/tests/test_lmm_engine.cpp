// The lmm engine on its own (in-process; its agreement with SimGrid bit for bit is engine.crosscheck_fluid_simgrid).
#include "engine/lmm_engine.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

using namespace ompisim;

// Configuration: a = 1e9 B/s, b = 0.2e9 B/s; flows [a], [a, b], [b]. Expected: b saturates first (0.1e9 each for
// the flows crossing it), then a gives the rest to the flow that crosses it alone (0.9e9): max-min, exact in binary.
// When [b] (1e8 B) ends at 1 s, [a, b] gets 0.2e9 and [a] 0.8e9. How validated: the rates, exactly.
TEST_CASE("lmm engine: a flow bottlenecked elsewhere leaves the rest of a shared resource to the others",
          "[unit][engine]") {
  engine::LmmEngine s;
  const ResourceId a = s.add_resource("a", 1e9), b = s.add_resource("b", 0.2e9);
  s.seal();
  s.at(0, [&] {
    s.flow({a}, 1e10, [] {});
    s.flow({a, b}, 1e10, [] {});
    s.flow({b}, 1e8, [] {});
  });
  s.at(0.5, [&] {
    const auto r = s.rates();
    REQUIRE(r.size() == 3);
    CHECK(r[0] == 0.9e9);
    CHECK(r[1] == 0.1e9);
    CHECK(r[2] == 0.1e9);
  });
  bool ran = false;
  s.at(1.5, [&] {
    const auto r = s.rates();
    REQUIRE(r.size() == 2);
    CHECK(r[0] == 0.8e9);
    CHECK(r[1] == 0.2e9);
    ran = true;
  });
  s.run();
  CHECK(ran);
  CHECK(s.solves() >= 2);
}

// Configuration: misuse. Expected: a flow before seal, an empty path, an undeclared resource, a zero capacity and a
// resource after seal throw. How validated: REQUIRE_THROWS_AS.
TEST_CASE("lmm engine: misuse throws", "[unit][engine]") {
  engine::LmmEngine s;
  const ResourceId a = s.add_resource("a", 1e9);
  REQUIRE_THROWS_AS(s.flow({a}, 1, [] {}), std::logic_error);
  REQUIRE_THROWS_AS(s.add_resource("z", 0), std::invalid_argument);
  s.seal();
  REQUIRE_THROWS_AS(s.flow({}, 1, [] {}), std::logic_error);
  REQUIRE_THROWS_AS(s.flow({a + 1}, 1, [] {}), std::logic_error);
  REQUIRE_THROWS_AS(s.add_resource("b", 1e9), std::logic_error);
}
