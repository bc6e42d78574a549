// The runner's concerns apart (load: scenario.hpp, run: run.hpp, report: report.hpp, isolate: isolate.hpp), and
// determinism: the same input twice gives the same result JSON.
#include "core/errors.hpp"
#include "runner/isolate.hpp"
#include "runner/registries.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

using namespace ompisim;

namespace {
Json osu(const std::string& engine) {
  return Json{{"id", "rt"},         {"machine", "cielo"}, {"stack", "openmpi"}, {"engine", engine}, {"ranks", 4},
              {"ranks_per_node", 1}, {"benchmark", {{"name", "osu_multi_lat"}, {"sizes", {8, 4096, 65536}},
                                                   {"iterations", 10}, {"skip", 1}}}};
}
Json barrier_sweep(const std::string& engine) {
  return Json{{"id", "rb"},         {"machine", "cielo"}, {"stack", "openmpi"}, {"engine", engine}, {"ranks", {4, 8}},
              {"ranks_per_node", 1}, {"benchmark", {{"name", "barrier_loop"}, {"algorithm", "cheetah-atomic"},
                                                   {"radix", {2, 4}}, {"iterations", 5}, {"skip", 1}}}};
}
}  // namespace

// Configuration: one osu_multi_lat scenario on the DES engine, loaded, run in this process, reported.
// Expected: load gives the scenario and its driver without running anything; run_one gives one point per size with
// the result's fixed fields; the CSV has a header of the point fields (the protocol counters last) and one line per
// point; the table names the run, the protocol each size took, and prints OSU's own header. How validated: field values and text.
TEST_CASE("runner: load, run and report are separate steps", "[runner]") {
  Scenario s = scenario_from_json(osu("des"), "rt.json");
  CHECK(s.benchmark == "osu_multi_lat");
  CHECK(s.ranks == std::vector<long long>{4});
  REQUIRE(s.driver);
  Json r = run_one(s, 4, {});
  CHECK(r["scenario"] == "rt");
  CHECK(r["benchmark"] == "osu_multi_lat");
  CHECK(r["ranks"] == 4);
  REQUIRE(r["points"].size() == 3);
  CHECK(r["points"][1]["bytes"] == 4096);
  CHECK(r["points"][1]["latency_us"].get<double>() > 0);
  CHECK(r["stats"]["sends_completed"] == r["stats"]["sends_posted"]);
  CHECK(r["provenance"]["engine"] == "des");
  CHECK(r["provenance"]["scenario_file"] == "rt.json");
  std::string csv = result_csv(r);
  CHECK(csv.rfind("bytes,latency_us,counters\n8,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);
  // A nested value or a sentence with commas is one quoted cell (RFC 4180), quotes doubled.
  CHECK(csv_cell("8") == "8");
  CHECK(csv_cell(R"({"a":1,"b":2})") == R"("{""a"":1,""b"":2}")");
  CHECK(csv_cell("no phase, no routine") == "\"no phase, no routine\"");
  std::string table = result_table(r);
  // The header names the run, then that its engine (des) shares no bandwidth, then each effective value that differs
  // from its parameter (btl/ugni's SMSG limit on auto: 1 KiB for 4 ranks), then the mailboxes' memory per node, then
  // the protocol counters by size, then the benchmark's own table.
  CHECK_THAT(table, Catch::StartsWith("# ompisim osu_multi_lat on cielo (openmpi), 4 ranks\n"
                                      "# engine des: flows share no bandwidth (transfers at once each get their path's "
                                      "whole rate, so a bandwidth may exceed a link's capacity); the engines that "
                                      "share it: simgrid, fluid, lmm\n# effective values: "
                                      "btl_ugni_smsg_limit: effective 1024 B (value 0 B, 0 = auto)\n"
                                      "# mailbox memory per node (btl/ugni): SMSG limit 1024 B, one mailbox 34.1 KiB; "
                                      "to the peers connected 34.1 KiB (allocated 136.2 KiB), to every peer 102.2 KiB; "
                                      "MSGQ 102.2 KiB\n"
                                      "# protocol counters by size: 8 B ob1_MATCH, ugni_endpoints, ugni_short_sends; "
                                      "4 KiB ob1_MATCH, ugni_eager_gets; 64 KiB ob1_FIN, ob1_RGET, ugni_bte_transfers, ugni_long_gets, "
                                      "ugni_registrations, ugni_short_sends (at every size: ugni_smsg, "
                                      "ugni_smsg_local_events)\n# OSU MPI Multi Latency Test"));
  CHECK_THAT(table, Catch::Contains("4096"));
  // A machine read from another file than its shipped one (--machine-file, a copy that kept the name) is named with
  // that file; the shipped file is not named.
  Json copied = r;
  copied["provenance"]["machine_file"] = "my/cielo-copy.json";
  CHECK_THAT(result_table(copied), Catch::StartsWith("# ompisim osu_multi_lat on cielo from my/cielo-copy.json (openmpi), 4 ranks\n"));
  CHECK(r["provenance"]["machine_file"] == "models/gemini/machines/cielo.json");
  // A calibration evaluation narrows a clone of the driver: only the selected size runs, the scenario keeps its own.
  Scenario fast = s;
  auto d = s.driver->clone();
  CHECK(d->narrow_for_calibration(Json{{"bytes", 4096}}));
  // Narrowing what is already narrowed changes nothing and says so (validation's runner then reuses the full run).
  CHECK_FALSE(d->clone()->narrow_for_calibration(Json{{"bytes", 4096}}));
  CHECK(d->clone()->narrow_for_calibration(Json{{"bytes", 8}}));
  fast.driver = std::move(d);
  Json rf = run_one(fast, 4, {});
  REQUIRE(rf["points"].size() == 1);
  CHECK(rf["points"][0]["bytes"] == 4096);
  CHECK(run_one(s, 4, {})["points"].size() == 3);
}

// Configuration: a result whose points do not all carry the same keys (the first stopped by the block-means rule and
//                naming it, the second not; the second naming a composition's stages the first lacks).
// Expected:      result_csv has a column for every key of any point, in the order they first appear, and an empty
//                cell where a point lacks one (before, a key missing from a later point aborted the tool).
// How validated: the CSV text.
// Configuration: points whose keys sort before the naming ones (an algorithm, a bandwidth) and a null field (a
//                replay table's total row has no per-call time).
// Expected:      the naming columns come first (app, ranks, bytes, algorithm), then the rest; the null is an empty
//                cell, not the word null.
// How validated: the CSV text.
TEST_CASE("runner: result_csv puts the columns that name a point first and leaves a null empty", "[runner]") {
  Json r = Json::parse(R"({"points": [{"bandwidth_GBps": 2.5, "bytes": 1024, "algorithm": "ring", "ranks": 4,
                                       "app": "VH-1", "app_p2p_long_pct": null}]})");
  CHECK(result_csv(r) == "app,ranks,bytes,algorithm,app_p2p_long_pct,bandwidth_GBps\nVH-1,4,1024,ring,,2.5\n");
}

