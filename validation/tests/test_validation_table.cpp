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

// Configuration: a held-out value whose reference entry records a model change (value 0.5 before, 0.6 now) and one
// without. Expected: a "Values a model change moved" table with one row: before, now, +20.0 %, the change and the
// mechanism; the unchanged value is not listed. How validated: substrings of the rendered Markdown.
TEST_CASE("validation table: values moved by a model change are marked", "[unit][validation]") {
  Json change{{"change", "node model"}, {"before", 0.5}, {"mechanism", "cross-die hand-off"}};
  Json v{{"points", Json::array()},
         {"held_out", Json::array({{{"id", "moved"}, {"figure", "Fig. 3"}, {"simulated", 0.6}, {"metric", "latency_us"},
                                    {"model_change", change}},
                                   {{"id", "same"}, {"figure", "Fig. 3"}, {"simulated", 1.0}, {"metric", "latency_us"}}})},
         {"claims", Json::array()}};
  std::string md = validation::render_table(v);
  CHECK_THAT(md, Catch::Contains("Values a model change moved"));
  CHECK_THAT(md, Catch::Contains("| moved | node model | 0.5 | 0.6 | +20.0 | cross-die hand-off |"));
  CHECK_THAT(md, !Catch::Contains("| same | node model"));
  v["held_out"][0].erase("model_change");
  CHECK_THAT(validation::render_table(v), !Catch::Contains("Values a model change moved"));
}
