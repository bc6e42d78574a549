#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: Cielo, 2 ranks on one node; rank 0's main thread computes for 10 us from t = 0, and a progress thread
//                of rank 0 on core 5 is given 1 us of work at t = 0; at 5 us (during the compute) the main thread is
//                given 1 us of work.
// Expected:      the progress thread's work ends at 1 us (it does not wait for the main thread's compute); the main
//                thread's work ends at 11 us (behind its own compute: no asynchronous progress); contexts() counts
//                the new thread.
// How validated: completion times on the DES engine.
TEST_CASE("platform/world: a progress thread runs beside its rank's main thread", "[unit][platform]") {
  auto m = load_machine("cielo");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 2, 2, {}, "test"));
  int t = w.add_progress_thread(0, 5);  // before the resources are declared (its core gets a copy resource)
  w.declare_resources();
  sim.seal();
  CHECK(t == 2);
  CHECK(w.contexts().count() == 3);
  CHECK(w.contexts().rank_of(t) == 0);
  CHECK(w.contexts().core_of_context(t) == 5);
  double compute_end = -1, thread_end = -1, main_end = -1;
  w.cpus().compute(0, 10e-6, [&] { compute_end = w.sim().now(); });
  w.cpus().cpu(t, 1e-6, [&] { thread_end = w.sim().now(); });
  sim.at(5e-6, [&] { w.cpus().cpu(0, 1e-6, [&] { main_end = w.sim().now(); }); });
  sim.run();
  CHECK(thread_end == Approx(1e-6));
  CHECK(compute_end == Approx(10e-6));
  CHECK(main_end == Approx(11e-6));
}

// Configuration: Cielo, one rank; an MPI step of 1 us whose end queues a zero-cost step (a short send's empty copy)
//                and, in the same event, returns to the application, which computes for 10 us; the zero-cost step
//                queues the send's 0.5 us post when its own event fires, at the same time.
// Expected:      the send's post runs before the application's work (1 to 1.5 us, the compute 1.5 to 11.5 us): an MPI
//                call's chain of steps ends before the application resumes, even when a step is due at the very time
//                the core looks free. Before, the compute started at 1 us and the post waited for it (11.5 us).
// How validated: completion times on the DES engine.
TEST_CASE("platform/world: an MPI call's steps due now run before the application's work", "[unit][platform]") {
  auto m = load_machine("cielo");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 1, 1, {}, "test"));
  w.declare_resources();
  sim.seal();
  double post_end = -1, compute_end = -1;
  w.cpus().cpu(0, 1e-6, [&] {
    w.cpus().cpu(0, 0, [&] { w.cpus().cpu(0, 0.5e-6, [&] { post_end = w.sim().now(); }); });
    w.cpus().compute(0, 10e-6, [&] { compute_end = w.sim().now(); });
  });
  sim.run();
  CHECK(post_end == Approx(1.5e-6));
  CHECK(compute_end == Approx(11.5e-6));
}

// Configuration: osu-elan4 (2 cores per node), 2 ranks one per node (core 0); rank 0 gets two progress threads on
//                core 1 and one on core 0 (its main thread's core); each context is given 1 us of work at time 0
//                (the main thread 2 us), then the second thread of core 1 another 1 us.
// Expected:      contexts sharing a core take turns: the second thread on core 1 starts after the first and after a
//                context switch (os.context_switch_cost); its next step follows without a switch; the thread on core 0
//                waits for the main thread and a switch; rank 1's main thread, alone on its core, runs at once. Two
//                switches in all. Fails if contexts on one core keep separate timelines or turn for free.
// How validated: completion times on the DES engine and CpuTimeline::context_switches.
TEST_CASE("platform/world: contexts sharing a core take turns and pay a context switch at each turn", "[unit][platform]") {
  auto m = load_machine("osu-elan4");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 2, 1, {}, "test"));
  int a = w.add_progress_thread(0, 1), b = w.add_progress_thread(0, 1), c = w.add_progress_thread(0, 0);
  w.declare_resources();
  sim.seal();
  const double sw = m->os.context_switch_cost.value;
  REQUIRE(sw > 0);
  double a_end = -1, b_end = -1, b2_end = -1, main0_end = -1, c_end = -1, main1_end = -1;
  w.cpus().cpu(a, 1e-6, [&] { a_end = w.sim().now(); });
  w.cpus().cpu(b, 1e-6, [&] { b_end = w.sim().now(); });
  w.cpus().cpu(b, 1e-6, [&] { b2_end = w.sim().now(); });
  w.cpus().cpu(0, 2e-6, [&] { main0_end = w.sim().now(); });
  w.cpus().cpu(c, 1e-6, [&] { c_end = w.sim().now(); });
  w.cpus().cpu(1, 1e-6, [&] { main1_end = w.sim().now(); });
  sim.run();
  CHECK(a_end == Approx(1e-6));
  CHECK(b_end == Approx(2e-6 + sw));
  CHECK(b2_end == Approx(3e-6 + sw));
  CHECK(main0_end == Approx(2e-6));
  CHECK(c_end == Approx(3e-6 + sw));
  CHECK(main1_end == Approx(1e-6));
  CHECK(w.cpus().context_switches == 2);
}

// Configuration: Cielo (16 cores per node), 2 ranks.
// Expected:      a progress thread on core 16 or for rank 2 is refused (std::invalid_argument naming the core/rank).
// How validated: the exception and its text.
TEST_CASE("platform/world: a progress thread on a core the node lacks is refused", "[unit][platform]") {
  auto m = load_machine("cielo");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 2, 2, {}, "test"));
  CHECK_THROWS_WITH(w.add_progress_thread(0, 16), Catch::Contains("core 16 does not exist"));
  CHECK_THROWS_WITH(w.add_progress_thread(2, 0), Catch::Contains("rank 2 is not in the job"));
  w.declare_resources();
  CHECK_THROWS_WITH(w.add_progress_thread(0, 3), Catch::Contains("before World::declare_resources"));
}

