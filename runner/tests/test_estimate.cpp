// The cost estimate (runner/estimate.hpp) against measured CPU times recorded in the repository: the Targets table of
// bench/README.md (CPU seconds of the large runs, each with the commit and load it was measured at). No timing here:
// the measured figures are read as a reference, the estimate is computed from the same scenarios.
#include "benchmarks/driver.hpp"
#include "benchmarks/replay/ti_reader.hpp"
#include "core/errors.hpp"
#include "runner/estimate.hpp"
#include "runner/scenario.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ompisim;

namespace {
// bench/run.sh's scenario for a Titan barrier of 299,008 ranks (one call), as the Targets table measured it.
Scenario titan_barrier(const std::string& algorithm, long long ranks = 299008, int iterations = 1) {
  Json b = {{"name", "barrier_loop"}, {"algorithm", algorithm}, {"iterations", iterations}, {"skip", 0}};
  if (algorithm == "cheetah-atomic") b["radix"] = 4;
  return scenario_from_json(
      Json{{"id", "titan"}, {"machine", "titan"}, {"stack", "openmpi"}, {"benchmark", b}, {"ranks", ranks},
           {"ranks_per_node", 16}},
      "titan.json");
}
// bench/README.md's 64 KiB osu_alltoall on frontier (openmpi-linkx, 8 ranks per node), `iterations` calls, no warm-up
// call unless `skip` is given (-1: the benchmark's default).
Scenario frontier_alltoall(long long ranks, int iterations, int skip, const std::string& engine = "") {
  Json b = {{"name", "osu_alltoall"}, {"algorithm", "pairwise"}, {"sizes", {65536}}, {"iterations", iterations}};
  if (skip >= 0) b["skip"] = skip;
  Json j = {{"id", "a2a"}, {"machine", "frontier"}, {"stack", "openmpi-linkx"}, {"benchmark", b}, {"ranks", ranks},
            {"ranks_per_node", 8}, {"map_by", "core"}, {"cpu_list", {1, 9, 17, 25, 33, 41, 49, 57}}};
  if (!engine.empty()) j["engine"] = engine;
  return scenario_from_json(j, "a2a.json");
}
double ratio(const Scenario& s, double cpu_s) { return estimate_events(s) / kEventsPerSecond / cpu_s; }

// A time-independent trace of `ranks` ranks on a ring, written into a fresh folder: each of `iterations` iterations a
// compute, an irecv from the left and an isend to the right, a waitall; an allreduce every 5th iteration, an alltoall
// every 10th, a sendRecv every 20th (what the estimate counts: isend and sendRecv one message each, the collectives
// per call). Returns the index file.
struct RingTrace {
  std::filesystem::path dir, index;
  long long sends = 0, collectives = 0, all_pairs = 0;  // over all ranks
};
RingTrace ring_trace(const std::string& name, int ranks, int iterations) {
  RingTrace t;
  t.dir = std::filesystem::temp_directory_path() / ("ompisim-estimate-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(t.dir);
  std::filesystem::create_directories(t.dir / "trace_files");
  t.index = t.dir / "trace.txt";
  std::ofstream idx(t.index);
  for (int r = 0; r < ranks; ++r) {
    idx << "trace_files/rank-" << r << ".txt\n";
    std::ofstream f(t.dir / "trace_files" / ("rank-" + std::to_string(r) + ".txt"));
    const int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks;
    f << r << " init\n";
    for (int it = 0; it < iterations; ++it) {
      f << r << " compute 1000\n" << r << " irecv " << left << " 0 128 0\n" << r << " isend " << right << " 0 128 0\n"
        << r << " waitall 2\n";
      ++t.sends;
      if (it % 5 == 4) f << r << " allreduce 8 0 0\n", ++t.collectives;
      if (it % 10 == 9) f << r << " alltoall 4 4 0 0\n", ++t.all_pairs;
      if (it % 20 == 19) f << r << " sendRecv 16 " << right << " 16 " << left << "\n", ++t.sends;
    }
    f << r << " finalize\n";
  }
  return t;
}
Scenario replay_of(const RingTrace& t, int ranks) {
  return scenario_from_json(Json{{"id", "ring"}, {"machine", "loggp"}, {"stack", "loggp"}, {"ranks", ranks},
                                 {"benchmark", {{"name", "replay"}, {"trace", "trace.txt"}, {"flop_rate", "1 Gf/s"}}}},
                            (t.dir / "ring.json").string());
}
}  // namespace

// Configuration: the seven runs of bench/README.md's Targets with a CPU time (user seconds): Titan p2p and atomic
// barriers of 299,008 ranks (7.53 s, 0.74 s), bench/run.sh's slingshot_alltoall_512_sweep (59.86 s), the committed
// qsnet 4,096-node barriers (openmpi 1.59 s, native 0.93 s: 12 of their 22 calls simulated, barrier_loop's steady-state
// cutoff) and the 9,408-rank Frontier allreduce what-ifs (minimal
// 2.97 s, UGAL 10.13 s).
// Expected: the estimate's time (events / kEventsPerSecond) is central over them: the geometric mean of estimate /
// measured within a factor of 3 of 1 (a rate taken from one loaded run, 1e5 messages/s, put it at 4.2); each run
// within the range runner/estimate.hpp states (measured 1/13 to 36 times the estimate).
// How validated: the ratios, computed from the recorded figures.
TEST_CASE("estimate: the time is central over the measured runs of bench/README.md", "[estimate][unit]") {
  struct Ref {
    std::string what;
    Scenario s;
    double cpu_s;
  };
  const Json sweep = {{"id", "slingshot_alltoall_512_sweep"}, {"machine", "crusher"}, {"stack", "openmpi-linkx"},
                      {"benchmark", {{"name", "osu_alltoall"}}}, {"ranks", 512}, {"ranks_per_node", 8},
                      {"map_by", "core"}, {"cpu_list", {1, 9, 17, 25, 33, 41, 49, 57}}};
  std::vector<Ref> refs = {
      {"Titan p2p barrier", titan_barrier("cheetah-p2p"), 7.53},
      {"Titan atomic barrier", titan_barrier("cheetah-atomic"), 0.74},
      {"Slingshot alltoall sweep", scenario_from_json(sweep, "sweep.json"), 59.86},
      {"qsnet barrier openmpi", load_scenario("scenarios/qsnet/whatif_barrier_4096_openmpi.json"), 1.59},
      {"qsnet barrier native", load_scenario("scenarios/qsnet/whatif_barrier_4096_native.json"), 0.93},
      {"allreduce minimal", load_scenario("scenarios/slingshot/whatif_routing_minimal_allreduce_1m_9408p_74groups.json"),
       2.97},
      {"allreduce UGAL", load_scenario("scenarios/slingshot/whatif_routing_ugal_allreduce_1m_9408p_74groups.json"),
       10.13}};
  double log_sum = 0;
  for (const Ref& r : refs) {
    const double ratio = estimate_events(r.s) / kEventsPerSecond / r.cpu_s;
    INFO(r.what << ": estimate / measured = " << ratio);
    CHECK(ratio > 1.0 / 37);
    CHECK(ratio < 14);
    log_sum += std::log(ratio);
  }
  const double mean = std::exp(log_sum / static_cast<double>(refs.size()));
  INFO("geometric mean of estimate / measured = " << mean);
  CHECK(mean > 1.0 / 3);
  CHECK(mean < 3);
}

// Configuration: the estimate's text for a Titan barrier. Expected: it gives the time as CPU time at the rate, with
// the spread the rate was measured with, and no longer as an upper figure. How validated: the text.
TEST_CASE("estimate: the text says what the time is", "[estimate][unit]") {
  const Scenario s = titan_barrier("cheetah-p2p");
  const std::string t = estimate_text(s, estimate_events(s));
  CHECK_THAT(t, Catch::Contains("of CPU time (at 1e+06 messages per CPU second; measured runs took 1/13 to 36 times"));
  CHECK_THAT(t, !Catch::Contains("at most"));
}

// Configuration: the estimate's text for a small run (a 32-rank barrier, 10 calls: 1,920 messages) and for the Titan
// atomic barrier (one call: 6e6 messages). Expected: the small run's time reads "under 1 s", not "0 s" (describe prints the
// estimate of every scenario, most of them short); the large one in whole seconds. How validated: the text.
TEST_CASE("estimate: a run under a second says so", "[estimate][unit]") {
  const Scenario small = titan_barrier("cheetah-p2p", 32, 10);
  CHECK_THAT(estimate_text(small, estimate_events(small)), Catch::Contains(", under 1 s of CPU time (at 1e+06"));
  CHECK_THAT(estimate_text(small, estimate_events(small)), !Catch::Contains(" 0 s of CPU"));
  const Scenario big = titan_barrier("cheetah-atomic");
  CHECK_THAT(estimate_text(big, estimate_events(big)), Catch::Contains("about 6 s of CPU time"));
}

// Configuration: a 512-rank osu_alltoall on Titan, 20 timed calls after 2 warm-up calls, whose steady-state cutoff is
// on (its default), and the same with "steady_state": 0. Expected: the estimate counts the cutoff's fewest calls and
// says so, and gives what all 22 calls cost, which a series that never settles (call-to-call contention) simulates;
// with the cutoff off it counts all 22 and says nothing more. How validated: the texts and the two estimates' ratio.
TEST_CASE("estimate: a steady-state cutoff's fewest calls, and all the calls where they never agree", "[estimate][unit]") {
  Json j = {{"id", "a2a"}, {"machine", "titan"}, {"stack", "openmpi"}, {"ranks", 512}, {"ranks_per_node", 16},
            {"benchmark", {{"name", "osu_alltoall"}, {"sizes", {4096}}, {"iterations", 20}, {"skip", 2}}}};
  const Scenario cut = scenario_from_json(j, "a2a.json");
  j["benchmark"]["steady_state"] = 0;
  const Scenario all = scenario_from_json(j, "a2a.json");
  const std::string t = estimate_text(cut, estimate_events(cut));
  CHECK_THAT(t, Catch::Contains(" iterations (the fewest a steady-state cutoff simulates)"));
  CHECK_THAT(t, Catch::Contains("; where the calls never agree, all 22 calls: about "));
  CHECK(estimate_events(all) > 5 * estimate_events(cut));
  const std::string u = estimate_text(all, estimate_events(all));
  CHECK_THAT(u, Catch::Contains("x 22 iterations x "));
  CHECK_THAT(u, !Catch::Contains("never agree"));
}

// Configuration: osu_latency between two Cielo ranks at 8 B and 16 KiB with OSU's default loops (10,000 + 100 calls
// up to 8 KiB, 1,000 + 10 above), and the same with "iterations" 50 and "skip" 5 at both sizes.
// Expected: the default run counts 11,110 calls over the two sizes (not 10,100 at each) and says how; the fixed one
// counts 55 at each, as iterations x sizes. How validated: the two estimates' ratio and the texts.
TEST_CASE("estimate: OSU's calls per size follow its loop for each size", "[estimate][unit]") {
  Json j = {{"id", "lat"}, {"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 2},
            {"benchmark", {{"name", "osu_latency"}, {"sizes", {8, 16384}}}}};
  const Scenario defaults = scenario_from_json(j, "lat.json");
  j["benchmark"]["iterations"] = 50;
  j["benchmark"]["skip"] = 5;
  const Scenario fixed = scenario_from_json(j, "lat.json");
  CHECK(estimate_events(defaults) / estimate_events(fixed) == Approx(11110.0 / 110.0).epsilon(1e-12));
  CHECK_THAT(estimate_text(defaults, estimate_events(defaults)),
             Catch::Contains("2 ranks x 11110 calls over 2 sizes (10000 + 100 calls up to 8 KiB, 1000 + 10 above)"));
  CHECK_THAT(estimate_text(fixed, estimate_events(fixed)), Catch::Contains("2 ranks x 55 iterations x 2 sizes"));
}

// Configuration: osu_bw between two Cielo ranks at 64 KiB and 1 MiB with OSU's default loops (20 + 2 calls above
// 8 KiB) and its default window (64), then window 8; osu_bibw with window 8; osu_latency at the same sizes.
// Expected: 22 calls at each size (not the small sizes' 110); per rank and call window + 1 messages for osu_bw (the
// window and the acknowledgement, where a ping-pong counts 2), 2 x window for osu_bibw, and the text says how.
// How validated: the estimates' ratios and the texts.
TEST_CASE("estimate: a streaming OSU benchmark counts its window and its loop above 8 KiB", "[estimate][unit]") {
  Json j = {{"id", "bw"}, {"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 2},
            {"benchmark", {{"name", "osu_latency"}, {"sizes", {65536, 1048576}}}}};
  const Scenario lat = scenario_from_json(j, "bw.json");
  j["benchmark"]["name"] = "osu_bw";
  const Scenario bw64 = scenario_from_json(j, "bw.json");
  j["benchmark"]["window"] = 8;
  const Scenario bw8 = scenario_from_json(j, "bw.json");
  j["benchmark"]["name"] = "osu_bibw";
  const Scenario bibw8 = scenario_from_json(j, "bw.json");
  CHECK(estimate_events(lat) == Approx(2.0 * 2 * (1000 + 10) * 2).epsilon(1e-12));  // osu_latency: 1,000 + 10 above
  CHECK(estimate_events(bw64) == Approx(2.0 * 2 * 22 * 65).epsilon(1e-12));
  CHECK(estimate_events(bw8) == Approx(2.0 * 2 * 22 * 9).epsilon(1e-12));
  CHECK(estimate_events(bibw8) == Approx(2.0 * 2 * 22 * 16).epsilon(1e-12));
  CHECK_THAT(estimate_text(bw64, estimate_events(bw64)),
             Catch::Contains("2 ranks x 44 calls over 2 sizes (20 + 2 calls each) x 65 (window 64 + acknowledgement)"));
  CHECK_THAT(estimate_text(bibw8, estimate_events(bibw8)), Catch::Contains("x 16 (window 8 each way)"));
}

// Configuration: the committed Titan atomic barrier over radices 2 to 32 (each radix its own run of 299,008 ranks)
// against the same scenario at radix 8 alone. Expected: the estimate counts every radix (5 times the one radix's
// events) and its text says so. How validated: the ratio of the two estimates and the text.
TEST_CASE("estimate: a radix list counts every radix", "[estimate][unit]") {
  const Scenario all = load_scenario("scenarios/gemini/whatif_barrier_titan_atomic_radix_sweep.json");
  Json one = load_json_file(all.file);
  one["benchmark"]["radix"] = 8;
  const Scenario eight = scenario_from_json(one, all.file);
  CHECK(estimate_events(all) == Approx(5 * estimate_events(eight)));
  CHECK_THAT(estimate_text(all, estimate_events(all)), Catch::Contains(" x 5 radix values)"));
  CHECK_THAT(estimate_text(eight, estimate_events(eight)), !Catch::Contains("radix values"));
}

// Configuration: the ten committed scenarios and the Titan p2p barrier of 65,536 ranks x 20 iterations the rate of
// runner/estimate.hpp was fitted on (user seconds at `a6ea5282`, load 5), and the one-call alltoalls of bench/README.md
// (fluid engine, `6a214a00`'s best figures: 2,048 ranks 24.81 s; 4,096 ranks 164.98 s, the median of runs of
// 164.1-167.4 s, 9.84 us a message) and its slingshot_alltoall_4096_64k (10 iterations, no
// skip given, 297.06 s on fluid). Expected: every run within the range runner/estimate.hpp states (1/13 to 36 times
// the estimate's time), the 512-rank alltoall of Fig. 7 (20.13 s) included, whose count was log2(P) for P - 1.
// How validated: the ratios, computed from the recorded figures.
TEST_CASE("estimate: every run the rate was fitted on is within the stated range", "[estimate][unit]") {
  struct Ref {
    std::string what;
    Scenario s;
    double cpu_s;
  };
  const std::vector<Ref> refs = {
      {"fig5 latency", load_scenario("scenarios/gemini/fig5_latency_2p_inter_openmpi.json"), 0.42},
      {"qsnet barrier 512", load_scenario("scenarios/qsnet/whatif_barrier_512_openmpi.json"), 0.17},
      {"fig7 barrier p2p", load_scenario("scenarios/gemini/fig7_barrier_cheetah_p2p.json"), 2.45},
      {"Titan hierarchical", load_scenario("scenarios/gemini/whatif_barrier_titan_hierarchical_radix8.json"), 0.92},
      {"fig3 multi_lat", load_scenario("scenarios/gemini/fig3_multi_lat_16p_intra_openmpi.json"), 1.64},
      {"seastar netpipe", load_scenario("scenarios/seastar/fig2_netpipe_openmpi-ob1.json"), 0.09},
      {"fig8 bcast", load_scenario("scenarios/slingshot/fig8_bcast_512p_h2h_native.json"), 0.39},
      {"alltoall 64p", load_scenario("scenarios/slingshot/whatif_routing_minimal_alltoall_64p_8groups.json"), 0.18},
      {"fig7 alltoall 512p", load_scenario("scenarios/slingshot/fig7_alltoall_512p_h2h_native.json"), 20.13},
      {"Titan p2p 65,536 x 20", titan_barrier("cheetah-p2p", 65536, 20), 53.23},
      {"alltoall 2,048 one call (fluid)", frontier_alltoall(2048, 1, 0, "fluid"), 24.81},
      {"alltoall 4,096 one call (fluid)", frontier_alltoall(4096, 1, 0, "fluid"), 164.98},
      {"slingshot_alltoall_4096_64k (fluid)", frontier_alltoall(4096, 10, -1, "fluid"), 297.06}};
  for (const Ref& r : refs) {
    const double x = 1 / ratio(r.s, r.cpu_s);
    INFO(r.what << ": measured / estimate = " << x);
    CHECK(x > 1.0 / 14);
    CHECK(x < 37);
  }
}

// Configuration: the count per rank and iteration the registry declares, at 64 to 4,096 ranks. Expected: an alltoall
// sends P - 1 messages a rank and call, so its estimate grows as P^2 (x 4.0 per doubling, within 1 %); a barrier's
// 1 + ceil(log2 P) rounds make it grow as P log P (x 2 (1 + ceil(log2 2P)) / (1 + ceil(log2 P)): 2.29 from 64 to 128
// ranks); a ping-pong counts 2. How validated: the ratios of the estimates, and the counts of the registry.
TEST_CASE("estimate: messages per rank by what the benchmark is", "[estimate][unit]") {
  const auto& reg = bench::driver_registry();
  CHECK(reg.find("osu_alltoall")->messages.at(4096) == 4095);
  CHECK(reg.find("osu_allgather")->messages.at(512) == 511);
  CHECK(reg.find("osu_bcast")->messages.at(512) == 10);
  CHECK(reg.find("barrier_loop")->messages.at(1000) == 11);
  CHECK(reg.find("osu_latency")->messages.at(2) == 2);
  CHECK(reg.find("osu_alltoall")->messages.formula() == "P - 1");
  CHECK(reg.find("barrier_loop")->messages.formula() == "1 + ceil(log2 P)");
  for (long long p = 64; p < 4096; p *= 2) {
    INFO(p << " ranks");
    const double a2a = estimate_events(frontier_alltoall(2 * p, 1, 0)) / estimate_events(frontier_alltoall(p, 1, 0));
    CHECK(a2a == Approx(4.0).epsilon(0.01));
    const double lg = std::log2(static_cast<double>(p));
    const double bar = estimate_events(titan_barrier("cheetah-p2p", 2 * p)) / estimate_events(titan_barrier("cheetah-p2p", p));
    CHECK(bar == Approx(2 * (2 + lg) / (1 + lg)));
  }
  const Scenario a = frontier_alltoall(512, 1, 0);
  CHECK_THAT(estimate_text(a, estimate_events(a)), Catch::Contains("511 (P - 1) per rank and iteration"));
}

// Configuration: alltoalls and a barrier on the lmm and simgrid engines (named by the scenario) and on fluid (the
// default), at sizes above and below kEventsWorthSaying. Expected: the line naming the fluid engine only for an
// alltoall-like benchmark on an engine that re-solves whole connected sets of flows whose estimate is worth a notice:
// the 4,096-rank alltoall of bench/run.sh and the 74-group what-if with "engine": "lmm" or "simgrid"; not on fluid
// (the default, or named), not for a 64-rank alltoall (below the notice), not for a large barrier.
// How validated: the condition and the text.
TEST_CASE("estimate: the notice names the fluid engine for a large alltoall on the lmm or simgrid engine",
          "[estimate][unit]") {
  const Scenario big = frontier_alltoall(4096, 10, -1, "lmm");
  const double e = estimate_events(big);
  REQUIRE(e > kEventsWorthSaying);
  CHECK(engine_hint_applies(big, e));
  CHECK_THAT(engine_hint(big, e), Catch::Contains("the fluid engine (the default; --engine fluid)"));
  CHECK_THAT(engine_hint(big, e), Catch::StartsWith("osu_alltoall"));
  CHECK(engine_hint_applies(frontier_alltoall(4096, 10, -1, "simgrid"), e));
  CHECK_FALSE(engine_hint_applies(frontier_alltoall(4096, 10, -1), e));  // the default engine is fluid
  const Scenario whatif = load_scenario("scenarios/slingshot/whatif_routing_minimal_alltoall_64k_4096p_74groups.json");
  CHECK_FALSE(engine_hint_applies(whatif, estimate_events(whatif)));  // it names fluid itself
  Scenario lmm = whatif;
  lmm.engine = "lmm";
  CHECK(estimate_events(lmm) > kEventsWorthSaying);
  CHECK(engine_hint_applies(lmm, estimate_events(lmm)));
  const Scenario fluid = frontier_alltoall(4096, 10, -1, "fluid");
  CHECK_FALSE(engine_hint_applies(fluid, estimate_events(fluid)));
  CHECK(engine_hint(fluid, estimate_events(fluid)).empty());
  const Scenario small = frontier_alltoall(64, 1, 0, "lmm");
  CHECK(estimate_events(small) < kEventsWorthSaying);
  CHECK_FALSE(engine_hint_applies(small, estimate_events(small)));
  const Scenario barrier = titan_barrier("cheetah-p2p", 299008, 20);
  CHECK(estimate_events(barrier) > kEventsWorthSaying);
  CHECK_FALSE(engine_hint_applies(barrier, estimate_events(barrier)));
}

// Configuration: a generated 8-rank ring trace of 100 iterations (800 isends, 40 sendRecv, 160 allreduce and 80
// alltoall calls over the ranks), small enough to be counted whole. Expected: the estimate is its messages, the sends
// one each, an allreduce 1 + ceil(log2 8) = 4 per rank and call, an alltoall 8 - 1 = 7: 840 + 160 x 4 + 80 x 7 = 2040
// (the count without the trace was one iteration: 8 ranks x 4 = 32); the text says it counted the trace's actions.
// How validated: the count and the text.
TEST_CASE("estimate: a trace replay counts the trace's communication actions", "[estimate][unit]") {
  const RingTrace t = ring_trace("count", 8, 100);
  REQUIRE(t.sends == 840);
  const Scenario s = replay_of(t, 8);
  const double e = estimate_events(s);
  CHECK(e == static_cast<double>(t.sends + 4 * t.collectives + 7 * t.all_pairs));
  CHECK(e == 2040);
  const std::string text = estimate_text(s, e);
  CHECK_THAT(text, Catch::Contains("messages (1080 communication actions in the trace (840 point-to-point sends, 160 "
                                   "collective calls x 4 (1 + ceil(log2 P)), 80 all-pairs collective calls x 7 (P - 1))"));
  CHECK_THAT(text, !Catch::Contains("counted in the first"));
  CHECK_THAT(text, !Catch::Contains("iterations"));
  std::filesystem::remove_all(t.dir);
}

// Configuration: --max-events on the ring trace's replay (2,040 messages estimated), bounds 1,000 and 10,000.
// Expected: the run is refused below its count, with the trace's count in the reason, and accepted above it (the count
// without the trace, 32, was under both). How validated: the InputError and its text.
TEST_CASE("estimate: --max-events refuses a replay whose trace is above the bound", "[estimate][unit]") {
  const RingTrace t = ring_trace("bound", 8, 100);
  const Scenario s = replay_of(t, 8);
  try {
    check_max_events(s, 1000, "scenario ring", "1e3");
    FAIL("not refused");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("1e3"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("1080 communication actions in the trace"));
  }
  CHECK_NOTHROW(check_max_events(s, 1e4, "scenario ring"));
  std::filesystem::remove_all(t.dir);
}

// Configuration: count_actions on a 16-rank ring trace of 2,000 iterations (about 54 KiB a file) with the bound set
// below a file: the first 16 KiB of each file, then of 4 of the 16 files. Expected: the counts scaled by the files'
// sizes (and the rank count) within 2 % of the trace's (its pattern repeats), stated as not exact; the whole trace
// counted exactly under the default bounds. How validated: the counts against the generated ones.
TEST_CASE("estimate: a large trace is counted in its files' first bytes, scaled by their sizes", "[estimate][unit]") {
  const RingTrace t = ring_trace("sample", 16, 2000);
  const std::vector<std::string> files = bench::ti::read_index(t.index.string(), 1 << 22);
  REQUIRE(std::filesystem::file_size(files[0]) > 3 * bench::ti::kCountFileBytes);
  const bench::ti::ActionCount whole = bench::ti::count_actions(files);
  CHECK(whole.exact);
  CHECK(whole.sends == static_cast<double>(t.sends));
  CHECK(whole.collectives == static_cast<double>(t.collectives));
  CHECK(whole.all_pairs == static_cast<double>(t.all_pairs));
  for (std::size_t max_files : {std::size_t{16}, std::size_t{4}}) {
    INFO(max_files << " files read");
    const bench::ti::ActionCount part = bench::ti::count_actions(files, max_files, 1);
    CHECK_FALSE(part.exact);
    CHECK(part.files_read == max_files);
    CHECK(part.bytes_per_file == bench::ti::kCountFileBytes);
    CHECK(part.sends == Approx(static_cast<double>(t.sends)).epsilon(0.02));
    CHECK(part.actions() == Approx(static_cast<double>(t.sends + t.collectives + t.all_pairs)).epsilon(0.02));
  }
  std::filesystem::remove_all(t.dir);
}

// Configuration: the ring trace's replay whose action files are removed after the scenario was read. Expected: the
// estimate does not fail (the replay's own reader reports the missing files when it runs): it falls back to the
// count without the trace, one iteration (8 ranks x (1 + ceil(log2 8))). How validated: the estimate.
TEST_CASE("estimate: an unreadable trace is left to the replay to report", "[estimate][unit]") {
  const RingTrace t = ring_trace("gone", 8, 10);
  const Scenario s = replay_of(t, 8);
  std::filesystem::remove_all(t.dir / "trace_files");
  double e = 0;
  CHECK_NOTHROW(e = estimate_events(s));
  CHECK(e == 8 * 4);
  std::filesystem::remove_all(t.dir);
}

// Configuration: a replay on the default engine (fluid) and on lmm, with an estimate above kEventsWorthSaying.
// Expected: on lmm the notice names the fluid engine with what was measured for a replay (CPU ratio and the stacks it
// was measured on); not on the fluid engine nor below the notice. How validated: the condition and the text.
TEST_CASE("estimate: the notice of a long replay says what the fluid engine measured", "[estimate][unit]") {
  const RingTrace t = ring_trace("hint", 8, 10);
  Scenario s = replay_of(t, 8);
  const double big = 2 * kEventsWorthSaying;
  CHECK_FALSE(engine_hint_applies(s, big));  // the default engine is fluid
  s.engine = "lmm";
  CHECK(engine_hint_applies(s, big));
  const std::string h = engine_hint(s, big);
  CHECK_THAT(h, Catch::StartsWith("replay on the 'lmm' engine, which re-solves every flow in flight at each flow start "
                                  "and end: the fluid engine (the default; --engine fluid) took 0.36 of its CPU time"));
  CHECK_THAT(h, Catch::Contains("on the loggp stack, where that trace starts no flows, the same"));
  CHECK_FALSE(engine_hint_applies(s, kEventsWorthSaying / 2));
  s.engine = "fluid";
  CHECK(engine_hint(s, big).empty());
  std::filesystem::remove_all(t.dir);
}

// Configuration: one action file with what a trace may hold besides plain lines: a comment, blank lines, CRLF ends,
// tabs and repeated blanks between fields, an action this replay refuses (Ssend), a last line without its newline.
// Expected: only the communication actions counted: send, isend and sendRecv as sends, bcast as a collective,
// alltoallv and allgather as all-pairs; recv, wait, compute, init and the refused name not at all.
// How validated: the counts of count_actions.
TEST_CASE("estimate: a trace's actions are counted by the name in their second field", "[estimate][unit]") {
  const auto dir = std::filesystem::temp_directory_path() / ("ompisim-estimate-lines-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "rank-0.txt";
  std::ofstream(file) << "# a comment: 0 send 1 0 8\n\n0 init\r\n0\tisend 1 0 8 0\r\n  0  send 1 0 8\n0 recv 1 0 8\n"
                         "0 sendRecv 8 1 8 1\n0 wait 0 1 0\n0 Ssend 1 0 8\n0 bcast 8\n0 alltoallv 4 2 2 4 2 2\n"
                         "0 compute 10\n0 allgather 2 2";
  const bench::ti::ActionCount c = bench::ti::count_actions({file.string()});
  CHECK(c.exact);
  CHECK(c.sends == 3);
  CHECK(c.collectives == 1);
  CHECK(c.all_pairs == 2);
  std::filesystem::remove_all(dir);
}

// Configuration: osu_alltoall of 64 KiB on Crusher (4 ranks a node) with the algorithm "linear", "pairwise" and
// "tuned" at 516 and 512 ranks, "tuned" at 1 MiB, and none at 512 ranks (the stack's library: tuned).
// Expected: the algorithms that post every request of a call at once (linear; linear_sync, coll/tuned v5's choice at
// 512 ranks and 64 KiB) carry a caveat naming the algorithm, the size and bench/README.md's measurement (516 ranks
// took over 200 s of CPU against an estimate under 1 s), the block without an algorithm too; pairwise and tuned's
// 1 MiB choice (pairwise) none; the caveat names the scenario key "packet_trains" unless the scenario sets it. How
// validated: the registry's all_at_once flag through the driver.
TEST_CASE("estimate: an alltoall that posts every request at once says its estimate is low", "[estimate][unit]") {
  auto a2a = [](const std::string& algo, long long ranks, long long size) {
    Json b{{"name", "osu_alltoall"}, {"algorithm", algo}, {"sizes", {size}}, {"iterations", 1}, {"skip", 0}};
    if (algo.empty()) b.erase("algorithm");  // the stack's collective library: coll/tuned v5 on openmpi-cxi
    return scenario_from_json(Json{{"id", "a2a"}, {"machine", "crusher"}, {"stack", "openmpi-cxi"}, {"ranks", ranks},
                                   {"ranks_per_node", 4}, {"benchmark", b}},
                              "a2a.json");
  };
  const std::string linear = estimate_caveat(a2a("linear", 516, 65536));
  CHECK_THAT(linear, Catch::Contains("osu_alltoall 'linear' at 65536 B posts every request of a call at once") &&
                         Catch::Contains("bench/README.md"));
  CHECK_THAT(estimate_caveat(a2a("tuned", 512, 65536)), Catch::Contains("'linear_sync'"));
  CHECK(estimate_caveat(a2a("pairwise", 516, 65536)).empty());
  CHECK(estimate_caveat(a2a("tuned", 512, 1048576)).empty());
  CHECK(estimate_caveat(frontier_alltoall(512, 1, 0)).empty());  // pairwise, named
  CHECK_THAT(estimate_caveat(a2a("", 512, 65536)), Catch::Contains("'linear_sync'"));  // no algorithm: tuned's choice
  CHECK_THAT(linear, Catch::Contains("the scenario key \"packet_trains\""));  // what makes such a run cheaper
  Scenario trains = a2a("linear", 516, 65536);
  trains.packet_trains = 65536;
  CHECK_THAT(estimate_caveat(trains), !Catch::Contains("packet_trains") && Catch::Contains("posts every request"));
}

// Configuration: osu_allreduce at 1 MiB on 1,024 Titan ranks, 3 calls without warm-up or steady-state cutoff, the
//                block naming the ring (2 (P - 1) sends a rank and call); the same naming recursive doubling
//                (ceil(log2 P) sends, the declared count's order).
// Expected:      the ring's estimate counts its schedule's 2,046 sends a rank and call (1,024 x 3 x 2,046 messages),
//                not the declared 1 + ceil(log2 P) = 11, and says so; recursive doubling keeps the declared count.
// How validated: the estimate's events and text.
TEST_CASE("estimate: a named algorithm far from the declared count is counted from its schedule", "[estimate][unit]") {
  auto allreduce = [](const std::string& algorithm) {
    return scenario_from_json(
        Json{{"id", "ar"}, {"machine", "titan"}, {"stack", "openmpi"}, {"ranks", 1024}, {"ranks_per_node", 16},
             {"benchmark", {{"name", "osu_allreduce"}, {"algorithm", algorithm}, {"sizes", {1048576}},
                            {"iterations", 3}, {"skip", 0}, {"steady_state", 0}}}},
        "ar.json");
  };
  const Scenario ring = allreduce("ring");
  CHECK(estimate_events(ring) == Approx(1024.0 * 3 * 2046));
  CHECK_THAT(estimate_text(ring, estimate_events(ring)), Catch::Contains("ring 2046"));
  const Scenario rd = allreduce("recursive_doubling");
  CHECK(estimate_events(rd) == Approx(1024.0 * 3 * 11));
  CHECK_THAT(estimate_text(rd, estimate_events(rd)), Catch::Contains("11 (1 + ceil(log2 P)) per rank and iteration"));
}

// Configuration: the VH-1 skeleton (benchmarks/apps/vh1.json: 3 steps, each two alltoalls on the rows of 16 ranks of
//                the process grid, two on its columns of P / 16, one allreduce on the world) at 1,024 ranks on Jaguar.
// Expected:      per rank and step 2 x 15 + 2 x 63 + (1 + 10) = 167 messages, 501 over the steps, 513,024 in all
//                (a run of it simulates about 510,000); before the skeleton counted its phases it was one iteration's
//                1 + ceil(log2 P) = 11 per rank, and --max-events let a 67-second run through a bound of 1e5.
// How validated: the estimate's count and text; check_max_events refuses it at 1e5.
TEST_CASE("estimate: an app skeleton counts its phases' messages over its steps", "[estimate][unit]") {
  const Scenario s = scenario_from_json(
      Json{{"id", "vh1"}, {"machine", "jaguar-xt4"}, {"stack", "openmpi-cm"},
           {"benchmark", {{"name", "app_skeleton"}, {"app", "VH-1"}}}, {"ranks", 1024}},
      "vh1.json");
  const double e = estimate_events(s);
  CHECK(e == 1024.0 * 501);
  CHECK_THAT(estimate_text(s, e), Catch::Contains("from the skeleton's 3 steps (501 per rank)"));
  CHECK_THROWS_AS(check_max_events(s, 1e5, "scenario vh1", "1e5"), InputError);
}