TEST_CASE("runner: result_csv takes the columns of every point", "[runner]") {
  Json r = Json::parse(R"({"points": [{"bytes": 8, "latency_us": 1.5, "steady_state_rule": "block_means"},
                                      {"bytes": 65536, "latency_us": 2, "stages": {"node": "binomial"}}]})");
  CHECK(result_csv(r) == "bytes,latency_us,steady_state_rule,stages\n8,1.5,block_means,\n"
                         "65536,2,,\"{\"\"node\"\":\"\"binomial\"\"}\"\n");
}

// Configuration: a result of two rank counts (4, 8) with two points each that do not carry "ranks"; the same with
//                points that carry it; one count; three points for two counts.
// Expected:      points_with_ranks gives each point the count of its block (4, 4, 8, 8), and result_csv has a "ranks"
//                column with them; points that carry "ranks", a single count or an uneven split are left as they are.
// How validated: the points' fields and the CSV text.
TEST_CASE("runner: a rank sweep's points take their count from the result's ranks", "[runner]") {
  Json r = Json::parse(R"({"ranks": [4, 8],
                            "points": [{"bytes": 8, "latency_us": 1}, {"bytes": 16, "latency_us": 2},
                                       {"bytes": 8, "latency_us": 3}, {"bytes": 16, "latency_us": 4}]})");
  Json p = points_with_ranks(r);
  REQUIRE(p.size() == 4);
  CHECK(p[0]["ranks"] == 4);
  CHECK(p[1]["ranks"] == 4);
  CHECK(p[2]["ranks"] == 8);
  CHECK(p[3]["ranks"] == 8);
  CHECK(result_csv(r) == "ranks,bytes,latency_us\n4,8,1\n4,16,2\n8,8,3\n8,16,4\n");
  Json own = r;
  for (auto& q : own["points"]) q["ranks"] = 2;
  CHECK(points_with_ranks(own) == own["points"]);
  Json one = r;
  one["ranks"] = 4;
  CHECK(points_with_ranks(one) == r["points"]);
  Json uneven = r;
  uneven["points"].erase(3);
  CHECK(points_with_ranks(uneven) == uneven["points"]);
}

// Configuration: a barrier sweep (ranks 4 and 8 x radix 2 and 4) run by run_scenario (each point in its own
// process), and each point run alone with run_one. Expected: the merged result holds the four points in order (rank
// count, then radix), each equal to the point of its own run; "ranks" and "radix" list the sweep; no "stats".
// How validated: JSON equality point by point.
TEST_CASE("runner: a sweep runs each point in its own process and the report merges them", "[runner]") {
  Scenario s = scenario_from_json(barrier_sweep("des"), "rb.json");
  Json merged = run_scenario(s, {});
  CHECK(merged["ranks"] == Json({4, 8}));
  CHECK(merged["radix"] == Json({2, 4}));
  CHECK_FALSE(merged.contains("stats"));
  REQUIRE(merged["points"].size() == 4);
  std::size_t i = 0;
  for (long long n : {4, 8})
    for (std::size_t k = 0; k < 2; ++k) {
      Scenario one = s;
      auto d = s.driver->clone();
      d->select(k);
      one.driver = std::move(d);
      Json r = run_one(one, n, {});
      INFO(n << " ranks, radix index " << k);
      CHECK(r["points"][0] == merged["points"][i]);
      CHECK(r["points"][0]["radix"] == (k == 0 ? 2 : 4));
      CHECK(r["points"][0]["ranks"] == n);
      ++i;
    }
  std::string table = result_table(merged);
  CHECK_THAT(table, Catch::Contains("Radix"));
}

