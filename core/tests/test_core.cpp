#include "core/json_input.hpp"
#include "core/override_text.hpp"
#include "core/params.hpp"
#include "core/units.hpp"
#include "core/units_text.hpp"
#include "runner/registries.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <regex>

using namespace ompisim;

// Configuration: unit strings of each dimension. Expected: SI values; a wrong unit or a bare number for a time is an
// error naming the accepted units. How validated: exact values, and the exception text.
TEST_CASE("units: quantities parse into SI and reject wrong units", "[unit]") {
  CHECK(parse_quantity("105 ns", Dim::Time) == Approx(105e-9));
  CHECK(parse_quantity("1.5us", Dim::Time) == Approx(1.5e-6));
  CHECK(parse_quantity("8 KiB", Dim::Bytes) == 8192);
  CHECK(parse_quantity("4 MiB", Dim::Bytes) == 4194304);
  CHECK(parse_quantity("5 GB/s", Dim::Rate) == 5e9);
  CHECK(parse_quantity("40 Gb/s", Dim::Rate) == 5e9);
  CHECK_THROWS_WITH(parse_quantity("5 GB", Dim::Rate), Catch::Contains("not a unit of rate"));
  // a count or a ratio has no unit: the message says so (not an empty list of units)
  CHECK_THROWS_WITH(parse_quantity("5 B", Dim::Count), Catch::Contains("takes no unit ('B'): write the number alone"));
  CHECK_THROWS_WITH(parse_quantity("0.5 us", Dim::Ratio), Catch::Contains("takes no unit ('us')"));
  // nor in the message for a value that is no number at all
  CHECK_THROWS_WITH(parse_quantity("NaN", Dim::Ratio), Catch::Equals("'NaN' is not a ratio (expected a decimal number)"));
  CHECK_THROWS_WITH(parse_quantity("nan us", Dim::Time), Catch::Contains("(expected a decimal number followed by one of: "));
  CHECK_THROWS_WITH(json_quantity(Json(3), Dim::Time, "f.json", "k"), Catch::Contains("with its unit"));
  CHECK(json_quantity(Json(4096), Dim::Bytes, "f.json", "k") == 4096);
  // a size is a whole number of bytes: a fraction is refused with the sizes around it, never rounded
  CHECK(parse_quantity("1.5 KiB", Dim::Bytes) == 1536);
  // a number in quotes without its unit: the units there are, and for a size that a bare number is bytes
  CHECK_THROWS_WITH(parse_quantity("512", Dim::Bytes),
                    Catch::Contains("'512' has no unit: a size is written with one of: B, GiB, KiB, MiB ('512 B'), or "
                                    "as a number of bytes without quotes"));
  CHECK_THROWS_WITH(parse_quantity("1.5", Dim::Time), Catch::Contains("'1.5' has no unit: a time is written with one of:"));
  // a negative size is refused as such, with or without a unit (not told to add one)
  CHECK_THROWS_WITH(parse_quantity("-8", Dim::Bytes), Catch::Contains("'-8': a size is a number of bytes, at least 0"));
  CHECK_THROWS_WITH(parse_quantity("-8 B", Dim::Bytes), Catch::Contains("at least 0"));
  CHECK_THROWS_WITH(parse_quantity("0.3 KiB", Dim::Bytes),
                    Catch::Contains("'0.3 KiB' is 307.2 B: a size is a whole number of bytes (write '307 B' or '308 B')"));
  CHECK_THROWS_WITH(json_quantity(Json("2.5 B"), Dim::Bytes, "f.json", "k"), Catch::Contains("whole number of bytes"));
}

