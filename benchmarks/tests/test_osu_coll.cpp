// The OSU collective drivers' steady-state cutoff (benchmarks/osu_coll.cpp): once two consecutive calls agree for
// every rank, or the means of two consecutive blocks of calls agree, the calls left of a size are not simulated.
#include "benchmarks/driver.hpp"
#include "benchmarks/osu_block.hpp"
#include "runner/isolate.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
Json run_coll(const std::string& bench, long long large, const Json& extra) {
  Json block{{"name", bench}, {"sizes", {1, large}}, {"iterations", 40}, {"skip", 5}};
  for (auto& [k, v] : extra.items()) block[k] = v;
  Scenario s = scenario_from_json(
      Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 16}, {"ranks_per_node", 4}, {"benchmark", block}},
      "coll.json");
  test::Fixture f("cielo", 16, 4, "openmpi");
  return s.driver->run(*f.world, *f.stack, "coll.json");
}
}  // namespace

// Configuration: osu_bcast (1 B and 64 KiB) and osu_alltoall (1 B and 4 KiB) on 16 Cielo ranks (4 per node, DES
// engine), 40 timed calls after 5 warm-up calls; once with "steady_state": 0 (every call simulated) and once with the
// default (1e-3). (With Cielo's current calibration, osu_alltoall from 16 KiB up, where the RGETs' BTE flows of
// the 4 nodes share the host interfaces, never has two consecutive calls within 1e-3 for every rank in 45 calls, so
// the cutoff does not engage there and all calls are simulated; the alltoall's large size is 4 KiB, SMSG.)
// Expected: the same average, minimum and maximum latency within 1e-3 relative; the cutoff run records
// calls_simulated between 2 and 44 for every size, the full run records none.
// How validated: the driver's points compared field by field.
TEST_CASE("osu collectives: the steady-state cutoff gives the full run's latencies", "[benchmark][osu_coll]") {
  for (auto [bench, large] : {std::pair<std::string, long long>{"osu_bcast", 65536}, {"osu_alltoall", 4096}}) {
    INFO(bench);
    Json full = run_coll(bench, large, Json{{"steady_state", 0}});
    Json cut = run_coll(bench, large, Json::object());
    REQUIRE(full.size() == 2);
    REQUIRE(cut.size() == 2);
    for (std::size_t k = 0; k < full.size(); ++k) {
      CHECK_FALSE(full[k].contains("calls_simulated"));
      REQUIRE(cut[k].contains("calls_simulated"));
      long long n = cut[k]["calls_simulated"];
      CHECK(n >= 2);
      CHECK(n < 45);
      for (const char* m : {"latency_us", "min_latency_us", "max_latency_us"}) {
        double a = full[k][m], b = cut[k][m];
        INFO(m << " " << a << " vs " << b);
        CHECK(std::abs(a - b) <= 1e-3 * a);
      }
    }
  }
}

// Configuration: a steady_state tolerance outside [0, 0.5]. Expected: InputError naming benchmark.steady_state.
TEST_CASE("osu collectives: steady_state out of range is refused", "[benchmark][osu_coll]") {
  Json sc{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 4},
          {"benchmark", {{"name", "osu_bcast"}, {"steady_state", 2}}}};
  try {
    (void)scenario_from_json(sc, "coll.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("coll.json") && Catch::Contains("benchmark.steady_state"));
  }
}