// Configuration: an osu_multi_lat result over two rank counts (4 and 8, as run_scenario merges them): the SMSG limit's
// effective value differs between them (1,024 and 512 B: provenance.derived has one entry per count, with its
// "ranks"), the fragment count does not, and each size's points carry counters. Expected: the shared value is printed
// once above; under "# 4 ranks" and "# 8 ranks" each count's own effective value and its protocol counters by size.
// How validated: the table's text.
TEST_CASE("runner: a result of several rank counts names each count's effective values and counters", "[runner]") {
  Json r = {{"benchmark", "osu_multi_lat"}, {"machine", "titan"}, {"stack", "openmpi"}, {"ranks", {4, 8}}};
  r["provenance"] = {{"mca", {{"btl_ugni_smsg_limit", "0 B"}, {"btl_ugni_eager_max", "32"}}},
                     {"derived", Json::array({Json{{"btl_ugni_smsg_limit (effective)", 1024.0}, {"ranks", 4}},
                                              Json{{"btl_ugni_smsg_limit (effective)", 512.0}, {"ranks", 8}}})}};
  auto pt = [](double bytes, const char* counter) {
    return Json{{"bytes", bytes}, {"latency_us", 2.0}, {"counters", {{counter, 10u}, {"ugni_smsg", 10u}}}};
  };
  r["points"] = {pt(8, "ugni_short_sends"), pt(1024, "ugni_short_sends"), pt(8, "ugni_short_sends"),
                 pt(1024, "ugni_eager_gets")};
  const std::string t = result_table(r);
  CHECK_THAT(t, Catch::Contains("# 4 ranks\n# effective values: btl_ugni_smsg_limit: effective 1024 B (value 0 B, "
                                "0 = auto)\n# protocol counters by size: "));
  CHECK_THAT(t, Catch::Contains("# 8 ranks\n# effective values: btl_ugni_smsg_limit: effective 512 B (value 0 B, "
                                "0 = auto)\n# protocol counters by size: 8 B ugni_short_sends; 1 KiB ugni_eager_gets"));
}

// Configuration: Fig. 9's raw QDMA program (native/elan4_qdma on osu-elan4: 2 KiB slots, elan4_qdma_extra_bytes 64)
// with sizes up to 4096 B, up to 1984 B, and up to 1984 B with the slot lowered or raised by --set.
// Expected: check_run_input (what a run decides before it builds anything to simulate) refuses a largest size that
// does not fit one slot with its extra bytes, naming the scenario file, benchmark.sizes, the size, the slot and where
// the slot's value comes from (the machine file's source, or --set); sizes that fit pass. How validated: the error's
// file, key and text; no exception where the sizes fit.
TEST_CASE("runner: a size over the QDMA slot is refused before the run by native/elan4_qdma's check", "[runner][qsnet]") {
  Scenario s = load_scenario("scenarios/qsnet/fig9_qdma.json");
  Json j = s.benchmark_block;
  j["sizes"] = {0, 1984, 4096};
  Json sj = load_json_file(s.file);
  sj["benchmark"] = j;
  Scenario big = scenario_from_json(sj, "qdma.json");
  try {
    check_run_input(big, {});
    FAIL("a 4096 B message was not refused before the run");
  } catch (const InputError& e) {
    CHECK(e.file() == "qdma.json");
    CHECK(e.key() == "benchmark.sizes");
    CHECK_THAT(e.reason(), Catch::Contains("2048-byte slot; 4096 B + elan4_qdma_extra_bytes 64 B do not fit") &&
                               Catch::Contains("nic.qdma_slot_bytes of machine osu-elan4, "
                                               "models/qsnet/machines/osu-elan4.json: paper §3.1"));
  }
  CHECK_NOTHROW(check_run_input(s, {}));  // the committed sizes, up to 1984 B: 2048 B with the extra 64
  CHECK_THROWS_WITH(check_run_input(s, {{"nic.qdma_slot_bytes", "2047"}}),
                    Catch::Contains("key 'benchmark.sizes'") && Catch::Contains("1984 B + elan4_qdma_extra_bytes 64 B") &&
                        Catch::Contains("machine osu-elan4, set by --set"));
  CHECK_NOTHROW(check_run_input(big, {{"nic.qdma_slot_bytes", "4160"}}));
}

// Configuration: results whose points record calls_simulated (12 at every point; 2 and 3), and one whose points do not.
// Expected:      the table's header line says the calls simulated ("12 at every point", "2 to 3 by point") and the
//                cutoff that decides them; nothing without the field.
// How validated: calls_note's text.
TEST_CASE("runner: the table says how many calls the steady-state cutoff simulated", "[runner]") {
  const Json all12{{"points", {{{"ranks", 64}, {"calls_simulated", 12}}, {{"ranks", 128}, {"calls_simulated", 12}}}}};
  CHECK_THAT(calls_note(all12), Catch::StartsWith("calls simulated, warm-up included: 12 at every point (the "
                                                  "steady-state cutoff"));
  const Json mixed{{"points", {{{"bytes", 4096}, {"calls_simulated", 3}}, {{"bytes", 65536}, {"calls_simulated", 2}}}}};
  CHECK_THAT(calls_note(mixed), Catch::Contains(": 2 to 3 by point ("));
  const Json none{{"points", {{{"bytes", 8}, {"latency_us", 1.5}}}}};
  CHECK(calls_note(none).empty());
}

