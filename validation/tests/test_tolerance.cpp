#include "core/errors.hpp"
#include "validation/compare.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace ompisim::validation;

// Configuration: compare's --tolerance texts: fractions, percentages with and without a blank, 0, and the slips a
//                user makes (a percentage without its '%', a negative value, a word).
// Expected:      fractions as given, percentages / 100; a bare number above 1 refused with the percentage it would
//                be and the spelling to use; 200 % or more (which no difference reaches) refused; a negative or
//                unreadable text refused.
// How validated: parse_tolerance's values and the InputError's text.
TEST_CASE("compare --tolerance: a fraction or a percentage; a bare number above 1 is refused as a lost '%'") {
  CHECK(parse_tolerance("0") == 0.0);
  CHECK(parse_tolerance("0.02") == Approx(0.02));
  CHECK(parse_tolerance("1") == Approx(1.0));
  CHECK(parse_tolerance("2%") == Approx(0.02));
  CHECK(parse_tolerance("5 %") == Approx(0.05));
  CHECK(parse_tolerance("150%") == Approx(1.5));
  CHECK(parse_tolerance("1e-6") == Approx(1e-6));
  try {
    (void)parse_tolerance("5");
    FAIL("a bare 5 was accepted");
  } catch (const ompisim::InputError& e) {
    const std::string w = e.what();
    CHECK(w.find("500 %") != std::string::npos);
    CHECK(w.find("'5%'") != std::string::npos);
  }
  // relative to the larger value, a difference is at most 200 %: a tolerance from there on could flag nothing
  CHECK(parse_tolerance("199%") == Approx(1.99));
  try {
    (void)parse_tolerance("500%");
    FAIL("500 % was accepted");
  } catch (const ompisim::InputError& e) {
    CHECK(std::string(e.what()).find("can flag no value") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_tolerance("-1%"), ompisim::InputError);
  CHECK_THROWS_AS(parse_tolerance("1pct"), ompisim::InputError);
  CHECK_THROWS_AS(parse_tolerance(""), ompisim::InputError);
}

// Configuration: two results of osu_allreduce at 8 B and 16 KiB on one machine, of two stacks whose libraries chose
//                other algorithms (A: nonoverlapping, B: recursive_doubling); the same two with one stack on both
//                sides; two stacks whose sizes differ too.
// Expected:      the two stacks' points are paired by size, their latencies compared (10 against 5 us, beyond the
//                tolerance), and a note names both sides' algorithms, no point left on one side; one stack's two
//                algorithms are other points, not paired (one difference: no point in common); other sizes are not
//                paired either.
// How validated: the comparison's rows, notes and problems.
TEST_CASE("compare: two stacks that chose other algorithms are compared size by size") {
  using Json = nlohmann::json;
  auto result = [](const char* stack, const char* algorithm, int first_bytes) {
    return Json{{"stack", stack}, {"machine", "crusher"},
                {"points", {{{"algorithm", algorithm}, {"bytes", first_bytes}, {"latency_us", std::string(algorithm) == "nonoverlapping" ? 10.0 : 5.0}},
                            {{"algorithm", algorithm}, {"bytes", 16384}, {"latency_us", 40.0}}}}};
  };
  Comparison c;
  c.tolerance = 1e-9;
  compare_results(result("openmpi-linkx", "nonoverlapping", 8), result("native", "recursive_doubling", 8), "a.json", c);
  CHECK(c.problems.empty());
  REQUIRE(c.rows.size() == 2);
  CHECK(c.rows[0].point == "bytes=8");
  CHECK(c.rows[0].a == 10.0);
  CHECK(c.rows[0].b == 5.0);
  CHECK(c.beyond() == 1);
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0].find("A: nonoverlapping; B: recursive_doubling") != std::string::npos);
  Comparison same;
  same.tolerance = 1e-9;
  compare_results(result("native", "nonoverlapping", 8), result("native", "recursive_doubling", 8), "a.json", same);
  CHECK(same.rows.empty());
  REQUIRE(same.problems.size() == 1);  // no point in common: said once, not once per point
  CHECK(same.problems[0].find("no point of A is a point of B (2 points in A, 2 in B") != std::string::npos);
  Comparison sizes;
  sizes.tolerance = 1e-9;
  compare_results(result("openmpi-linkx", "nonoverlapping", 8), result("native", "recursive_doubling", 4), "a.json", sizes);
  CHECK(sizes.rows.size() == 1);  // 16 KiB pairs; 8 B and 4 B are each on one side
  CHECK(sizes.problems.size() == 2);
}

