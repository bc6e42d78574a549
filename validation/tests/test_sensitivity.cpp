// ompisim sensitivity.
#include "core/atomic_write.hpp"
#include "validation/sensitivity.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <unistd.h>

using namespace ompisim;

// Configuration: osu_latency on the loggp reference machine (L = 1 us, o = 0.5 us, G = 1 GB/s, O = 100 GB/s) at 1 B
// and 32 KiB (eager). Expected: the closed form 2o + L + max((s-1)O, (s-1)G) gives the normalised derivatives
// S_L = L / t, S_o = 2o / t, S_G_bandwidth = -(s-1)G / t, S_O_bandwidth = 0 (O is below G); the parameters come sorted by
// their largest |S| (G_bandwidth first: 0.94 at 32 KiB), and g and S, which do not enter, have S = 0.
// How validated: each derivative within 1e-3 of the closed form.
TEST_CASE("sensitivity: normalised derivatives match the LogGOPS closed form, sorted", "[validation]") {
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