// Configuration: osu_alltoall with "algorithm": "tuned" on 16 Cielo ranks, 1 B and 64 KiB; osu_bcast "tuned" on 2,048
// Frontier ranks including 1 MiB (coll/tuned v5 chooses scatter_allgather there); osu_allreduce "tuned" on 200 Frontier
// ranks, 8 a node, at 8 B and 256 KiB (coll/tuned v5 chooses nonoverlapping at 8 B: the module's own reduce to rank 0,
// then its own bcast).
// Expected: each point names the decision's algorithm (16 ranks: linear_sync at 1 B and at 64 KiB per
// ompi_v5_tuned.json) and the latencies are positive; the bcast scenario is accepted; the allreduce at 8 B runs
// nonoverlapping with its stages from the same file (reduce at 128-255 ranks: binomial; bcast at 128-255 ranks below
// 16 KiB: binary_tree), at 256 KiB rabenseifner with no stages; "nonoverlapping" named alone is refused (a
// composition).
// How validated: the driver's points; the InputError text.
TEST_CASE("osu collectives: tuned decisions per size, the nonoverlapping allreduce's stages", "[benchmark][osu_coll]") {
  Json pts = run_coll("osu_alltoall", 65536, Json{{"algorithm", "tuned"}, {"iterations", 3}, {"skip", 1}});
  REQUIRE(pts.size() == 2);
  CHECK(pts[0]["algorithm"] == "linear_sync");  // nranks < 32: < 4 B linear_sync, < 512 B modified_bruck
  CHECK(pts[1]["algorithm"] == "linear_sync");
  CHECK(pts[0]["latency_us"].get<double>() > 0);
  Json sc{{"machine", "frontier"}, {"stack", "openmpi-linkx"}, {"ranks", 2048}, {"ranks_per_node", 8},
          {"benchmark", {{"name", "osu_bcast"}, {"algorithm", "tuned"}, {"sizes", {1, 1048576}}}}};
  CHECK_NOTHROW(scenario_from_json(sc, "coll.json"));
  Json ar{{"machine", "frontier"}, {"stack", "openmpi-linkx"}, {"ranks", 200}, {"ranks_per_node", 8},
          {"benchmark",
           {{"name", "osu_allreduce"}, {"algorithm", "tuned"}, {"sizes", {8, 262144}}, {"iterations", 2}, {"skip", 1}}}};
  Scenario s = scenario_from_json(ar, "coll.json");
  test::Fixture f("frontier", 200, 8, "openmpi-linkx");
  Json nov = s.driver->run(*f.world, *f.stack, "coll.json");
  REQUIRE(nov.size() == 2);
  CHECK(nov[0]["algorithm"] == "nonoverlapping");
  CHECK(nov[0]["stages"] == Json{{"comm", "binomial"}, {"comm_after", "binary_tree"}});
  CHECK(nov[0]["latency_us"].get<double>() > 0);
  CHECK(nov[1]["algorithm"] == "rabenseifner");
  CHECK_FALSE(nov[1].contains("stages"));
  ar["benchmark"]["algorithm"] = "nonoverlapping";  // a composition named alone: its stages need the table
  try {
    (void)scenario_from_json(ar, "coll.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("benchmark.algorithm") && Catch::Contains("composition"));
  }
}

// Configuration: osu_bcast with "algorithm": "mpich" on 16 Cielo ranks, 1 B and 1 MiB, 3 timed calls: 4 ranks a node
// (node-aware) and 1 rank a node (every rank alone on its node); and "algorithm": "mpich_smp" named alone.
// Expected (MPICH v3.4a2 MPIDI_Bcast_select, collectives/decision/mpich_default.json): 4 a node: every size runs the
// node-aware composition mpich_smp, its stages on 4 leaders and 4-rank nodes both MPIR_Bcast_intra_binomial (fewer
// than MPIR_CVAR_BCAST_MIN_PROCS = 8 ranks); 1 a node: the flat choice (binomial at 1 B, scatter + ring allgather at
// 1 MiB, 16 being a power of two at or above the long-message cut-off) and no stages; the composition named alone is
// refused naming benchmark.algorithm (its stages come from a decision table).
// How validated: the points' "algorithm" and "stages"; the InputError text.
TEST_CASE("osu collectives: MPICH's node-aware bcast is chosen from the placement", "[benchmark][osu_coll]") {
  auto run = [](int rpn) {
    Json block{{"name", "osu_bcast"}, {"sizes", {1, 1048576}}, {"iterations", 3}, {"skip", 1}, {"algorithm", "mpich"}};
    Scenario s = scenario_from_json(
        Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 16}, {"ranks_per_node", rpn}, {"benchmark", block}},
        "coll.json");
    test::Fixture f("cielo", 16, rpn, "openmpi");
    return s.driver->run(*f.world, *f.stack, "coll.json");
  };
  Json smp = run(4);
  REQUIRE(smp.size() == 2);
  for (const auto& pt : smp) {
    CHECK(pt["algorithm"] == "mpich_smp");
    REQUIRE(pt.contains("stages"));
    CHECK(pt["stages"]["roots"] == "mpich_binomial");
    CHECK(pt["stages"]["node"] == "mpich_binomial");
    CHECK(pt["latency_us"].get<double>() > 0);
  }
  Json flat = run(1);
  REQUIRE(flat.size() == 2);
  CHECK(flat[0]["algorithm"] == "mpich_binomial");
  CHECK(flat[1]["algorithm"] == "mpich_scatter_ring_allgather");
  CHECK_FALSE(flat[0].contains("stages"));
  Json sc{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 16}, {"ranks_per_node", 4},
          {"benchmark", {{"name", "osu_bcast"}, {"algorithm", "mpich_smp"}}}};
  try {
    (void)scenario_from_json(sc, "coll.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("benchmark.algorithm") && Catch::Contains("composition"));
  }
}

