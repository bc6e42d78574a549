// Tests of the application skeletons (benchmarks/app_skeleton.cpp, benchmarks/apps/*.json) on the DES engine.
#include "benchmarks/benchmarks.hpp"
#include "collectives/decision.hpp"
#include "platform/machine.hpp"
#include "runner/scenario.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace ompisim;

namespace {
// A scenario file of this process's own (tests of several builds may run at once on one machine).
std::string tmp_path(const std::string& what) {
  return "/tmp/ompisim_app_" + what + "_test." + std::to_string(::getpid()) + ".json";
}

// Runs `c` on `stack` (jaguar-xt4, 2 ranks per node) and returns the point; checks conservation on the stack.
Json run_and_check(const bench::AppConfig& c, const std::string& stack, int ranks) {
  test::Fixture f("jaguar-xt4", ranks, 2, stack);
  Json p = bench::run_app(*f.world, *f.stack, c, "test");
  StackStats s = f.stack->stats();
  INFO(c.app << " on " << stack << ", " << ranks << " ranks");
  CHECK(s.sends_completed == s.sends_posted);
  CHECK(s.recvs_completed == s.recvs_posted);
  CHECK(s.sends_posted == s.recvs_posted);
  CHECK(s.live_requests == 0);
  CHECK(s.unexpected_now == 0);
  // The skeleton's own message count is the stack's: every send it posted, collectives included.
  CHECK(p["short_msgs"].get<std::uint64_t>() + p["long_msgs"].get<std::uint64_t>() == s.sends_posted);
  CHECK(p["runtime_s"].get<double>() > 0);
  return p;
}

bench::AppConfig one_halo(double late, double overlap_s) {
  bench::AppConfig c;
  c.app = "test-halo";
  c.file = "test";
  c.steps = 2;
  c.compute_per_step = overlap_s > 0 ? overlap_s : 1e-4;
  c.table1 = Json{{"mpi_time_pct", 10.0}, {"short_msgs", 1.0}, {"long_msgs", 1.0}, {"long_dropped", 0.0}};
  bench::AppPhase h;
  h.kind = "halo";
  h.dims = 1;
  h.bytes = 65536;
  h.late_fraction = late;
  h.share = overlap_s > 0 ? 1.0 : 0.0;
  c.phases.push_back(h);
  if (overlap_s <= 0) {
    bench::AppPhase comp;
    comp.kind = "compute";
    comp.share = 1.0;
    c.phases.push_back(comp);
  }
  return c;
}
}  // namespace

// Configuration: the four Table 1 skeletons (benchmarks/apps/*.json), enough steps to run every phase, 32 ranks on 16 jaguar-xt4 nodes, a
// fixed 1 ms of computation per step, on each of the three SeaStar stacks (DES engine).
// Expected: every rank finishes; each send is received once, no request or unexpected message is left; the
// skeleton's message count equals the stack's sends. How validated: StackStats after the run.
TEST_CASE("app skeletons conserve messages on the three SeaStar stacks", "[benchmark][app]") {
  auto names = bench::app_names();
  REQUIRE(names.size() == 5);  // GTC, POP, S3D, VH-1 and the heterogeneous paper's ParaView
  for (auto& app : names) {
    bench::AppConfig c = bench::load_app(app, "test", "benchmark.app");
    c.steps = 1;  // enough steps for every phase to run once (POP's long halo: every 2nd, GTC's bcast: every 4th)
    for (auto& p : c.phases) c.steps = std::max(c.steps, p.every);
    c.compute_per_step = 1e-3;
    for (std::string st : {"openmpi-cm", "openmpi-ob1", "native"}) {
      Json p = run_and_check(c, st, 32);
      CHECK(p["long_msgs"].get<std::uint64_t>() > 0);
    }
  }
}