// Configuration: byte sizes with SI prefixes ("4 kB", "4 KB", "1 MB", "2 GB") as a scenario's mca block would give
// them. Expected: refused (never read as 4000 B), the message naming the binary spelling and its value in bytes; rates
// keep their SI prefixes. How validated: the exception text and the InputError's file and key.
TEST_CASE("units: byte sizes are binary, SI prefixes refused", "[unit]") {
  for (const char* t : {"4 kB", "4 KB", "4kB", "4 K"})
    CHECK_THROWS_WITH(parse_quantity(t, Dim::Bytes), Catch::Contains("'4 KiB' (4096 B)") && Catch::Contains("binary"));
  CHECK_THROWS_WITH(parse_quantity("1 MB", Dim::Bytes), Catch::Contains("'1 MiB' (1048576 B)"));
  CHECK_THROWS_WITH(parse_quantity("2 GB", Dim::Bytes), Catch::Contains("'2 GiB'"));
  CHECK(parse_quantity("4 KiB", Dim::Bytes) == 4096);
  CHECK(parse_quantity("8 GB/s", Dim::Rate) == 8e9);
  CHECK(parse_quantity("1 kB/s", Dim::Rate) == 1e3);
  try {
    (void)json_quantity(Json("4 kB"), Dim::Bytes, "s.json", "mca.btl_ugni_smsg_limit");
    FAIL("4 kB accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == "s.json");
    CHECK(e.key() == "mca.btl_ugni_smsg_limit");
  }
}

// Configuration: quantity_pattern of each dimension against strings parse_quantity accepts and refuses.
// Expected: the pattern (the schema's) agrees with the parser on each. How validated: std::regex (ECMAScript).
// Configuration: times, rates and ratios spread over many decades, each times e^(+-h) for h down to 1e-12, as
// sensitivity varies them; sizes and counts off whole numbers. Expected: the exact text of a time, rate or ratio reads
// back (as --set reads it: param_text_value) to the same double; a size or count reads back as the nearest whole
// number; format_quantity, the text for showing, keeps 6 significant digits. How validated: exact equality.
TEST_CASE("units: exact texts read back to the same double", "[unit][sensitivity]") {
  for (Dim d : {Dim::Time, Dim::Rate, Dim::Ratio})
    for (double x : {1.05e-7, 2.5e-9, 0.3, 1.0, 7.77e3, 5e9, 1.23456789e14})
      for (double h : {0.01, 1e-6, 1e-12, -1e-9}) {
        const double v = x * std::exp(h);
        const std::string text = format_quantity_exact(v, d);
        CHECK(param_text_value(text, ParamInfo{"p", d, "", 0, 1e300}, "p") == v);
        if (d != Dim::Ratio) CHECK(parse_quantity(text, d) == v);
      }
  CHECK(format_quantity_exact(30.30, Dim::Bytes) == "30 B");
  CHECK(format_quantity_exact(31.54, Dim::Bytes) == "32 B");
  CHECK(param_text_value(format_quantity_exact(28.54, Dim::Bytes), ParamInfo{"p", Dim::Bytes, ""}, "p") == 29);
  CHECK(param_text_value(format_quantity_exact(32.32, Dim::Count), ParamInfo{"p", Dim::Count, ""}, "p") == 32);
  CHECK(format_quantity(1.0100501670841679e-06, Dim::Time) == "1.01005 us");
  // A size or count beyond 2^53 is not held exactly: 2^63 - 1 reads as 2^63, shown to 6 digits, not as 2^63's digits.
  CHECK(format_quantity(9007199254740991.0, Dim::Bytes) == "9007199254740991 B");
  CHECK(format_quantity(9223372036854775807.0, Dim::Bytes) == "9.22337e+18 B");
  CHECK(format_quantity(9223372036854775807.0, Dim::Count) == "9.22337e+18");
}

TEST_CASE("units: the schema pattern accepts what the parser accepts", "[unit]") {
  struct Case { const char* text; Dim d; };
  for (Case c : {Case{"8 KiB", Dim::Bytes}, {"4 kB", Dim::Bytes}, {"1.5us", Dim::Time}, {"3e2 ns", Dim::Time},
                 {"5 GB/s", Dim::Rate}, {"5 GB", Dim::Rate}, {"0x10 B", Dim::Bytes}, {"12", Dim::Count},
                 {"-2 us", Dim::Time}, {"8 KiB ", Dim::Bytes}, {".5 MiB", Dim::Bytes}}) {
    bool parses = true;
    try {
      (void)parse_quantity(c.text, c.d);
    } catch (const std::invalid_argument&) {
      parses = false;
    }
    INFO(c.text << " " << quantity_pattern(c.d));
    CHECK(std::regex_search(c.text, std::regex(quantity_pattern(c.d))) == parses);
  }
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
  // a misspelling keeps at least one of the key's letters: 'foo' is not 'flat' (3 edits), 'ompi' is 'openmpi' (3)
  CHECK(did_you_mean("foo", {"flat", "torus"}).empty());
  CHECK(did_you_mean("ompi", {"openmpi", "native"}) == "openmpi");
  CHECK(did_you_mean("tours", {"flat", "torus"}) == "torus");
  CHECK(did_you_mean("runn", {"run", "sweep"}) == "run");
  CHECK(did_you_mean("ob", {"ob1", "cm"}) == "ob1");
  // the same name in other letter case, however many letters differ: 'OpenMPI' is 'openmpi' (4 edits)
  CHECK(did_you_mean("OpenMPI", {"openmpi", "native"}) == "openmpi");
  CHECK(did_you_mean("SimGrid", {"simgrid", "fluid"}) == "simgrid");
  // a part of a name: its beginning or its last parts, up to three names; too short a key or too many names, none
  CHECK(did_you_mean("smsg_limit", {"btl_ugni_smsg_limit", "btl_ugni_eager_limit"}) == "btl_ugni_smsg_limit");
  CHECK(did_you_mean("hetero", {"hetero-cpu", "heterogeneous", "cielo"}) == "hetero-cpu' or 'heterogeneous");
  CHECK(did_you_mean("msg_limit", {"btl_ugni_smsg_limit"}).empty());  // not a whole part
  CHECK(did_you_mean("fig5_lat", {"fig5_latency_2p_a", "fig5_latency_2p_b", "fig5_latency_2p_c", "fig5_latency_2p_d"}).empty());
  CHECK(did_you_mean("fig5_lat", {"fig5_latency_2p_a", "fig5_latency_2p_b"}) == "fig5_latency_2p_a' or 'fig5_latency_2p_b");
}

// Configuration: an object whose required key is misspelled ("benchmrak" for "benchmark"), and one where it is absent.
// Expected: InputError naming the required key; the misspelling is named when a key of the object is close to it.
// How validated: the error's key and text.
TEST_CASE("strict JSON: a misspelled required key is named, not only reported missing", "[unit]") {
  Json j = Json::parse(R"({"ranks": 2, "benchmrak": {}})");
  ObjectReader r(j, "s.json", "");
  try {
    (void)r.object("benchmark");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.key() == "benchmark");
    CHECK_THAT(e.what(), Catch::Contains("required key is missing (is 'benchmrak' a misspelling of it?)"));
  }
  Json k = Json::parse(R"({"ranks": 2})");
  ObjectReader q(k, "s.json", "");
  (void)q.integer("ranks", 1, 10);
  try {
    (void)q.str("machine");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.key() == "machine");
    CHECK_THAT(e.what(), Catch::Contains("required key is missing") && !Catch::Contains("misspelling"));
  }
}

