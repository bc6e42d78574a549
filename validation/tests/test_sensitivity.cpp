// ompisim sensitivity.
#include "core/atomic_write.hpp"
#include "runner/isolate.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "validation/sensitivity.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <unistd.h>

using namespace ompisim;

// Configuration: osu_latency on the loggp reference machine (L = 1 us, o = 0.5 us, G = 1 GB/s, O = 100 GB/s) at 1 B
// and 32 KiB (eager). Expected: the closed form 2o + L + max((s-1)O, (s-1)G) gives the normalised derivatives
// S_L = L / t, S_o = 2o / t, S_G_bandwidth = -(s-1)G / t, S_O_bandwidth = 0 (O is below G); the parameters come sorted by
// their largest |S| (G_bandwidth first: 0.94 at 32 KiB), and g and S, which do not enter, have S = 0.
// How validated: each derivative within 1e-3 of the closed form.
TEST_CASE("sensitivity: normalised derivatives match the LogGOPS closed form, sorted", "[validation][sensitivity]") {
  auto dir = std::filesystem::temp_directory_path() / ("ompisim-test-sensitivity-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string f = (dir / "lat.json").string();
  write_file_atomic(f, R"({"id": "lat", "machine": "loggp", "stack": "loggp", "engine": "des",
    "benchmark": {"name": "osu_latency", "sizes": [1, 32768], "iterations": 4, "skip": 1}, "ranks": 2,
    "ranks_per_node": 1})");
  Json s = validation::sensitivity(f);
  std::filesystem::remove_all(dir);
  auto find = [&](const std::string& n) {
    for (auto& p : s["parameters"])
      if (p["name"].get<std::string>().ends_with(n)) return p["derivatives"];
    FAIL("no parameter " << n);
    return Json();
  };
  const double o = 0.5, L = 1.0, big = 32767 / 1e3;  // us
  const double t1 = 2 * o + L, t2 = 2 * o + L + big;
  CHECK(find(".L")[0].get<double>() == Approx(L / t1).margin(1e-3));
  CHECK(find(".L")[1].get<double>() == Approx(L / t2).margin(1e-3));
  CHECK(find(".o")[0].get<double>() == Approx(2 * o / t1).margin(1e-3));
  CHECK(find(".G_bandwidth")[1].get<double>() == Approx(-big / t2).margin(1e-3));
  CHECK(find(".O_bandwidth")[1].get<double>() == Approx(0).margin(1e-6));
  CHECK(find(".g")[1].get<double>() == Approx(0).margin(1e-6));
  CHECK(s["parameters"][0]["name"].get<std::string>().ends_with("G_bandwidth"));
  for (std::size_t i = 1; i < s["parameters"].size(); ++i)
    CHECK(s["parameters"][i - 1]["max_abs"].get<double>() >= s["parameters"][i]["max_abs"].get<double>());
  // the table's columns line up: each row's name and max|S| take the same width, under the header's
  const std::string text = validation::render_sensitivity(s);
  CHECK_THAT(text, Catch::Contains("G_bandwidth"));
  std::istringstream lines(text);
  std::size_t header_end = 0, rows = 0;
  for (std::string l; std::getline(lines, l);) {
    if (l.starts_with("# parameter")) header_end = l.find("max|S|") + 6;
    if (l.empty() || l[0] == '#') continue;
    ++rows;
    const std::size_t first = std::min(l.find(" +"), l.find(" -"));
    CHECK(first == header_end);
    if (l.find("G_bandwidth") != std::string::npos) CHECK(l.substr(first - 6, 5) == " 0.94");
  }
  CHECK(rows == s["parameters"].size());
}

namespace {
// osu_latency at 1 B and 31 B on the loggp machine with its rendezvous threshold S at 30 B (a machine file extending
// loggp): 31 B goes eager when S reaches 31 B, by rendezvous below. Written into a fresh folder, removed at the end.
struct SmallThreshold {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ompisim-test-sens-S-" + std::to_string(::getpid()));
  std::string scenario = (dir / "lat.json").string(), machine = (dir / "loggp_s30.json").string();
  SmallThreshold() {
    std::filesystem::create_directories(dir);
    write_file_atomic(machine, R"({"base": "loggp", "machine": "loggp", "networks": {"loggp": {"nic":
      {"S": {"value": "30 B", "source": "test: a threshold of a few bytes"}}}}})");
    write_file_atomic(scenario, R"({"id": "lat", "machine": "loggp", "stack": "loggp", "engine": "des",
      "benchmark": {"name": "osu_latency", "sizes": [1, 31], "iterations": 4, "skip": 1}, "ranks": 2,
      "ranks_per_node": 1})");
  }
  ~SmallThreshold() { std::filesystem::remove_all(dir); }
  // The latency at 31 B of a run with nic.S set to `text`, in a child process as sensitivity runs it.
  double latency_31(const std::string& text) const {
    Scenario s = load_scenario(scenario);
    s.machine_file = machine;
    const Json r = Json::parse(run_isolated([&] { return run_scenario(s, {{"nic.S", text}}).dump(); }));
    return r["points"][1]["latency_us"].get<double>();
  }
};
const Json* row(const Json& list, const std::string& name) {
  for (auto& p : list)
    if (p["name"].get<std::string>() == name) return &p;
  return nullptr;
}
}  // namespace