// Configuration: two application-skeleton results of two stacks whose points name their stack (as the skeletons'
//                do: app, ranks, stack, runtime_s), and the same with one point's ranks other on B.
// Expected:      the runtimes paired by app and ranks (0.187 against 0.189 s, beyond the tolerance), a note saying
//                each point names its stack; no point on one side only; other ranks are not paired.
// How validated: the comparison's rows, notes and problems.
TEST_CASE("compare: application skeletons of two stacks are paired by app and ranks") {
  using Json = nlohmann::json;
  auto result = [](const char* stack, int ranks, double runtime) {
    return Json{{"stack", stack}, {"machine", "red-storm"},
                {"points", {{{"app", "VH-1"}, {"ranks", ranks}, {"stack", stack}, {"runtime_s", runtime}}}}};
  };
  Comparison c;
  c.tolerance = 1e-3;
  compare_results(result("openmpi-cm", 256, 0.187), result("openmpi-ob1", 256, 0.189), "vh1.json", c);
  CHECK(c.problems.empty());
  REQUIRE(c.rows.size() == 1);
  CHECK(c.rows[0].point == "app=VH-1 ranks=256");
  CHECK(c.rows[0].a == 0.187);
  CHECK(c.rows[0].b == 0.189);
  CHECK(c.beyond() == 1);
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0].find("each point names its stack (A: openmpi-cm; B: openmpi-ob1)") != std::string::npos);
  Comparison other;
  other.tolerance = 1e-3;
  compare_results(result("openmpi-cm", 256, 0.187), result("openmpi-ob1", 128, 0.189), "vh1.json", other);
  CHECK(other.rows.empty());
  REQUIRE(other.problems.size() == 1);
  CHECK(other.problems[0].find("no point of A is a point of B (1 point in A, 1 in B") != std::string::npos);
}

// Configuration: two results of one stack with three sizes, B's points carrying one more metric (a sweep table's
//                "btl_ugni_smsg_limit (effective)" column), and a metric only A's second point has.
// Expected:      one structural difference for B's metric, naming how many points and the first, and one for A's
//                single point; the latencies compared at every size.
// How validated: the comparison's problems and rows.
TEST_CASE("compare: a metric of one side only is one difference, not one per point") {
  using Json = nlohmann::json;
  Json a{{"stack", "openmpi"}, {"machine", "cielo"}, {"points", Json::array()}};
  Json b = a;
  for (int bytes : {1, 2, 4}) {
    a["points"].push_back({{"bytes", bytes}, {"latency_us", 1.0}});
    b["points"].push_back({{"bytes", bytes}, {"latency_us", 1.0}, {"btl_ugni_smsg_limit (effective)", 512}});
  }
  a["points"][1]["extra_us"] = 3.0;
  Comparison c;
  c.tolerance = 1e-9;
  compare_results(a, b, "sweep.json", c);
  CHECK(c.rows.size() == 3);
  REQUIRE(c.problems.size() == 2);
  CHECK(c.problems[0] == "sweep.json: bytes=2: 'extra_us' only in A");
  CHECK(c.problems[1] == "sweep.json: 'btl_ugni_smsg_limit (effective)' only in B, at 3 points (the first: bytes=1)");
}

