// A stack preset's collective library (runner/stacks.hpp StackInfo::collectives) and the benchmarks that take it as
// their default: osu collectives ("algorithm"), replay ("collectives"), app_skeleton ("collectives").
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>
#include <fstream>

using namespace ompisim;

namespace {
Json stack_coll_scenario(const std::string& stack, const Json& block, int ranks = 16, int rpn = 8) {
  return Json{{"machine", "crusher"}, {"stack", stack},  {"ranks", ranks}, {"ranks_per_node", rpn},
              {"engine", "des"},      {"benchmark", block}};
}
Json stack_coll_allreduce(const Json& extra = Json::object()) {
  Json b{{"name", "osu_allreduce"}, {"sizes", {8, 65536}}, {"iterations", 3}, {"skip", 1}};
  b.update(extra);
  return b;
}
std::vector<std::string> point_algorithms(const Json& result) {
  std::vector<std::string> out;
  for (const auto& p : result["points"]) out.push_back(p.value("algorithm", std::string("-")));
  return out;
}
// An OSU collective with no "algorithm" on 16 Cielo ranks (Gemini's "openmpi" preset), 16 a node, one timed call per
// size (des engine): each point's (algorithm, segment size); every message received, no request left.
std::vector<std::pair<std::string, long long>> cielo_choices(const std::string& bench, const std::vector<int>& sizes) {
  const Json b{{"name", bench}, {"sizes", sizes}, {"iterations", 1}, {"skip", 0}};
  Scenario s = scenario_from_json(Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 16},
                                       {"ranks_per_node", 16}, {"engine", "des"}, {"benchmark", b}},
                                  "g.json");
  const Json r = run_one(s, 16, {});
  CHECK(r["stats"]["sends_completed"] == r["stats"]["recvs_completed"]);
  CHECK(r["stats"]["live_requests"] == 0);
  std::vector<std::pair<std::string, long long>> out;
  for (const auto& p : r["points"]) out.emplace_back(p.value("algorithm", std::string("-")), p.value("segsize", 0LL));
  return out;
}
// A trace of `ranks` ranks under a fresh temporary folder, rank r's action file `actions` with {0} its rank; returns
// the folder (its index is trace.txt).
std::filesystem::path write_trace(const std::string& tag, int ranks, const std::string& actions) {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ompisim-{}-{}", tag, ::getpid());
  std::filesystem::create_directories(dir / "r");
  std::string index;
  for (int r = 0; r < ranks; ++r) {
    const std::string f = "r/rank-" + std::to_string(r) + ".txt";
    std::ofstream(dir / f) << fmt::format(fmt::runtime(actions), r);
    index += f + "\n";
  }
  std::ofstream(dir / "trace.txt") << index;
  return dir;
}
// A replay result's "algorithm" rows (rank 0's calls): "allreduce <name>", "barrier <name>", ...
std::vector<std::string> algorithm_rows(const Json& r) {
  std::vector<std::string> names;
  for (const auto& p : r["points"])
    if (p["row"] == "algorithm") names.push_back(p["name"].get<std::string>());
  return names;
}
}  // namespace

