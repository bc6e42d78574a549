// The figures a reason quotes (validation/quotes.hpp): the number a text gives and the digits it is read to, whether a
// measured value agrees, the input check of not_holding.quotes, and each measure's arithmetic with its overrides.
#include "validation/quotes.hpp"
#include "validation/validate.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <map>

using namespace ompisim;
using namespace ompisim::validation;

namespace {
bool quote_scenario_exists(const std::string& rel) { return rel == "scenarios/a.json" || rel == "scenarios/b.json"; }
Json quote_ref(const char* scenario, const char* metric = "runtime_s") {
  return Json{{"scenario", scenario}, {"select", {{"ranks", 4}}}, {"metric", metric}};
}
}  // namespace

// Configuration: quote texts with signs, separators, exponents and words around the number. Expected: the first number,
// with the half unit of its last written digit. How validated: the parsed values.
TEST_CASE("a quote's number is read to the digits it writes", "[validation][quotes]") {
  auto q = quoted_number("Cray MPI is 4.60 % ahead");
  REQUIRE(q);
  CHECK(q->value == Approx(4.60));
  CHECK(q->half_unit == Approx(0.005));
  q = quoted_number("(gap -4.40 %)");
  REQUIRE(q);
  CHECK(q->value == Approx(-4.40));
  q = quoted_number("VH-1 +3.65 %");  // a name's digits are no number
  REQUIRE(q);
  CHECK(q->value == Approx(3.65));
  q = quoted_number("OB1 0.33 % ahead of S3D's");
  REQUIRE(q);
  CHECK(q->value == Approx(0.33));
  q = quoted_number("gap -1.46 %");  // a hyphen after a space is a sign
  REQUIRE(q);
  CHECK(q->value == Approx(-1.46));
  CHECK_FALSE(quoted_number("OB1 and S3D"));
  q = quoted_number("1,300 of 2,600");
  REQUIRE(q);
  CHECK(q->value == Approx(1300));
  CHECK(q->half_unit == Approx(0.5));
  q = quoted_number("2.389e5 /s");
  REQUIRE(q);
  CHECK(q->value == Approx(238900));
  CHECK(q->half_unit == Approx(50));
  q = quoted_number("\xE2\x88\x92" "2.5 us");  // U+2212
  REQUIRE(q);
  CHECK(q->value == Approx(-2.5));
  q = quoted_number("1, 4 and 8");  // a comma not followed by three digits ends the number
  REQUIRE(q);
  CHECK(q->value == Approx(1));
  CHECK_FALSE(quoted_number("no number here"));
  CHECK_FALSE(quoted_number("1e9999 s"));  // an exponent too large to be a double's
}

// Configuration: measured values on either side of a quoted figure's rounding edge. Expected: agreement exactly within
// half a unit of the last digit written, the sign included. How validated: quote_agrees.
TEST_CASE("a measured value agrees when it rounds to the quoted figure", "[validation][quotes]") {
  CHECK(quote_agrees("5.81 %", 5.8149));
  CHECK(quote_agrees("5.81 %", 5.805));
  CHECK_FALSE(quote_agrees("5.81 %", 5.8151));
  CHECK_FALSE(quote_agrees("5.81 %", 5.62));  // a stale quote
  CHECK(quote_agrees("-4.40 %", -4.4049));
  CHECK_FALSE(quote_agrees("-4.40 %", 4.40));  // the sign is part of the figure
  CHECK(quote_agrees("2.389e5", 238940));
  CHECK_FALSE(quote_agrees("2.389e5", 231900));
  CHECK_FALSE(quote_agrees("3.0 x", std::numeric_limits<double>::quiet_NaN()));
}

