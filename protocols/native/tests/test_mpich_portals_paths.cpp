// Cray MPI over Portals: its fitted per-path costs (protocols/native/README.md, "Cray MPI on the SeaStar: per-path
// costs") act on the paths they name and nowhere else.
#include "tests/test_helpers.hpp"
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/task.hpp"
#include "models/seastar/nic.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {

struct Costs {
  double eager_rate = 0, unex_cost = 0, unex_rate = 0, post_cost = 0;  // 0: the machine file's value
};

void apply(Machine& m, const Costs& c) {
  auto& sw = seastar::nic(m).software;
  if (c.eager_rate > 0) sw.craympi_eager_rate.value = c.eager_rate;
  if (c.unex_cost > 0) sw.craympi_unex_cost.value = c.unex_cost;
  if (c.unex_rate > 0) sw.craympi_unex_rate.value = c.unex_rate;
  if (c.post_cost > 0) sw.craympi_post_cost.value = c.post_cost;
}

// NetPIPE's one-way latency of `bytes` between two Red Storm nodes: as the paper ran it (each side posts its receive
// after its send completed), or with the replies' receives pre-posted (`prepost`: no message is unexpected).
double netpipe_latency(const std::string& st, std::uint64_t bytes, const Costs& c, bool prepost) {
  test::Fixture f("red-storm", 2, 1, "");
  apply(*f.machine, c);
  f.stack = make_stack(*f.world, f.mca_, st, "test");
  bench::OsuConfig cfg;
  cfg.name = "netpipe";
  cfg.sizes = {bytes};
  cfg.iterations = 20;
  cfg.skip = 2;
  cfg.prepost = prepost;
  return bench::run_osu(*f.world, *f.stack, cfg)[0]["latency_us"].get<double>();
}

double netpipe(const std::string& st, std::uint64_t bytes, const Costs& c) {
  return netpipe_latency(st, bytes, c, false);
}

// SMB's receive step: rank 1 posts a receive of 8 B from rank 0 and then sends rank 0 a 0-byte "ready" message; rank 0
// sends the 8 B once it has the ready message. Returns when rank 0's receive of the ready message completes, in us;
// `posted` reports whether rank 1's receive was posted as a match entry (no unexpected message matched it).
double ready_after_post(const std::string& st, const Costs& c, bool& posted) {
  test::Fixture f("red-storm", 2, 1, "");
  apply(*f.machine, c);
  f.stack = make_stack(*f.world, f.mca_, st, "test");
  double ready = -1;
  f.stack->irecv(0, 1, 6, 0, Buffer{0x10000, true}, [&] {
    ready = f.sim.now();
    f.stack->isend(0, 1, 5, 8, Buffer{0x10000, true}, [] {});
  });
  f.stack->irecv(1, 0, 5, 8, Buffer{0x20000, true}, [] {});
  f.stack->isend(1, 0, 6, 0, Buffer{0x20000, true}, [] {});
  f.sim.run();
  auto s = f.stack->stats();
  CHECK(s.recvs_completed == 2);
  CHECK(s.sends_completed == 2);
  // the counters under the stack's own names (Cray MPI reports mtl/portals' model under craympi_*)
  const std::string pre = st == "native" ? "craympi_" : "mtl_";
  posted = s.counters[pre + "posted_receives"] == 2 && s.counters[pre + "unexpected_short"] == 0;
  return ready * 1e6;
}

double one_way(const std::string& st, std::uint64_t bytes, const Costs& c) {
  return netpipe_latency(st, bytes, c, true);
}

// Rank 0 sends one message of `bytes` at t = 0; rank 1 posts its receive at 1 ms (the message is unexpected by then).
// Returns the receive's completion time after the post, in us.
double unexpected_receive(const std::string& st, std::uint64_t bytes, const Costs& c) {
  test::Fixture f("red-storm", 2, 1, "");
  apply(*f.machine, c);
  f.stack = make_stack(*f.world, f.mca_, st, "test");
  double done = -1;
  f.stack->isend(0, 1, 5, bytes, Buffer{0x10000, true}, [] {});
  f.sim.after(1e-3, [&] { f.stack->irecv(1, 0, 5, bytes, Buffer{0x20000, true}, [&] { done = f.sim.now(); }); });
  f.sim.run();
  auto s = f.stack->stats();
  CHECK(s.recvs_completed == 1);
  return (done - 1e-3) * 1e6;
}

}  // namespace

