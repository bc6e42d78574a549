// results/validation.md shows each point's tolerance and role, and the claims that do not hold, with their reasons.
#include "validation/validate.hpp"

#include "core/errors.hpp"
#include "platform/machine.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

using namespace ompisim;

// Configuration: one calibration point (tolerance 5 %), one prediction, one held-out value.
// Expected: a tolerance column ("±5" for the calibration point, "±15" and "**no** (prediction)" for the prediction
// beyond its tolerance) and the held-out table naming its role. How validated: substrings of the rendered Markdown.
TEST_CASE("validation table: tolerance column and roles", "[unit][validation]") {
  Json v{{"points", Json::array({{{"id", "a"}, {"figure", "fig5"}, {"reference", 1.5}, {"simulated", 1.53},
                                  {"error_pct", 2.0}, {"tolerance_pct", 5.0}, {"role", "calibration"}, {"pass", true}},
                                 {{"id", "b"}, {"figure", "fig5"}, {"reference", 2.0}, {"simulated", 3.0},
                                  {"error_pct", 50.0}, {"tolerance_pct", 15.0}, {"role", "prediction"}, {"pass", false}}})},
         {"held_out", Json::array({{{"id", "c"}, {"figure", "fig7"}, {"simulated", 4.0}, {"metric", "ratio"}}})},
         {"claims", Json::array()}};
  std::string md = validation::render_table(v);
  CHECK_THAT(md, Catch::Contains("| error % | tolerance % | pass |"));
  CHECK_THAT(md, Catch::Contains("| a | fig5 | calibration | 1.5 | 1.53 | +2.0 | ±5 | yes |"));
  CHECK_THAT(md, Catch::Contains("| b | fig5 | prediction | 2 | 3 | +50.0 | ±15 | **no** (prediction) |"));
  CHECK_THAT(md, Catch::Contains("| c | fig7 | held out | ratio | 4 |"));
}

// Configuration: a held-out value whose reference entry records a model change (value 0.5 before, 0.6 today) and one
// without. Expected: a "Values set by a named model mechanism" table with one row: today's value, the change and the
// mechanism (no earlier value: the table says what holds); the other value is not listed. How validated: substrings
// of the rendered Markdown.
TEST_CASE("validation table: values set by a model change name it", "[unit][validation]") {
  Json change{{"change", "node model"}, {"before", 0.5}, {"mechanism", "cross-die hand-off"}};
  Json v{{"points", Json::array()},
         {"held_out", Json::array({{{"id", "moved"}, {"figure", "Fig. 3"}, {"simulated", 0.6}, {"metric", "latency_us"},
                                    {"model_change", change}},
                                   {{"id", "same"}, {"figure", "Fig. 3"}, {"simulated", 1.0}, {"metric", "latency_us"}}})},
         {"claims", Json::array()}};
  std::string md = validation::render_table(v);
  CHECK_THAT(md, Catch::Contains("Values set by a named model mechanism"));
  CHECK_THAT(md, Catch::Contains("| moved | 0.6 | node model | cross-die hand-off |"));
  CHECK_THAT(md, !Catch::Contains("| same | 1 |"));
  CHECK_THAT(md, !Catch::Contains("0.5 |"));
  v["held_out"][0].erase("model_change");
  CHECK_THAT(validation::render_table(v), !Catch::Contains("Values set by a named model mechanism"));
}