// Configuration: the shipped machine files. Expected: every physical parameter has a value and a source or fit.
TEST_CASE("machines: every parameter is sourced", "[unit]") {
  for (auto& [name, file] : list_machines()) {
    auto m = load_machine(name);
    for (auto& r : m->physical_params()) {
      INFO(name << " " << r.info.name);
      CHECK(r.p->set);
      CHECK_FALSE(r.p->source.empty());
      CHECK(r.p->source != plain_value_source(file));  // a shipped file gives a source for every value
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

// Loads a machine-file section (JSON text, as file `file` at key `section`) into the parameter block p.
template <class P>
void load_section(P& p, const char* text, const char* file, const char* section) {
  Json j = Json::parse(text);
  ObjectReader r(j, file, section);
  ParamList l = param_list(p);
  load_sourced(r, l, true);
}

TEST_CASE("params: an estimate's range is read and checked", "[unit]") {
  OneTime p;
  auto load = [&](const char* text) { load_section(p, text, "m.json", ""); };
  load(R"({"a": {"value": "2 us", "source": "estimate: x", "range": ["1 us", "4 us"], "range_source": "factor 2"}})");
  CHECK(p.a.ranged);
  CHECK(p.a.range_lo == Approx(1e-6));
  CHECK(p.a.range_hi == Approx(4e-6));
  CHECK(p.a.range_source == "factor 2");
  load(R"({"a": {"value": "2 us", "source": "paper"}})");
  CHECK_FALSE(p.a.ranged);
  CHECK_THROWS_WITH(load(R"({"a": {"value": "5 us", "source": "e", "range": ["1 us", "4 us"], "range_source": "r"}})"),
                    Catch::Contains("does not contain the value 5 us (a range is the uncertainty of the value") &&
                        Catch::Contains("or remove \"range\" and \"range_source\")"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "2 us", "source": "e", "range": ["1 us", "4 us"]}})"),
                    Catch::Contains("range_source"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "2 us", "source": "e", "range": ["1 us"], "range_source": "r"}})"),
                    Catch::Contains("[low, high]"));
}