// Configuration: MCA values a component refuses when it is built, each given by --set to a committed scenario of its
//                stack: btl/portals' eager limit above its max send size (ob1 on Red Storm), mtl/portals' eager limit
//                above its unexpected short block (cm), Cray MPI's short limit above half its unexpected buffer
//                (native), MPICH-QsNetII's eager limit over one QDMA packet, ptl/elan4's one-thread progress with two
//                completion queues, LINKx's shm inject size below cxi's (openmpi-linkx on Crusher), and btl/ugni's
//                SMSG limit below its control messages (openmpi on Cielo).
// Expected: check_run_input (what a run and every point of a sweep decide before simulating) refuses each, naming
//           --set and the MCA parameter, through the component's registry check; the same value in the scenario's
//           "mca" block is named with the scenario file and key mca.<name>; the committed values pass.
// How validated: the error's file, key and words; no exception for the scenarios as committed.
TEST_CASE("runner: MCA values a component cannot run are refused before anything is simulated", "[runner]") {
  struct Case {
    const char* scenario;
    Overrides sets;
    const char* error_key;
    const char* words;
  };
  const Case cases[] = {
      {"scenarios/seastar/fig2_netpipe_openmpi-ob1.json", {{"btl_portals_eager_limit", "65536"}},
       "btl_portals_eager_limit", "exceeds btl_portals_max_send_size"},
      {"scenarios/seastar/fig2_netpipe_openmpi-cm.json",
       {{"mtl_portals_eager_limit", "131072"}, {"mtl_portals_short_block_size", "65536"}},
       "mtl_portals_short_block_size", "cannot hold one short message"},
      {"scenarios/seastar/fig2_netpipe_native.json", {{"mpich_unex_buffer_size", "131072"}},
       "mpich_unex_buffer_size", "cannot hold one short message"},
      {"scenarios/qsnet/fig10_bw_native.json", {{"mpich_qsnet_eager_limit", "4096"}}, "mpich_qsnet_eager_limit",
       "exceeds one packet"},
      {"scenarios/qsnet/fig10_bw_openmpi.json",
       {{"ptl_elan4_progress", "one_thread"}, {"ptl_elan4_completion_queue", "two"}}, "ptl_elan4_completion_queue",
       "needs ptl_elan4_completion_queue one"},
      {"scenarios/slingshot/fig5_latency_inter_h2h_openmpi-linkx.json", {{"shm_inject_size", "8"}},
       "shm_inject_size", "below the LINKx endpoint's inject size"},
      {"scenarios/gemini/fig5_latency_2p_inter_openmpi.json", {{"btl_ugni_smsg_limit", "64"}}, "btl_ugni_smsg_limit",
       "below the 80 B of btl/ugni's largest control message"},
  };
  for (const Case& c : cases) {
    INFO(c.scenario << " --set " << c.sets.back().first << "=" << c.sets.back().second);
    const Scenario s = load_scenario(c.scenario);
    CHECK_NOTHROW(check_run_input(s, {}));
    try {
      check_run_input(s, c.sets);
      FAIL_CHECK("not refused before the run");
    } catch (const InputError& e) {
      CHECK(e.file() == "--set");
      CHECK(e.key() == c.error_key);
      CHECK_THAT(e.reason(), Catch::Contains(c.words));
    }
  }
  Scenario s = load_scenario("scenarios/seastar/fig2_netpipe_openmpi-ob1.json");
  s.mca = Json{{"btl_portals_eager_limit", "65536 B"}};
  try {
    check_run_input(s, {});
    FAIL_CHECK("the scenario's mca value not refused before the run");
  } catch (const InputError& e) {
    CHECK(e.file() == s.file);
    CHECK(e.key() == "mca.btl_portals_eager_limit");
  }
}

// Configuration: the same osu_multi_lat scenario and the same barrier sweep, each run twice on SimGrid through
// run_isolated (as `ompisim run` does). Expected: byte-identical result JSON. How validated: string equality.
TEST_CASE("runner: the same input twice gives the same result JSON", "[runner][determinism]") {
  for (const Json& j : {osu("simgrid"), barrier_sweep("simgrid")}) {
    Scenario s = scenario_from_json(j, "det.json");
    std::string a = run_isolated([&] { return run_scenario(s, {}).dump(); });
    std::string b = run_isolated([&] { return run_scenario(s, {}).dump(); });
    CHECK(a.size() > 100);
    CHECK(a == b);
  }
}

// Configuration: an InputError about a file's key and one about a command's argument (InputError::of_argument),
// each thrown in run_isolated's child process (in this process under OMPISIM_NO_FORK=1). Expected: the parent
// rethrows each with its file, key and reason, and with its text: "f.json: key 'ranks': ..." and "describe 'foo':
// ...". How validated: the fields and what().
TEST_CASE("runner: run_isolated rebuilds an input error as the child threw it", "[runner]") {
  try {
    run_isolated([]() -> std::string { throw InputError("f.json", "ranks", "too many"); });
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "f.json: key 'ranks': too many");
    CHECK(!e.argument());
  }
  try {
    run_isolated([]() -> std::string { throw InputError::of_argument("describe", "foo", "not a machine"); });
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "describe 'foo': not a machine");
    CHECK(e.argument());
    CHECK(e.file() == "describe");
    CHECK(e.key() == "foo");
  }
  const InputError option("--samples", "-1", "must be 0 to 1000");
  CHECK(std::string(option.what()) == "--samples '-1': must be 0 to 1000");
  CHECK(option.argument());
  try {
    run_isolated([]() -> std::string { throw InputError("--samples", "-1", "must be 0 to 1000"); });
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "--samples '-1': must be 0 to 1000");
    CHECK(e.argument());
  }
}