// Configuration: five claims: one failing with a recorded reason, one undecided without one, one holding everywhere
// with a (stale) reason, one holding at the nominal parameters with a reason and no samples run, one holding everywhere
// without. Expected: a "do not hold, and why" table with the first two (the reason and section; "no reason recorded"
// for the second, its status and sample count), the third named as stale, the fourth (whose reason may be for samples
// that were not run) not called stale, the fifth nowhere in it. How validated: substrings of the rendered Markdown.
TEST_CASE("validation table: claims not holding carry their recorded reason", "[unit][validation]") {
  Json why{{"reason", "no source gives the copy | threshold"}, {"see", "SeaStar send paths"}};
  Json claims = Json::array(
      {{{"id", "c.fails"}, {"holds", false}, {"status", "fails"}, {"holds_in", "0/5"}, {"detail", ""}, {"not_holding", why},
        {"measures", Json::array({{{"label", ""}, {"measure", "gap %"}, {"model", -4.4}, {"paper", 12.0},
                                   {"accepted", {8.0, 18.0}}, {"interval", {-6.0, 13.0}}, {"paper_inside", true},
                                   {"accepted_inside", true}}})}},
       {{"id", "c.undecided"}, {"holds", true}, {"status", "undecided"}, {"holds_in", "3/5"}, {"detail", ""}},
       {{"id", "c.stale"}, {"holds", true}, {"status", "holds"}, {"holds_in", "5/5"}, {"detail", ""}, {"not_holding", why},
        {"measures", Json::array({{{"label", ""}, {"measure", "gap %"}, {"model", 12.0}, {"paper", 12.0},
                                   {"accepted", {8.0, 18.0}}, {"interval", {10.0, 13.0}}, {"paper_inside", true},
                                   {"accepted_inside", true}}})}},
       // holding at the nominal parameters with no samples run (validate --samples 0): its reason may be for samples
       {{"id", "c.unsampled"}, {"holds", true}, {"detail", ""}, {"not_holding", why},
        {"measures", Json::array({{{"label", ""}, {"measure", "gap %"}, {"model", 12.0}, {"paper", 12.0},
                                   {"accepted", {8.0, 18.0}}}})}},
       {{"id", "c.fine"}, {"holds", true}, {"status", "holds"}, {"holds_in", "5/5"}, {"detail", ""}}});
  std::string md = validation::render_table(Json{{"points", Json::array()}, {"held_out", Json::array()}, {"claims", claims}});
  CHECK_THAT(md, Catch::Contains("Claims that do not hold, and why"));
  CHECK_THAT(md, Catch::Contains("| c.fails | fails (0/5) | gap % [-6, 13], paper +12 inside | no source gives the copy \\| threshold | "
                                 "SeaStar send paths |"));
  CHECK_THAT(md, Catch::Contains("| c.undecided | undecided (3/5) |  | **no reason recorded** |  |"));
  CHECK_THAT(md, Catch::Contains("carry a reason for not holding (stale; remove it): c.stale\n"));
  CHECK_THAT(md, !Catch::Contains("c.stale, c.unsampled"));  // the stale list names c.stale alone
  const std::string why_md = validation::render_not_holding(claims);  // the new section alone
  CHECK_THAT(why_md, !Catch::Contains("c.fine"));
  CHECK_THAT(why_md, !Catch::Contains("| c.stale |"));
  CHECK(why_md.find("| c.fails |") < why_md.find("| c.undecided |"));
}

