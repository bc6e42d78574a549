#include "validation/plot.hpp"
#include "validation/sweep_plot.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <map>
#include <unistd.h>
#include <optional>
#include <vector>

using namespace ompisim::validation;
using ompisim::Json;

namespace {
// A sweep table drawn into a temporary folder (removed after): the files written, each with its SVG text, and the
// reasons for those not drawn.
struct Drawn {
  std::map<std::string, std::string> svgs;  // file -> text
  std::vector<std::string> why;
};
Drawn draw_in_temp(const Json& t, const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ompisim_sweep_{}_{}", tag, ::getpid());
  std::filesystem::create_directories(dir);
  Drawn d;
  for (const auto& f : draw_sweep(t, dir.string(), &d.why)) {
    std::ifstream in(dir / f);
    d.svgs[f].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::remove_all(dir);
  return d;
}
// No plot where gnuplot is missing: said as the one reason, and the test has nothing more to check.
bool skipped_without_gnuplot(const Drawn& d) {
  if (!d.svgs.empty()) return false;
  WARN("no plot drawn: " << (d.why.empty() ? std::string("?") : d.why.front()));
  REQUIRE(d.why.size() == 1);
  CHECK(d.why.front().find("gnuplot") != std::string::npos);
  return true;
}
}  // namespace

// Configuration: a sweep axis's values: four rates (4, 4.74, 6, 8 GB/s), radices 2..32, stack names (no numbers),
//                numbers out of grid order, one value, ranks of which two are within 2 % of the span.
// Expected:      rates at their values (linear: 8 / 4 is under 4), radices at log10 (32 / 2 at least 4), the rest at
//                0, 1, 2 in grid order (so are values that would overlap); the x range half the mean spacing beyond
//                each end.
// How validated: sweep_x_positions and sweep_x_range.
TEST_CASE("sweep plots place a quantity axis's values at their numbers, others in grid order") {
  using V = std::vector<std::optional<double>>;
  const auto rates = sweep_x_positions(V{4.0, 4.74, 6.0, 8.0});
  CHECK(rates == std::vector<double>{4.0, 4.74, 6.0, 8.0});
  const auto [lo, hi] = sweep_x_range(rates);
  CHECK(lo == Approx(4.0 - 0.5 * 4.0 / 3));
  CHECK(hi == Approx(8.0 + 0.5 * 4.0 / 3));
  const auto radix = sweep_x_positions(V{2.0, 4.0, 8.0, 16.0, 32.0});
  REQUIRE(radix.size() == 5);
  for (std::size_t i = 0; i < radix.size(); ++i) CHECK(radix[i] == Approx(std::log10(2.0) * static_cast<double>(i + 1)));
  const auto r248 = sweep_x_positions(V{2.0, 4.0, 8.0});  // 8 / 2 = 4: log, evenly spaced
  CHECK(r248[1] - r248[0] == Approx(r248[2] - r248[1]));
  CHECK(sweep_x_positions(V{std::nullopt, std::nullopt}) == std::vector<double>{0.0, 1.0});
  CHECK(sweep_x_positions(V{8.0, 4.0, 6.0}) == std::vector<double>{0.0, 1.0, 2.0});
  CHECK(sweep_x_positions(V{4.0, std::nullopt}) == std::vector<double>{0.0, 1.0});
  CHECK(sweep_x_positions(V{5.0}) == std::vector<double>{0.0});
  // ranks either side of btl/ugni's automatic SMSG limit's steps: 1024 and 1026 would share one label's place
  CHECK(sweep_x_positions(V{1024.0, 1026.0, 2048.0, 16384.0, 16386.0}) == std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0});
  CHECK(sweep_x_range({0.0}) == std::pair<double, double>{-0.5, 0.5});
  CHECK(sweep_x_range({0.0, 1.0, 2.0}) == std::pair<double, double>{-0.5, 2.5});
}