// Configuration: five pieces of work run by run_isolated_each two at a time, the first slow (150 ms), each returning
// its index and its process id; then the same with the third throwing an InputError while the first (10 s) still runs.
// Expected: every piece started in index order and done once, in another process each, two at once (the second done
// before the first); with jobs 1 done in index order. On the error: the InputError rethrown as the child threw it, the
// slow piece killed (the call returns well before its 10 s), the pieces after it never started, and no child left.
// How validated: the started and done lists, the texts, wall time, waitpid.
TEST_CASE("runner: run_isolated_each runs several children at once and stops them on an error", "[runner][isolate]") {
  const pid_t me = getpid();
  auto work = [me](std::size_t i) {
    if (i == 0) usleep(150000);
    return std::to_string(i) + ":" + std::to_string(getpid() != me);
  };
  for (int jobs : {1, 2}) {
    std::vector<std::size_t> started, done;
    std::vector<std::string> texts(5);
    run_isolated_each(5, work, jobs, [&](std::size_t i) { started.push_back(i); },
                      [&](std::size_t i, const std::string& t) { done.push_back(i), texts[i] = t; });
    CHECK(started == std::vector<std::size_t>{0, 1, 2, 3, 4});
    CHECK(texts == std::vector<std::string>{"0:1", "1:1", "2:1", "3:1", "4:1"});
    std::vector<std::size_t> sorted = done;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == std::vector<std::size_t>{0, 1, 2, 3, 4});
    if (jobs == 1) CHECK(done == std::vector<std::size_t>{0, 1, 2, 3, 4});
    else CHECK(done.front() != 0);  // the second finished while the slow first ran
  }
  std::vector<std::size_t> started;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    run_isolated_each(
        5,
        [](std::size_t i) -> std::string {
          if (i == 0) sleep(10);
          if (i == 2) throw InputError("f.json", "ranks", "too many");
          return "x";
        },
        2, [&](std::size_t i) { started.push_back(i); }, [](std::size_t, const std::string&) {});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "f.json: key 'ranks': too many");
  }
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));  // killed, not waited for (10 s)
  CHECK(started == std::vector<std::size_t>{0, 1, 2});
  errno = 0;
  CHECK(waitpid(-1, nullptr, WNOHANG) == -1);  // no child left to reap
  CHECK(errno == ECHILD);
}

// Configuration: a scenario naming an engine that is not registered. Expected: InputError on "engine" listing the
// registered engines. How validated: the error text.
TEST_CASE("runner: the engine is looked up in the engine registry", "[runner]") {
  Json j = osu("simgird");
  CHECK_THROWS_WITH(scenario_from_json(j, "e.json"),
                    Catch::Contains("key 'engine'") && Catch::Contains("simgrid") && Catch::Contains("des") &&
                        Catch::Contains("fluid"));
  CHECK(engines().find("des")->make()->name() == "des");
  // The fluid engine is registered, makes itself, and shares bandwidth (so it may carry a neighbour job's streams).
  REQUIRE(engines().find("fluid"));
  CHECK(engines().find("fluid")->make()->name() == "fluid");
  CHECK(engines().find("fluid")->shares_bandwidth);
  CHECK(engines().find("fluid")->make()->shares_bandwidth());
}

// Configuration: work run in a child process that returns text, throws an InputError, throws another error, or
// dies. Expected: the text; the same InputError (file, key, reason); a runtime_error with the message; a
// runtime_error saying the process died. How validated: return value and exception contents.
TEST_CASE("runner: run_isolated returns the child's output and rethrows its errors", "[runner][isolate]") {
  CHECK(run_isolated([] { return std::string("hello") + std::to_string(getpid() != 0); }) == "hello1");
  const pid_t me = getpid();
  CHECK(run_isolated([me] { return std::to_string(getpid() != me); }) == "1");  // it ran in another process
  try {
    run_isolated([]() -> std::string { throw InputError("f.json", "benchmark.sizes", "bad size"); });
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "f.json");
    CHECK(e.key() == "benchmark.sizes");
    CHECK(e.reason() == "bad size");
  }
  CHECK_THROWS_WITH(run_isolated([]() -> std::string { throw std::runtime_error("boom"); }), "boom");
  CHECK_THROWS_WITH(run_isolated([]() -> std::string { std::_Exit(9); }), Catch::Contains("died"));
}

// Configuration: IsolatedWorker children forked before their input exists (as an MPI sweep forks its point runner
// before MPI_Init): state changed in the parent after the fork, an input handed over later, an InputError, a worker
// destroyed unused. Expected: the child ran fn(input) in another process with the memory of the fork's moment; errors
// come back as from run_isolated; an unused worker is killed and reaped (no zombie left). How validated: return
// values, exception contents, waitpid on the reaped pid (ECHILD).
TEST_CASE("runner: IsolatedWorker runs its input later, in a child forked earlier", "[runner][isolate]") {
  int later = 1;
  const pid_t me = getpid();
  IsolatedWorker w([&](const std::string& in) {
    return in + ":" + std::to_string(later) + ":" + std::to_string(getpid() != me);
  });
  later = 2;  // after the fork: the child does not see it
  CHECK(w.run("0/3") == "0/3:1:1");
  CHECK_THROWS_AS(w.run("again"), std::logic_error);
  IsolatedWorker bad([](const std::string& in) -> std::string { throw InputError("g.json", in, "refused"); });
  try {
    bad.run("axes.x");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "g.json");
    CHECK(e.key() == "axes.x");
    CHECK(e.reason() == "refused");
  }
  int pid = 0;
  {
    IsolatedWorker unused([](const std::string&) { return std::string("never"); });
    pid = unused.pid();
    CHECK(pid > 0);
  }
  CHECK(waitpid(pid, nullptr, WNOHANG) == -1);
  CHECK(errno == ECHILD);
}