// Configuration: one paper with three quantified claims: a comparison that holds, a comparison that fails, and a
// calibration claim (one that reads back a model input) that fails. Expected: the per-paper row counts the calibration
// claim under "calibration" and names it there as failing (the summary line counts it among the failing
// comparisons), and the list of failing statements gives its reason, marked as a calibration claim outside the exit
// status. How validated: substrings of the rendered summary.
TEST_CASE("validation table: a failing calibration claim is named in its paper's row", "[unit][validation]") {
  Json why{{"reason", "the copy of the inlined bytes"}, {"see", "QsNet"}};
  auto claim = [](const char* id, bool holds) {
    return Json{{"id", id}, {"paper", "p"}, {"quantified", true}, {"magnitude", true}, {"holds", holds},
                {"status", holds ? "holds" : "fails"}, {"detail", ""}};
  };
  Json claims = Json::array({claim("p.ok", true), claim("p.bad", false), claim("p.cal", false)});
  claims[1]["not_holding"] = Json{{"reason", "a missing path"}, {"see", "QsNet"}};
  claims[2]["role"] = "calibration";
  claims[2]["not_holding"] = why;
  const std::string md = validation::render_summary(Json{{"points", Json::array()}, {"held_out", Json::array()},
                                                         {"claims", claims}});
  CHECK_THAT(md, Catch::Contains("| p | 3 | 2 | 1 | 1: p.bad | 0 | 1, failing: p.cal | 0, 0 |"));
  CHECK_THAT(md, Catch::Contains("- p.bad: a missing path\n"));
  CHECK_THAT(md, Catch::Contains("- p.cal (calibration claim, outside the exit status): the copy of the inlined bytes\n"));
  CHECK_THAT(md, Catch::Contains("comparisons 3 (1 holding, 2 failing)"));
  claims[2]["holds"] = true;
  CHECK_THAT(validation::render_summary(Json{{"points", Json::array()}, {"held_out", Json::array()}, {"claims", claims}}),
             Catch::Contains("| 0 | 1 |") && !Catch::Contains("p.cal"));
}

// Configuration: a reference with two calibration comparisons (fit_gaps) and one of role "check"; claim checks that
// compare one of them (in the other order too), several (nested in a list of checks), none, or only the "check" one.
// Expected: claim_fitted_by names the calibration comparisons each compares, once each; a claim holding on one counts
// among its paper's holding claims as "on fitted gaps" and its detail names the gap.
// How validated: the ids returned and substrings of the rendered Markdown.
TEST_CASE("validation table: claims on a fitted gap are counted and named apart", "[unit][validation]") {
  auto side = [](const char* scen, int bytes) {
    return Json{{"scenario", scen}, {"select", {{"bytes", bytes}}}, {"metric", "latency_us"}};
  };
  const Json doc{{"fit_gaps", Json::array({{{"id", "fit.1k"}, {"a", side("o.json", 1024)}, {"b", side("n.json", 1024)},
                                            {"role", "calibration"}},
                                           {{"id", "fit.4m"}, {"a", side("o.json", 4194304)}, {"b", side("n.json", 4194304)},
                                            {"role", "calibration"}},
                                           {{"id", "fit.8"}, {"a", side("o.json", 8)}, {"b", side("n.json", 8)},
                                            {"role", "check"}}})}};
  const Json one{{"kind", "gap"}, {"a", side("n.json", 1024)}, {"b", side("o.json", 1024)}, {"paper_gap_pct", 82}};
  Json big = Json::object();
  big["kind"] = "gap", big["a"] = side("o.json", 4194304), big["b"] = side("n.json", 4194304);
  Json both = Json::object();
  both["kind"] = "all", both["checks"] = Json::array({one, big, one});
  const Json other{{"kind", "gap"}, {"a", side("o.json", 8)}, {"b", side("n.json", 8)}};
  CHECK(validation::claim_fitted_by(one, doc) == Json::array({"fit.1k"}));
  CHECK(validation::claim_fitted_by(both, doc) == Json::array({"fit.1k", "fit.4m"}));
  CHECK(validation::claim_fitted_by(other, doc).empty());
  CHECK(validation::claim_fitted_by(one, Json::object()).empty());
  Json claims = Json::array({{{"id", "p.fit"}, {"paper", "p"}, {"quantified", true}, {"magnitude", true}, {"holds", true},
                              {"detail", "model gap +82 %"}, {"fitted_by", validation::claim_fitted_by(one, doc)}},
                             {{"id", "p.own"}, {"paper", "p"}, {"quantified", true}, {"magnitude", true}, {"holds", true},
                              {"detail", ""}}});
  const Json v{{"points", Json::array()}, {"held_out", Json::array()}, {"claims", claims}};
  CHECK_THAT(validation::render_summary(v), Catch::Contains("| p | 2 | 2 | 2 (1 on fitted gaps) | 0 |"));
  CHECK_THAT(validation::render_table(v), Catch::Contains("| p.fit | yes |  |  | on fitted gaps (fit.1k): model gap +82 % |"));
}