// Configuration: red-storm, 2 ranks on 2 nodes, Cray MPI ("native") and Open MPI CM, pre-posted ping-pong of 0 B and
// 1 KiB, with craympi_eager_rate set to 1 GB/s and to 0.5 GB/s. Expected: the eager path's per-byte cost is on the
// sender's CPU before the put, so each one-way trip of 1 KiB is 1024 B / rate slower (1.024 us more at 0.5 GB/s than
// at 1 GB/s) for Cray MPI; the 0-byte trip and every CM trip do not move. How validated: latency differences.
TEST_CASE("mpich_portals: the eager path's per-byte cost is on the sender's critical path", "[seastar][native]") {
  const Costs fast{1e9, 0, 0}, slow{0.5e9, 0, 0};
  CHECK(one_way("native", 1024, slow) - one_way("native", 1024, fast) == Approx(1.024).epsilon(1e-6));
  CHECK(one_way("native", 0, slow) == Approx(one_way("native", 0, fast)).epsilon(1e-12));
  CHECK(one_way("openmpi-cm", 1024, slow) == Approx(one_way("openmpi-cm", 1024, fast)).epsilon(1e-12));
}

// Configuration: as above; one 4 KiB message received after it arrived (unexpected), with craympi_unex_cost 1 us or
// 3 us and craympi_unex_rate 4 GB/s or 1 GB/s; then a pre-posted ping-pong with the same settings. Expected: the
// unexpected receive completes later by exactly the cost difference (2 us) and by 4096 B x (1/1 - 1/4) ns/B = 3.072 us
// for the rate; a pre-posted (expected) message does not move; CM's unexpected receive does not move. How validated:
// the receive's completion time after its post.
TEST_CASE("mpich_portals: the unexpected path's costs apply to unexpected receives only", "[seastar][native]") {
  const std::uint64_t b = 4096;
  const double base = unexpected_receive("native", b, {0, 1e-6, 4e9});
  CHECK(unexpected_receive("native", b, {0, 3e-6, 4e9}) - base == Approx(2.0).epsilon(1e-6));
  CHECK(unexpected_receive("native", b, {0, 1e-6, 1e9}) - base == Approx(3.072).epsilon(1e-6));
  CHECK(one_way("native", b, {0, 3e-6, 1e9}) == Approx(one_way("native", b, {0, 1e-6, 4e9})).epsilon(1e-12));
  CHECK(unexpected_receive("openmpi-cm", b, {0, 3e-6, 1e9}) ==
        Approx(unexpected_receive("openmpi-cm", b, {0, 1e-6, 4e9})).epsilon(1e-12));
}

// Configuration: red-storm, 2 ranks on 2 nodes; SMB's receive step (a receive posted, then a 0-byte ready message from
// the same rank), a receive of a message that arrived before it (4 KiB, unexpected), and NetPIPE's 0 B and 1 KiB trips
// as the paper ran them, with craympi_post_cost 1 us or 3 us. Expected: the pre-posted receive's cost is on its rank's
// CPU before the ready message's send, which leaves 2 us later; an unexpected receive takes the other path and does
// not move; NetPIPE posts each receive while the reply is still on its way, so its trips (the 0 B calibration point)
// do not move; CM has no such cost. How validated: completion times.
TEST_CASE("mpich_portals: the pre-posted receive path's cost applies to receives posted as match entries",
          "[seastar][native]") {
  const Costs lo{0, 0, 0, 1e-6}, hi{0, 0, 0, 3e-6};
  bool posted_lo = false, posted_hi = false;
  const double at_lo = ready_after_post("native", lo, posted_lo);
  const double at_hi = ready_after_post("native", hi, posted_hi);
  CHECK(posted_lo);
  CHECK(posted_hi);
  CHECK(at_hi - at_lo == Approx(2.0).epsilon(1e-6));
  bool cm_posted = false;
  CHECK(ready_after_post("openmpi-cm", hi, cm_posted) == Approx(ready_after_post("openmpi-cm", lo, cm_posted)).epsilon(1e-12));
  CHECK(unexpected_receive("native", 4096, hi) == Approx(unexpected_receive("native", 4096, lo)).epsilon(1e-12));
  CHECK(netpipe("native", 0, hi) == Approx(netpipe("native", 0, lo)).epsilon(1e-12));
  CHECK(netpipe("native", 1024, hi) == Approx(netpipe("native", 1024, lo)).epsilon(1e-12));
}