// Configuration: a sweep table over mca.btl_ugni_smsg_limit 0, 256 and 4096 B whose 0 ran as 1 KiB (the column
//                "btl_ugni_smsg_limit (effective)", as runner/sweep.cpp writes it), latency at two message sizes.
// Expected:      the plot names the 0 with what ran ("0 B, ran 1 KiB") instead of drawing it at 0 bytes; the values
//                that ran as given keep their own labels.
// How validated: draw_sweep into a temporary folder (gnuplot, skipped where it is missing) and the SVG's text.
TEST_CASE("a sweep plot names an MCA value that ran as another with what ran") {
  const Json t = Json::parse(R"J({
    "axes": ["mca.btl_ugni_smsg_limit"],
    "columns": ["mca.btl_ugni_smsg_limit", "btl_ugni_smsg_limit (effective)", "bytes", "latency_us", "point"],
    "units": {"mca.btl_ugni_smsg_limit": "B", "btl_ugni_smsg_limit (effective)": "B"},
    "rows": [
      {"mca.btl_ugni_smsg_limit": 0, "btl_ugni_smsg_limit (effective)": 1024, "bytes": 512, "latency_us": 2.0, "point": "a"},
      {"mca.btl_ugni_smsg_limit": 0, "btl_ugni_smsg_limit (effective)": 1024, "bytes": 2048, "latency_us": 4.0, "point": "a"},
      {"mca.btl_ugni_smsg_limit": 256, "btl_ugni_smsg_limit (effective)": 256, "bytes": 512, "latency_us": 3.0, "point": "b"},
      {"mca.btl_ugni_smsg_limit": 256, "btl_ugni_smsg_limit (effective)": 256, "bytes": 2048, "latency_us": 4.5, "point": "b"},
      {"mca.btl_ugni_smsg_limit": 4096, "btl_ugni_smsg_limit (effective)": 4096, "bytes": 512, "latency_us": 2.0, "point": "c"},
      {"mca.btl_ugni_smsg_limit": 4096, "btl_ugni_smsg_limit (effective)": 4096, "bytes": 2048, "latency_us": 3.0, "point": "c"}]})J");
  const Drawn d = draw_in_temp(t, "auto");
  if (skipped_without_gnuplot(d)) return;  // gnuplot missing is the one reason this table may give
  const std::string& svg = d.svgs.begin()->second;
  CHECK(svg.find("0 B, ran 1 KiB") != std::string::npos);
  CHECK(svg.find(">256 B<") != std::string::npos);
  CHECK(svg.find(">4 KiB<") != std::string::npos);
}

// Configuration: a sweep table of a trace replay over nic.bte_bandwidth: rows of different kinds (the total, a
//                collective, per-rank rows), their "bytes" a total, a collective's bytes or null.
// Expected:      no plot (they are no curve over a message size: a plot labelled the rows "message size 9856 KiB"
//                and "bytes null" and joined rank rows into one line), and the reason says why.
// How validated: draw_sweep's list of files written and its reasons.
TEST_CASE("a sweep of rows of different kinds draws no plot and says why") {
  const Json t = Json::parse(R"J({
    "axes": ["nic.bte_bandwidth"], "columns": ["nic.bte_bandwidth", "row", "name", "rank", "bytes", "time_s", "point"],
    "units": {"nic.bte_bandwidth": "GB/s"},
    "rows": [
      {"nic.bte_bandwidth": 4, "row": "total", "name": "replay", "rank": null, "bytes": 10092544, "time_s": 0.5, "point": "a"},
      {"nic.bte_bandwidth": 4, "row": "collective", "name": "allreduce", "rank": null, "bytes": 1024, "time_s": 1e-5, "point": "a"},
      {"nic.bte_bandwidth": 4, "row": "rank", "name": "0", "rank": 0, "bytes": null, "time_s": 0.5, "point": "a"},
      {"nic.bte_bandwidth": 8, "row": "total", "name": "replay", "rank": null, "bytes": 10092544, "time_s": 0.4, "point": "b"},
      {"nic.bte_bandwidth": 8, "row": "collective", "name": "allreduce", "rank": null, "bytes": 1024, "time_s": 1e-5, "point": "b"},
      {"nic.bte_bandwidth": 8, "row": "rank", "name": "0", "rank": 0, "bytes": null, "time_s": 0.4, "point": "b"}]})J");
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ompisim_sweep_rows_{}", ::getpid());
  std::filesystem::create_directories(dir);
  std::vector<std::string> why;
  const auto wrote = draw_sweep(t, dir.string(), &why);
  std::filesystem::remove_all(dir);
  CHECK(wrote.empty());
  REQUIRE(why.size() == 1);
  CHECK((why.front().find("rows of different kinds") != std::string::npos || why.front().find("gnuplot") != std::string::npos));
}

namespace {
// The x of the SVG text `label` (gnuplot writes each tic label as a group translated to its place), or -1.
double label_x(const std::string& svg, const std::string& label) {
  const auto at = svg.find("<text>" + label + "</text>");
  if (at == std::string::npos) return -1;
  const auto g = svg.rfind("translate(", at);
  return g == std::string::npos ? -1 : std::stod(svg.substr(g + 10));
}
}  // namespace

