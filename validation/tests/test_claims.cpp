// The papers' quantified sentences are checked with their magnitudes: the word readings, the input check of the
// reference files' claims, and the per-paper table of results/validation.md.
#include "validation/claims.hpp"
#include "validation/validate.hpp"

#include "core/errors.hpp"
#include "runner/scenario.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

using namespace ompisim;
using namespace ompisim::validation;

namespace {

bool only_known(const std::string& rel) { return rel == "scenarios/x.json" || rel == "scenarios/y.json"; }

Json ref(const std::string& sc, long long bytes, const std::string& metric = "latency_us") {
  return Json{{"scenario", sc}, {"select", {{"bytes", bytes}}}, {"metric", metric}};
}

Json gap_claim(Json check) {
  return Json{{"claims", Json::array({{{"id", "p.c"}, {"text", "A is 47 % worse than B."}, {"check", std::move(check)}}})}};
}

Json good_gap() {
  return Json{{"kind", "gap"}, {"a", ref("scenarios/x.json", 1024)}, {"b", ref("scenarios/y.json", 1024)},
              {"paper_gap_pct", -47}};
}

// Every reference file under validation/reference/ (at least the five papers'): `find` lists nothing in any of them;
// the file and what it lists are printed when it does.
void every_reference_file(std::vector<std::string> (*find)(const Json&), const char* what) {
  const auto files = reference_files("");
  REQUIRE(files.size() >= 5);
  for (auto& f : files) {
    const auto bad = find(load_json_file(f));
    std::string ids;
    for (auto& id : bad) ids += id + "; ";
    INFO(f << ": " << what << ": " << ids);
    CHECK(bad.empty());
  }
}

}  // namespace

// Configuration: every reference file under validation/reference/. Expected: no claim whose text gives a number ("82 %",
// "twice", "half", "N times", "by N us") is checked by an ordering without a magnitude (a less or less_all with neither
// factor nor margin, an all_of of such). How validated: unquantified_orderings() of each file is empty; the file and
// the ids are printed when not.
TEST_CASE("reference: a claim that gives a number is checked with its magnitude", "[unit][validation]") {
  every_reference_file(unquantified_orderings,
                       "claims whose text gives a number but whose check is an ordering without it");
}

// Configuration: claims as main had them (an "82 %" sentence checked by `less`), and the same with a gap, a factor or
// a margin. Expected: only the bare ordering is flagged; numberless text is never flagged. How validated: the ids.
TEST_CASE("reference: the magnitude test flags an ordering that drops the paper's number", "[unit][validation]") {
  Json less{{"a", ref("scenarios/x.json", 1024)}, {"b", ref("scenarios/y.json", 1024)}};
  Json doc{{"claims", Json::array({{{"id", "pct"}, {"text", "Open MPI is 82% better than the native MPI."}, {"check", less}},
                                   {{"id", "twice"}, {"text", "CM is twice as fast."}, {"check", less}},
                                   {{"id", "half"}, {"text", "OB1 is nearly half of the others."}, {"check", less}},
                                   {{"id", "times"}, {"text", "3 times faster"}, {"check", less}},
                                   {{"id", "by_us"}, {"text", "lower by 5 us"}, {"check", less}},
                                   {{"id", "words"}, {"text", "Open MPI is faster at 1 kB with 16 processes."}, {"check", less}}})}};
  CHECK(unquantified_orderings(doc) == std::vector<std::string>{"pct", "twice", "half", "times", "by_us"});
  for (auto& c : doc["claims"]) c["check"]["margin_pct"] = 10;
  CHECK(unquantified_orderings(doc).empty());
  Json all{{"kind", "all_of"}, {"checks", Json::array({less, less})}};
  CHECK_FALSE(has_magnitude(all));
  all["checks"][1] = good_gap();
  CHECK(has_magnitude(all));
  CHECK_FALSE(has_magnitude(Json{{"kind", "less_all"}, {"a", "scenarios/x.json"}, {"b", "scenarios/y.json"}}));
  CHECK(quantified_text("about 15% above"));
  CHECK(quantified_text("The datatype engine adds about 0.4 us"));
  CHECK(quantified_text("costs about 5 Mbit/s of bandwidth"));
  CHECK_FALSE(quantified_text("at 64 processes, with 4 MB messages"));
}

