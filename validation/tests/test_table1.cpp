// Tests of the value checks beside a reference file's points (validation/table1.hpp): seastar-portals' "table1",
// qsnet-elan4's "mechanism_checks".
#include "core/errors.hpp"
#include "validation/table1.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using namespace ompisim::validation;

namespace {
// Two fake scenario results: an application point and a latency curve.
const Json& fake(const std::string& s) {
  static const Json app{{"points", Json::array({Json{{"ranks", 8},
                                                     {"long_pct", 50.0},
                                                     {"unexpected_long_pct_of_long", nullptr},
                                                     {"routine_pct", {{"Wait", 7.0}, {"Allreduce", 0.5}}},
                                                     {"top_routines", {"Wait", "Allreduce"}},
                                                     {"table1_lacks", Json::array({Json{{"quantity", "routine Isend"},
                                                                                        {"lacks", "no Isend phase"}}})}}})}};
  static const Json lat{{"points", Json::array({Json{{"bytes", 4}, {"latency_us", 22.0}}, Json{{"bytes", 8}, {"latency_us", 4.0}}})}};
  return s == "app.json" ? app : lat;
}

Json entry(Json value, Json a, std::string role = "prediction") {
  Json e{{"id", "x"}, {"role", role}, {"value", std::move(value)}, {"source", "test"}, {"a", std::move(a)}};
  if (role == "reads_input") e["reads"] = "an input";
  if (!e["value"].is_array()) e["tolerance_pct"] = 15;
  return e;
}
Json row(const Json& e) { return eval_value_checks(Json::array({e}), "ref.json", "table1", fake).at(0); }
}  // namespace

// Configuration: entries against fake results. Expected: a number within its tolerance holds, outside fails; a list
// holds when the simulated order starts with it (less the names the point lacks); a null value or a routine the point lists as lacking is untested
// with the point's reason; a difference of two points is a - b. How validated: the rows' status and simulated value.
TEST_CASE("value checks: holds, fails, untested, lists and differences", "[unit][validation]") {
  CHECK(row(entry(55.0, {{"scenario", "app.json"}, {"metric", "long_pct"}}))["status"] == "holds");
  CHECK(row(entry(99.6, {{"scenario", "app.json"}, {"metric", "long_pct"}}))["status"] == "fails");
  CHECK(row(entry(7.2, {{"scenario", "app.json"}, {"metric", "routine_pct.Wait"}}))["status"] == "holds");
  Json un = row(entry(5.5, {{"scenario", "app.json"}, {"metric", "routine_pct.Isend"}}));
  CHECK(un["status"] == "untested");
  CHECK(un["detail"] == "no Isend phase");
  CHECK(row(entry(46.2, {{"scenario", "app.json"}, {"metric", "unexpected_long_pct_of_long"}}))["status"] == "untested");
  CHECK(row(entry(Json{"Wait", "Allreduce"}, {{"scenario", "app.json"}, {"metric", "top_routines"}}))["status"] == "holds");
  CHECK(row(entry(Json{"Allreduce", "Wait"}, {{"scenario", "app.json"}, {"metric", "top_routines"}}))["status"] == "fails");
  Json part = row(entry(Json{"Wait", "Isend", "Allreduce"}, {{"scenario", "app.json"}, {"metric", "top_routines"}}));
  CHECK(part["status"] == "holds");  // Isend is left out: the point lacks it
  CHECK(part["detail"].get<std::string>().find("Isend untested: no Isend phase") != std::string::npos);
  Json d = entry(18.0, {{"scenario", "lat.json"}, {"select", {{"bytes", 4}}}, {"metric", "latency_us"}}, "reads_input");
  d["b"] = {{"scenario", "lat.json"}, {"select", {{"bytes", 8}}}, {"metric", "latency_us"}};
  d["op"] = "difference";
  Json r = row(d);
  CHECK(r["simulated"].get<double>() == Approx(18.0));
  CHECK(r["status"] == "holds");
  CHECK(r["role"] == "reads_input");
  CHECK(render_value_checks(Json::array({r, un}), "Checks").find("1 holds (reads an input), 1 untested") !=
        std::string::npos);
}

// Configuration: one malformed entry per section. Expected: an InputError naming the file and the entry's key.
TEST_CASE("value checks: bad input names file and key", "[unit][validation]") {
  const Json a{{"scenario", "app.json"}, {"metric", "long_pct"}};
  SECTION("unknown role") {
    Json e = entry(1.0, a);
    e["role"] = "calibration";
    CHECK_THROWS_WITH(row(e), Catch::Contains("ref.json") && Catch::Contains("table1[0].role"));
  }
  SECTION("reads_input without what it reads") {
    Json e = entry(1.0, a, "reads_input");
    e.erase("reads");
    CHECK_THROWS_WITH(row(e), Catch::Contains("table1[0].reads"));
  }
  SECTION("no tolerance") {
    Json e = entry(1.0, a);
    e.erase("tolerance_pct");
    CHECK_THROWS_AS(row(e), InputError);
  }
  SECTION("unknown op") {
    Json e = entry(1.0, a);
    e["b"] = a;
    e["op"] = "sum";
    CHECK_THROWS_WITH(row(e), Catch::Contains("table1[0].op"));
  }
  SECTION("unknown key") {
    Json e = entry(1.0, a);
    e["tolerence_pct"] = 3;
    CHECK_THROWS_AS(row(e), InputError);
  }
  SECTION("no such point") {
    Json e = entry(1.0, {{"scenario", "lat.json"}, {"select", {{"bytes", 16}}}, {"metric", "latency_us"}});
    CHECK_THROWS_WITH(row(e), Catch::Contains("table1[0].a.select"));
  }
}

// Configuration: a difference of two points (18 us) against a paper amount with "factor" 1.5 instead of a tolerance,
// and an entry giving both. Expected: the simulated 18 holds against a paper amount of 13 (accepted 8.7 to 19.5) and
// of 26 (17.3 to 39), fails against 30 (20 to 45) and against -18 (the other sign); two tolerances are refused naming
// the key. How validated: the rows' status and the error.
TEST_CASE("value checks: an amount by which two values differ, within a factor", "[unit][validation]") {
  auto diff = [](double value) {
    Json d = entry(value, {{"scenario", "lat.json"}, {"select", {{"bytes", 4}}}, {"metric", "latency_us"}});
    d["b"] = {{"scenario", "lat.json"}, {"select", {{"bytes", 8}}}, {"metric", "latency_us"}};
    d["op"] = "difference";
    d.erase("tolerance_pct");
    d["factor"] = 1.5;
    return d;
  };
  CHECK(row(diff(13))["status"] == "holds");
  CHECK(row(diff(26))["status"] == "holds");
  CHECK(row(diff(30))["status"] == "fails");
  CHECK(row(diff(-18))["status"] == "fails");
  CHECK(row(diff(18))["detail"].get<std::string>().find("within the factor 1.5") != std::string::npos);
  Json both = diff(18);
  both["tolerance_pct"] = 15;
  CHECK_THROWS_WITH(row(both), Catch::Contains("tolerance_pct") && Catch::Contains("exactly one"));
}
