#include "validation/sweep_plot.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <vector>

using namespace ompisim::validation;

// Configuration: a sweep axis's values: four rates (4, 4.74, 6, 8 GB/s), radices 2..32, stack names (no numbers),
//                numbers out of grid order, one value.
// Expected:      rates at their values (linear: 8 / 4 is under 4), radices at log10 (32 / 2 at least 4), the rest at
//                0, 1, 2 in grid order; the x range half the mean spacing beyond each end.
// How validated: sweep_x_positions and sweep_x_range.
TEST_CASE("sweep plots place a quantity axis's values at their numbers, others in grid order") {
  using V = std::vector<std::optional<double>>;
  const auto rates = sweep_x_positions(V{4.0, 4.74, 6.0, 8.0});
  CHECK(rates == std::vector<double>{4.0, 4.74, 6.0, 8.0});
  const auto [lo, hi] = sweep_x_range(rates);
  CHECK(lo == Approx(4.0 - 0.5 * 4.0 / 3));
  CHECK(hi == Approx(8.0 + 0.5 * 4.0 / 3));
  const auto radix = sweep_x_positions(V{2.0, 4.0, 8.0, 16.0, 32.0});
  REQUIRE(radix.size() == 5);
  for (std::size_t i = 0; i < radix.size(); ++i) CHECK(radix[i] == Approx(std::log10(2.0) * static_cast<double>(i + 1)));
  const auto r248 = sweep_x_positions(V{2.0, 4.0, 8.0});  // 8 / 2 = 4: log, evenly spaced
  CHECK(r248[1] - r248[0] == Approx(r248[2] - r248[1]));
  CHECK(sweep_x_positions(V{std::nullopt, std::nullopt}) == std::vector<double>{0.0, 1.0});
  CHECK(sweep_x_positions(V{8.0, 4.0, 6.0}) == std::vector<double>{0.0, 1.0, 2.0});
  CHECK(sweep_x_positions(V{4.0, std::nullopt}) == std::vector<double>{0.0, 1.0});
  CHECK(sweep_x_positions(V{5.0}) == std::vector<double>{0.0});
  CHECK(sweep_x_range({0.0}) == std::pair<double, double>{-0.5, 0.5});
  CHECK(sweep_x_range({0.0, 1.0, 2.0}) == std::pair<double, double>{-0.5, 2.5});
}