// Configuration: every reference file under validation/reference/. Expected: a claim whose text names a word of the
// readings table ("marginal", "about the same", "comparable", "a slight advantage") and gives no number of its own is
// checked with that word's reading in at least one of its checks, so one word has one numeric reading in every paper.
// How validated: unread_words() of each file is empty; the file, the ids and the missing readings are printed when not.
TEST_CASE("reference: a claim's qualitative word is checked with its reading", "[unit][validation]") {
  every_reference_file(unread_words, "claims whose word's reading no check uses");
}

// Configuration: every reference file under validation/reference/. Expected: every quoted amount is read one way: a
// difference of two simulated values within the factor 1.5 of the paper's amount ("about 0.4 us" -> 0.27 to 0.6 us,
// "around 18 us" -> 12 to 27 us, "about 5 Mbit/s" -> 3.3 to 7.5), a value of one configuration within ±15 % ("about
// 0.5 us" -> 0.425 to 0.575). How validated: misread_amounts() of each file is empty; the ids are printed when not.
TEST_CASE("reference: a quoted amount is read one way in every paper", "[unit][validation]") {
  every_reference_file(misread_amounts, "checks of a quoted amount read otherwise than the readings table says");
}

// Configuration: the readings the reference files had before one was chosen: "about 0.4 us" as 0.3 to 0.5, "about
// 0.5 us" of one configuration as 0.4 to 0.7, "around 18 us" of a difference as ±15 %; then the same read as the
// table says. Expected: the first three flagged, none of the others. How validated: the ids.
TEST_CASE("reference: the amount test flags another reading of 'about'", "[unit][validation]") {
  auto diff = [](bool two, double lo, double hi) {
    Json c{{"kind", "difference"}, {"label", "x"}, {"a", ref("scenarios/x.json", 4)}, {"min", lo}, {"max", hi}};
    if (two) c["b"] = ref("scenarios/y.json", 4);
    return c;
  };
  Json mech{{"id", "m"}, {"op", "difference"}, {"value", 18}, {"tolerance_pct", 15}};
  Json doc{{"claims", Json::array({{{"id", "dt"}, {"text", "adds about 0.4 us"}, {"check", diff(true, 0.3, 0.5)}},
                                   {{"id", "pml"}, {"text", "costs about 0.5 us"}, {"check", diff(false, 0.4, 0.7)}}})},
           {"mechanism_checks", Json::array({mech})}};
  CHECK(misread_amounts(doc) == std::vector<std::string>{"dt (x)", "pml (x)", "m"});
  doc["claims"][0]["check"] = diff(true, 0.4 / 1.5, 0.4 * 1.5);
  doc["claims"][1]["check"] = Json{{"kind", "all_of"}, {"checks", Json::array({diff(false, 0.425, 0.575)})}};
  doc["mechanism_checks"][0].erase("tolerance_pct");
  doc["mechanism_checks"][0]["factor"] = 1.5;
  CHECK(misread_amounts(doc).empty());
}

// Configuration: claims whose text uses the table's words, checked with and without the word's reading.
// Expected: each phrase maps to one reading ("comparable" and "converge" to 'similar', "about the same" to 'very
// similar', "slight" inside "very slight" counted once as 'very slightly'); a claim checked by an ordering with a factor
// instead of the reading is flagged; a number in the text exempts the claim (the number sets the check).
// How validated: readings_in_text() and unread_words() values.
TEST_CASE("readings: the papers' words map to the table's readings", "[unit][validation]") {
  using V = std::vector<std::string>;
  CHECK(readings_in_text("PTL latency is comparable to QDMA") == V{"similar"});
  CHECK(readings_in_text("the curves almost converge") == V{"similar"});
  CHECK(readings_in_text("Cray MPI has a very slight advantage") == V{"very slightly"});
  CHECK(readings_in_text("very slight here, slight there") == V{"very slightly", "slightly"});
  CHECK(readings_in_text("about the same as checking one") == V{"very similar"});
  CHECK(readings_in_text("gives a marginal improvement") == V{"marginal"});
  CHECK(readings_in_text("no noticeable improvement; bandwidth particularly worse") == V{"particularly worse"});
  CHECK(readings_in_text("RDMA read beats RDMA write").empty());
  CHECK(readings_in_text("the latency is much higher than CrayMPICH") == V{"much better"});  // the sign: paper_gap_pct
  Json less{{"a", ref("scenarios/x.json", 2048)}, {"b", ref("scenarios/y.json", 2048)}, {"factor", 1.1}};
  Json marginal{{"kind", "gap"}, {"a", ref("scenarios/x.json", 2048)}, {"b", ref("scenarios/y.json", 2048)},
                {"paper_gap_pct", 5}, {"reading", "marginal"}};
  Json doc{{"claims", Json::array({{{"id", "factor"}, {"text", "Chained DMA gives a marginal improvement."}, {"check", less}},
                                   {{"id", "read"}, {"text", "Chained DMA gives a marginal improvement."}, {"check", marginal}},
                                   {{"id", "nested"}, {"text", "A marginal gain; comparable at 1 KiB."},
                                    {"check", {{"kind", "all_of"}, {"checks", Json::array({marginal, less})}}}},
                                   {{"id", "number"}, {"text", "similar (0.52 usecs each)"}, {"check", less}},
                                   {{"id", "half"}, {"text", "OB1 is nearly half; the curves converge"}, {"check", less}}})}};
  CHECK(unread_words(doc) == V{"factor: marginal", "nested: similar", "half: nearly half", "half: similar"});
  CHECK_NOTHROW(check_claims_input(Json{{"claims", Json::array({doc["claims"][1]})}}, "f.json", only_known));
}

