// The loggp stack's gaps against the closed forms of LogGOPSim's charging rules (Hoefler, Schneider, Lumsdaine, HPDC
// 2010; LogGOPSim.cpp OP_SEND / OP_MSG): per rank one CPU (o, O) shared by both directions, one send gap and one
// receive gap (g, G), as LogP and LogGP (Alexandrov et al., SPAA 1995) define g: the interval between consecutive
// sends, or consecutive receives, at a processor. Each case runs one collective schedule once, every rank starting
// at time 0, and takes the time of the last rank's completion.
#include "benchmarks/schedule_exec.hpp"
#include "collectives/barrier/barriers.hpp"
#include "collectives/tuned_colls.hpp"
#include "models/loggp/nic.hpp"
#include "protocols/loggp/loggp_stack.hpp"
#include "protocols/register.hpp"
#include "tests/test_helpers.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace ompisim;

namespace {
constexpr double kL = 1e-6, kO = 0.5e-6, kG = 1e9, kObw = 100e9;  // machines/loggp.json: L, o, 1/G, 1/O

// Runs `gen` once on P ranks of the loggp machine with gap g; returns the last completion time (seconds).
double run_once(int p, double g, coll::Generator gen, std::uint32_t bytes) {
  test::Fixture f("loggp", p, 1, "loggp");
  loggp::nic(*f.machine).p.g.value = g;
  bench::ScheduleExec exec(*f.stack, p);
  coll::AlgoParams params;
  params.bytes = bytes;
  double last = 0;
  int done = 0;
  for (int r = 0; r < p; ++r)
    exec.start(r, gen(r, p, params), 1, bench::Group{0, 1, p}, [&] {
      last = std::max(last, f.sim.now());
      ++done;
    });
  f.sim.run();
  REQUIRE(done == p);
  return last;
}
}  // namespace

// Configuration: linear alltoall (every rank posts P-1 receives, then P-1 sends at once), 64 KiB blocks (eager,
// s <= S), g = 0.2 us, P in {2, 3, 16, 256}.
// Expected: (P-1)(2o + L + max((s-1)O, (s-1)G)). Each rank's CPU alternates: a send (o + (s-1)O, over before the
// first byte of the matching message arrives o + L after the send started, as (s-1)O <= L), then that message's
// receive (o + max((s-1)O, (s-1)G)); the next send's gap (g + (s-1)G >= o + L) ends while the CPU receives, so each
// message adds one uncontended one-way time. At P = 256 that is 17.22 ms (LogGOPSim with the same L, o, g, G).
// How validated: relative error below 1e-9. A send that holds the CPU while it waits for its gap (one resource for
// both directions) gives about twice as much (33.6 ms at P = 256: every send's gap, then every receive).
TEST_CASE("loggp: linear alltoall matches LogGOPSim's (P-1)(2o + L + max((s-1)O, (s-1)G))", "[protocol][golden]") {
  const double s = 65536, extra = s - 1;
  REQUIRE(extra / kObw <= kL);
  REQUIRE(0.2e-6 + extra / kG >= kO + kL);
  for (int p : {2, 3, 16, 256}) {
    double t = run_once(p, 0.2e-6, coll::alltoall_linear, static_cast<std::uint32_t>(s));
    double expect = (p - 1) * (2 * kO + kL + std::max(extra / kObw, extra / kG));
    INFO("P = " << p);
    CHECK(t == Approx(expect).epsilon(1e-9));
  }
}

// Configuration: dissemination (bruck) barrier, 0-byte messages; g = 0.2 us (below 2o + L) and g = 3 us (above).
// Expected: round k+1's send starts when round k's receive is done (2o + L after its send) and its send gap is over
// (g after it), so (R - 1) max(2o + L, g) + 2o + L for R = ceil(log2 P) rounds (R (2o + L) when g <= 2o + L, the LogP
// form). How validated: relative error below 1e-9.
TEST_CASE("loggp: dissemination barrier matches (R-1) max(2o + L, g) + 2o + L", "[protocol][golden]") {
  for (double g : {0.2e-6, 3e-6}) {
    for (int p : {2, 3, 5, 8, 13, 64, 100}) {
      const double r = std::ceil(std::log2(p));
      double expect = (r - 1) * std::max(2 * kO + kL, g) + 2 * kO + kL;
      INFO("g = " << g << ", P = " << p);
      CHECK(run_once(p, g, coll::barrier_bruck, 0) == Approx(expect).epsilon(1e-9));
    }
  }
}

