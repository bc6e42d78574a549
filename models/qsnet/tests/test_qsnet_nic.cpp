// The qsnet NIC kind: QDMA slot queues, events with counts and chaining, RDMA timing, the machines' fat trees.
#include "core/errors.hpp"
#include "models/qsnet/elan4.hpp"
#include "platform/topology/fat_tree.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace ompisim;
using namespace ompisim::qsnet;

namespace {
struct Elan4Fixture {
  test::Fixture job;
  Machine* m;
  engine::DesEngine& sim;
  Fabric& fabric;
  std::unique_ptr<Elan4> nic;
  explicit Elan4Fixture(const std::string& machine = "osu-elan4", int slots = 0, long long ranks = 2)
      : job(machine, ranks, 1), m(job.machine.get()), sim(job.sim), fabric(job.world->fabric()) {
    if (slots) qsnet::nic(*m).p.qdma_slots.value = slots;  // read when a queue is first used
    nic = std::make_unique<Elan4>(sim, job.world->contexts(), fabric);
  }
};
}  // namespace

// Configuration: a queue of 2 slots of 2 KiB.
// Expected: two messages are stored, the third is refused (Full) and counted; a 2049-byte message is TooLarge; after
//           one pop the third fits; messages come out in arrival order.
// How validated: return values and counters of QdmaQueue.
TEST_CASE("models/qsnet: a QDMA queue refuses when its slots are full and recovers when one is freed", "[unit][qsnet]") {
  QdmaQueue<int> q(2, 2048);
  CHECK(q.put(64, 1) == QdmaQueue<int>::Put::Stored);
  CHECK(q.put(2048, 2) == QdmaQueue<int>::Put::Stored);
  CHECK(q.put(64, 3) == QdmaQueue<int>::Put::Full);
  CHECK(q.put(2049, 4) == QdmaQueue<int>::Put::TooLarge);
  CHECK(q.refused() == 1);
  CHECK(q.free_slots() == 0);
  CHECK(q.pop() == 1);
  CHECK(q.put(64, 3) == QdmaQueue<int>::Put::Stored);
  CHECK(q.pop() == 2);
  CHECK(q.pop() == 3);
  CHECK(q.empty());
  CHECK_THROWS_AS(q.pop(), std::logic_error);
}

// Configuration: osu-elan4 with 2 receive slots; rank 0 sends 5 QDMAs to rank 1's queue 0 at t = 0; rank 1 takes one
//                message out every 10 us from t = 20 us.
// Expected: the first two are stored by one network latency; the others are refused and retried by the source NIC
//           (qdma_retries > 0), never dropped: all 5 are stored exactly once, none before a slot was freed, and the
//           queue never holds more than 2.
// How validated: on_stored callbacks on the DES engine.
TEST_CASE("models/qsnet: QDMA slot exhaustion -- the source NIC retries until a slot is free", "[unit][qsnet]") {
  Elan4Fixture f("osu-elan4", 2);
  auto& e = *f.nic;
  std::vector<double> stored_at;
  int most = 0;
  e.on_stored = [&](int rank, int q) {
    REQUIRE(rank == 1);
    REQUIRE(q == 0);
    stored_at.push_back(f.sim.now());
    most = std::max(most, e.queue(1, 0).used());
  };
  for (int i = 0; i < 5; ++i) e.qdma(0, 1, 0, 128, static_cast<std::uint64_t>(i));
  std::multiset<std::uint64_t> seen;
  for (int k = 0; k < 5; ++k)
    f.sim.at(20e-6 + k * 10e-6, [&] {
      if (!e.queue(1, 0).empty()) seen.insert(e.queue(1, 0).pop().payload);
    });
  f.sim.at(200e-6, [&] {
    while (!e.queue(1, 0).empty()) seen.insert(e.queue(1, 0).pop().payload);
  });
  f.sim.run();
  REQUIRE(stored_at.size() == 5);
  CHECK(stored_at[0] < 5e-6);
  CHECK(stored_at[1] < 5e-6);
  for (std::size_t i = 2; i < 5; ++i) CHECK(stored_at[i] > 20e-6);
  CHECK(most == 2);
  CHECK(e.count(qsnet::Elan4Stat::QdmaRetries) > 0);
  CHECK(seen == std::multiset<std::uint64_t>{0, 1, 2, 3, 4});
}