// Configuration: well-formed quotes and one defect at a time (a text not in the reason, no number, a missing or
// outside scenario, an unknown key, a malformed measure, mixed metric directions, a bad --set value, nesting too
// deep). Expected: the good ones pass; each defect an InputError naming the file and the key. How validated: messages.
TEST_CASE("not_holding.quotes: each figure stands in the reason, each measure of the grammar", "[validation][quotes]") {
  const std::string reason = "CM is 5.81 % ahead; the costs add 10.21 points.";
  const Json good = Json::array(
      {Json{{"text", "5.81 %"}, {"measure", {{"gap", {quote_ref("scenarios/a.json"), quote_ref("scenarios/b.json")}}}}},
       Json{{"text", "10.21 points"},
            {"measure",
             {{"minus",
               {Json{{"gap", {quote_ref("scenarios/a.json"), quote_ref("scenarios/b.json")}}},
                Json{{"gap", {quote_ref("scenarios/a.json"), quote_ref("scenarios/b.json")}},
                     {"set", {{"software.x", "0us"}}}}}}}}}});
  CHECK_NOTHROW(check_quotes_input(good, reason, "ref.json", "claims[c].not_holding.quotes", quote_scenario_exists));
  auto fails = [&](Json q, const std::string& what) {
    CHECK_THROWS_WITH(check_quotes_input(Json::array({q}), reason, "ref.json", "claims[c].not_holding.quotes",
                                         quote_scenario_exists),
                      Catch::Contains("ref.json") && Catch::Contains(what));
  };
  fails(Json{{"text", "6.00 %"}, {"measure", {{"value", quote_ref("scenarios/a.json")}}}}, "does not stand in the reason");
  fails(Json{{"text", "CM is"}, {"measure", {{"value", quote_ref("scenarios/a.json")}}}}, "gives no number");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"value", quote_ref("scenarios/zzz.json")}}}}, "no scenario file");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"value", quote_ref("../etc/passwd.json")}}}}, "inside the data folder");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"valeu", quote_ref("scenarios/a.json")}}}}, "quotes[0].measure.valeu");
  fails(Json{{"text", "5.81 %"}, {"measure", Json::object()}}, "exactly one of");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"number", "8"}}}}, "quotes[0].measure.number");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"gap", {quote_ref("scenarios/a.json")}}}}}, "array of two");
  fails(Json{{"text", "5.81 %"},
             {"measure", {{"gap", {quote_ref("scenarios/a.json"), quote_ref("scenarios/b.json", "bandwidth_GBps")}}}}},
        "different directions");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"value", quote_ref("scenarios/a.json")}, {"set", {{"k", Json::array()}}}}}},
        "--set value");
  fails(Json{{"text", "5.81 %"}, {"measure", {{"value", quote_ref("scenarios/a.json")}, {"scale", 0}}}}, "non-zero");
  Json bad_ref = quote_ref("scenarios/a.json");
  bad_ref["set"] = "x=1";
  fails(Json{{"text", "5.81 %"}, {"measure", {{"value", bad_ref}}}}, "quotes[0].measure.value.set");
  bad_ref["set"] = {{"software.x", "0us"}};
  bad_ref["sett"] = 1;
  fails(Json{{"text", "5.81 %"}, {"measure", {{"value", bad_ref}}}}, "unknown key");
  fails(Json{{"text", "5.81 %"}, {"extra", 1}, {"measure", {{"value", quote_ref("scenarios/a.json")}}}}, "unknown key");
  Json deep = Json{{"value", quote_ref("scenarios/a.json")}};
  for (int i = 0; i < 5; ++i) deep = Json{{"minus", {deep, deep}}};
  fails(Json{{"text", "5.81 %"}, {"measure", deep}}, "nested more than 4 deep");
  CHECK_THROWS_WITH(check_quotes_input(Json::object(), reason, "ref.json", "q", quote_scenario_exists),
                    Catch::Contains("must be an array"));
}