// Configuration: osu_allreduce with "algorithm": "mpich" on 16 Crusher ranks, Cray MPICH (native, which declares
// MPICH_BCAST_ONLY_TREE 1), 8 B and 1 MiB, 3 timed calls: 8 ranks a node (2 nodes, node-aware) and 1 rank a node; and
// osu_bcast "mpich" on the node-aware layout.
// Expected (MPICH v3.4a2 MPIDI_Allreduce_select, collectives/decision/mpich_default.json): 8 a node: mpich_smp at both
// sizes; its stages: the reduce within the 8-rank nodes binomial at 8 B, reduce-scatter-gather at 1 MiB; the 2
// leaders' allreduce recursive doubling at 8 B, Rabenseifner at 1 MiB; the bcast within the nodes by the upstream
// rows (8 ranks, a power of two: binomial below 12,288 B, scatter + ring allgather from 524,288 B), not the k-nomial
// tree MPICH_BCAST_ONLY_TREE gives MPI_Bcast, whose own node stage is k-nomial on the same stack. 1 a node: the flat
// choice, recursive doubling at 8 B and Rabenseifner at 1 MiB, no stages.
// How validated: the points' "algorithm" and "stages".
TEST_CASE("osu collectives: MPICH's node-aware allreduce and its three stages", "[benchmark][osu_coll]") {
  auto run = [](const std::string& bench, int rpn) {
    Json block{{"name", bench}, {"sizes", {8, 1048576}}, {"iterations", 3}, {"skip", 1}, {"algorithm", "mpich"}};
    Scenario s = scenario_from_json(
        Json{{"machine", "crusher"}, {"stack", "native"}, {"ranks", 16}, {"ranks_per_node", rpn}, {"benchmark", block}},
        "coll.json");
    test::Fixture f("crusher", 16, rpn, "native");
    return s.driver->run(*f.world, *f.stack, "coll.json");
  };
  Json smp = run("osu_allreduce", 8);
  REQUIRE(smp.size() == 2);
  for (const auto& pt : smp) {
    CHECK(pt["algorithm"] == "mpich_smp");
    CHECK(pt["latency_us"].get<double>() > 0);
  }
  CHECK(smp[0]["stages"] == Json{{"node", "mpich_binomial"}, {"roots", "recursive_doubling"},
                                 {"node_after", "mpich_binomial"}});
  CHECK(smp[1]["stages"] == Json{{"node", "mpich_reduce_scatter_gather"}, {"roots", "mpich_rabenseifner"},
                                 {"node_after", "mpich_scatter_ring_allgather"}});
  Json flat = run("osu_allreduce", 1);
  REQUIRE(flat.size() == 2);
  CHECK(flat[0]["algorithm"] == "recursive_doubling");
  CHECK(flat[1]["algorithm"] == "mpich_rabenseifner");
  CHECK_FALSE(flat[0].contains("stages"));
  Json bcast = run("osu_bcast", 8);
  CHECK(bcast[0]["stages"]["node"] == "knomial");
}