// Configuration: Cielo (2 packages x 2 dies x 4 cores), 16 ranks on one node under the default mapping (np > 2:
//                map-by socket) and under map-by core.
// Expected:      default: rank 0 on core 0, rank 1 on core 8 (the other package), rank 8 on core 4 (package 0, other
//                die); the hand-off 0 -> 8 costs cache_line_other_numa and 0 -> 1 cache_line_other_package; with
//                map-by core, rank 1 is on core 1 (same die: cache_line_same_numa).
// How validated: World::core_of and World::signal_latency against the machine file's values.
TEST_CASE("platform/world: signal latency follows the cores' distance under the mapping", "[unit][platform]") {
  test::Fixture f("cielo", 16, 16);
  const auto& links = f.machine->node_type(0).links();
  CHECK(f.world->contexts().core_of(0) == 0);
  CHECK(f.world->contexts().core_of(1) == 8);
  CHECK(f.world->contexts().core_of(8) == 4);
  CHECK(f.world->contexts().signal_latency(0, 8) == links.cache_line_other_numa.value);
  CHECK(f.world->contexts().signal_latency(0, 1) == links.cache_line_other_package.value);
  CHECK(f.world->contexts().signal_latency(0, 2) == links.cache_line_same_numa.value);
  auto m = load_machine("cielo");
  Placement p = make_placement(*m, 16, 16, {}, "test", Json{{"map_by", "core"}});
  CHECK(p.core_of(1) == 1);
  CHECK(p.core_of(15) == 15);
}

// Configuration: Titan's torus, 4,096 nodes one rank each; path(a, b) from 16 sources to every node (65,536 pairs,
//                16 times the memo's size), asked twice in a different order (so the bounded path memo is filled,
//                overwritten by colliding pairs, among them pairs of one source, and hit).
// Expected:      every answer equals the cost summed over World::route(a, b) (NIC latency plus each hop's latency,
//                the slowest rate on the way), whatever the memo held before.
// How validated: exact equality of latency and bandwidth.
TEST_CASE("platform/world: path() answers from its memo equal the routed cost", "[unit][platform]") {
  auto m = load_machine("titan");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 4096, 1, {}, "test"));
  const auto& net = w.fabric().network();
  auto routed = [&](long long a, long long b) {
    PathCost c{net.nic_latency(), net.injection_bandwidth()};
    for (auto id : w.fabric().route(a, b)) {
      c.bandwidth = std::min(c.bandwidth, net.topology->link(id).bandwidth);
      c.latency += net.topology->link(id).latency;
    }
    return c;
  };
  std::vector<std::pair<long long, long long>> pairs;
  for (long long a = 0; a < 4096; a += 256)
    for (long long b = 0; b < 4096; ++b) pairs.push_back({a, b});
  for (int pass = 0; pass < 2; ++pass) {
    int mismatches = 0;
    for (auto [a, b] : pairs) {
      PathCost got = w.fabric().path(a, b), want = routed(a, b);
      if (got.latency != want.latency || got.bandwidth != want.bandwidth) ++mismatches;
    }
    CHECK(mismatches == 0);
    std::reverse(pairs.begin(), pairs.end());
  }
}

// Configuration: cielo (one network) and lanl-multi-nic (several), 2 ranks each; the view World::parts() that every
//                component factory receives (platform/platform_parts.hpp).
// Expected:      the view refers to the World's own parts (the same objects); fabric() names the only network on
//                cielo and is refused on the machine with several (std::logic_error naming how many), fabric(i) is the
//                World's; a progress thread added through the view is a context of the World, with its CPU timeline;
//                once the resources are declared the view refuses one.
// How validated: object identity, context counts, exceptions.
TEST_CASE("platform/parts: the view the component factories receive is the World's parts", "[unit][platform]") {
  auto m = load_machine("cielo");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 2, 2, {}, "test"));
  const PlatformParts parts = w.parts();
  CHECK(&parts.sim == &w.sim());
  CHECK(&parts.machine == &w.machine());
  CHECK(&parts.contexts == &w.contexts());
  CHECK(&parts.cpus == &w.cpus());
  CHECK(&parts.copies == &w.copies());
  CHECK(&parts.nic_services == &w.nic_services());
  CHECK(&parts.fabric() == &w.fabric());
  CHECK(parts.networks() == 1);
  const int t = parts.add_progress_thread(1, 7);
  CHECK(w.contexts().count() == 3);
  CHECK(w.contexts().rank_of(t) == 1);
  w.declare_resources();
  CHECK_THROWS_WITH(parts.add_progress_thread(0, 3), Catch::Contains("before World::declare_resources"));

  auto multi = load_machine("lanl-multi-nic");
  engine::DesEngine sim2;
  World w2(sim2, *multi, make_placement(*multi, 2, 1, {}, "test"));
  const PlatformParts p2 = w2.parts();
  REQUIRE(p2.networks() > 1);
  CHECK_THROWS_WITH(p2.fabric(), Catch::Contains(std::to_string(p2.networks()) + " networks"));
  for (int i = 0; i < p2.networks(); ++i) CHECK(&p2.fabric(i) == &w2.fabric(i));
  CHECK_THROWS_AS(p2.fabric(p2.networks()), std::out_of_range);
}