// Configuration: a value function standing in for the runs (a 1.10 s, b 1.00 s; a 0.95 s under software.x=0us).
// Expected: each measure's arithmetic, the what-if's runs with its overrides and the nominal ones without, a stale
// figure found. How validated: eval_quotes' rows and the runs asked for.
TEST_CASE("a quote's measure: gaps, differences, scale, sign and the overrides its runs take", "[validation][quotes]") {
  // run times: scenario a 1.10 s and b 1.00 s at the nominal parameters; with software.x=0us a runs 0.95 s
  std::vector<std::string> seen;
  QuoteValue value = [&](const Json& ref, const Overrides& o) {
    const std::string s = ref.at("scenario").get<std::string>();
    seen.push_back(s + (o.empty() ? "" : " " + o.front().first + "=" + o.front().second));
    if (s == "scenarios/b.json") return 1.00;
    return o.empty() ? 1.10 : 0.95;
  };
  const Json a = quote_ref("scenarios/a.json"), b = quote_ref("scenarios/b.json");
  Json a_whatif = a;
  a_whatif["set"] = {{"software.x", "0us"}};
  const Json gap_nominal{{"gap", {a, b}}};
  const Json gap_whatif{{"gap", {a, b}}, {"set", {{"software.x", "0us"}}}};
  const Json quotes = Json::array({Json{{"text", "-10.00 %"}, {"measure", gap_nominal}},
                                   Json{{"text", "5.26 %"}, {"measure", gap_whatif}},
                                   Json{{"text", "15.26 points"}, {"measure", {{"minus", {gap_whatif, gap_nominal}}}}},
                                   Json{{"text", "1100 ms"}, {"measure", {{"value", a}, {"scale", 1000}}}},
                                   Json{{"text", "10.0 %"}, {"measure", {{"difference_pct", {a, b}}}}},
                                   Json{{"text", "10.00 % behind"}, {"measure", {{"gap", {a, b}}, {"abs", true}}}},
                                   Json{{"text", "0.95 x"}, {"measure", {{"ratio", {a, b}}, {"set", {{"software.x", "0us"}}}}}},
                                   Json{{"text", "1.2 s"}, {"measure", {{"value", a}}}},
                                   Json{{"text", "-5.26 %"}, {"measure", {{"gap", {b, a_whatif}}}}},
                                   Json{{"text", "18.00 points"}, {"measure", {{"minus", {Json{{"number", 8}}, gap_nominal}}}}},
                                   Json{{"text", "1.526 x"}, {"measure", {{"over", {Json{{"minus", {gap_whatif, gap_nominal}}},
                                                                                    gap_nominal}}, {"abs", true}}}}});
  const Json out = eval_quotes(quotes, value);
  REQUIRE(out.size() == 11);
  CHECK(out[9]["agrees"] == true);  // 8 - (-10.00)
  CHECK(out[10]["agrees"] == true);  // |15.26 / -10.00|
  CHECK(out[8]["agrees"] == true);  // b nominal against a under its own set (0.95 s)
  CHECK(out[8]["what_if"] == true);
  CHECK(out[0]["measured"].get<double>() == Approx(-10.0));
  CHECK(out[0]["agrees"] == true);
  CHECK(out[0]["what_if"] == false);
  CHECK(out[1]["measured"].get<double>() == Approx(100.0 / 0.95 - 100));
  CHECK(out[1]["agrees"] == true);
  CHECK(out[1]["what_if"] == true);
  CHECK(out[2]["agrees"] == true);
  CHECK(out[2]["what_if"] == true);
  CHECK(out[3]["agrees"] == true);
  CHECK(out[4]["agrees"] == true);
  CHECK(out[5]["agrees"] == true);
  CHECK(out[6]["agrees"] == true);
  CHECK(out[7]["agrees"] == false);  // 1.10 s quoted as 1.2 s: stale
  // the what-if's runs carry its overrides; the nominal ones none
  CHECK(std::count(seen.begin(), seen.end(), "scenarios/a.json software.x=0us") == 5);
  CHECK(std::count(seen.begin(), seen.end(), "scenarios/b.json software.x=0us") == 4);
}

// Configuration: a validation table with one agreeing and one stale quote. Expected: validation.md's sentence counts
// both and names the stale one with its measured value; a table without quotes says nothing. How validated: the text.
TEST_CASE("validation.md names every stale quote", "[validation][quotes]") {
  Json v{{"claims", Json::array({Json{{"id", "c1"},
                                      {"quotes", Json::array({Json{{"text", "5.81 %"}, {"measured", 5.81}, {"agrees", true},
                                                                   {"what_if", false}},
                                                              Json{{"text", "4.60 %"}, {"measured", 4.21}, {"agrees", false},
                                                                   {"what_if", true}}})}}})}};
  const std::string md = render_quotes(v);
  CHECK_THAT(md, Catch::Contains("2 measured by this run (1 of them what-ifs") && Catch::Contains("1 agree") &&
                     Catch::Contains("c1 '4.60 %' (measured 4.21)"));
  CHECK(render_quotes(Json{{"claims", Json::array()}}).empty());
  // a point's and a value check's quotes count too
  Json w{{"points", Json::array({Json{{"id", "p1"}, {"quotes", Json::array({Json{{"text", "2.501 us"}, {"measured", 2.6},
                                                                                 {"agrees", false}, {"what_if", false}}})}}})},
         {"value_checks", Json::array({Json{{"id", "t1"}, {"quotes", Json::array({Json{{"text", "0.24 %"}, {"measured", 0.24},
                                                                                       {"agrees", true}, {"what_if", false}}})}}})}};
  CHECK_THAT(render_quotes(w), Catch::Contains("2 measured") && Catch::Contains("1 agree") &&
                                   Catch::Contains("p1 '2.501 us' (measured 2.6)"));
}