// Configuration: "not_holding" records, well-formed and not. Expected: the well-formed one is returned unchanged; an
// unknown key, an empty or non-string value, a missing reason or a non-object is an InputError naming the file and
// the key. How validated: the returned JSON and the exception's message.
TEST_CASE("validation reference: a claim's not_holding record is checked", "[unit][validation]") {
  Json ok{{"reason", "r"}, {"see", "s"}};
  CHECK(validation::check_not_holding(ok, "ref.json") == ok);
  CHECK(validation::check_not_holding(Json{{"reason", "r"}}, "ref.json") == Json{{"reason", "r"}});
  CHECK_THROWS_WITH(validation::check_not_holding(Json{{"reason", "r"}, {"sea", "s"}}, "ref.json"),
                    Catch::Contains("ref.json") && Catch::Contains("not_holding.sea") && Catch::Contains("unknown key"));
  CHECK_THROWS_WITH(validation::check_not_holding(Json{{"reason", ""}}, "ref.json"), Catch::Contains("non-empty string"));
  CHECK_THROWS_WITH(validation::check_not_holding(Json{{"reason", 3}}, "ref.json"), Catch::Contains("non-empty string"));
  CHECK_THROWS_WITH(validation::check_not_holding(Json{{"see", "s"}}, "ref.json"), Catch::Contains("not_holding.reason"));
  CHECK_THROWS_AS(validation::check_not_holding(Json::array(), "ref.json"), InputError);
  CHECK_THROWS_WITH(validation::check_not_holding(Json{{"reason", "r"}, {"quotes", "5 %"}}, "ref.json"),
                    Catch::Contains("not_holding.quotes") && Catch::Contains("array"));
}

// Configuration: the project's reference files. Expected: every claim's "not_holding" record is well-formed and its
// "see" names a section ("### " heading) of validation/notes.md, the text copied into results/validation.md, so a
// reader can follow it. How validated: each record through check_not_holding and a search for the heading line.
TEST_CASE("validation reference: every recorded reason names an existing section of the notes", "[unit][validation]") {
  std::ifstream nf(data_dir() + "/validation/notes.md");
  REQUIRE(nf);
  std::string notes((std::istreambuf_iterator<char>(nf)), std::istreambuf_iterator<char>());
  int records = 0;
  for (auto& f : validation::reference_files("")) {
    std::ifstream in(f);
    Json doc = Json::parse(in);
    for (auto& c : doc.value("claims", Json::array())) {
      if (!c.contains("not_holding")) continue;
      ++records;
      Json n = validation::check_not_holding(c["not_holding"], f);
      if (n.contains("see")) {
        INFO(f << ": " << c["id"].get<std::string>());
        CHECK(notes.find("\n### " + n["see"].get<std::string>() + "\n") != std::string::npos);
      }
    }
  }
  CHECK(records > 0);
}

TEST_CASE("validate's exit status: calibration points within tolerance and calibration pairs in the paper's order") {
  using ompisim::Json;
  Json v{{"points", Json::array({Json{{"role", "calibration"}, {"pass", true}}, Json{{"role", "prediction"}, {"pass", false}}})},
         {"pairs", Json::array({Json{{"keeps_order", true}}})}};
  CHECK(ompisim::validation::all_calibration_pass(v));  // a prediction beyond its tolerance does not count
  v["pairs"].push_back(Json{{"keeps_order", false}});
  CHECK_FALSE(ompisim::validation::all_calibration_pass(v));  // an inverted pair does
  v["pairs"].erase(1);
  v["points"].push_back(Json{{"role", "calibration"}, {"pass", false}});
  CHECK_FALSE(ompisim::validation::all_calibration_pass(v));
}
