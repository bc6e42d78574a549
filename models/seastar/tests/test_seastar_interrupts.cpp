// The SeaStar's host interrupts (Catamount generic mode: the kernel's interrupt handler processes each incoming Portals
// header on the receiving core, one at a time; Brightwell et al., IPDPS 2005). DES engine, red-storm, one rank per
// node, the SeaStar driven directly (no MPI stack): ranks 1 and 3 each put 8 B with an ACK into a catch-all entry of
// rank 2 at the same instant.
#include "models/seastar/nic.hpp"
#include "models/seastar/seastar.hpp"
#include "models/seastar/tests/seastar_test_helpers.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <vector>

using namespace ompisim;
namespace ptl = ompisim::portals;

namespace {
constexpr ptl::PtIndex kPortal = 5;

struct Seen {
  int rank;
  ptl::EventKind kind;
  double at;
  ptl::ProcessId initiator;
};

struct Bench {
  test::Fixture f{"red-storm", 4, 1};
  seastar::SeaStar& ss = seastar::SeaStar::of(f.world->nic_services(), f.sim, f.world->contexts(),
                                                   f.world->cpus(), f.world->fabric());
  std::vector<Seen> seen;
  int client = -1;
  double c = 0;  // host_interrupt_cost
  Bench() {
    client = ss.open("test", {kPortal}, [this](int r, const ptl::Event& e) {
      seen.push_back({r, e.kind, f.sim.now(), e.initiator});
    });
    c = ss.params().host_interrupt_cost;
    seastar::test::attach_catch_all(ss, 2, kPortal, client, 1 << 20);  // rank 2: a large locally managed buffer
  }
  void put_from(int rank) {
    ptl::Md md;
    md.length = 8;
    md.threshold = 2;  // send + ack
    md.options.event_start_disable = true;
    md.eq = ss.eq(rank, client);
    ptl::MdId h = ss.nic(rank).md_bind(md, ptl::UnlinkOp::Unlink);
    ss.put(rank, h, ptl::AckReq::Ack, 2, kPortal, 0, 0);
  }
  std::vector<double> times(int rank, ptl::EventKind kind) const {
    std::vector<double> out;
    for (auto& s : seen)
      if (s.rank == rank && s.kind == kind) out.push_back(s.at);
    return out;
  }
  double time_of(int rank, ptl::EventKind kind) const {
    auto t = times(rank, kind);
    REQUIRE(t.size() == 1);
    return t[0];
  }
};
}  // namespace

// Configuration: ranks 1 and 3 put 8 B with an ACK into rank 2 at t = 0 (both one hop away, so the headers arrive
// together; the target firmware matches them 0.5 us apart). Expected: the two PUT_END events at rank 2 are exactly one
// interrupt cost apart (the second handler starts when the first ends; without serialization they were one firmware
// cost, 0.5 us, apart), and the second initiator's ACK comes back about one interrupt cost after the first's (it is
// sent at the end of its own handler). Fails with the former interrupt(), which ran every handler from its arrival.
TEST_CASE("seastar: interrupts on one core serialize; the event and the ACK follow their own handler",
          "[unit][seastar]") {
  Bench b;
  b.put_from(1);
  b.put_from(3);
  b.f.sim.run();
  auto ends = b.times(2, ptl::EventKind::PutEnd);
  REQUIRE(ends.size() == 2);
  REQUIRE(b.c > 1e-6);  // larger than the firmware's per-message cost: the handlers, not the firmware, set the pace
  CHECK(ends[1] - ends[0] == Approx(b.c).margin(1e-12));
  double ack1 = b.time_of(1, ptl::EventKind::Ack), ack3 = b.time_of(3, ptl::EventKind::Ack);
  CHECK(std::abs(std::abs(ack3 - ack1) - b.c) < 0.1e-6);  // hop differences only
  CHECK(b.ss.count(seastar::SeaStarStat::Interrupts) == 4);  // two puts at the target, one ACK at each initiator
}

// Configuration: rank 2 is busy with 20 us of MPI work (CpuTimeline::cpu) from t = 0 when the two puts arrive (about
// 1 us), and queues 1 us more at 15 us; a second case runs 20 us of application work (CpuTimeline::compute) instead.
// Expected: the
// interrupts do not wait for the work (they preempt user code: both events at their serialized times, long before
// 20 us); the application work ends two interrupt costs later than alone, and so does the MPI work queued after the
// interrupts (CpuTimeline::steal moves the core's free time; an MPI step already scheduled keeps its end).
TEST_CASE("seastar: interrupts preempt the core's work and delay it by their cost", "[unit][seastar]") {
  for (bool app : {false, true}) {
    Bench b;
    double work_done = -1;
    if (app) {
      b.f.world->cpus().compute(2, 20e-6, [&] { work_done = b.f.sim.now(); });
    } else {
      b.f.world->cpus().cpu(2, 20e-6, [] {});
      b.f.sim.at(15e-6, [&] { b.f.world->cpus().cpu(2, 1e-6, [&] { work_done = b.f.sim.now() - 1e-6; }); });
    }
    b.put_from(1);
    b.put_from(3);
    b.f.sim.run();
    INFO((app ? "compute" : "cpu"));
    auto ends = b.times(2, ptl::EventKind::PutEnd);
    REQUIRE(ends.size() == 2);
    CHECK(ends[1] < 10e-6);  // not behind the 20 us of work
    CHECK(ends[1] - ends[0] == Approx(b.c).margin(1e-12));
    CHECK(work_done == Approx(20e-6 + 2 * b.c).margin(1e-12));
  }
}