// Configuration: the registered presets. Expected: the Open MPI 5 presets on cxi name coll/tuned v5 ("tuned"), Cray
// MPICH on cxi MPICH's ("mpich"), the SeaStar Open MPI presets Open MPI 1.3's and Cray MPI MPICH2 1.0's, the Open MPI
// 1.1 presets v1.1's, Gemini's Open MPI its trunk r26242's (v1.3's but for one reduce branch); Cray
// MPT, the QsNet presets and the LogGP stack none. By name before the machine is known,
// "native" (a different library per NIC kind) has none; an object equal to a preset has the preset's; an unknown
// library or preset is refused at registration. How validated: stack_collectives and set_collectives.
TEST_CASE("stacks: each preset names the collective library of its MPI version", "[runner][stack]") {
  CHECK(stack_collectives(Json("openmpi-linkx"), {}).name == "tuned");
  CHECK(stack_collectives(Json("openmpi-cxi"), {"cxi"}).name == "tuned");
  CHECK(stack_collectives(Json("native"), {"cxi"}).name == "mpich");
  CHECK(stack_collectives(Json("native"), {"seastar"}).name == "mpich2-1.0");
  CHECK(stack_collectives(Json("openmpi-cm"), {}).name == "tuned-v1.3");
  CHECK(stack_collectives(Json("openmpi-mvapi"), {}).name == "tuned-v1.1");
  CHECK(stack_collectives(Json("native"), {}).name.empty());
  CHECK(stack_collectives(Json("native"), {"gemini"}).name.empty());
  CHECK(stack_collectives(Json("openmpi"), {"gemini"}).name == "tuned-r26242");  // v1.3's rules but one reduce branch
  CHECK(stack_collectives(Json("openmpi-elan4"), {}).name.empty());
  CHECK(stack_collectives(Json("openmpi"), {}).name.empty());  // gemini: tuned-r26242, Open MPI 1.1: tuned-v1.1
  CHECK(stack_collectives(Json("no-such-stack"), {}).name.empty());
  CHECK(stack_collectives(Json{{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", "shm+cxi:linkx"}}, {}).name == "tuned");
  CHECK(stack_collectives(Json{{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", "shm+cxi:linkx"}}, {"cxi"}).source.find(
            "v5.0.0rc11") != std::string::npos);
  CHECK(stack_collectives(Json{{"native", "mpich_cxi"}}, {}).name == "mpich");
  StackRegistry reg;
  register_stacks(reg);
  CHECK_THROWS_WITH(reg.set_collectives("native", "cxi", {"tuned-v9", ""}), Catch::Contains("no collective decision"));
  CHECK_THROWS_WITH(reg.set_collectives("native", "ib-sdr-pcie", {"tuned", ""}), Catch::Contains("not registered"));
}

// Configuration: osu_allreduce (8 B and 64 KiB) on 16 Crusher ranks, 8 a node, with no "algorithm": Cray MPICH
// ("native"), Open MPI over LINKx, and Cray MPICH with "algorithm": "recursive_doubling" named.
// Expected: Cray MPICH runs MPICH's decision (mpich_smp on the node-aware communicator at both sizes) though the parse
// could not know its library ("native" is per NIC kind: the parsed driver is the registry's first, the run takes the
// machine's preset); LINKx runs coll/tuned v5's (its parsed label already says tuned; no mpich_smp); a named
// algorithm is run as named at every size (and each point names it); under a library OSU has no table of (MPICH2 1.0,
// SeaStar's Cray MPI) the registry's first algorithm runs and the header's note names that library. How validated:
// the points' "algorithm", the drivers' labels and notes; fails when the default is the registry's first algorithm
// whatever the stack.
TEST_CASE("osu collectives: a block without algorithm runs the stack's collective library", "[runner][osu_coll]") {
  Scenario native = scenario_from_json(stack_coll_scenario("native", stack_coll_allreduce()), "sc.json");
  CHECK(native.driver->label() == "osu_allreduce recursive_doubling");
  const Json native_result = run_one(native, 16, {});
  CHECK(point_algorithms(native_result) == std::vector<std::string>{"mpich_smp", "mpich_smp"});
  // its provenance has the note of the driver that ran (MPICH's table covers allreduce: none), not the parsed one's
  CHECK_FALSE(native_result["provenance"].contains("collectives"));
  Scenario linkx = scenario_from_json(stack_coll_scenario("openmpi-linkx", stack_coll_allreduce()), "sc.json");
  CHECK(linkx.driver->label() == "osu_allreduce tuned");
  for (const auto& a : point_algorithms(run_one(linkx, 16, {}))) CHECK(a != "mpich_smp");
  Scenario named = scenario_from_json(
      stack_coll_scenario("native", stack_coll_allreduce({{"algorithm", "recursive_doubling"}})), "sc.json");
  CHECK(named.driver->with_stack_collectives("mpich") == nullptr);
  CHECK(point_algorithms(run_one(named, 16, {})) ==
        std::vector<std::string>{"recursive_doubling", "recursive_doubling"});
  // The parsed driver of "native" takes MPICH's decision once the machine names it; a library OSU does not offer
  // (MPICH2 1.0, SeaStar's Cray MPI) leaves its algorithm as parsed.
  auto mpich = native.driver->with_stack_collectives("mpich");
  REQUIRE(mpich);
  CHECK(mpich->label() == "osu_allreduce mpich");
  CHECK(mpich->collectives_note().empty());  // a table covers the collective
  CHECK(named.driver->collectives_note().empty());
  auto mpich2 = native.driver->with_stack_collectives("mpich2-1.0");  // no OSU table: coll/base's, said in the header
  REQUIRE(mpich2);
  CHECK(mpich2->label() == "osu_allreduce recursive_doubling");
  CHECK_THAT(mpich2->collectives_note(), Catch::Contains("collective allreduce: no decision table of the stack's "
                                                         "library ('mpich2-1.0') covers it here, so "
                                                         "'recursive_doubling'"));
  CHECK(mpich2->with_stack_collectives("mpich2-1.0") == nullptr);
  CHECK(linkx.driver->with_stack_collectives("tuned") == nullptr);
  // What run and describe say before running (the estimate's caveat) weighs the same driver.
  CHECK(machine_collectives(native).name == "mpich");
  Scenario resolved = native;
  use_machine_collectives(resolved);
  CHECK(resolved.driver->label() == "osu_allreduce mpich");
  CHECK(native.driver->label() == "osu_allreduce recursive_doubling");  // the copy's driver only
}

// Configuration: a 16-rank trace (each rank: MPI_Allreduce of 2 doubles, then MPI_Reduce of 2 doubles to rank 3)
// replayed on Crusher at 8 ranks a node with no "collectives", on Cray MPICH and on Open MPI over LINKx, and on Cray
// MPICH with "collectives": "tuned" named; an app_skeleton block without "collectives" parsed with each preset's
// library. Expected: the replay's allreduce and reduce are MPICH's node-aware compositions on Cray MPICH; on LINKx
// coll/tuned v5's (no mpich_smp; reduce binary below 32 ranks and 4 KiB), and the same where Cray MPICH's block names
// tuned; the skeleton takes a library it offers (tuned-v1.3, mpich2-1.0) and keeps none for one it does not (tuned).
// How validated: the replay's "algorithm" rows and with_stack_collectives's result.
TEST_CASE("replay and app_skeleton: the stack's collective library is their default", "[runner][replay]") {
  const auto dir = write_trace("stackcoll", 16, "{0} init\n{0} allreduce 2 0 6\n{0} reduce 2 0 3 6\n{0} finalize\n");
  auto used = [&](const std::string& stack, const Json& extra) {
    Json b{{"name", "replay"}, {"trace", (dir / "trace.txt").string()}, {"flop_rate", "1 Gf/s"}};
    b.update(extra);
    return algorithm_rows(run_one(scenario_from_json(stack_coll_scenario(stack, b), "r.json"), 16, {}));
  };
  CHECK(used("native", Json::object()) == std::vector<std::string>{"allreduce mpich_smp", "reduce mpich_smp"});
  const std::vector<std::string> linkx = used("openmpi-linkx", Json::object());
  REQUIRE(linkx.size() == 2);
  CHECK(linkx[0] != "allreduce mpich_smp");
  CHECK(linkx[1] == "reduce binary");  // coll/tuned v5 below 32 ranks and 4 KiB
  CHECK(used("native", Json{{"collectives", "tuned"}}) == linkx);
  std::filesystem::remove_all(dir);

  const Json app{{"name", "app_skeleton"}, {"app", "POP"}};
  Scenario pop = scenario_from_json(Json{{"machine", "jaguar-xt4"}, {"stack", "native"}, {"ranks", 256},
                                         {"ranks_per_node", 2}, {"benchmark", app}},
                                    "a.json");
  CHECK(pop.driver->with_stack_collectives("mpich2-1.0") != nullptr);
  CHECK(pop.driver->with_stack_collectives("tuned") == nullptr);
  Scenario cm = scenario_from_json(Json{{"machine", "jaguar-xt4"}, {"stack", "openmpi-cm"}, {"ranks", 256},
                                        {"ranks_per_node", 2}, {"benchmark", app}},
                                   "a.json");
  CHECK(cm.driver->with_stack_collectives("tuned-v1.3") == nullptr);  // parsed with it: the preset is one per name
  CHECK(cm.driver->with_stack_collectives("mpich2-1.0") != nullptr);
}

// Configuration: osu_bcast with no "algorithm" on 16 Cielo ranks (Gemini's "openmpi" preset, trunk r26242), 16 a node,
// at 1 KiB, 4 KiB and 1 MiB, one timed call each (des engine). Expected: coll/tuned v1.3's fixed rules, which the
// trunk's decision file keeps: binomial below 2048 B; split_binary_tree with 1 KiB segments at 4 KiB; at 1 MiB on 16
// ranks (not below 3.80 nor 13 ranks, nor below 3.66 or 12.16) the pipeline with 8 KiB segments; the points name the
// algorithm and the segment size; every message is received (the run's stats). How validated: the points and the
// branches of coll_tuned_decision_fixed.c (v1.3.0); fails when Gemini's Open MPI has no library (the registry's
// first algorithm, binomial, at every size) or when segments are not passed.
TEST_CASE("osu collectives: Gemini's Open MPI runs coll/tuned v1.3's bcast with its segments", "[runner][osu_coll]") {
  using C = std::vector<std::pair<std::string, long long>>;
  CHECK(cielo_choices("osu_bcast", {1024, 4096, 1048576}) ==
        C{{"binomial", 0}, {"split_binary_tree", 1024}, {"pipeline", 8192}});
}

// Configuration: osu_reduce with no "algorithm" on 16 Cielo ranks (Gemini's "openmpi" preset, trunk r26242), 16 a
// node, at 1 KiB, 64 KiB and 256 KiB, one timed call each (des engine).
// Expected: trunk r26242's reduce decision (v1.3's but for one branch): binomial below 2048 B; at 64 KiB on 16 ranks
// the pipeline in 1 KiB segments (16 > 0.0410/1024 x 65536 + 9.7128 = 12.34); at 256 KiB the binary tree in 32 KiB
// segments (16 > 0.0422/1024 x 262144 + 1.1614 = 11.96 but not above 20.2), where v1.3 runs the pipeline; every
// message received. How validated: the points and the branches of coll_tuned_decision_fixed.c at bd8b4f7f1e.
TEST_CASE("osu collectives: Gemini's Open MPI reduces as trunk r26242 decides, in segments", "[runner][osu_coll]") {
  using C = std::vector<std::pair<std::string, long long>>;
  CHECK(cielo_choices("osu_reduce", {1024, 65536, 262144}) == C{{"binomial", 0}, {"pipeline", 1024}, {"binary", 32768}});
}

// Configuration: barrier_loop with "algorithm": "tuned" (its default) over 48, 128 and 320 ranks on Crusher's
//                openmpi-cxi (coll/tuned v5) and over 48 and 64 ranks on Cielo's openmpi (trunk r26242: v1.3's rule),
//                8 ranks a node, des engine, three timed calls.
// Expected: each point names the algorithm its stack's coll/tuned version picks for that communicator size: v5
//           recursive doubling, bruck, tree; r26242 bruck (48: not a power of two) and recursive doubling (64).
//           Every message is received and no request is left.
// How validated: the points' "algorithm", the stats' conservation counters.
TEST_CASE("stacks: barrier_loop 'tuned' decides by the stack's coll/tuned version", "[runner][stack]") {
  auto algorithms = [](const std::string& machine, const std::string& stack, const std::vector<int>& ranks) {
    const Json b{{"name", "barrier_loop"}, {"iterations", 3}, {"skip", 1}};
    Scenario s = scenario_from_json(Json{{"machine", machine}, {"stack", stack}, {"ranks", ranks},
                                         {"ranks_per_node", 8}, {"engine", "des"}, {"benchmark", b}},
                                    "b.json");
    std::vector<std::string> out;
    for (int n : ranks) {
      const Json r = run_one(s, n, {});
      CHECK(r["stats"]["sends_completed"] == r["stats"]["recvs_completed"]);
      CHECK(r["stats"]["live_requests"] == 0);
      for (const auto& a : point_algorithms(r)) out.push_back(a);
    }
    return out;
  };
  CHECK(algorithms("crusher", "openmpi-cxi", {48, 128, 320}) ==
        std::vector<std::string>{"recursive_doubling", "bruck", "tree"});
  CHECK(algorithms("cielo", "openmpi", {48, 64}) == std::vector<std::string>{"bruck", "recursive_doubling"});
}

// Configuration: a 6-rank trace (each rank: MPI_Barrier) replayed on Crusher's openmpi-cxi (coll/tuned v5), 6 ranks on
//                one node, with no "collectives".
// Expected: the barrier is v5's choice for 6 ranks, linear (v1.7-v4.0's rule would pick bruck: 6 is not a power of
//           two).
// How validated: the replay's "algorithm" row.
TEST_CASE("replay: a barrier on coll/tuned v5 takes v5's size table", "[runner][replay]") {
  const auto dir = write_trace("v5barrier", 6, "{0} init\n{0} barrier\n{0} finalize\n");
  const Json b{{"name", "replay"}, {"trace", (dir / "trace.txt").string()}, {"flop_rate", "1 Gf/s"}};
  const Json r = run_one(scenario_from_json(stack_coll_scenario("openmpi-cxi", b, 6, 6), "r.json"), 6, {});
  CHECK(algorithm_rows(r) == std::vector<std::string>{"barrier linear"});
  std::filesystem::remove_all(dir);
}
