#include "core/json_input.hpp"
#include "core/params.hpp"
#include "core/units.hpp"
#include "runner/registries.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: unit strings of each dimension. Expected: SI values; a wrong unit or a bare number for a time is an
// error naming the accepted units. How validated: exact values, and the exception text.
TEST_CASE("units: quantities parse into SI and reject wrong units", "[unit]") {
  CHECK(parse_quantity("105 ns", Dim::Time) == Approx(105e-9));
  CHECK(parse_quantity("1.5us", Dim::Time) == Approx(1.5e-6));
  CHECK(parse_quantity("8 KiB", Dim::Bytes) == 8192);
  CHECK(parse_quantity("4 MB", Dim::Bytes) == 4e6);
  CHECK(parse_quantity("5 GB/s", Dim::Rate) == 5e9);
  CHECK(parse_quantity("40 Gb/s", Dim::Rate) == 5e9);
  CHECK_THROWS_WITH(parse_quantity("5 GB", Dim::Rate), Catch::Contains("not a unit of rate"));
  CHECK_THROWS_WITH(json_quantity(Json(3), Dim::Time, "f.json", "k"), Catch::Contains("with its unit"));
  CHECK(json_quantity(Json(4096), Dim::Bytes, "f.json", "k") == 4096);
}

// Configuration: an object with a misspelled key. Expected: InputError naming file and key, with a suggestion.
TEST_CASE("strict JSON: unknown keys get a did-you-mean", "[unit]") {
  Json j = Json::parse(R"({"ranks": 2, "rankz": 3})");
  ObjectReader r(j, "s.json", "");
  (void)r.integer("ranks", 1, 10);
  try {
    r.finish({"ranks_per_node"});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "s.json");
    CHECK(e.key() == "rankz");
    CHECK_THAT(e.what(), Catch::Contains("did you mean 'ranks'"));
  }
  CHECK(did_you_mean("osu_latncy", {"osu_latency", "osu_bw"}) == "osu_latency");
  CHECK(did_you_mean("zzzzzz", {"osu_latency"}).empty());
}

// Configuration: the shipped machine files. Expected: every physical parameter has a value and a source or fit.
TEST_CASE("machines: every parameter is sourced", "[unit]") {
  for (auto& [name, file] : list_machines()) {
    auto m = load_machine(name);
    for (auto& r : m->physical_params()) {
      INFO(name << " " << r.info.name);
      CHECK(r.p->set);
      CHECK_FALSE(r.p->source.empty());
    }
  }
  CHECK_THROWS_AS(load_machine("cielox"), InputError);
}