// Configuration: nic.S = 30 B at step 0.01: 30 e^(+-0.01) = 30.30 and 29.70 B, both written as the whole size 30 B.
// Expected: nic.S is not given S = 0 (the runs would not differ because the step vanished, not because the result does
// not depend on it): it is listed under "step_too_small" with its value and step, and the table says so. The time
// parameters, written to the last bit, are varied at any step: at 1e-6 nic.L still has the closed form's L / (2o + L).
// How validated: the JSON's lists and the table's line; nic.L within 1e-6 of 0.5 at 1 B.
TEST_CASE("sensitivity: a size whose rounding swallows the step is reported as such, not as 0", "[validation][sensitivity]") {
  SmallThreshold f;
  const Json s = validation::sensitivity(f.scenario, 0.01, {}, f.machine);
  CHECK(row(s["parameters"], "nic.S") == nullptr);
  const Json too_small = s.value("step_too_small", Json::array());
  const Json* small = row(too_small, "nic.S");
  REQUIRE(small != nullptr);
  CHECK((*small)["reason"].get<std::string>() ==
        "step too small for this parameter's resolution (value 30 B, step 0.01): both runs would get 30 B");
  CHECK_THAT(validation::render_sensitivity(s),
             Catch::Contains("# nic.S: not varied, step too small for this parameter's resolution (value 30 B, step 0.01)"));
  const Json tiny = validation::sensitivity(f.scenario, 1e-6, {}, f.machine);
  const Json* L = row(tiny["parameters"], "nic.L");
  REQUIRE(L != nullptr);
  CHECK((*L)["derivatives"][0].get<double>() == Approx(0.5).margin(1e-6));
  CHECK((*L)["applied_step"].get<double>() == Approx(1e-6).epsilon(1e-9));
}

// Configuration: nic.S = 30 B at step 0.05: 30 e^0.05 = 31.54 and 30 e^-0.05 = 28.54, run as 32 B and 29 B, so the
// applied log step is ln(32 / 29) / 2 = 0.0492, not 0.05. At 31 B the message is eager at 32 B, rendezvous at 29 B.
// Expected: S at 31 B = (ln v(32 B) - ln v(29 B)) / ln(32 / 29), the two latencies from runs made here with those
// overrides; the row records the texts applied and the step they moved by; S at 1 B (eager both ways) is 0.
// How validated: to 1e-12 relative (2h in the denominator would be 1.6 % off).
TEST_CASE("sensitivity: S divides by the log step the applied values moved by", "[validation][sensitivity]") {
  SmallThreshold f;
  const Json s = validation::sensitivity(f.scenario, 0.05, {}, f.machine);
  const Json* S = row(s["parameters"], "nic.S");
  REQUIRE(S != nullptr);
  CHECK((*S)["applied"] == Json::array({"29 B", "32 B"}));
  const double dlnx = std::log(32.0) - std::log(29.0);
  CHECK((*S)["applied_step"].get<double>() == Approx(dlnx / 2).epsilon(1e-12));
  const double up = f.latency_31("32 B"), down = f.latency_31("29 B");
  REQUIRE(up < down);  // eager at 32 B, rendezvous at 29 B
  CHECK((*S)["derivatives"][1].get<double>() == Approx((std::log(up) - std::log(down)) / dlnx).epsilon(1e-12));
  CHECK((*S)["derivatives"][0].get<double>() == 0);
  CHECK_THAT(validation::render_sensitivity(s), Catch::Contains("nic.S +-0.04922"));
}

// Configuration: osu_latency of 64 KiB (an RDMA transfer: flows, whose end dates the completion grid rounds) between
//                two Cielo nodes on the fluid engine, the scenario setting no engine_grid; steps 1e-4 and 1e-2.
// Expected:      the runs use exact dates (exact_dates), so nic.nic_latency's S is the same at both steps; with the
//                default 1 ns grid a 1e-4 step of its 0.595 us (0.06 ns) moved the result by 0 or 1 ns, S by 0 or
//                about 3.
// How validated: S at 1e-4 against S at 1e-2, within 1e-3.
TEST_CASE("sensitivity: a small step is not rounded away by the completion grid", "[validation][sensitivity]") {
  auto dir = std::filesystem::temp_directory_path() / ("ompisim-test-sens-grid-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string f = (dir / "lat.json").string();
  write_file_atomic(f, R"({"id": "lat", "machine": "cielo", "stack": "openmpi", "engine": "fluid",
    "benchmark": {"name": "osu_latency", "sizes": [65536], "iterations": 2, "skip": 0}, "ranks": 2,
    "ranks_per_node": 1})");
  const Json fine = validation::sensitivity(f, 1e-4), coarse = validation::sensitivity(f, 1e-2);
  std::filesystem::remove_all(dir);
  CHECK(fine["exact_dates"] == true);
  const Json* a = row(fine["parameters"], "nic.nic_latency");
  const Json* b = row(coarse["parameters"], "nic.nic_latency");
  REQUIRE((a && b));
  CHECK((*a)["derivatives"][0].get<double>() > 0);
  CHECK((*a)["derivatives"][0].get<double>() == Approx((*b)["derivatives"][0].get<double>()).margin(1e-3));
}