// Configuration: a `points` grid's table over mca.btl_ugni_get_limit whose rows meet the default, 512 KiB, before
//                the 0 B a later point sets (two points at 512 KiB: eager limits 8 and 257 KiB).
// Expected:      the axis reads left to right in its values' order: 0 B left of 512 KiB.
// How validated: draw_sweep into a temporary folder (gnuplot, skipped where it is missing), the tic labels' places.
TEST_CASE("a sweep plot orders a quantity axis by value whatever order the grid's rows give") {
  const Json t = Json::parse(R"J({
    "axes": ["mca.btl_ugni_eager_limit", "mca.btl_ugni_get_limit"],
    "columns": ["mca.btl_ugni_eager_limit", "mca.btl_ugni_get_limit", "bytes", "latency_us", "point"],
    "units": {"mca.btl_ugni_eager_limit": "B", "mca.btl_ugni_get_limit": "B"},
    "rows": [
      {"mca.btl_ugni_eager_limit": 8192, "mca.btl_ugni_get_limit": 524288, "bytes": 16384, "latency_us": 9.1, "point": "a"},
      {"mca.btl_ugni_eager_limit": 8192, "mca.btl_ugni_get_limit": 524288, "bytes": 65536, "latency_us": 19.0, "point": "a"},
      {"mca.btl_ugni_eager_limit": 263168, "mca.btl_ugni_get_limit": 524288, "bytes": 16384, "latency_us": 10.9, "point": "b"},
      {"mca.btl_ugni_eager_limit": 263168, "mca.btl_ugni_get_limit": 524288, "bytes": 65536, "latency_us": 31.0, "point": "b"},
      {"mca.btl_ugni_eager_limit": 8192, "mca.btl_ugni_get_limit": 0, "bytes": 16384, "latency_us": 10.9, "point": "c"},
      {"mca.btl_ugni_eager_limit": 8192, "mca.btl_ugni_get_limit": 0, "bytes": 65536, "latency_us": 21.0, "point": "c"}]})J");
  const Drawn d = draw_in_temp(t, "order");
  if (skipped_without_gnuplot(d)) return;
  REQUIRE(d.svgs.count("sweep_mca_btl_ugni_get_limit.svg"));
  const std::string& svg = d.svgs.at("sweep_mca_btl_ugni_get_limit.svg");
  const double zero = label_x(svg, "0 B"), big = label_x(svg, "512 KiB");
  REQUIRE(zero > 0);
  REQUIRE(big > 0);
  CHECK(zero < big);
}

// Configuration: gnuplot text built from a file's words: a line with a quote, a backslash and `backquotes`; a sweep
//                table whose metric column (the plot's title) is named "x`touch <file>`", as a crafted point file
//                could name it.
// Expected:      each line single-quoted, joined by "\n"; the plot drawn (or gnuplot missing) and the file never
//                created: nothing in a title runs as a shell command.
// How validated: gp_quote_lines' text; draw_sweep into a temporary folder, then the file's absence.
TEST_CASE("gnuplot text from input is single-quoted: a backquoted column name runs nothing") {
  CHECK(gp_quote_lines({"a 'b' \\ `c`", "d"}) == "'a ''b'' \\ `c`'.\"\\n\".'d'");
  CHECK(gp_quote_lines({}) == "''");
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ompisim_sweep_quote_{}", ::getpid());
  std::filesystem::create_directories(dir);
  const auto pwned = dir / "PWNED";
  const std::string col = "x`touch " + pwned.string() + "`";
  Json t = Json::parse(R"J({"axes": ["benchmark.iterations"], "units": {}, "rows": []})J");
  t["columns"] = {"benchmark.iterations", "bytes", col, "point"};
  for (int it : {1, 2})
    for (int bytes : {1, 8}) t["rows"].push_back({{"benchmark.iterations", it}, {"bytes", bytes}, {col, 1.0 + it * bytes}, {"point", "p"}});
  std::vector<std::string> why;
  const auto wrote = draw_sweep(t, dir.string(), &why);
  const bool ran = std::filesystem::exists(pwned);
  std::filesystem::remove_all(dir);
  CHECK_FALSE(ran);
  CHECK((!wrote.empty() || (!why.empty() && why.front().find("gnuplot") != std::string::npos)));
}