// Configuration: the readings table. Expected: each word's range as validation/README.md gives it; a stated gap without
// a reading is the factor-1.5 window. How validated: gap_range() values.
TEST_CASE("readings: one numeric reading per word", "[unit][validation]") {
  auto range = [](const char* w) { return gap_range(1, 1.5, find_reading(w)); };
  CHECK(range("nearly half") == std::pair<double, double>{100, 150});
  CHECK(range("much better").first == 50);
  CHECK(std::isinf(range("much better").second));
  CHECK(range("significantly").first == 10);
  CHECK(range("slightly").second == 10);
  CHECK(range("very slightly") == std::pair<double, double>{0, 5});  // 'a very slight advantage': half of 'slightly'
  CHECK(find_reading("similar")->hi == 25);
  CHECK(find_reading("much smoother")->lo == 2);
  CHECK(find_reading("rather nice") == nullptr);
  const auto stated = gap_range(-47, 1.5, nullptr);
  CHECK(stated.first == Approx(31.333).epsilon(1e-3));
  CHECK(stated.second == Approx(70.5));
}

// Configuration: a NetPIPE-like bandwidth curve that rises x1.8 per size step (a latency-bound ramp) and one that rises
// then falls 14 % at one size before rising again (a protocol transition). Expected: the ramp has no fall (0), the
// dip's fall is ln(1/0.86); points below min_bytes are left out. How validated: largest_fall; a measure of the
// largest step between consecutive sizes would rank the ramp (ln 1.8 = 0.59) as the rougher curve.
TEST_CASE("validation: 'smoother' measures the largest fall, not the ramp", "[unit][validation]") {
  auto curve = [](std::vector<double> v) {
    Json pts = Json::array();
    long long b = 1024;
    for (double x : v) {
      pts.push_back({{"bytes", b}, {"bw", x}});
      b *= 2;
    }
    return pts;
  };
  const Json ramp = curve({0.1, 0.18, 0.324, 0.583}), dip = curve({1.0, 1.1, 0.946, 1.2});
  CHECK(largest_fall(ramp, "bw", 1024) == 0);
  CHECK(largest_fall(dip, "bw", 1024) == Approx(std::log(1.1 / 0.946)));
  CHECK(largest_fall(dip, "bw", 4096) == 0);  // from 4 KiB on the dip's curve only rises
}

