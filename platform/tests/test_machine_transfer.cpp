// Transferred parameters: a machine file entry {"transferred_from": {"machine", "key", "scale", "scale_source"}} takes
// its value from another machine's parameter when the machine is loaded, so a refit of the source cannot leave a
// stale copy behind (platform/machine.cpp, "Transferred parameters").
#include "core/errors.hpp"
#include "platform/tests/machine_fixtures.hpp"
#include "runner/registries.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <unistd.h>

using namespace ompisim;
namespace fs = std::filesystem;

namespace {

const Sourced& param(Machine& m, const std::string& name) {
  for (auto& r : m.physical_params())
    if (r.info.name == name) return *r.p;
  FAIL("no parameter " << name << " on " << m.name);
  throw std::logic_error("unreachable");
}

using platform_test::TempMachine;

// red-storm with its btl_portals_overhead replaced by `entry`.
Json red_storm_with(const Json& entry) {
  return Json{{"machine", "transfer-test"},
              {"base", "red-storm"},
              {"networks", {{"seastar", {{"software", {{"btl_portals_overhead", entry}}}}}}}};
}

std::optional<InputError> load_error(const Json& j) {
  TempMachine f("transfer", j);
  try {
    load_machine(f.path);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// The error of loading machine `name` with OMPISIM_DATA = `dir` (restored afterwards; `dir` is removed).
std::optional<InputError> load_error_in(const fs::path& dir, const char* name) {
  const char* old = std::getenv("OMPISIM_DATA");
  std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  setenv("OMPISIM_DATA", dir.string().c_str(), 1);
  std::optional<InputError> err;
  try {
    load_machine(name);
  } catch (const InputError& e) {
    err = e;
  }
  if (saved) setenv("OMPISIM_DATA", saved->c_str(), 1);
  else unsetenv("OMPISIM_DATA");
  fs::remove_all(dir);
  return err;
}

}  // namespace

// Configuration: the machine files as they are. Expected: every parameter red-storm and jaguar-xt4 declare as
// transferred has its source's current value (Cielo's fitted ob1 and MPICH2 costs on Red Storm; Red Storm's on
// Jaguar times the clock ratio 2.4/2.6, an estimate's range scaled with it), and says where it came from. Fails when
// a transferred value is a stale copy of a refitted source.
TEST_CASE("platform/machine: transferred parameters carry their source's current value", "[unit][platform]") {
  auto cielo = load_machine("cielo"), rs = load_machine("red-storm"), jaguar = load_machine("jaguar-xt4");
  CHECK(param(*rs, "software.pml_ob1_overhead").value == param(*cielo, "software.pml_ob1_overhead").value);
  CHECK(param(*rs, "software.mpich_overhead").value == param(*cielo, "software.mpich_sw_overhead").value);
  CHECK_THAT(param(*rs, "software.pml_ob1_overhead").source, Catch::Contains("cielo"));
  CHECK_FALSE(param(*rs, "software.pml_ob1_overhead").fitted);  // fitted on Cielo, not a free parameter here
  const double ratio = 2.4 / 2.6;
  for (const char* p : {"software.pml_cm_overhead", "software.pml_ob1_overhead", "software.btl_portals_overhead",
                        "software.mpich_overhead"}) {
    INFO(p);
    CHECK(param(*jaguar, p).value == Approx(param(*rs, p).value * ratio).epsilon(1e-8));
    CHECK_FALSE(param(*jaguar, p).fitted);
  }
  const Sourced& rb = param(*rs, "software.btl_portals_overhead");
  const Sourced& jb = param(*jaguar, "software.btl_portals_overhead");
  REQUIRE(rb.ranged);
  REQUIRE(jb.ranged);
  CHECK(jb.range_lo == Approx(rb.range_lo * ratio).epsilon(1e-8));
  CHECK(jb.range_hi == Approx(rb.range_hi * ratio).epsilon(1e-8));
}

// Configuration: every machine file under models/*/machines/, read as JSON. Expected: an entry whose status is
// "transferred" names its source with "transferred_from" and holds no value of its own (a declared transfer that is a
// copy would go stale silently).
TEST_CASE("platform/machine: a parameter declared transferred is a transfer, not a copy", "[unit][platform]") {
  int transfers = 0;
  std::function<void(const Json&, const std::string&, const std::string&)> walk = [&](const Json& j, const std::string& file,
                                                                                      const std::string& path) {
    if (!j.is_object()) return;
    if (j.contains("status") && j["status"] == "transferred") {
      INFO(file << " " << path);
      CHECK(j.contains("transferred_from"));
      CHECK_FALSE(j.contains("value"));
      ++transfers;
      return;
    }
    for (auto it = j.begin(); it != j.end(); ++it) walk(it.value(), file, path + "." + it.key());
  };
  for (auto& [name, file] : list_machines()) walk(load_json_file(file), file, name);
  CHECK(transfers >= 6);  // red-storm 2, jaguar-xt4 4
}

// Configuration: red-storm with btl_portals_overhead transferred from Cielo's pml_ob1_overhead at half scale, then
// the bad forms. Expected: the value resolves to the source's times the scale; every bad form is an InputError naming
// the file and the key (unknown machine, unknown key, a value kept beside the transfer, a scale without a reason, a
// transfer from the machine itself).
TEST_CASE("platform/machine: transfers resolve with their scale, and bad ones name file and key", "[unit][platform]") {
  auto cielo = load_machine("cielo");
  const double ob1 = param(*cielo, "software.pml_ob1_overhead").value;
  Json good{{"transferred_from", {{"machine", "cielo"}, {"key", "networks.gemini.software.pml_ob1_overhead"},
                                  {"scale", "1/2"}, {"scale_source", "test"}}},
            {"source", "test"}};
  {
    TempMachine f("transfer", red_storm_with(good));
    auto m = load_machine(f.path);
    CHECK(param(*m, "software.btl_portals_overhead").value == Approx(ob1 / 2).epsilon(1e-8));
  }
  auto expect = [](Json tf_or_entry, const std::string& key_suffix, const std::string& reason_part) {
    auto e = load_error(red_storm_with(tf_or_entry));
    REQUIRE(e.has_value());
    INFO(e->what());
    CHECK_THAT(e->file(), Catch::Contains("transfer-"));
    CHECK_THAT(e->key(), Catch::EndsWith(key_suffix));
    CHECK_THAT(e->reason(), Catch::Contains(reason_part));
  };
  Json bad = good;
  bad["transferred_from"]["machine"] = "no-such-machine";
  expect(bad, "btl_portals_overhead.transferred_from.machine", "no-such-machine");
  bad = good;
  bad["transferred_from"]["key"] = "software.no_such_cost";
  expect(bad, "btl_portals_overhead.transferred_from.key", "no_such_cost");
  bad = good;
  bad["value"] = "0.1 us";
  expect(bad, "btl_portals_overhead.value", "stale");
  bad = good;
  bad["transferred_from"].erase("scale_source");
  expect(bad, "btl_portals_overhead.transferred_from.scale_source", "reason");
  bad = good;
  bad["transferred_from"]["machine"] = "transfer-test";
  expect(bad, "btl_portals_overhead.transferred_from.machine", "cycle");
  bad = good;
  bad["transferred_from"]["scale"] = "-1";
  expect(bad, "btl_portals_overhead.transferred_from.scale", "positive");
}

// Configuration: a data directory (OMPISIM_DATA) with two machines whose parameters are transferred from each other.
// Expected: loading either is an InputError that names the cycle, not an endless recursion.
TEST_CASE("platform/machine: a transfer cycle between machines is refused", "[unit][platform]") {
  fs::path dir = fs::temp_directory_path() / ("transfer-cycle-" + std::to_string(getpid()));
  fs::create_directories(dir / "models" / "t" / "machines");
  auto write = [&](const char* name, const char* other) {
    Json j;
    j["machine"] = name;
    j["networks"]["n"]["software"]["x"]["transferred_from"] = Json{{"machine", other}, {"key", "software.x"}};
    std::ofstream((dir / "models" / "t" / "machines" / (std::string(name) + ".json")).string()) << j.dump(2);
  };
  write("cyc-a", "cyc-b");
  write("cyc-b", "cyc-a");
  std::optional<InputError> err = load_error_in(dir, "cyc-a");
  REQUIRE(err.has_value());
  INFO(err->what());
  CHECK_THAT(err->reason(), Catch::Contains("cyc-a -> cyc-b -> cyc-a"));
  CHECK_THAT(err->key(), Catch::EndsWith("transferred_from.machine"));
}

// Configuration: a data directory where machine "deep-top" transfers x from "deep-s", whose own transfers chain
// through six more machines (deep-c1 .. deep-c6: 8 machines in all, the bound), and y from deep-a1 -> deep-a2 ->
// deep-s (10 machines). A load reads and resolves deep-s once and reuses it for y.
// Expected: the reuse does not hide the longer path: an InputError naming the depth bound where y's chain reaches
// the reused machine (deep-a2's entry).
TEST_CASE("platform/machine: a source resolved once still counts its chain on a longer path", "[unit][platform]") {
  fs::path dir = fs::temp_directory_path() / ("transfer-deep-" + std::to_string(getpid()));
  fs::create_directories(dir / "models" / "t" / "machines");
  auto write = [&](const std::string& name, const Json& software) {
    Json j;
    j["machine"] = name;
    j["networks"]["n"]["software"] = software;
    std::ofstream((dir / "models" / "t" / "machines" / (name + ".json")).string()) << j.dump(2);
  };
  auto from = [](const std::string& m, const char* key) {
    return Json{{"transferred_from", {{"machine", m}, {"key", key}}}};
  };
  write("deep-top", Json{{"x", from("deep-s", "software.x")}, {"y", from("deep-a1", "software.x")}});
  write("deep-a1", Json{{"x", from("deep-a2", "software.x")}});
  write("deep-a2", Json{{"x", from("deep-s", "software.x")}});
  write("deep-s", Json{{"x", from("deep-c1", "software.x")}});
  for (int i = 1; i <= 5; ++i)
    write("deep-c" + std::to_string(i), Json{{"x", from("deep-c" + std::to_string(i + 1), "software.x")}});
  write("deep-c6", Json{{"x", {{"value", "1 us"}, {"source", "test"}}}});
  std::optional<InputError> err = load_error_in(dir, "deep-top");
  REQUIRE(err.has_value());
  INFO(err->what());
  CHECK_THAT(err->reason(), Catch::Contains("more than 8 machines"));
  CHECK_THAT(err->reason(), Catch::Contains("deep-top -> deep-a1 -> deep-a2 -> deep-s"));
  CHECK_THAT(err->file(), Catch::EndsWith("deep-a2.json"));
}

// Configuration: a data directory (OMPISIM_DATA) without any machine file, as a binary copied away from its data
// sees. Expected: loading a machine by name is an InputError that says where machines were looked for, not an empty
// "known:" list.
TEST_CASE("platform/machine: an empty data folder is named in the unknown-machine error", "[unit][platform]") {
  fs::path dir = fs::temp_directory_path() / ("no-machines-" + std::to_string(getpid()));
  fs::create_directories(dir / "models");
  std::optional<InputError> err = load_error_in(dir, "frontier");
  REQUIRE(err.has_value());
  INFO(err->what());
  CHECK_THAT(err->reason(), Catch::Contains("no machine file found under " + (dir / "models").lexically_normal().string()));
  CHECK_THAT(err->reason(), !Catch::Contains("known:"));
}