// Configuration: an event of count 2 with a QDMA (rank 0 -> rank 1) chained to it and a host callback.
// Expected: the first completion does nothing; the second fires the event: the chained QDMA is started by the NIC
//           event_fire_cost later (no host call), stored one QDMA time after that, exactly once; the host callback
//           runs once; a completion of the fired (one-shot) event is a logic error.
// How validated: times and counts on the DES engine.
TEST_CASE("models/qsnet: a chained event fires exactly once after its trigger, without the host", "[unit][qsnet]") {
  Elan4Fixture f;
  auto& e = *f.nic;
  const auto& p = e.params();
  int stored = 0, host = 0;
  double stored_t = -1;
  e.on_stored = [&](int, int) { ++stored, stored_t = f.sim.now(); };
  auto ev = e.new_event(2, [&] { ++host; });
  e.chain(ev, [&] { e.qdma(0, 1, 0, 64, 7); });
  f.sim.at(1e-6, [&] { e.complete(ev); });
  f.sim.at(3e-6, [&] {
    CHECK(stored == 0);
    e.complete(ev);
  });
  f.sim.run();
  CHECK(stored == 1);
  CHECK(host == 1);
  CHECK(e.count(qsnet::Elan4Stat::EventsFired) == 1);
  CHECK(e.count(qsnet::Elan4Stat::ChainedOps) == 1);
  double expect = 3e-6 + p.event_fire_cost + p.nic_cmd_cost + f.fabric.wire_time(0, 1, 64);
  CHECK(stored_t == Approx(expect));
  CHECK_THROWS_AS(e.complete(ev), std::logic_error);
}

// Configuration: the paper's Fig. 5: two outstanding RDMAs share one count-1 event; the first completion fires it
//                and wakes the host; the second completes before the host re-arms the count to 1.
// Expected: with the event, the second completion is lost (the count goes to -1, the re-arm overwrites it, the event
//           never fires again: a thread blocked on it would sleep forever); with a QDMA chained to every RDMA into a
//           shared completion queue (Fig. 6) both completions are seen, each exactly once, whatever the order of the
//           host's reads.
// How validated: ElanEvent and QdmaQueue state after the interleaving.
TEST_CASE("models/qsnet: a count-1 event cannot be re-armed atomically but a completion queue sees every completion",
          "[unit][qsnet]") {
  ElanEvent ev(1);
  int woken = 0;
  if (ev.complete()) ++woken;  // RDMA A completes: fires, the host is woken
  if (ev.complete()) ++woken;  // RDMA B completes before the host re-arms: count -1, no fire
  ev.rearm(1);                 // the host writes 1 (a plain store)
  CHECK(woken == 1);
  CHECK(ev.count() == 1);
  CHECK_FALSE(ev.host_word());  // B's completion is gone: nothing will ever fire for it
  CHECK(ev.fired() == 1);

  QdmaQueue<int> cq(8, 2048);
  ElanEvent a(1), b(1);
  a.chain([&] { cq.put(16, 'A'); });
  b.chain([&] { cq.put(16, 'B'); });
  for (ElanEvent* e : {&a, &b})
    if (e->complete())
      for (auto& op : e->take_chain()) op();
  std::multiset<int> seen;
  while (!cq.empty()) seen.insert(cq.pop());
  CHECK(seen == std::multiset<int>{'A', 'B'});
}

