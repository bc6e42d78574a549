// The benchmark driver registry (benchmarks/driver.hpp): every registered driver reads a minimal block, refuses keys
// it does not declare, and the registry refuses unknown names with the file and key.
#include "benchmarks/driver.hpp"
#include "platform/machine.hpp"
#include "runner/scenario.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <set>

using namespace ompisim;

namespace {
// The smallest block each driver accepts, beyond its name. A driver registered without an entry here fails the first
// test: a new benchmark brings its minimal block with it.
const std::map<std::string, Json>& minimal_blocks() {
  static const std::map<std::string, Json> m{
      {"osu_latency", Json::object()}, {"osu_multi_lat", Json::object()}, {"osu_bw", Json::object()},
      {"osu_bibw", Json::object()},    {"osu_mbw_mr", Json::object()},    {"netpipe", Json::object()},
      {"smb_overhead", Json::object()}, {"barrier_loop", Json::object()}, {"app_skeleton", Json{{"app", "POP"}}},
      {"pingpong_layers", Json::object()}, {"unexpected_storm", Json::object()},
      {"osu_alltoall", Json::object()}, {"osu_bcast", Json::object()}, {"osu_allgather", Json::object()},
      {"osu_gather", Json::object()},   {"osu_scatter", Json::object()},   {"osu_allreduce", Json::object()}, {"osu_reduce", Json::object()},
      {"imb_reduce", Json::object()},
      {"replay", Json{{"trace", ompisim::data_dir() + "/benchmarks/tests/data/ti_pair/trace.txt"}, {"flop_rate", "1 Gf/s"}}},
  };
  return m;
}

Json scenario_with(const Json& block, Json ranks = 2) {
  return Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", std::move(ranks)}, {"benchmark", block}};
}

std::string input_error(const Json& scenario) {
  try {
    (void)scenario_from_json(scenario, "drv.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// Configuration: every entry of the driver registry, with its minimal block. Expected: it parses into a driver whose
// label is non-empty; the entry has a description, a family, a table and a documented type, default and meaning for
// every key; its minimal block plus one unknown key is refused naming the file, "benchmark.<key>" and "unknown key".
// How validated: the Scenario's driver, the registry entry's fields and the error text.
TEST_CASE("drivers: every registered driver parses a minimal block and refuses an unknown key", "[benchmark][driver]") {
  const auto& reg = bench::driver_registry();
  REQUIRE(reg.all().size() >= 9);
  for (const auto& d : reg.all()) {
    INFO(d.name);
    REQUIRE(minimal_blocks().count(d.name) == 1);
    Json block = minimal_blocks().at(d.name);
    block["name"] = d.name;
    Scenario s = scenario_from_json(scenario_with(block), "drv.json");
    REQUIRE(s.driver);
    CHECK(s.benchmark == d.name);
    CHECK_FALSE(s.driver->label().empty());
    CHECK_FALSE(d.description.empty());
    CHECK_FALSE(d.family.empty());
    CHECK(d.table);
    for (const auto& p : d.params) {
      INFO(p.name);
      CHECK_FALSE(p.type.empty());
      CHECK_FALSE(p.default_value.empty());
      CHECK_FALSE(p.description.empty());
    }
    Json bad = block;
    bad["bogus_key"] = 1;
    std::string err = input_error(scenario_with(bad));
    CHECK_THAT(err, Catch::Contains("drv.json") && Catch::Contains("key 'benchmark.bogus_key'") &&
                        Catch::Contains("unknown key"));
  }
}

// Configuration: a benchmark name that is not registered (a typo of osu_latency) and one far from any name.
// Expected: InputError naming the file and "benchmark.name", the did-you-mean, and the registered names.
// How validated: the error's file, key and text (an InputError is exit status 2 in the tool: tests/e2e/bad_input.sh).
TEST_CASE("drivers: an unknown benchmark name is an input error naming file and key", "[benchmark][driver]") {
  try {
    (void)scenario_from_json(scenario_with(Json{{"name", "osu_latncy"}}), "drv.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "drv.json");
    CHECK(e.key() == "benchmark.name");
    CHECK_THAT(e.reason(), Catch::Contains("unknown benchmark 'osu_latncy'") &&
                               Catch::Contains("did you mean 'osu_latency'") && Catch::Contains("barrier_loop"));
  }
  CHECK_THROWS_AS(bench::find_driver("imb_alltoall", "f.json", "benchmark.name"), InputError);
  // a suite's name for a benchmark registered under another names it
  CHECK_THROWS_WITH(bench::find_driver("osu_barrier", "f.json", "benchmark.name"),
                    Catch::Contains("unknown benchmark 'osu_barrier' (did you mean 'barrier_loop'?)"));
  CHECK(bench::find_driver("osu_bw", "f.json", "benchmark.name").name == "osu_bw");
}

// Configuration: keys of the OSU family given to a member that does not read them, and rank counts a driver cannot
// run on, and keys misspelled. Expected: InputError with the driver's own reason on the block key, or on the
// scenario's "ranks"; a misspelling is offered the driver's own keys only.
// How validated: the error text.
TEST_CASE("drivers: keys and rank counts a driver does not take are refused with its reason", "[benchmark][driver]") {
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_latency"}, {"window", 8}})),
             Catch::Contains("key 'benchmark.window'") && Catch::Contains("ping-pong"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_bw"}, {"prepost", true}})),
             Catch::Contains("key 'benchmark.prepost'") && Catch::Contains("only the ping-pong"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_bw"}, {"side", "send"}})),
             Catch::Contains("key 'benchmark.side'") && Catch::Contains("only smb_overhead"));
  // SMB reads sizes, iterations, side and threshold_pct only: a window would be silently ignored.
  CHECK_THAT(input_error(scenario_with(Json{{"name", "smb_overhead"}, {"window", 8}})),
             Catch::Contains("key 'benchmark.window'") && Catch::Contains("unknown key"));
  // a misspelled key is offered the member's own key, not one the family refuses (smb_overhead's "side")
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_latency"}, {"size", {8}}})),
             Catch::Contains("key 'benchmark.size': unknown key (did you mean 'sizes'?)"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_latency"}, {"radix", 8}})),
             Catch::Contains("known here: alloc, buffer, buffer_offset, datatype, iterations, name, prepost, sizes, skip)"));
  // no close name: the keys the block takes are listed
  CHECK_THAT(input_error(scenario_with(Json{{"name", "barrier_loop"}, {"sizes", {8}}})),
             Catch::Contains("key 'benchmark.sizes': unknown key (known here: algorithm, iterations, name, radix, skip"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_latency"}}, 4)),
             Catch::Contains("key 'ranks'") && Catch::Contains("exactly 2 ranks"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_multi_lat"}}, 6)), Catch::Equals(""));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "osu_multi_lat"}}, 5)),
             Catch::Contains("key 'ranks'") && Catch::Contains("even number"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "app_skeleton"}, {"app", "POP"}}, Json{256, 512})),
             Catch::Contains("key 'ranks'") && Catch::Contains("one rank count"));
  CHECK_THAT(input_error(scenario_with(Json{{"name", "barrier_loop"}, {"algorithm", "cheetah-atomic"}})), Catch::Equals(""));
  Json native = scenario_with(Json{{"name", "barrier_loop"}, {"algorithm", "cheetah-atomic"}});
  native["stack"] = "native";
  CHECK_THAT(input_error(native), Catch::Contains("key 'benchmark.algorithm'") && Catch::Contains("Cheetah"));
  // A misspelled name is reported as such before the rules that read it: not as a radix the algorithm lacks, nor as
  // a stack without Cheetah.
  CHECK_THAT(input_error(scenario_with(Json{{"name", "barrier_loop"}, {"algorithm", "cheetah-atomc"}, {"radix", 4}})),
             Catch::Contains("key 'benchmark.algorithm'") && Catch::Contains("unknown barrier algorithm 'cheetah-atomc'") &&
                 Catch::Contains("did you mean 'cheetah-atomic'"));
  Json typo = scenario_with(Json{{"name", "barrier_loop"}, {"algorithm", "cheetah-atomic"}});
  typo["stack"] = "ompi";
  CHECK_THAT(input_error(typo), Catch::Contains("key 'stack'") && Catch::Contains("unknown stack 'ompi'") &&
                                    Catch::Contains("did you mean 'openmpi'"));
}

// Configuration: barrier_loop with a radix list, and osu_bw. Expected: the radix list is the barrier driver's axis
// (values in the order given) and its label is the algorithm; osu_bw has no axis; copies of a scenario share its
// parsed driver. How validated: axis(), axis_values(), label(), pointer equality. (What running one value of the axis
// gives is checked in runner/tests/test_runner.cpp.)
TEST_CASE("drivers: the barrier radix list is the driver's axis", "[benchmark][driver]") {
  Scenario s = scenario_from_json(
      scenario_with(Json{{"name", "barrier_loop"}, {"algorithm", "cheetah-atomic"}, {"radix", {2, 8, 4}}}, 4), "drv.json");
  CHECK(s.driver->axis() == "radix");
  CHECK(s.driver->axis_values() == std::vector<Json>{2, 8, 4});
  CHECK(s.driver->label() == "cheetah-atomic");
  // A radix list for an algorithm without a radix (coll/tuned's choice here) would be run and ignored: refused.
  CHECK_THAT(input_error(scenario_with(Json{{"name", "barrier_loop"}, {"radix", {2, 8}}}, 4)),
             Catch::Contains("key 'benchmark.radix': barrier algorithm 'tuned' has no radix"));
  Scenario o = scenario_from_json(scenario_with(Json{{"name", "osu_bw"}}), "drv.json");
  CHECK(o.driver->axis().empty());
  CHECK(o.driver->axis_values().empty());
  CHECK(o.driver->label() == "osu_bw");
  Scenario copy = o;
  CHECK(copy.driver == o.driver);
}

// Configuration: a registry with a driver added twice, and one without a parser. Expected: std::invalid_argument
// (each name is registered once, and every entry can parse). How validated: the exception type.
TEST_CASE("drivers: the registry refuses a duplicate name and an entry without a parser", "[benchmark][driver]") {
  bench::DriverRegistry reg;
  bench::register_drivers(reg);
  bench::DriverInfo dup = *reg.find("osu_bw");
  CHECK_THROWS_AS(reg.add(dup), std::invalid_argument);
  bench::DriverInfo none;
  none.name = "no_parser";
  CHECK_THROWS_AS(reg.add(none), std::invalid_argument);
}

// Configuration: every integer key of every registered driver (a type starting "integer"), each given its declared
// minimum, its maximum, one below the minimum and one above the maximum in the driver's minimal block (radix: one
// value; window only on the streaming benchmarks, which declare it).
// Expected: each key is declared with integer_key(), so its documented type is "integer MIN .. MAX" built from the
// range the parser checks, and its default is the declared value (or the benchmark's own rule); both bounds parse, and
// a value outside is refused naming "benchmark.<key>".
// How validated: the declaration's fields and the scenario loader's InputError text.
TEST_CASE("drivers: integer keys document the range and default their parser uses", "[benchmark][driver]") {
  int checked = 0;
  for (const auto& d : bench::driver_registry().all()) {
    for (const auto& p : d.params) {
      if (!p.type.starts_with("integer")) continue;
      INFO(d.name << " " << p.name);
      REQUIRE(p.integer);
      const auto& r = *p.integer;
      CHECK(p.type.starts_with(fmt::format("integer {} .. {}", r.min, r.max)));
      if (r.value) CHECK(p.default_value == std::to_string(*r.value));
      for (long long v : {r.min, r.max, r.min - 1, r.max + 1}) {
        Json block = minimal_blocks().at(d.name);
        block["name"] = d.name;
        block[p.name] = v;
        if (p.name == "radix") block["algorithm"] = "cheetah-atomic";  // only the tree barriers read a radix
        std::string err = input_error(scenario_with(block));
        if (v >= r.min && v <= r.max) {
          CHECK(err.find("benchmark." + p.name) == std::string::npos);
        } else {
          CHECK_THAT(err, Catch::Contains("benchmark." + p.name));
        }
      }
      ++checked;
    }
  }
  CHECK(checked >= 15);
}

namespace {
// The keys whose default is no single value but the benchmark's own rule or input (a list it builds, a required key,
// the skeleton's stored value), as (driver or family, key); "*": every driver. Every other key that is not an integer
// is declared with text_key(), so its default is written once.
bool computed_default(const bench::DriverInfo& d, const std::string& key) {
  static const std::set<std::pair<std::string, std::string>> computed{
      {"*", "sizes"},           {"*", "trace"},          {"*", "flop_rate"},   {"*", "app"},
      {"*", "compute_per_step"}, {"*", "estimates"},     {"replay", "algorithms"},
      {"app_skeleton", "collectives"}, {"osu-collective", "algorithm"}, {"replay", "collectives"}};
  return computed.count({"*", key}) || computed.count({d.name, key}) || computed.count({d.family, key});
}
}  // namespace

// Configuration: every key of every registered driver that is not an integer key; for each declared with text_key()
// (a text, choice, quantity, number or boolean key with one default value), the driver's minimal block without that
// key, parsed once with the driver's declared keys and once with that key's declared default replaced by "no such
// default", a value no key accepts.
// Expected: every such key is declared with text_key() unless its default is the benchmark's own rule (the list
// above); a choice key's default is among its choices; the first parse succeeds and the second throws, so the parser
// took the default from the declaration (a parser with a default of its own parses both).
// How validated: the declarations' fields and whether the driver's parser throws.
TEST_CASE("drivers: text, choice, quantity and boolean keys take the default their declaration gives",
          "[benchmark][driver]") {
  int checked = 0;
  for (const auto& d : bench::driver_registry().all()) {
    const Json block = minimal_blocks().at(d.name);
    auto parse_with = [&](const std::vector<bench::DriverParam>& keys) {
      Json b = block;
      ObjectReader r(b, "drv.json", "benchmark");
      bench::DriverContext ctx{"drv.json", {2}, "openmpi", Json("openmpi"), false, &keys};
      return d.parse(r, ctx);
    };
    REQUIRE_NOTHROW(parse_with(d.params));
    for (std::size_t i = 0; i < d.params.size(); ++i) {
      const bench::DriverParam& p = d.params[i];
      INFO(d.name << " " << p.name);
      if (p.integer) continue;
      if (!p.declared) {
        CHECK(computed_default(d, p.name));
        continue;
      }
      if (p.choices) {
        auto v = p.choices();
        CHECK(std::find(v.begin(), v.end(), p.default_value) != v.end());
      }
      std::vector<bench::DriverParam> broken = d.params;
      broken[i].default_value = "no such default";
      CHECK_THROWS(parse_with(broken));
      ++checked;
    }
  }
  CHECK(checked >= 20);
}