// Configuration: two runs of one stack at two sizes whose steady-state cutoff stopped after 2 + 3 and 3 + 3 calls,
//                their run totals (stats.counters) in proportion; then the same runs with equal calls.
// Expected:      the stats rows say the calls of each side ("stats (5 vs 6 calls)") and a note says that the totals
//                count simulated calls only; with equal calls the rows are plain "stats" and there is no note.
// How validated: the comparison's rows and notes.
TEST_CASE("compare: run totals of runs that simulated other numbers of calls say so") {
  using Json = nlohmann::json;
  auto result = [](int calls_first, int calls_second) {
    const int calls = calls_first + calls_second;
    return Json{{"stack", "openmpi-linkx"}, {"machine", "crusher"},
                {"points", {{{"bytes", 4096}, {"latency_us", 10.0}, {"calls_simulated", calls_first}},
                            {{"bytes", 65536}, {"latency_us", 40.0}, {"calls_simulated", calls_second}}}},
                {"stats", {{"counters", {{"cxi_eager", 100 * calls}}}}}};
  };
  Comparison c;
  c.tolerance = 1e-9;
  compare_results(result(2, 3), result(3, 3), "a.json", c);
  const auto stats = std::find_if(c.rows.begin(), c.rows.end(), [](const auto& r) { return r.metric == "counters.cxi_eager"; });
  REQUIRE(stats != c.rows.end());
  CHECK(stats->point == "stats (5 vs 6 calls)");
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0].find("A simulated 5 calls, B 6") != std::string::npos);
  CHECK(c.notes[0].find("count simulated calls only") != std::string::npos);
  Comparison same;
  same.tolerance = 1e-9;
  compare_results(result(3, 3), result(3, 3), "a.json", same);
  CHECK(same.notes.empty());
  CHECK(std::all_of(same.rows.begin(), same.rows.end(), [](const auto& r) { return r.point != "stats (6 vs 6 calls)"; }));
  CHECK(std::any_of(same.rows.begin(), same.rows.end(), [](const auto& r) { return r.point == "stats"; }));
}

// Configuration: two sweeps' tables (sweep.json) of two points at three sizes each, whose runs' mailbox memory
//                ("mailbox_memory.mailbox_bytes", repeated on each of a point's rows as the sweep writes it) differs.
// Expected:      the mailbox value compared once per point (2 rows, both beyond), on the point's first row; the
//                latencies compared at every size (6 rows).
// How validated: compare_paths on two temporary files, its rows.
TEST_CASE("compare: a sweep's run values are compared once per point, not once per size") {
  using Json = nlohmann::json;
  auto table = [](double mailbox) {
    Json t{{"grid", "g.json"}, {"axes", {"mca.btl_ugni_smsg_limit"}}, {"provenance", {{"overrides", Json::array()}}},
           {"columns", {"mca.btl_ugni_smsg_limit", "bytes", "latency_us", "mailbox_memory.mailbox_bytes", "point"}},
           {"rows", Json::array()}};
    for (int limit : {256, 1024})
      for (int bytes : {1, 2, 4})
        t["rows"].push_back({{"mca.btl_ugni_smsg_limit", limit}, {"bytes", bytes}, {"latency_us", 1.0 + bytes},
                             {"mailbox_memory.mailbox_bytes", mailbox * limit}, {"point", fmt::format("p{}", limit)}});
    return t;
  };
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ompisim_cmp_sweep_{}", ::getpid());
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  std::ofstream(dir / "a" / "sweep.json") << table(40.0).dump();
  std::ofstream(dir / "b" / "sweep.json") << table(72.0).dump();
  const Comparison c = compare_paths((dir / "a" / "sweep.json").string(), (dir / "b" / "sweep.json").string(), 1e-9);
  std::filesystem::remove_all(dir);
  std::size_t mailbox = 0, latency = 0;
  for (const auto& r : c.rows) {
    if (r.metric == "mailbox_memory.mailbox_bytes") {
      ++mailbox;
      CHECK(r.beyond);
      CHECK(r.point.find("bytes=1 ") == 0);
    }
    if (r.metric == "latency_us") {
      ++latency;
      CHECK(!r.beyond);
    }
  }
  CHECK(mailbox == 2);
  CHECK(latency == 6);
  CHECK(c.problems.empty());
}
