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

// Configuration: the shipped machine files. Expected: every parameter whose source is an estimate carries a plausible
// range with its reason (what the prediction intervals of `validate` sample), and the range contains the value.
// How validated: each such parameter's loaded range fields.
TEST_CASE("machines: every estimate has a range with its reason", "[unit]") {
  int estimates = 0;
  for (auto& [name, file] : list_machines()) {
    auto m = load_machine(name);
    for (auto& r : m->physical_params()) {
      if (!r.p->source.starts_with("estimate")) continue;
      ++estimates;
      INFO(name << " " << r.info.name);
      CHECK(r.p->ranged);
      CHECK_FALSE(r.p->range_source.empty());
      CHECK(r.p->range_lo <= r.p->value);
      CHECK(r.p->value <= r.p->range_hi);
    }
  }
  CHECK(estimates > 50);
}

// Configuration: a parameter section with ranges. Expected: a range is read in the parameter's unit; a range that
// does not contain the value, one without its reason, or one of the wrong shape is an InputError naming the key.
// How validated: loaded fields and the exception texts.
namespace {
struct OneTime {
  Sourced a;
  template <class V>
  void visit(V&& v) {
    v(a, {"a", Dim::Time, "a time", 0, 1});
  }
};
}  // namespace

TEST_CASE("params: an estimate's range is read and checked", "[unit]") {
  OneTime p;
  auto load = [&](const char* text) {
    Json j = Json::parse(text);
    ObjectReader r(j, "m.json", "");
    ParamList l = param_list(p);
    load_sourced(r, l, true);
  };
  load(R"({"a": {"value": "2 us", "source": "estimate: x", "range": ["1 us", "4 us"], "range_source": "factor 2"}})");
  CHECK(p.a.ranged);
  CHECK(p.a.range_lo == Approx(1e-6));
  CHECK(p.a.range_hi == Approx(4e-6));
  CHECK(p.a.range_source == "factor 2");
  load(R"({"a": {"value": "2 us", "source": "paper"}})");
  CHECK_FALSE(p.a.ranged);
  CHECK_THROWS_WITH(load(R"({"a": {"value": "5 us", "source": "e", "range": ["1 us", "4 us"], "range_source": "r"}})"),
                    Catch::Contains("does not contain the value"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "2 us", "source": "e", "range": ["1 us", "4 us"]}})"),
                    Catch::Contains("range_source"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "2 us", "source": "e", "range": ["1 us"], "range_source": "r"}})"),
                    Catch::Contains("[low, high]"));
}