// Configuration: a parameter entry with a misspelt key: "sorce" for "source", "valeu" for "value", then an unknown key
// beside a correct entry. Expected: each is reported as the unknown key with the name it is close to, not as a missing
// source or value. How validated: the exception texts. Fails when the entry's keys are checked after its source.
TEST_CASE("params: a misspelt key of a parameter entry is named as such", "[unit]") {
  OneTime p;
  auto load = [&](const char* text) { load_section(p, text, "m.json", ""); };
  CHECK_THROWS_WITH(load(R"({"a": {"value": "2 us", "sorce": "paper"}})"),
                    Catch::Contains("a.sorce") && Catch::Contains("unknown key (did you mean 'source'?)"));
  CHECK_THROWS_WITH(load(R"({"a": {"valeu": "2 us", "source": "paper"}})"),
                    Catch::Contains("a.valeu") && Catch::Contains("did you mean 'value'?"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "2 us", "source": "paper", "colour": "red"}})"),
                    Catch::Contains("a.colour") && Catch::Contains("unknown key"));
  load(R"({"a": {"value": "2 us", "source": "paper", "note": "n"}})");
  CHECK(p.a.value == Approx(2e-6));
}

// Configuration: a fitted parameter with a prior (the value its source gives, with a range), then bad priors.
// Expected: the prior is accepted (calibrate reads it); a prior on a parameter that is not fitted, a range not holding the prior, an unknown key
// in it are InputErrors naming the key. How validated: the loaded fields, the exception texts.
TEST_CASE("params: a fitted parameter's prior is read and checked", "[unit]") {
  OneTime p;
  auto load = [&](const char* text) { load_section(p, text, "m.json", ""); };
  load(R"({"a": {"value": "3 us", "fit": "f", "prior": {"value": "2 us", "range": ["1 us", "4 us"], "source": "s"}}})");
  CHECK(p.a.fitted);
  CHECK(p.a.value == Approx(3e-6));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "3 us", "source": "e", "prior": {"value": "2 us", "range": ["1 us", "4 us"], "source": "s"}}})"),
                    Catch::Contains("only a fitted parameter"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "3 us", "fit": "f", "prior": {"value": "5 us", "range": ["1 us", "4 us"], "source": "s"}}})"),
                    Catch::Contains("must hold the prior"));
  CHECK_THROWS_WITH(load(R"({"a": {"value": "3 us", "fit": "f", "prior": {"value": "2 us", "range": ["1 us", "4 us"], "source": "s", "x": 1}}})"),
                    Catch::Contains("prior.x"));
}

// Configuration: a machine-file section giving plain values: a rate as "8 GB/s", a size as a bare integer, a choice by
// name; then a time as a bare number, and a size out of range. Expected: plain values read as {"value": ...} with the
// source "<file name> (plain value, no source given)"; the unitless time and the out-of-range size are InputErrors
// naming the file and key. How validated: loaded values and sources, the exception texts.
namespace {
struct Plain {
  Sourced rate, size, mode, time;
  template <class V>
  void visit(V&& v) {
    v(rate, {"rate", Dim::Rate, "a rate", 0, 1e12});
    v(size, {"size", Dim::Bytes, "a size", 0, 65536});
    v(mode, {"mode", Dim::Count, "a choice", 0, 1, {"read", "write"}});
    v(time, {"time", Dim::Time, "a time", 0, 1});
  }
};
}  // namespace

TEST_CASE("params: plain values in a machine file", "[unit]") {
  Plain p;
  auto load = [&](const char* text) { load_section(p, text, "models/x/machines/mine.json", "nic"); };
  load(R"({"rate": "8 GB/s", "size": 1024, "mode": "write", "time": {"value": "2 us", "source": "datasheet"}})");
  CHECK(p.rate.value == 8e9);
  CHECK(p.rate.source == "mine.json (plain value, no source given)");
  CHECK(p.rate.source == plain_value_source("models/x/machines/mine.json"));
  CHECK(p.size.value == 1024);
  CHECK(p.mode.value == 1);
  CHECK(p.time.source == "datasheet");
  CHECK_FALSE(p.rate.fitted);
  CHECK_THROWS_WITH(load(R"({"rate": "8 GB/s", "size": 1024, "mode": "read", "time": 2})"),
                    Catch::Contains("mine.json: key 'nic.time'") && Catch::Contains("with its unit"));
  CHECK_THROWS_WITH(load(R"({"rate": "8 GB/s", "size": "128 KiB", "mode": "read", "time": "1 us"})"),
                    Catch::Contains("key 'nic.size'") && Catch::Contains("out of range"));
  CHECK_THROWS_WITH(load(R"({"rate": 8, "size": 1, "mode": "read", "time": "1 us"})"),
                    Catch::Contains("key 'nic.rate'") && Catch::Contains("with its unit"));
}