// Configuration: a well-formed gap claim, then one mistake at a time. Expected: the good one passes; each mistake is an
// InputError naming the file and the key (exit 2 in the CLI). How validated: the exception's message.
TEST_CASE("reference: bad claim input names the file and the key", "[unit][validation]") {
  const std::string f = "ref.json";
  CHECK_NOTHROW(check_claims_input(gap_claim(good_gap()), f, only_known));
  auto throws = [&](Json chk, const std::string& key, const std::string& why) {
    CHECK_THROWS_AS(check_claims_input(gap_claim(chk), f, only_known), InputError);
    CHECK_THROWS_WITH(check_claims_input(gap_claim(chk), f, only_known),
                      Catch::Contains("ref.json") && Catch::Contains(key) && Catch::Contains(why));
  };
  SECTION("unknown key in a check") {
    Json c = good_gap();
    c["papr_gap_pct"] = 5;
    throws(c, "claims[p.c].check.papr_gap_pct", "unknown key");
  }
  SECTION("unknown key in a claim") {
    Json doc = gap_claim(good_gap());
    doc["claims"][0]["txet"] = "x";
    CHECK_THROWS_WITH(check_claims_input(doc, f, only_known), Catch::Contains("claims[p.c].txet"));
  }
  SECTION("unknown scenario") {
    Json c = good_gap();
    c["b"]["scenario"] = "scenarios/nope.json";
    throws(c, "claims[p.c].check.b.scenario", "no scenario file");
  }
  SECTION("paper_gap_pct missing, not a number, zero") {
    Json c = good_gap();
    c.erase("paper_gap_pct");
    throws(c, "claims[p.c].check.paper_gap_pct", "missing");
    c["paper_gap_pct"] = "47";
    throws(c, "claims[p.c].check.paper_gap_pct", "must be a number");
    c["paper_gap_pct"] = 0;
    throws(c, "claims[p.c].check.paper_gap_pct", "non-zero");
  }
  SECTION("readings: undefined, for another check, outside its range") {
    Json c = good_gap();
    c["reading"] = "much much better";
    throws(c, "claims[p.c].check.reading", "not a defined reading");
    c["reading"] = "similar";
    throws(c, "claims[p.c].check.reading", "a reading for 'within' checks");
    c["reading"] = "nearly half";
    throws(c, "claims[p.c].check.paper_gap_pct", "outside the reading");
  }
  SECTION("a metric with no direction, a select key that is not known") {
    Json c = good_gap();
    c["a"]["metric"] = "frobs";
    throws(c, "claims[p.c].check.a.metric", "no known direction");
    c = good_gap();
    c["a"]["select"] = {{"size", 4}};
    throws(c, "claims[p.c].check.a.select.size", "unknown key");
  }
  SECTION("the keys a kind reads without a default, and their ranges") {
    const Json a = ref("scenarios/x.json", 1, "latency_us"), b = ref("scenarios/y.json", 1, "latency_us");
    throws(Json{{"kind", "additive"}, {"a", a}, {"parts", Json::array()}, {"min_fraction", 0.85}},
           "claims[p.c].check.parts", "non-empty array");
    throws(Json{{"kind", "additive"}, {"a", a}, {"parts", Json::array({b})}}, "claims[p.c].check.min_fraction", "missing");
    throws(Json{{"kind", "additive"}, {"a", a}, {"parts", Json::array({b})}, {"min_fraction", -1e308}},
           "claims[p.c].check.min_fraction", "positive");
    throws(Json{{"kind", "difference"}, {"a", a}, {"b", b}, {"min", 1}}, "claims[p.c].check.max", "missing");
    throws(Json{{"kind", "difference"}, {"a", a}, {"b", b}, {"min", 1}, {"max", 0.5}}, "claims[p.c].check.max", "below min");
    throws(Json{{"kind", "less"}, {"a", a}, {"b", b}, {"margin_pct", -3}}, "claims[p.c].check.margin_pct", "negative");
    throws(Json{{"kind", "less"}, {"a", a}, {"b", b}, {"factor", 0}}, "claims[p.c].check.factor", "positive");
    throws(Json{{"kind", "within"}, {"a", a}, {"b", b}, {"tolerance_pct", -1}}, "claims[p.c].check.tolerance_pct", "negative");
    throws(Json{{"kind", "differs"}, {"a", "scenarios/x.json"}, {"b", "scenarios/y.json"}, {"metric", "latency_us"}},
           "claims[p.c].check.min_pct", "missing");
  }
  SECTION("an all_of names its sub-check") {
    Json c{{"kind", "all_of"}, {"checks", Json::array({good_gap(), good_gap()})}};
    c["checks"][1]["factor"] = 0.5;
    throws(c, "claims[p.c].check.checks[1].factor", ">= 1");
  }
  SECTION("a mean_gap: its pairs, each pair's keys and directions") {
    auto pair = [](const std::string& metric) {
      return Json{{"label", "p"}, {"a", ref("scenarios/x.json", 1, metric)}, {"b", ref("scenarios/y.json", 1, metric)}};
    };
    Json c{{"kind", "mean_gap"}, {"pairs", Json::array({pair("runtime_s"), pair("runtime_s")})}, {"paper_gap_pct", 2.7},
           {"reading", "slightly"}};
    CHECK_NOTHROW(check_claims_input(gap_claim(c), f, only_known));
    Json bad = c;
    bad["pairs"] = Json::array();
    throws(bad, "claims[p.c].check.pairs", "non-empty array");
    bad = c;
    bad["pairs"][1]["c"] = 1;
    throws(bad, "claims[p.c].check.pairs[1].c", "unknown key");
    bad = c;
    bad["pairs"][1].erase("b");
    throws(bad, "claims[p.c].check.pairs[1].b", "missing");
    bad = c;
    bad["pairs"][1] = pair("bandwidth_GBps");  // a pair of the other direction than the first
    throws(bad, "claims[p.c].check.pairs[1].a.metric", "another direction");
    bad["pairs"][1]["b"] = ref("scenarios/y.json", 1, "runtime_s");  // a and b of one pair disagree
    throws(bad, "claims[p.c].check.pairs[1].b.metric", "different directions");
    bad = c;
    bad["paper_gap_pct"] = 20;  // outside 'slightly'
    throws(bad, "claims[p.c].check.paper_gap_pct", "outside the reading");
  }
  SECTION("an untested statement without its reason") {
    Json doc = gap_claim(good_gap());
    doc["untested"] = Json::array({{{"id", "u"}, {"text", "18 us"}}});
    CHECK_THROWS_WITH(check_claims_input(doc, f, only_known), Catch::Contains("untested[0]"));
  }
}