// Configuration: the ParaView skeleton (binary swap with rank XOR 1 and XOR 2, gather on rank 0), 2 frames on 4
// lanl-multi-nic nodes with each Open MPI 1.1 preset (GM only, mVAPI only, both striped); and 6 ranks (not pairs for
// XOR 2). Expected: conservation on every stack; per frame 4 + 4 + 3 long messages (11); 6 ranks is an InputError.
// (Run times are compared by `validate --paper heterogeneous` on SimGrid: the DES engine of unit tests does not share
// bandwidth between concurrent flows, so GM's 128 KiB PUT fragments would all run at once.)
// How validated: StackStats and the skeleton's counts.
TEST_CASE("app skeleton: ParaView compositing on one and two networks", "[benchmark][app][hetero]") {
  bench::AppConfig c = bench::load_app("ParaView", "test", "benchmark.app");
  c.steps = 2;
  for (std::string st : {"openmpi-gm", "openmpi-mvapi", "openmpi"}) {
    test::Fixture f("lanl-multi-nic", 4, 1, st);
    Json p = bench::run_app(*f.world, *f.stack, c, "test");
    StackStats s = f.stack->stats();
    INFO(st);
    CHECK(s.sends_completed == s.sends_posted);
    CHECK(s.recvs_completed == s.recvs_posted);
    CHECK(s.live_requests == 0);
    CHECK(p["long_msgs"].get<std::uint64_t>() == 2 * 11);
    CHECK(p["long_msgs"].get<std::uint64_t>() == s.sends_posted);
    CHECK_FALSE(p.contains("paper_mpi_time_pct"));  // no Table 1 row
    CHECK(p["runtime_s"].get<double>() > 2 * c.compute_per_step);
  }
  test::Fixture f6("lanl-multi-nic", 6, 1, "openmpi");
  CHECK_THROWS_AS(bench::run_app(*f6.world, *f6.stack, c, "test"), InputError);
}

// Configuration: 4 ranks in a ring (1-D halo of 64 KiB, long), openmpi-cm. (a) Every receive posted late, after 1 ms
// of overlapped computation; (b) every receive posted before the sends, no imbalance, one step (in a second step a
// rank that ends the first early may send before its neighbour has posted: the two on-node messages of a node take
// turns on its HT, so the ranks do not end the step together).
// Expected: (a) every long message arrives before its receive: unexpected_long == long_msgs (the CM path truncates
// them and fetches the data with a get); (b) none does: unexpected_long == 0.
// How validated: the mtl/portals counter mtl_unexpected_long, as reported by run_app.
TEST_CASE("app skeleton: unexpected long messages are counted by the stack", "[benchmark][app]") {
  Json late = run_and_check(one_halo(1.0, 1e-3), "openmpi-cm", 4);
  CHECK(late["long_msgs"].get<std::uint64_t>() == 16);
  CHECK(late["unexpected_long"].get<std::uint64_t>() == 16);
  CHECK(late["unexpected_long_pct_of_long"].get<double>() == Approx(100.0));
  bench::AppConfig posted = one_halo(0.0, 0.0);
  posted.steps = 1;
  Json early = run_and_check(posted, "openmpi-cm", 4);
  CHECK(early["long_msgs"].get<std::uint64_t>() == 8);
  CHECK(early["unexpected_long"].get<std::uint64_t>() == 0);
  // Cray MPI: 64 KiB is below its eager limit (128000 B): the late messages are unexpected short ones.
  Json cray = run_and_check(one_halo(1.0, 1e-3), "native", 4);
  CHECK(cray["unexpected_long"].get<std::uint64_t>() == 0);
  CHECK(cray["unexpected_short"].get<std::uint64_t>() == 16);
}

