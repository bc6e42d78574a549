// The completion grid of the sharing engines (engine/engine_base.hpp, set_completion_grid): a flow leaves what it
// shares at its own end date, its callback runs at that date rounded up to the grid, and the callbacks of one grid
// date run in start order after the model's events of that date.
#include "engine/fluid_engine.hpp"
#include "engine/lmm_engine.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ompisim;

namespace {
constexpr double kGrid = 1.0 / (1 << 21);  // 2^-21 s, about 477 ns: a grid line is exact in binary

// Configuration: resources r0 and r1 of 1e9 B/s. Flow A (first started) moves 1,420 B over r0 (ends at 1.42 us),
// flow B 1,200 B over r1 and flow C, started at 1 us, 1,000 B over r1 too: B moves 1,000 B alone, then B and C share
// r1 (0.5e9 B/s each), B ends at 1.4 us and C, alone again, at 2.2 us. An event is scheduled at the grid date of
// 1.42 us (the line above 1.4 us too), another at 1.41 us reads the rates.
// Expected with the grid: A and B, ending in the same grid cell in the other order, both run at that cell's upper
// line, A first (start order), after the event of that date; at 1.41 us A and C have 1e9 B/s each (B left r1 at its
// own date, before its callback); C runs at 2.2 us's grid date. Without the grid: B at 1.4 us, A at 1.42 us, the
// event, C at 2.2 us; the same rates at 1.41 us. How validated: the log of callbacks and their dates, the rates.
template <class Engine>
void check_one_cell(double grid) {
  Engine s;
  s.set_completion_grid(grid);
  const ResourceId r0 = s.add_resource("r0", 1e9), r1 = s.add_resource("r1", 1e9);
  s.seal();
  std::vector<std::pair<std::string, double>> log;
  s.at(0, [&] {
    s.flow({r0}, 1420, [&] { log.emplace_back("A", s.now()); });
    s.flow({r1}, 1200, [&] { log.emplace_back("B", s.now()); });
  });
  s.at(1e-6, [&] { s.flow({r1}, 1000, [&] { log.emplace_back("C", s.now()); }); });
  s.at(1.41e-6, [&] { CHECK(s.rates() == std::vector<double>{1e9, 1e9}); });
  const double cell = std::ceil(1.42e-6 / kGrid) * kGrid;
  REQUIRE(std::ceil(1.4e-6 / kGrid) * kGrid == cell);  // A and B end in one cell
  s.at(cell, [&] { log.emplace_back("event", s.now()); });
  s.run();
  REQUIRE(log.size() == 4);
  if (grid > 0) {
    CHECK(log[0] == std::make_pair(std::string("event"), cell));
    CHECK(log[1] == std::make_pair(std::string("A"), cell));
    CHECK(log[2] == std::make_pair(std::string("B"), cell));
    CHECK(log[3].first == "C");
    CHECK(log[3].second == std::ceil(2.2e-6 / kGrid) * kGrid);
  } else {
    CHECK(log[0].first == "B");
    CHECK(log[0].second == Approx(1.4e-6).epsilon(1e-12));
    CHECK(log[1].first == "A");
    CHECK(log[1].second == Approx(1.42e-6).epsilon(1e-12));
    CHECK(log[2].first == "event");
    CHECK(log[3].first == "C");
    CHECK(log[3].second == Approx(2.2e-6).epsilon(1e-12));
  }
}

// A random run: 12 resources of random capacities, 40 flows over random paths of 1 to 4 resources started at random
// dates, each callback starting, with probability 1/2, one more flow (up to 400) over a random path; the log of
// (flow, date) in delivery order.
template <class Engine>
std::vector<std::pair<int, double>> random_run(std::uint32_t seed, double grid) {
  Engine s;
  s.set_completion_grid(grid);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> cap(1e8, 1e10), bytes(1e3, 1e7), when(0, 1e-3);
  std::vector<ResourceId> res;
  for (int r = 0; r < 12; ++r) res.push_back(s.add_resource("r" + std::to_string(r), cap(rng)));
  s.seal();
  std::vector<std::pair<int, double>> log;
  int started = 0;
  auto path = [&] {
    std::vector<ResourceId> p;
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      const ResourceId r = res[rng() % res.size()];
      if (std::find(p.begin(), p.end(), r) == p.end()) p.push_back(r);
    }
    return p;
  };
  std::function<void()> start = [&] {
    const int id = started++;
    s.flow(path(), bytes(rng), [&, id] {
      log.emplace_back(id, s.now());
      if (started < 400 && rng() % 2 == 0) start();
    });
  };
  for (int i = 0; i < 40; ++i) s.at(when(rng), start);
  s.run();
  return log;
}
}  // namespace

TEST_CASE("completion grid: one cell's callbacks at its upper line in start order, after that date's events",
          "[unit][engine]") {
  SECTION("lmm, grid") { check_one_cell<engine::LmmEngine>(kGrid); }
  SECTION("lmm, exact") { check_one_cell<engine::LmmEngine>(0); }
  SECTION("fluid, grid") { check_one_cell<engine::FluidEngine>(kGrid); }
  SECTION("fluid, exact") { check_one_cell<engine::FluidEngine>(0); }
}

// Configuration: 200 random runs (random_run), each on the lmm and the fluid engine, exact and with a 1 ns grid.
// Expected: exact, the two engines' first end dates agree within 1e-9 relative, but not every run's log is the same
// bit for bit (they round differently, and a swapped pair of ends changes the flows drawn after it); with the grid, every run's log is the same on both, dates bit for bit and order. How validated: the
// logs compared; the count of exact runs that differ must be positive, so the grid is what makes them equal.
TEST_CASE("completion grid: the lmm and fluid engines deliver the same callbacks at the same dates",
          "[unit][engine]") {
  int exact_differ = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const auto a = random_run<engine::LmmEngine>(seed, 0), b = random_run<engine::FluidEngine>(seed, 0);
    if (a != b) ++exact_differ;
    // (the callbacks draw the next flows: once two ends swap, the runs go apart, so only the first entry is compared)
    REQUIRE(!a.empty());
    CHECK(a[0].first == b[0].first);
    CHECK(a[0].second == Approx(b[0].second).epsilon(1e-9));
    const auto ga = random_run<engine::LmmEngine>(seed, 1e-9), gb = random_run<engine::FluidEngine>(seed, 1e-9);
    INFO("seed " << seed);
    REQUIRE(ga == gb);
  }
  CHECK(exact_differ > 0);
}

TEST_CASE("completion grid: a negative or endless width throws", "[unit][engine]") {
  engine::LmmEngine s;
  REQUIRE_THROWS_AS(s.set_completion_grid(-1e-9), std::invalid_argument);
  REQUIRE_THROWS_AS(s.set_completion_grid(INFINITY), std::invalid_argument);
  REQUIRE_THROWS_AS(s.set_completion_grid(NAN), std::invalid_argument);
  s.set_completion_grid(0);
  CHECK(s.completion_grid() == 0);
}