// Configuration: the validation output of two papers: gap claims (one holding, one failing with a reason), an ordering
// without a number, a calibration check that reads back an input, an untested statement, a prediction beyond its
// tolerance (with its interval) and an inverted calibration pair; then the same without the interval, as validate
// --samples 0 gives. Expected: one row per paper with the counts and the largest gap; the summary counts calibration
// points, predictions, comparisons and pairs separately; without intervals the text says so and does not speak of
// samples. How validated: substrings.
TEST_CASE("validation table: opens with one row per paper of quantified statements", "[unit][validation]") {
  Json gap_ok{{"model", -40.0}, {"paper", -47.0}, {"label", ""}, {"lo", 31.3}, {"hi", 70.5}};
  Json gap_bad{{"model", 2.6}, {"paper", 82.0}, {"label", "1 KiB"}, {"lo", 54.7}, {"hi", 123.0}};
  Json gap_word{{"model", -5.4}, {"paper", 10.0}, {"label", ""}, {"lo", 10.0}, {"hi", nullptr}, {"reading", "significantly"}};
  Json claims = Json::array(
      {{{"id", "g.ok"}, {"paper", "gem"}, {"holds", true}, {"quantified", true}, {"magnitude", true}, {"detail", ""}, {"gaps", {gap_ok}}},
       {{"id", "g.bad"}, {"paper", "gem"}, {"holds", false}, {"quantified", true}, {"magnitude", true}, {"detail", ""},
        {"gaps", {gap_bad}}, {"not_holding", {{"reason", "the native comparator's per-message cost is not yet fitted"}}}},
       {{"id", "g.order"}, {"paper", "gem"}, {"holds", true}, {"quantified", false}, {"magnitude", false}, {"detail", ""}},
       {{"id", "q.read"}, {"paper", "qs"}, {"holds", true}, {"quantified", true}, {"magnitude", true}, {"role", "calibration"}, {"detail", ""}},
       {{"id", "s.word"}, {"paper", "sea"}, {"holds", false}, {"quantified", true}, {"magnitude", true}, {"detail", ""},
        {"gaps", {gap_word}}, {"not_holding", {{"reason", "r"}}}}});
  Json points = Json::array({{{"id", "c1"}, {"figure", ""}, {"role", "calibration"}, {"reference", 1.0}, {"simulated", 1.0},
                              {"error_pct", 0.0}, {"tolerance_pct", 10.0}, {"pass", true}},
                             {{"id", "p1"}, {"figure", ""}, {"role", "prediction"}, {"reference", 1.0}, {"simulated", 1.3},
                              {"error_pct", 30.0}, {"tolerance_pct", 15.0}, {"pass", false}, {"interval", {1.2, 1.4}}}});
  Json pairs = Json::array({{{"a", "c1"}, {"b", "c2"}, {"paper_gap_pct", -2.6}, {"model_gap_pct", 1.0}, {"keeps_order", false}}});
  Json v{{"points", points}, {"held_out", Json::array()}, {"claims", claims}, {"pairs", pairs},
         {"untested", Json::array({{{"id", "q.u"}, {"paper", "qs"}, {"text", "about 18 us"}, {"reason", "r"}}})}};
  const std::string md = render_table(v);
  CHECK(md.rfind("Quantified statements per paper", 0) == 0);
  CHECK_THAT(md, Catch::Contains("| gem | 2 | 2 | 1 | 1: g.bad | 0 | 0 | 1, 0 | g.bad (1 KiB): model +2.6 % vs paper +82.0 % |"));
  CHECK_THAT(md, Catch::Contains("| qs | 2 | 0 | 0 | 0 | 1 | 1 | 0, 0 | - |"));
  // a word's reading is shown as its range, not as a number the paper would have quoted
  CHECK_THAT(md, Catch::Contains("| sea | 1 | 1 | 0 | 1: s.word | 0 | 0 | 0, 0 | s.word: model -5.4 % vs 'significantly' (+10.0 % or beyond) |"));
  CHECK_THAT(md, Catch::Contains("inside or outside that interval:\n\n- g.bad: the native comparator's per-message cost is not yet fitted\n"));
  {  // an ordering that fails is counted in its paper's row and listed with its reason; a check with a tolerance and
     // no gap ("within 10 % of its peak") is the largest gap when it lies farthest outside its accepted range
    Json more = v;
    more["claims"][2]["holds"] = false;
    more["claims"][2]["not_holding"] = {{"reason", "the atomic barrier's AMO latency is not public"}};
    more["claims"].push_back({{"id", "g.peak"}, {"paper", "gem"}, {"holds", false}, {"quantified", true},
                              {"magnitude", true}, {"detail", ""}, {"gaps", Json::array()},
                              {"not_holding", {{"reason", "r"}}},
                              {"measures", {{{"measure", "difference %"}, {"label", "native at 32 KiB"},
                                             {"model", -97.5}, {"accepted", {-10.0, 10.0}}}}}});
    const std::string m2 = render_table(more);
    CHECK_THAT(m2, Catch::Contains("| gem | 3 | 3 | 1 | 2: g.bad, g.peak | 0 | 0 | 0, 1: g.order | g.peak (native at 32 KiB): "
                                   "model -97.5 % vs accepted -10.0 to +10.0 % |"));
    CHECK_THAT(m2, Catch::Contains("- g.order (ordering): the atomic barrier's AMO latency is not public"));
  }
  {  // validate --samples 0: no value has an interval, and neither the text nor the columns speak of samples
    Json unsampled = v;
    unsampled["points"][1].erase("interval");
    const std::string md0 = render_table(unsampled);
    CHECK_THAT(md0, Catch::Contains("fail and what the model misses for each (no prediction intervals: --samples 0):\n\n- g.bad: "));
    CHECK_THAT(md0, Catch::Contains("No prediction intervals (validate --samples 0)"));
    CHECK_THAT(md0, !Catch::Contains("inside or outside that interval"));
    CHECK_THAT(md, !Catch::Contains("No prediction intervals"));
  }
  CHECK_THAT(md, Catch::Contains("calibration points 1 (1 within tolerance, 0 outside); predictions 1 (0 within tolerance, 1 beyond); "
                                 "comparisons 5 (3 holding, 2 failing); calibration pairs 1 (0 keep the paper's order, 1 inverted"));
  CHECK_THAT(md, Catch::Contains("| c1 | c2 | -2.60 | +1.00 | **no** |"));
  CHECK_THAT(md, Catch::Contains("| p1 |  | prediction | 1 | 1.3 | +30.0 | ±15 | **no** (prediction) |"));
}