// Configuration: scenario files with a misspelled benchmark key, an unknown application and a rank count that the
// skeleton's grid does not fit. Expected: InputError naming the key, with a did-you-mean where one applies.
// How validated: the error text.
TEST_CASE("app skeleton: bad input is an InputError with did-you-mean", "[benchmark][app]") {
  auto write = [](const std::string& body) {
    std::string path = tmp_path("bad_input");
    std::ofstream(path) << body;
    return path;
  };
  std::string head = R"({"machine": "jaguar-xt4", "stack": "openmpi-cm", "ranks": 256, "ranks_per_node": 2, )";
  CHECK_THROWS_WITH(load_scenario(write(head + R"("benchmark": {"name": "app_skeleton", "app": "POP", "stpes": 2}})")),
                    Catch::Contains("stpes") && Catch::Contains("did you mean 'steps'"));
  CHECK_THROWS_WITH(load_scenario(write(head + R"("benchmark": {"name": "app_skeleton", "ap": "POP"}})")),
                    Catch::Contains("benchmark.app"));
  CHECK_THROWS_WITH(load_scenario(write(head + R"("benchmark": {"name": "app_skeleton", "app": "POPP"}})")),
                    Catch::Contains("did you mean 'POP'"));
  Scenario s = load_scenario(write(R"({"machine": "jaguar-xt4", "stack": "openmpi-cm", "ranks": 24, "ranks_per_node": 2,
      "benchmark": {"name": "app_skeleton", "app": "VH-1"}})"));
  test::Fixture f("jaguar-xt4", 24, 2, "openmpi-cm");
  CHECK_THROWS_WITH(s.driver->run(*f.world, *f.stack, s.file), Catch::Contains("rows of 16"));
  std::remove(tmp_path("bad_input").c_str());
}

// Configuration: the S3D and POP skeletons (benchmarks/apps/*.json) at 32 ranks, 1 ms of computation per step,
// openmpi-cm, enough steps for every phase to run.
// Expected: every phase's MPI time is charged to one routine (mpiP's view of Table 1's "Top MPI Routines"), so the
// routines' shares add up to the MPI time share; S3D's halos are charged to Wait (its file says so), its collectives
// to Allreduce and Barrier; POP's Table 1 row names MPI_Isend: the post time of its halos' sends is charged to it
// (above zero), so the point lacks none of its routines. How validated: the point's routine_pct, top_routines and
// table1_lacks.
TEST_CASE("app skeleton: MPI time is charged to Table 1's routines", "[benchmark][app]") {
  for (std::string app : {"S3D", "POP"}) {
    bench::AppConfig c = bench::load_app(app, "test", "benchmark.app");
    c.steps = 1;
    for (auto& p : c.phases) c.steps = std::max(c.steps, p.every);
    c.compute_per_step = 1e-3;
    Json p = run_and_check(c, "openmpi-cm", 32);
    double sum = 0;
    for (auto& [name, v] : p["routine_pct"].items()) sum += v.get<double>();
    INFO(app << ": " << p["routine_pct"].dump());
    CHECK(sum == Approx(p["mpi_time_pct"].get<double>()).epsilon(1e-9));
    CHECK(p["top_routines"].size() == p["routine_pct"].size());
    std::vector<std::string> lacks;
    for (auto& l : p["table1_lacks"]) lacks.push_back(l["quantity"].get<std::string>());
    if (app == "S3D") {
      CHECK(p["routine_pct"].contains("Wait"));
      CHECK_FALSE(p["routine_pct"].contains("Waitall"));
      CHECK(p["routine_pct"].contains("Allreduce"));
      CHECK(p["routine_pct"].contains("Barrier"));
      CHECK(lacks.empty());
    } else {
      CHECK(p["routine_pct"].contains("Waitall"));
      CHECK(p["routine_pct"].value("Isend", 0.0) > 0);  // the post time of the halos' sends
      CHECK(lacks.empty());
    }
  }
}

