// Issue 12: results/validation.md shows each point's tolerance and role.
#include "validation/validate.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: one calibration point (tolerance 5 %), one prediction, one held-out value.
// Expected: a tolerance column ("±5" for the calibration point, "not checked" for the prediction) and the held-out
// table naming its role. How validated: substrings of the rendered Markdown.
TEST_CASE("validation table: tolerance column and roles", "[unit][validation]") {
  Json v{{"points", Json::array({{{"id", "a"}, {"figure", "fig5"}, {"reference", 1.5}, {"simulated", 1.53},
                                  {"error_pct", 2.0}, {"tolerance_pct", 5.0}, {"role", "calibration"}, {"pass", true}},
                                 {{"id", "b"}, {"figure", "fig5"}, {"reference", 2.0}, {"simulated", 3.0},
                                  {"error_pct", 50.0}, {"tolerance_pct", 10.0}, {"role", "prediction"}, {"pass", true}}})},
         {"held_out", Json::array({{{"id", "c"}, {"figure", "fig7"}, {"simulated", 4.0}, {"metric", "ratio"}}})},
         {"claims", Json::array()}};
  std::string md = validation::render_table(v);
  CHECK_THAT(md, Catch::Contains("| error % | tolerance % | pass |"));
  CHECK_THAT(md, Catch::Contains("| a | fig5 | calibration | 1.5 | 1.53 | +2.0 | ±5 | yes |"));
  CHECK_THAT(md, Catch::Contains("| b | fig5 | prediction | 2 | 3 | +50.0 | not checked | (prediction) |"));
  CHECK_THAT(md, Catch::Contains("| c | fig7 | held out | ratio | 4 |"));
}