// Configuration: a reference document over two fast scenarios (the QsNet Table 1 basic and interrupt runs, 4 B and
// 4 KiB): a calibration pair at 4 B (3.87 vs 14.70 us in the paper), a prediction 50 % off its value, a less_all of
// the two curves with and without a margin, and a gap with the paper's sign. Expected: the prediction fails its 15 %
// default; the pair keeps its order; less_all pairs the curves by size (4 and 4096 in its detail) and fails with a
// margin larger than the model's gap; the gap detail shows both gaps and the accepted range. How validated: the JSON
// validate_reference returns.
TEST_CASE("validate: predictions, pairs, less_all by size with a margin, gap detail", "[unit][validation]") {
  set_interval_samples(0);
  const std::string basic = "scenarios/qsnet/table1_basic.json", intr = "scenarios/qsnet/table1_interrupt.json";
  auto point = [&](const std::string& id, const std::string& sc, const std::string& role, double v, const std::string& stack) {
    return Json{{"id", id}, {"figure", "Table 1"}, {"benchmark", "pingpong"}, {"ranks", 2}, {"bytes", 4},
                {"metric", "latency_us"}, {"stack", stack}, {"value", v}, {"scenario", sc}, {"select", {{"bytes", 4}}},
                {"role", role}};
  };
  auto up = Json{{"label", "up"}, {"a", ref(basic, 4)}, {"b", ref(intr, 4)}};
  auto down = Json{{"label", "down"}, {"a", ref(intr, 4)}, {"b", ref(basic, 4)}};
  Json mean{{"kind", "mean_gap"}, {"pairs", Json::array({up, up, down})}, {"paper_gap_pct", 56}};
  Json slight = mean;
  slight["paper_gap_pct"] = 5;
  slight["reading"] = "slightly";
  Json pred = point("pred", basic, "prediction", 3.87 * 1.5, "basic");
  pred["bytes"] = 8;  // another key than the pair's (it selects the 4-byte value)
  Json doc{{"points", Json::array({point("cal.basic", basic, "calibration", 3.87, "basic"),
                                   point("cal.intr", intr, "calibration", 14.70, "interrupt"), pred})},
           {"claims", Json::array({{{"id", "la"}, {"text", "t"}, {"check", {{"kind", "less_all"}, {"a", basic}, {"b", intr}, {"metric", "latency_us"}}}},
                                   {{"id", "la.margin"}, {"text", "t"}, {"check", {{"kind", "less_all"}, {"a", basic}, {"b", intr}, {"metric", "latency_us"}, {"margin_pct", 1000}}}},
                                   {{"id", "g"}, {"text", "t"}, {"check", {{"kind", "gap"}, {"a", ref(basic, 4)}, {"b", ref(intr, 4)}, {"paper_gap_pct", 280}}}},
                                   {{"id", "m"}, {"text", "t"}, {"check", mean}},
                                   {{"id", "m.slight"}, {"text", "t"}, {"check", slight}}})}};
  Json v = validate_reference(doc, "mini.json");
  set_interval_samples(kDefaultIntervalSamples);
  CHECK(v["points"][2]["tolerance_pct"] == 15.0);
  CHECK_FALSE(v["points"][2]["pass"].get<bool>());
  REQUIRE(v["pairs"].size() == 1);
  CHECK(v["pairs"][0]["keeps_order"].get<bool>());
  CHECK(v["pairs"][0]["paper_gap_pct"].get<double>() == Approx(279.8).epsilon(1e-3));
  CHECK(v["claims"][0]["holds"].get<bool>());
  CHECK_THAT(v["claims"][0]["detail"].get<std::string>(), Catch::StartsWith("4: ") && Catch::Contains("; 4096: "));
  CHECK_FALSE(v["claims"][1]["holds"].get<bool>());
  CHECK_THAT(v["claims"][2]["detail"].get<std::string>(), Catch::Contains("paper +280.0 %, accepted +186.7 to +420.0 %"));
  // mean_gap: the 4 B pair (+279.8 %) twice and its inverse once: the mean of the log ratios is a third of one pair's
  const double one = v["claims"][2]["gaps"][0]["model"].get<double>();
  const double third = (std::pow(1 + one / 100, 1.0 / 3) - 1) * 100;
  CHECK(v["claims"][3]["holds"].get<bool>());
  CHECK_THAT(v["claims"][3]["detail"].get<std::string>(), Catch::StartsWith("mean of up +279.84 %, up +279.84 %, down -279.84 %"));
  REQUIRE(v["claims"][3]["gaps"].size() == 1);
  CHECK(v["claims"][3]["gaps"][0]["model"].get<double>() == Approx(third));
  CHECK_FALSE(v["claims"][4]["holds"].get<bool>());  // the same mean read as 'slightly' (at most 10 %)
  CHECK_THAT(v["claims"][4]["detail"].get<std::string>(), Catch::Contains(fmt::format("model gap {:+.1f} %", third)));
  CHECK(v["claims"][2]["paper"] == "mini");
}