// Configuration: osu_reduce (MPI_FLOAT to root 0; 8 B and 4 KiB) on 16 Crusher ranks, 8 a node, with "algorithm":
// "mpich" on Cray MPICH and "tuned" on Open MPI over LINKx. Expected: MPICH v3.4a2's MPIDI_Reduce_select takes its
// node-aware composition mpich_smp at both sizes, each stage MPIR_Reduce_intra_auto's choice for 8 B (binomial) and
// 4 KiB (reduce-scatter-gather: above 2048 B, 1,024 elements >= pof2); coll/tuned v5 below 32 ranks: binary below
// 4 KiB, binomial at 4 KiB. Every call finishes (latency > 0). How validated: the points' algorithm and stages.
TEST_CASE("osu collectives: osu_reduce runs each library's reduce", "[benchmark][osu_coll]") {
  auto run = [](const std::string& stack, const std::string& algo) {
    Json block{{"name", "osu_reduce"}, {"sizes", {8, 4096}}, {"iterations", 3}, {"skip", 1}, {"algorithm", algo}};
    Scenario s = scenario_from_json(
        Json{{"machine", "crusher"}, {"stack", stack}, {"ranks", 16}, {"ranks_per_node", 8}, {"benchmark", block}},
        "coll.json");
    test::Fixture f("crusher", 16, 8, stack);
    return s.driver->run(*f.world, *f.stack, "coll.json");
  };
  const Json mpich = run("native", "mpich");
  REQUIRE(mpich.size() == 2);
  CHECK(mpich[0]["algorithm"] == "mpich_smp");
  CHECK(mpich[0]["stages"] == Json{{"roots", "mpich_binomial"}, {"node", "mpich_binomial"},
                                   {"node_after", "mpich_binomial"}});
  CHECK(mpich[1]["stages"]["node"] == "mpich_reduce_scatter_gather");
  const Json tuned = run("openmpi-linkx", "tuned");
  REQUIRE(tuned.size() == 2);
  CHECK(tuned[0]["algorithm"] == "binary");
  CHECK(tuned[1]["algorithm"] == "binomial");
  for (const Json* r : {&mpich, &tuned})
    for (const auto& pt : *r) CHECK(pt["latency_us"].get<double>() > 0);
}

// Configuration: a collective's size list narrowed for a calibration point: a point with "bytes", the same point again,
//                a point without "bytes". Expected: the list becomes that one size and says it changed; narrowing
//                again, or without a size, changes nothing and says so (validation's runner then reuses the full run).
// How validated: the return values and the list.
TEST_CASE("osu_coll: narrowing to a point's size reports whether it changed the sizes", "[bench][osu_coll]") {
  std::vector<std::uint64_t> sizes{8, 1024, 65536};
  CHECK(ompisim::bench::narrow_sizes(sizes, Json{{"bytes", 1024}}));
  CHECK(sizes == std::vector<std::uint64_t>{1024});
  CHECK_FALSE(ompisim::bench::narrow_sizes(sizes, Json{{"bytes", 1024}}));
  CHECK_FALSE(ompisim::bench::narrow_sizes(sizes, Json{{"ranks", 16}}));
  CHECK(sizes == std::vector<std::uint64_t>{1024});
}

