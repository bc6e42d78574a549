#include "core/progress.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: the progress line for given states (no terminal, no clock). Expected: points done and left, elapsed
// time, the estimate of the time left from the mean time per point, the simulated time and the event rate.
TEST_CASE("progress: the line says points done and left, time left, simulated time and event rate", "[unit]") {
  CHECK(progress::line(0, 4, 0, "a.json") == "[0/4 done, 4 left] 0:00 elapsed  a.json");
  CHECK(progress::line(1, 4, 30, "b.json") == "[1/4 done, 3 left] 0:30 elapsed, ~1:30 left  b.json");
  CHECK(progress::line(2, 4, 3700, "") == "[2/4 done, 2 left] 1:01:40 elapsed, ~1:01:40 left");
  CHECK(progress::line(0, 0, 5, "", 12.5e-6, 3.2e6) == "simulated 12.5 us, 3.2 M events/s");
  CHECK(progress::line(std::size_t{1}, 2, 10, "p", 1e-3, 5e5) ==
        "[1/2 done, 1 left] 0:10 elapsed, ~0:10 left  p | simulated 1000 us, 0.5 M events/s");
  CHECK(progress::line(0, 1, 0, std::string(300, 'x')).size() == 160);
}