// Configuration: every reference file under validation/reference/, and a point with one value of the wrong type at a
// time. Expected: the committed files pass check_points_input and check_claims_input (their scenarios exist); each
// planted mistake is an InputError naming the key. How validated: CHECK_NOTHROW per file; CHECK_THROWS_WITH per case.
TEST_CASE("reference: the points' shape is checked before anything reads them", "[unit][validation]") {
  auto exists = [](const std::string& rel) { return std::filesystem::is_regular_file(std::filesystem::path(data_dir()) / rel); };
  const auto files = reference_files("");
  REQUIRE(files.size() >= 5);
  for (auto& f : files) {
    INFO(f);
    const Json doc = load_json_file(f);
    CHECK_NOTHROW(check_points_input(doc, f, exists));
    CHECK_NOTHROW(check_claims_input(doc, f, exists));
  }
  const Json p{{"id", "p"}, {"scenario", "scenarios/x.json"}, {"select", {{"bytes", 4}}}, {"metric", "latency_us"},
               {"value", 3.5}, {"role", "calibration"}};
  CHECK_NOTHROW(check_points_input(Json{{"points", {p}}}, "f.json", only_known));
  auto bad = [&](const char* key, Json v, const char* want) {
    Json q = p;
    if (v.is_null() && std::string(key) != "select") q.erase(key);
    else q[key] = v;
    CHECK_THROWS_WITH(check_points_input(Json{{"points", {q}}}, "f.json", only_known), Catch::Contains(want));
  };
  bad("select", nullptr, "points[0].select");
  bad("select", {{"bytes", "4 B"}}, "points[0].select.bytes");
  bad("select", {{"peak", 1}}, "points[0].select.peak");
  bad("role", 3, "points[0].role");
  bad("value", "3.5 us", "points[0].value");
  bad("value", nullptr, "points[0].value");
  bad("id", 1, "points[0].id");
  bad("scenario", "scenarios/z.json", "points[0].scenario");
  bad("value", -0.52, "points[0].value");  // a gap between two values needs both positive
  bad("tolerance_pct", -5, "points[0].tolerance_pct");
  bad("ranks", -4, "points[0].ranks");
  bad("valeu", 3.5, "points[0].valeu");
  bad("model_change", "a refit", "points[0].model_change");
  CHECK_THROWS_WITH(check_points_input(Json{{"points", {p}}, {"pionts", 1}}, "f.json", only_known), Catch::Contains("pionts"));
  // A held-out value has no value of its own, and the file names the paper it speaks for.
  Json h = p;
  h.erase("role");
  CHECK_THROWS_WITH(check_points_input(Json{{"points", {p}}, {"held_out", {h}}}, "f.json", only_known),
                    Catch::Contains("held_out[0].value"));
  CHECK_NOTHROW(check_points_input(Json{{"points", {p}}, {"paper", "f"}}, "dir/f.json", only_known));
  CHECK_THROWS_WITH(check_points_input(Json{{"points", {p}}, {"paper", "../../x"}}, "dir/f.json", only_known),
                    Catch::Contains("key 'paper'"));
  CHECK_THROWS_WITH(check_points_input(Json::array(), "f.json", only_known), Catch::Contains("(top level)"));
}