// Configuration: osu_alltoall of 64 KiB with the pairwise algorithm among 64 Frontier ranks (8 per node, 8 nodes in 8
// dragonfly groups) under Valiant routing, whose random intermediate groups make every call differ from the one before
// by more than 1e-3 for some rank (the two-call rule never settles); 60 timed calls after 2 warm-up calls, once with
// "steady_state": 0 and once with the default 1e-3. Expected: the default run stops on the block-means rule
// ("steady_state_rule": "block_means") after 17 to 61 calls, a multiple of 8 plus 1; its average latency is the full
// run's within 2e-3 and its minimum and maximum within 5e-3 (the blocks agree within the tolerance; the means of the
// calls not simulated differ from theirs by the series' own spread). How validated: the full loop, run in its own
// process each.
TEST_CASE("osu collectives: the block-means rule settles a series whose calls keep differing",
          "[benchmark][osu_coll]") {
  auto run = [](double tol) {
    Json sc{{"id", "valiant_alltoall"},
            {"machine", "frontier"},
            {"stack", "openmpi-linkx"},
            {"routing", "valiant"},
            {"benchmark",
             {{"name", "osu_alltoall"}, {"algorithm", "pairwise"}, {"sizes", {65536}}, {"iterations", 60},
              {"skip", 2}, {"steady_state", tol}}},
            {"ranks", 64},
            {"ranks_per_node", 8},
            {"nodes", {0, 128, 256, 384, 512, 640, 768, 896}},
            {"map_by", "core"},
            {"cpu_list", {1, 9, 17, 25, 33, 41, 49, 57}}};
    Scenario s = scenario_from_json(sc, "valiant.json");
    return Json::parse(run_isolated([&] { return run_scenario(s, {}).dump(); }))["points"].at(0);
  };
  const Json full = run(0), cut = run(1e-3);
  CHECK_FALSE(full.contains("steady_state_rule"));
  REQUIRE(cut.contains("calls_simulated"));
  CHECK(cut.value("steady_state_rule", "") == "block_means");
  const long long n = cut["calls_simulated"];
  CHECK(n >= 17);
  CHECK(n < 62);
  CHECK(n % 8 == 1);
  for (auto [m, tol] : {std::pair<const char*, double>{"latency_us", 2e-3}, {"min_latency_us", 5e-3},
                        {"max_latency_us", 5e-3}}) {
    double a = full[m], b = cut[m];
    INFO(m << " " << a << " vs " << b);
    CHECK(std::abs(a - b) <= tol * a);
  }
}

namespace {
Json crusher_coll(const std::string& bench, const std::string& algo, const std::string& cost) {
  Json sc{{"machine", "crusher"},
          {"stack", "openmpi-linkx"},
          {"ranks", 2},
          {"ranks_per_node", 1},
          {"benchmark",
           {{"name", bench}, {"algorithm", algo}, {"sizes", {1048576}}, {"iterations", 3}, {"skip", 1}}}};
  Scenario s = scenario_from_json(sc, "arith.json");
  return run_scenario(s, {{"node_types.compute.arch.reduce_cost_per_element", cost}});
}
}  // namespace

// Configuration: crusher (its node type's arch.reduce_cost_per_element), openmpi-linkx, 2 ranks on 2 nodes, 1 MiB:
// osu_allreduce with recursive_doubling (one exchange, then each rank reduces the other's 262,144 floats) and
// osu_alltoall (pairwise: no reduction), each with the cost set to 0 ns and to 1 ns by --set.
// Expected: the allreduce's call lasts 262,144 x 1 ns = 262.144 us longer at 1 ns (both ranks reduce at once after the
// exchange, on otherwise idle cores); the alltoall's latency is the same, and its result lists the set as unread.
// How validated: the arithmetic above (recursive doubling's one Reduce of the whole vector per rank on 2 ranks).
TEST_CASE("osu collectives: a reduction costs the node type's arithmetic per element", "[benchmark][osu_coll]") {
  const Json free_ar = crusher_coll("osu_allreduce", "recursive_doubling", "0 ns");
  const Json priced_ar = crusher_coll("osu_allreduce", "recursive_doubling", "1 ns");
  const double a = free_ar["points"][0]["latency_us"], b = priced_ar["points"][0]["latency_us"];
  CHECK(b - a == Approx(262.144).epsilon(1e-6));
  const Json free_a2a = crusher_coll("osu_alltoall", "pairwise", "0 ns");
  const Json priced_a2a = crusher_coll("osu_alltoall", "pairwise", "1 ns");
  CHECK(free_a2a["points"][0]["latency_us"] == priced_a2a["points"][0]["latency_us"]);
  REQUIRE(priced_a2a["provenance"].contains("unread_overrides"));
  CHECK(priced_a2a["provenance"]["unread_overrides"].dump().find("reduce_cost_per_element") != std::string::npos);
  CHECK_FALSE(priced_ar["provenance"].contains("unread_overrides"));
}