// Configuration: one 128 KiB MPI_Allreduce over 16 ranks (GTC's row reduction), 2 steps, without a collective library
// and with each stack's: tuned-v1.3 on openmpi-cm, mpich2-1.0 on native (Cray MPI); 25 MiB under tuned-v1.3 (above
// 16 x 1 MiB: its segmented ring in 1 MiB segments); v1.3's table made to pick its nonoverlapping allreduce at 128 KiB
// (the library's reduce, then its bcast, with their segment sizes; v1.3 takes it where count <= P, from 10,000 ranks
// here). Scenario files naming an unknown library, and a library whose stage picks an algorithm not implemented here.
// Expected: the messages are the chosen algorithm's: recursive doubling 16 x 4 per call (no library), the ring
// 16 x 2 x 15, Rabenseifner 16 x 2 x 4, the segmented ring 16 x 15 x 3 (2 phases: 25 / 16 = 1, and the remainder, 9
// MiB, is more than half of 16 MiB), nonoverlapping the sends of the two stages' schedules at their segment sizes; the
// bad ones are InputErrors naming benchmark.collectives.
// How validated: the skeleton's message counts (= the stack's sends, run_and_check) and the error text.
TEST_CASE("app skeleton: each MPI library's collective decision", "[benchmark][app][collective]") {
  bench::AppConfig c;
  c.app = "test-allreduce";
  c.file = "test";
  c.steps = 2;
  c.compute_per_step = 1e-4;
  bench::AppPhase a;
  a.kind = "allreduce";
  a.bytes = 131072;
  a.routine = "Allreduce";
  c.phases.push_back(a);
  auto sends = [](const Json& p) { return p["short_msgs"].get<std::uint64_t>() + p["long_msgs"].get<std::uint64_t>(); };
  CHECK(sends(run_and_check(c, "openmpi-cm", 16)) == 2u * 16u * 4u);
  auto with = [&](const std::string& lib) {
    bench::AppConfig x = c;
    x.coll_library = lib;
    x.coll_lib = coll::load_decision(data_dir() + "/" + coll::decision_file(lib));
    return x;
  };
  CHECK(sends(run_and_check(with("tuned-v1.3"), "openmpi-cm", 16)) == 2u * 16u * 2u * 15u);
  CHECK(sends(run_and_check(with("mpich2-1.0"), "native", 16)) == 2u * 16u * 2u * 4u);

  std::string path = tmp_path("coll_lib");
  auto scenario = [&](const std::string& bench_tail) {
    std::ofstream(path) << R"({"machine": "jaguar-xt4", "stack": "openmpi-cm", "ranks": 256, "ranks_per_node": 2,
      "benchmark": {"name": "app_skeleton", "app": "POP")" + bench_tail + "}}";
    return path;
  };
  CHECK_THROWS_WITH(load_scenario(scenario(R"(, "collectives": "mpich2")")),
                    Catch::Contains("benchmark.collectives") && Catch::Contains("mpich2-1.0"));
  bench::AppConfig big = with("tuned-v1.3");
  big.phases[0].bytes = 25u << 20;
  CHECK(sends(run_and_check(big, "openmpi-cm", 16)) == 2u * 16u * 15u * 3u);
  bench::AppConfig nonov = with("tuned-v1.3");
  nonov.coll_lib["allreduce"]["table"] = Json::parse(R"([{"when": "always", "sizes": [{"algorithm": "nonoverlapping"}]}])");
  const coll::Tunables none;
  const coll::StageChooser stages =
      coll::library_stages(nonov.coll_lib, "allreduce", 131072, none, 1, coll::default_registry());
  std::uint64_t stage_sends = 0;
  for (coll::Stage st : {coll::Stage::Comm, coll::Stage::CommAfter})
    for (int me = 0; me < 16; ++me)
      for (const auto& round : coll::detail::run_stage(st, me, 16, [&] {
             coll::AlgoParams q;
             q.bytes = 131072;
             q.stages = &stages;
             return q;
           }()).rounds)
        for (const auto& op : round.ops) stage_sends += op.kind == coll::OpKind::Send ? 1 : 0;
  CHECK(stage_sends > 30);  // segmented: more than one message per edge of the two trees
  CHECK(sends(run_and_check(nonov, "openmpi-cm", 16)) == 2u * stage_sends);
  bench::AppConfig b = nonov;
  b.coll_lib["bcast"]["table"] = Json::parse(R"([{"when": "always", "sizes": [{"algorithm": "no_such_bcast"}]}])");
  test::Fixture f("jaguar-xt4", 16, 2, "openmpi-cm");
  CHECK_THROWS_WITH(bench::run_app(*f.world, *f.stack, b, "test"),
                    Catch::Contains("benchmark.collectives") && Catch::Contains("not implemented") &&
                        Catch::Contains("no_such_bcast"));
  std::remove(path.c_str());
}