// Configuration: a result whose provenance records --set overrides by a parameter's full name, its short name
// (bte_bandwidth), its long name (networks.gemini.nic.amo_latency), an MCA name, and a short name two parameters end
// with. Expected: each note shows the value the run used where its text differs from the one given; a short or long
// name also names the parameter it set, as provenance.parameters names it; an ambiguous one (which --set refuses)
// names none. How validated: the notes' text.
TEST_CASE("runner: the overrides line names the parameter a short or long --set name set", "[runner]") {
  Json res;
  res["provenance"]["overrides"] = Json::array({Json::array({"nic.bte_bandwidth", "5 GB/s"}),
                                                Json::array({"bte_post_latency", "2us"}),
                                                Json::array({"networks.gemini.nic.amo_latency", "1us"}),
                                                Json::array({"btl_ugni_smsg_limit", "4096"}),
                                                Json::array({"latency", "1us"})});
  res["provenance"]["parameters"] = {{"nic.bte_bandwidth", "5 GB/s"},
                                     {"nic.bte_post_latency", "2 us"},
                                     {"nic.amo_latency", "1 us"},
                                     {"nic.latency", "1 us"},
                                     {"node.latency", "1 us"}};
  res["provenance"]["mca"] = {{"btl_ugni_smsg_limit", "4096 B"}};
  const std::vector<std::string> notes = override_notes(res);
  REQUIRE(notes.size() == 5);
  CHECK(notes[0] == "nic.bte_bandwidth=5 GB/s");  // the value read is the text given: not repeated
  CHECK(notes[1] == "bte_post_latency=2us (nic.bte_post_latency = 2 us)");
  CHECK(notes[2] == "networks.gemini.nic.amo_latency=1us (nic.amo_latency = 1 us)");
  CHECK(notes[3] == "btl_ugni_smsg_limit=4096 (4096 B)");
  CHECK(notes[4] == "latency=1us");
}