// Configuration: a reference file with one "calibration_directions" entry (the fit's confidence direction that the
// prediction intervals sample), then one mistake at a time. Expected: the good entry passes; each mistake is an
// InputError naming calibration_directions[0] and the key.
TEST_CASE("reference: calibration directions are checked before the intervals read them", "[unit][validation]") {
  const Json p{{"id", "p"}, {"scenario", "scenarios/x.json"}, {"select", {{"bytes", 4}}}, {"metric", "latency_us"},
               {"value", 3.5}, {"role", "calibration"}};
  const Json d{{"machine", "red-storm"}, {"label", "fit uncertainty 1"}, {"source", "ompisim calibrate ..."},
               {"direction", {{"software.craympi_unex_cost", 0.8}, {"software.craympi_post_cost", -0.6}}},
               {"range", {-0.5, 0.5}}};
  auto doc = [&](const Json& e) { return Json{{"points", {p}}, {"calibration_directions", Json::array({e})}}; };
  CHECK_NOTHROW(check_points_input(doc(d), "f.json", only_known));
  auto bad = [&](const char* key, Json v, const char* want) {
    Json e = d;
    if (v.is_null()) e.erase(key);
    else e[key] = v;
    CHECK_THROWS_WITH(check_points_input(doc(e), "f.json", only_known), Catch::Contains(want));
  };
  bad("range", {0.5, -0.5}, "calibration_directions[0].range");
  bad("range", {-0.5}, "calibration_directions[0].range");
  bad("range", {-50, 50}, "calibration_directions[0].range");
  bad("range", {"-0.5", 0.5}, "calibration_directions[0].range");
  bad("direction", Json::object(), "calibration_directions[0].direction");
  bad("direction", {{"software.craympi_unex_cost", "0.8"}}, "calibration_directions[0].direction.software.craympi_unex_cost");
  bad("source", nullptr, "calibration_directions[0].source");
  bad("machine", 3, "calibration_directions[0].machine");
  bad("rnage", {-0.5, 0.5}, "calibration_directions[0].rnage");
  CHECK_THROWS_WITH(check_points_input(Json{{"points", {p}}, {"calibration_directions", 1}}, "f.json", only_known),
                    Catch::Contains("calibration_directions"));
}
