#include "validation/gap.hpp"

#include <cmath>

#include <catch2/catch.hpp>

using namespace ompisim::validation;

TEST_CASE("gap: the papers' X % better / worse, one reading") {
  // Gemini intra-node 1 KiB: Open MPI 0.76 us is 82 % better than native: native = 0.76 x 1.82
  CHECK(gap_pct(0.76, 0.76 * 1.82, Better::Lower) == Approx(82.0));
  // Gemini inter-node 1 KiB: Open MPI 4.81 us is 47 % worse than native: Open MPI = native x 1.47
  CHECK(gap_pct(4.81, 4.81 / 1.47, Better::Lower) == Approx(-47.0));
  // symmetric: a X % worse than b is b X % better than a
  CHECK(gap_pct(3.0, 2.0, Better::Lower) == Approx(-gap_pct(2.0, 3.0, Better::Lower)));
  // bandwidth: 15 % better = 1.15 x the other
  CHECK(gap_pct(11.5, 10.0, Better::Higher) == Approx(15.0));
  CHECK(gap_pct(10.0, 11.5, Better::Higher) == Approx(-15.0));
  CHECK(gap_pct(2.0, 2.0, Better::Lower) == 0.0);
  CHECK_THROWS(gap_pct(0.0, 1.0, Better::Lower));
}

TEST_CASE("gap: holds with the paper's sign within a factor of 1.5") {
  CHECK(gap_holds(47.0, 47.0));
  CHECK(gap_holds(31.4, 47.0));
  CHECK_FALSE(gap_holds(31.0, 47.0));
  CHECK(gap_holds(70.4, 47.0));
  CHECK_FALSE(gap_holds(71.0, 47.0));
  CHECK_FALSE(gap_holds(-47.0, 47.0));  // the other sign
  CHECK_FALSE(gap_holds(2.6, 82.0));    // an order with the wrong magnitude
  CHECK(gap_holds(-5.0, -5.0));
  CHECK(gap_holds(-3.4, -5.0));
  CHECK_FALSE(gap_holds(-3.3, -5.0));
  CHECK_FALSE(gap_holds(0.0, 5.0));
}

TEST_CASE("gap: direction from the metric name") {
  CHECK(better_of_metric("latency_us") == Better::Lower);
  CHECK(better_of_metric("bandwidth_GBps") == Better::Higher);
  CHECK(better_of_metric("peak_bandwidth_GBps") == Better::Higher);
  CHECK(better_of_metric("messages_per_s") == Better::Higher);
  CHECK(better_of_metric("availability_pct") == Better::Higher);
  CHECK(better_of_metric("runtime_s") == Better::Lower);
  CHECK(better_of_metric("t_avg_us") == Better::Lower);
  CHECK(better_of_metric("mpi_time_pct") == Better::Lower);
  CHECK_THROWS_AS(better_of_metric("widgets"), std::invalid_argument);
}

TEST_CASE("gap: several gaps read together, as one mean of log ratios") {
  CHECK(mean_gap_pct({12.0}) == Approx(12.0));
  CHECK(mean_gap_pct({5.0, 5.0, 5.0}) == Approx(5.0));
  CHECK(mean_gap_pct({10.0, -10.0}) == Approx(0.0).margin(1e-12));  // a +X and a -X gap cancel
  // SeaStar §4's four applications (CM vs Cray MPI: +0.4, -4, +3, +12 %): geometric mean of the slower/faster ratios
  const double m = mean_gap_pct({0.4, -4.0, 3.0, 12.0});
  CHECK(m == Approx((std::exp((std::log(1.004) - std::log(1.04) + std::log(1.03) + std::log(1.12)) / 4) - 1) * 100));
  CHECK(m > 0);
  CHECK(mean_gap_pct({-20.0, -1.0}) < 0);
  CHECK_THROWS(mean_gap_pct({}));
}