// Configuration: openmpi on Cielo, 2 ranks on 2 nodes; rank 1 posts a 4 KiB receive from rank 0 that rank 0 never
// sends, and one matched 8 B exchange completes; the engine runs dry. Then the same pair with the receive matched.
// Expected: the stack reports 1 live request, and require_conservation throws a runtime_error (exit 3) naming the
// scenario, "1 of 2 receives incomplete", "0 of 1 sends" and the --set values; once every request completes it
// throws nothing. How validated: the stack's own statistics and the message.
TEST_CASE("runner: a run that ends with a live request is an error naming the counts and the --set values",
          "[runner][conservation]") {
  test::Fixture f("cielo", 2, 1, "openmpi");
  int done = 0;
  f.stack->irecv(1, 0, 9, 4096, Buffer{1 << 20, true}, [&] { ++done; });
  f.stack->irecv(1, 0, 5, 8, Buffer{1 << 20, true}, [&] { ++done; });
  f.stack->isend(0, 1, 5, 8, Buffer{4096, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  const StackStats st = f.stack->stats();
  REQUIRE(st.live_requests == 1);
  const Overrides sets{{"mca.btl_ugni_smsg_limit", "8"}};
  try {
    require_conservation(st, "stalled", sets);
    FAIL("a live request passed");
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("scenario stalled"));
    CHECK_THAT(m, Catch::Contains("0 of 1 sends and 1 of 2 receives incomplete"));
    CHECK_THAT(m, Catch::Contains("--set mca.btl_ugni_smsg_limit=8"));
    CHECK_THAT(m, Catch::Contains("no result is written"));
  }
  f.stack->isend(0, 1, 9, 4096, Buffer{4096, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 4);
  CHECK(f.stack->stats().live_requests == 0);
  CHECK_NOTHROW(require_conservation(f.stack->stats(), "stalled", sets));
}

// Configuration: IMB Reduce (MPI_FLOAT) on 9 ranks of the heterogeneous cluster (Opteron and G5 nodes: receivers
// convert the other architecture's floats) with the two Rabenseifner reduces, 8 B (2 elements: below pof2, the basic
// reduce), 4 KiB and 4,100 B (1,025 elements, odd halves). Expected: both runs finish with a point per size (before,
// the generators split bytes, and the executor stopped the run on a 2-byte part of an MPI_FLOAT: exit 3, found by
// tests/fuzz/probe_algorithms.py). How validated: run_one's points.
TEST_CASE("runner: IMB Reduce with a Rabenseifner reduce runs on the heterogeneous cluster", "[runner]") {
  for (const char* algo : {"rabenseifner", "mpich_reduce_scatter_gather"}) {
    INFO(algo);
    const Scenario s = scenario_from_json(
        Json{{"machine", "hetero-cpu"}, {"stack", "openmpi"}, {"ranks", 9}, {"ranks_per_node", 1},
             {"benchmark", {{"name", "imb_reduce"}, {"algorithm", algo}, {"sizes", {8, 4096, 4100}}, {"repetitions", 2}}}},
        "imb.json");
    const Json r = run_one(s, 9, {});
    REQUIRE(r["points"].size() == 3);
    for (const auto& p : r["points"]) CHECK(p["latency_us"].get<double>() > 0);
  }
}

// Configuration: five osu_latency points whose counters name SMSG sends (0, 512 B, the first with two endpoints set
//                up), eager gets (1 KiB), an RGET with long gets (8 KiB, 16 KiB); the same points over two rank
//                counts (sizes repeat); points without counters.
// Expected:      the ranges "0 B .. 512 B" (the endpoints, 2 of 20,200, under 1 % of that size's largest, left out),
//                "1 KiB", "8 KiB .. 16 KiB", each with its own counters, and the one that moves at every size said after;
//                nothing for repeated sizes or points without counters. Counters in nanoseconds are measured
//                against each other, not against message counts.
// How validated: the text.
// Configuration: a result of the openmpi-ob1 preset on SeaStar whose provenance.mca holds the preset's three defaults
//                (peer window 1, SEND_END events, early completion), the same with the window set back to 0, and a
//                result of a preset that sets none (openmpi on Gemini).
// Expected:      the three named, in the preset's order; with the window at 0 the two others only; none for openmpi.
// How validated: the note's text.
TEST_CASE("runner: the run's header names the MCA defaults its stack preset sets", "[runner]") {
  Json res{{"stack", "openmpi-ob1"},
           {"provenance", {{"mca", {{"btl_portals_peer_window", "1"}, {"btl_portals_send_end_event", "1"},
                                    {"pml_ob1_use_early_completion", "1"}, {"btl_portals_eager_limit", "32768 B"}}}}}};
  CHECK(preset_mca_note(res) == "stack preset openmpi-ob1 sets: btl_portals_peer_window=1, "
                                "btl_portals_send_end_event=1, pml_ob1_use_early_completion=1 (not its components' "
                                "defaults: `ompisim describe openmpi-ob1` gives each one's source)");
  res["provenance"]["mca"]["btl_portals_peer_window"] = "0";
  CHECK(preset_mca_note(res).find("sets: btl_portals_send_end_event=1, pml_ob1_use_early_completion=1 (") !=
        std::string::npos);
  Json plain{{"stack", "openmpi"}, {"provenance", {{"mca", {{"btl_ugni_smsg_limit", "0 B"}}}}}};
  CHECK(preset_mca_note(plain).empty());
}

TEST_CASE("runner: points_protocols names the protocol counters by size range", "[runner]") {
  Json pts = Json::parse(R"([
    {"bytes": 0, "counters": {"ob1_MATCH": 20200, "ugni_endpoints": 2, "ugni_short_sends": 20200, "ugni_smsg": 20200}},
    {"bytes": 512, "counters": {"ob1_MATCH": 20200, "ugni_short_sends": 20200, "ugni_smsg": 20200}},
    {"bytes": 1024, "counters": {"ob1_MATCH": 20200, "ugni_eager_gets": 20200, "ugni_smsg": 40400}},
    {"bytes": 8192, "counters": {"ob1_RGET": 2020, "ugni_long_gets": 2020, "ugni_smsg": 4040}},
    {"bytes": 16384, "counters": {"ob1_RGET": 2020, "ugni_long_gets": 2020, "ugni_smsg": 4040}}])");
  CHECK(points_protocols(pts) == "0 B .. 512 B ob1_MATCH, ugni_short_sends; 1 KiB ob1_MATCH, ugni_eager_gets; "
                                 "8 KiB .. 16 KiB ob1_RGET, ugni_long_gets (at every size: ugni_smsg)");
  Json twice = pts;
  for (const auto& p : pts) twice.push_back(p);
  CHECK(points_protocols(twice).empty());
  // sizes given in another order: the same line, by size
  Json reversed = Json::array();
  for (auto it = pts.rbegin(); it != pts.rend(); ++it) reversed.push_back(*it);
  CHECK(points_protocols(reversed) == points_protocols(pts));
  CHECK(points_protocols(Json::parse(R"([{"bytes": 8, "latency_us": 1.5}])")).empty());
  // one size: its counters are named with it, none "at every size"
  CHECK(points_protocols(Json::parse(R"([{"bytes": 1, "counters": {"ob1_MATCH": 650, "ugni_credit_waits": 320}}])")) ==
        "1 B ob1_MATCH, ugni_credit_waits");
  // a time in nanoseconds (ptl/elan4's layer_pml_ns, 1e5 to 1.6e7) is not measured against message counts (210): the
  // eager / rendezvous switch stays visible
  Json elan = Json::parse(R"([
    {"bytes": 4, "counters": {"layer_pml_ns": 105000, "ptl_elan4_eager": 210}},
    {"bytes": 1984, "counters": {"layer_pml_ns": 2100000, "ptl_elan4_eager": 210}},
    {"bytes": 4096, "counters": {"layer_pml_ns": 16000000, "ptl_elan4_rendezvous": 210, "elan4_rdma_reads": 210}}])");
  CHECK(points_protocols(elan) == "4 B .. 1984 B ptl_elan4_eager; 4 KiB elan4_rdma_reads, ptl_elan4_rendezvous "
                                  "(at every size: layer_pml_ns)");
}

// Configuration: the provenance of a radix list's result (a list of two runs' derived values, the SMSG limit on auto
//                resolved to 1024 B by both) and of a rank list's (1024 B at 1,024 ranks, 256 B at 32,768).
// Expected:      the radix list has the one effective value, and its note says it; the rank list's runs differ, so
//                no single value is named.
// How validated: effective_values and effective_notes.
TEST_CASE("runner: a result of several runs names the effective value they share", "[runner]") {
  Json res = Json::parse(R"J({"provenance": {"mca": {"btl_ugni_smsg_limit": "0 B"},
      "derived": [{"btl_ugni_smsg_limit (effective)": 1024, "ranks": 64}, {"btl_ugni_smsg_limit (effective)": 1024, "ranks": 64}]}})J");
  const auto v = effective_values(res);
  REQUIRE(v.size() == 1);
  CHECK(v[0].used == 1024);
  CHECK(effective_notes(res) == std::vector<std::string>{"btl_ugni_smsg_limit: effective 1024 B (value 0 B, 0 = auto)"});
  res["provenance"]["derived"][1] = Json{{"btl_ugni_smsg_limit (effective)", 256}, {"ranks", 32768}};
  CHECK(effective_values(res).empty());
}