// Configuration: linear barrier (P-1 ranks send 0 bytes to rank 0 at once; rank 0 then answers each with a blocking
// send), g = 2 us (above o) and g = 0.2 us (below).
// Expected: rank 0 takes the P-1 messages one receive gap apart (max(o, g): its CPU pays o each, its receive gap g),
// then sends one send gap apart: 2(2o + L) + 2(P-2) max(o, g). How validated: relative error below 1e-9. Without a
// receive gap (messages received back to back at o each) the fan-in takes (P-2)(max(o, g) - o) less (at P = 8,
// g = 2 us: 19 us instead of 28 us).
TEST_CASE("loggp: linear barrier's fan-in is paced by the receive gap", "[protocol][golden]") {
  for (double g : {2e-6, 0.2e-6}) {
    for (int p : {2, 3, 8, 33}) {
      double expect = 2 * (2 * kO + kL) + 2 * (p - 2) * std::max(kO, g);
      INFO("g = " << g << ", P = " << p);
      CHECK(run_once(p, g, coll::barrier_linear, 0) == Approx(expect).epsilon(1e-9));
    }
  }
}

// Configuration: the loggp NIC kind's node resources and bulk path (what a flow-based stack on this machine would use).
// Expected: a transmit and a receive resource per node, each at 1/G, a flow leaving through the source's transmit side
// and entering through the destination's receive side (G per direction, as g). How validated: the NIC model's lists.
TEST_CASE("loggp: bulk data uses a transmit and a receive resource per node", "[protocol]") {
  auto m = load_machine("loggp");
  const auto& n = loggp::nic(*m);
  auto res = n.node_resources();
  REQUIRE(res.size() == 2);
  CHECK(res[0].name == "nic-tx");
  CHECK(res[1].name == "nic-rx");
  for (auto& r : res) CHECK(r.capacity == Approx(kG));
  auto path = n.bulk_path();
  REQUIRE(path.before_route.size() == 1);
  REQUIRE(path.after_route.size() == 1);
  CHECK(path.before_route[0] == std::make_pair(End::Src, std::string("nic-tx")));
  CHECK(path.after_route[0] == std::make_pair(End::Dst, std::string("nic-rx")));
}

// Configuration: 9 ranks of the loggp machine (g = 0.2 us, S = 64 KiB), every send and receive posted at time 0:
// rank 0 sends 1 KiB to each of ranks 1, 2 and 3; ranks 4 and 5 send 1 KiB each to rank 6; rank 7 sends 128 KiB
// (above S) to rank 8. Expected: 5 eager sends and 1 rendezvous, 5 KiB + 128 KiB of payload; rank 0's second and
// third sends wait for its send gap (2 send-gap waits; the RTS, CTS and data of the rendezvous go from ranks whose gap
// is over); the second of the two messages that reach rank 6 together waits for its receive gap (1 receive-gap
// wait); no truncation. Every counter the stack reports is one its registry entry declares, and it reports each.
// How validated: by hand from the charging rules in loggp_stack.hpp.
TEST_CASE("loggp: counts its declared statistics", "[protocol][loggp]") {
  test::Fixture f("loggp", 9, 1, "loggp");
  int done = 0;
  auto count = [&] { ++done; };
  auto pair = [&](int src, int dst, std::uint64_t bytes) {
    f.stack->irecv(dst, src, 1, bytes, Buffer{1 << 20, true}, count);
    f.stack->isend(src, dst, 1, bytes, Buffer{4096, true}, count);
  };
  for (int dst : {1, 2, 3}) pair(0, dst, 1024);
  pair(4, 6, 1024);
  pair(5, 6, 1024);
  pair(7, 8, 131072);
  f.sim.run();
  REQUIRE(done == 12);
  const auto counters = f.stack->stats().counters;
  using loggp::LogGPStat;
  auto value = [&](LogGPStat id) { return counters.at(statistic(loggp::kLogGPStatistics, id).name); };
  CHECK(value(LogGPStat::EagerSends) == 5);
  CHECK(value(LogGPStat::RndvSends) == 1);
  CHECK(value(LogGPStat::Bytes) == 5 * 1024 + 131072);
  CHECK(value(LogGPStat::SendGapWaits) == 2);
  CHECK(value(LogGPStat::RecvGapWaits) == 1);
  CHECK(value(LogGPStat::TruncateErrors) == 0);
  const ComponentInfo* c = component_registry().find("model", "loggp");
  REQUIRE(c);
  REQUIRE(c->statistics.size() == loggp::kLogGPStatistics.size());
  for (const StatisticInfo& s : c->statistics) CHECK(counters.count(s.name) == 1);
  CHECK(counters.size() == c->statistics.size());
}