namespace {
// The bytes of every halo phase of a skeleton, in order.
std::vector<std::uint64_t> halo_bytes(const bench::AppConfig& c) {
  std::vector<std::uint64_t> out;
  for (auto& p : c.phases)
    if (p.kind == "halo") out.push_back(p.bytes);
  return out;
}
}  // namespace

// Configuration: S3D's skeleton, whose halo size is an estimate ("estimates": {"halo_bytes": 80 KiB, range [40, 160]
// KiB}) used by its three halo phases as "$halo_bytes"; then set to 128 KiB through load_app's `set`, through a
// scenario block's "estimates" and through Driver::with_estimates (the prediction intervals' path, names
// "<app>.<name>", another application's names ignored). Expected: the estimate and its range as declared, every halo
// phase at the resolved value, and an unknown name an InputError naming the key. How validated: the phases' bytes.
TEST_CASE("app skeleton: estimates with ranges, used as $name and set by name", "[benchmark][app]") {
  bench::AppConfig c = bench::load_app("S3D", "test", "benchmark.app");
  REQUIRE(c.estimates.size() == 1);
  const bench::AppEstimate& e = c.estimates[0];
  CHECK(e.name == "halo_bytes");
  CHECK(e.dim == Dim::Bytes);
  CHECK(e.value == 81920);
  CHECK(e.lo == 40960);
  CHECK(e.hi == 163840);
  CHECK_FALSE(e.range_source.empty());
  CHECK(halo_bytes(c) == std::vector<std::uint64_t>(6, 81920));  // 2 RK stages x 3 directions
  bench::AppConfig big = bench::load_app("S3D", "test", "benchmark.app", {{"halo_bytes", "128 KiB"}});
  CHECK(halo_bytes(big) == std::vector<std::uint64_t>(6, 131072));
  CHECK_THROWS_WITH(bench::load_app("S3D", "s.json", "benchmark.app", {{"halo_byte", "1 KiB"}}),
                    Catch::Contains("s.json") && Catch::Contains("benchmark.estimates.halo_byte") &&
                        Catch::Contains("halo_bytes"));
  CHECK_THROWS_WITH(bench::load_app("S3D", "s.json", "benchmark.app", {{"halo_bytes", "8 us"}}),
                    Catch::Contains("benchmark.estimates.halo_bytes"));

  const std::string path = tmp_path("estimates");
  std::ofstream(path) << R"({"machine": "jaguar-xt4", "stack": "openmpi-cm", "ranks": 16, "ranks_per_node": 2,
      "benchmark": {"name": "app_skeleton", "app": "S3D", "steps": 1, "estimates": {"halo_bytes": "128 KiB"}}})";
  Scenario s = load_scenario(path);
  std::remove(path.c_str());
  auto ests = s.driver->estimates();
  REQUIRE(ests.size() == 1);
  CHECK(ests[0].name == "S3D.halo_bytes");
  CHECK(ests[0].value == 131072);
  CHECK(ests[0].lo == 40960);
  auto d = s.driver->with_estimates({{"S3D.halo_bytes", "50000 B"}, {"VH-1.alltoall_bytes", "1 B"}});
  CHECK(d->estimates()[0].value == 50000);
  auto kept = s.driver->with_estimates({{"VH-1.alltoall_bytes", "1 B"}});
  CHECK(kept->estimates()[0].value == 131072);  // the block's own value, another app's name ignored
}