// Configuration: a result whose btl/ugni eager-get pool count was capped (btl_ugni_eager_num 128 given, 64 used: the
//                pool's maximum), a count rather than a size.
// Expected: the note names the count without a byte unit, and the cap.
// How validated: effective_notes' text.
TEST_CASE("runner: an effective count is shown as a count", "[runner]") {
  const Json res = Json::parse(R"J({"provenance": {"mca": {"btl_ugni_eager_num": "128"},
      "derived": {"btl_ugni_eager_num (effective)": 64,
                  "btl_ugni_eager_num (capped by)": "btl_ugni_eager_max (64): free lists"}}})J");
  CHECK(effective_notes(res) ==
        std::vector<std::string>{"btl_ugni_eager_num: effective 64 (value 128, capped by btl_ugni_eager_max (64))"});
}

// Configuration: a result of two rank counts (provenance.derived a list, one entry per count) whose btl_ugni_smsg_limit
//                (4096 B given) both runs capped at btl_ugni_eager_limit (1024 B).
// Expected: the shared header note names the cap, as for one rank count, and the --set warning is given.
// How validated: effective_notes' and override_warnings' text.
TEST_CASE("runner: a capped value shared by several rank counts names its cap", "[runner]") {
  const Json one = Json::parse(R"J({"btl_ugni_smsg_limit (effective)": 1024,
      "btl_ugni_smsg_limit (capped by)": "btl_ugni_eager_limit (1024 B): no fragment larger than the eager limit reaches SMSG"})J");
  Json res{{"provenance", {{"mca", {{"btl_ugni_smsg_limit", "4096 B"}}},
                           {"overrides", Json::array({Json::array({"btl_ugni_smsg_limit", "4096"})})},
                           {"derived", Json::array()}}}};
  for (int r : {2, 4}) {
    Json d = one;
    d["ranks"] = r;
    res["provenance"]["derived"].push_back(d);
  }
  CHECK(effective_notes(res) == std::vector<std::string>{
            "btl_ugni_smsg_limit: effective 1024 B (value 4096 B, capped by btl_ugni_eager_limit (1024 B))"});
  const auto w = override_warnings(res);
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("the run used 1024 (capped by btl_ugni_eager_limit (1024 B)"));
}

// Configuration: osu_latency between one rank in each of crusher's 2 dragonfly groups (nodes 0 and 128) under
// "routing" valiant, ugal and minimal, and on frontier (74 groups) under valiant.
// Expected: on 2 groups Valiant has no intermediate group and UGAL no Valiant candidate: each run's provenance says so
// ("routing_note"), and Valiant's latency equals minimal's; minimal has no note, nor Valiant on 74 groups.
// How validated: the result's provenance and latencies.
TEST_CASE("runner: a route policy that a dragonfly of 2 groups reduces to minimal routes says so", "[runner][routing]") {
  auto run = [](const std::string& machine, const std::string& routing, const Json& nodes) {
    Json j{{"machine", machine}, {"stack", "openmpi-cxi"}, {"ranks", 2}, {"ranks_per_node", 1}, {"nodes", nodes},
           {"routing", routing}, {"benchmark", {{"name", "osu_latency"}, {"sizes", {8}}}}};
    return run_one(scenario_from_json(j, "s.json"), 2, {});
  };
  const Json v = run("crusher", "valiant", Json{0, 128}), u = run("crusher", "ugal", Json{0, 128});
  const Json m = run("crusher", "minimal", Json{0, 128});
  REQUIRE(v["provenance"].contains("routing_note"));
  CHECK_THAT(v["provenance"]["routing_note"].get<std::string>(), Catch::Contains("2 groups there is no intermediate group"));
  REQUIRE(u["provenance"].contains("routing_note"));
  CHECK_THAT(u["provenance"]["routing_note"].get<std::string>(), Catch::Contains("no Valiant route between groups"));
  CHECK_FALSE(m["provenance"].contains("routing_note"));
  CHECK(v["points"][0]["latency_us"] == m["points"][0]["latency_us"]);
  CHECK_FALSE(run("frontier", "valiant", Json{0, 9000})["provenance"].contains("routing_note"));
}

// Configuration: three result point lists: one algorithm at every size; a library's choice per size (8 B and 4 KiB
// recursive doubling, 64 KiB and 1 MiB ring, 4 MiB recursive doubling again); a point without an algorithm.
// Expected: the first has no by-size line (points_algorithm names it); the second groups consecutive sizes, a later
// return to an algorithm its own group; the third none.
// How validated: the strings.
TEST_CASE("report: the algorithm a library chose at each size is named by size ranges", "[runner][report]") {
  auto pts = [](std::initializer_list<std::pair<long long, const char*>> l) {
    Json a = Json::array();
    for (auto& [b, n] : l) a.push_back(n ? Json{{"bytes", b}, {"algorithm", n}} : Json{{"bytes", b}});
    return a;
  };
  CHECK(points_algorithms_by_size(pts({{8, "ring"}, {1024, "ring"}})).empty());
  CHECK(points_algorithms_by_size(pts({{8, "rd"}, {4096, "rd"}, {65536, "ring"}, {1048576, "ring"}, {4194304, "rd"}})) ==
        "8 B .. 4 KiB rd; 64 KiB .. 1 MiB ring; 4 MiB rd");
  CHECK(points_algorithms_by_size(pts({{8, "rd"}, {16, nullptr}})).empty());
}