// Configuration: osu-elan4, 4 KiB RDMA write and read between ranks 0 and 1 (nodes 0, 1), started at t = 0.
// Expected: write: command + MMU, data (path time), acknowledgement back (path latency) -> initiator event;
//           read: command + MMU, request to the peer (latency), the peer's command + MMU, data back (path time).
//           The read's initiator learns of completion one acknowledgement earlier relative to its data arrival.
// How validated: closed forms from the machine's parameters.
TEST_CASE("models/qsnet: RDMA write and read complete at the initiator at the modelled times", "[unit][qsnet]") {
  Elan4Fixture f;
  auto& e = *f.nic;
  const auto& p = e.params();
  double tw = -1, tr = -1;
  auto ew = e.new_event(1, [&] { tw = f.sim.now(); });
  e.rdma_write(0, 1, 4096, ew);
  f.sim.run();
  PathCost path = f.fabric.path(0, 1);
  double local = p.nic_cmd_cost + p.mmu_translation_cost;
  CHECK(tw == Approx(local + path.time(4096) + path.latency + p.event_fire_cost));
  Elan4Fixture g;
  auto er = g.nic->new_event(1, [&] { tr = g.sim.now(); });
  g.nic->rdma_read(1, 0, 4096, er);
  g.sim.run();
  CHECK(tr == Approx(local + path.latency + local + path.time(4096) + p.event_fire_cost));
  CHECK(g.nic->count(Elan4Stat::RdmaReads) == 1);
}

// Configuration: osu-elan4 (one QS-8A: an 8-port Elite-4, arity 8, one level) and whatif-qsnet-64 (4-ary 3-tree).
// Expected: on osu-elan4 every pair of the 8 nodes is on the one switch (empty route, 0 hops); on the 64-node tree
//           every route of every pair goes up L levels then down L levels, L the NCA level, with min_hops = 2L and
//           nodes 0 and 63 at the maximum of 4 switch-to-switch links.
// How validated: Fabric::route over all pairs; link classes and levels along each route.
TEST_CASE("models/qsnet: fat-tree routes on the Elan4 machines go up then down with minimal hop counts",
          "[unit][qsnet]") {
  Elan4Fixture f("osu-elan4", 0, 8);
  for (long long a = 0; a < 8; ++a)
    for (long long b = 0; b < 8; ++b) CHECK(f.fabric.route(a, b).empty());
  CHECK(f.m->network().topology->kind() == "fat_tree");
  Elan4Fixture g("whatif-qsnet-64", 0, 64);
  auto& t = dynamic_cast<const topology::FatTree&>(*g.m->network().topology);
  REQUIRE(t.arity() == 4);
  REQUIRE(t.levels() == 3);
  for (long long a = 0; a < 64; ++a)
    for (long long b = 0; b < 64; ++b) {
      auto ra = t.router_of_node(a), rb = t.router_of_node(b);
      int L = t.nca_level(ra, rb);
      auto r = g.fabric.route(a, b);
      REQUIRE(static_cast<int>(r.size()) == 2 * L);
      REQUIRE(t.min_hops(ra, rb) == 2 * L);
      for (int i = 0; i < L; ++i) {
        CHECK(t.link(r[static_cast<std::size_t>(i)]).cls == topology::LinkClass::Up);
        CHECK(t.link(r[static_cast<std::size_t>(L + i)]).cls == topology::LinkClass::Down);
      }
    }
  CHECK(g.fabric.route(0, 63).size() == 4);
  // A longer route costs its switch hops: 0 -> 63 is 4 x switch_hop_latency slower than 0 -> 1.
  const auto& p = qsnet::nic(*g.m).p;
  CHECK(g.fabric.path(0, 63).latency - g.fabric.path(0, 1).latency == Approx(4 * p.switch_hop_latency.value));
}

// Configuration: a machine file extending osu-elan4 whose fat tree (arity 4, 1 level: 4 slots) must hold 8 nodes.
// Expected: InputError naming the file and the key (node_list or the topology's), with the reason.
// How validated: the exception's fields.
TEST_CASE("models/qsnet: a fat tree that cannot hold the node count is refused naming the key", "[unit][qsnet]") {
  auto dir = std::filesystem::temp_directory_path() / ("ompisim-qsnet-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto file = (dir / "small-tree.json").string();
  std::ofstream(file) << R"({"base": "osu-elan4", "machine": "small-tree",
    "networks": {"qsnet": {"topology": {"kind": "fat_tree", "arity": 4, "levels": 1}}}})";
  try {
    load_machine(file);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == file);
    CHECK((e.key().find("node_list") != std::string::npos || e.key().find("topology") != std::string::npos));
    CHECK_THAT(e.reason(), Catch::Contains("8"));
  }
  std::filesystem::remove_all(dir);
}
