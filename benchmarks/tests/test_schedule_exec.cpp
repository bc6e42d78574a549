// ScheduleExec keeps a running schedule packed (8 bytes an operation, the round's end a bit of its last operation).
// These cases run schedules through the executor's hooks (Amo, WaitCounter, Reduce: no messages) on the loggp stack
// and check what the hooks see against the schedule as generated.
#include "benchmarks/schedule_exec.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

using namespace ompisim;

namespace {
struct Seen {
  int rank;
  coll::Op op;
  double at;
};
}  // namespace

// Configuration: two ranks, rank 1's schedule mapped through Group{1, 3, ...} (world peer = 1 + 3 x peer); rounds
// {Amo 0, Reduce 4096 B}, {} (empty), {WaitCounter 3, Amo 2^27 - 2 (the largest peer the packing holds)}, {Reduce
// 8 B}. Amo completes 1 us after its hook, the others at once.
// Expected: each hook sees the operation as generated (kind, peer mapped for Amo, -1 for the others, value), in
// schedule order; a round starts when the previous one's last operation completes (the empty round adds nothing): rank
// 0's second round at 1 us, its third at 2 us; `done` at 2 us. How validated: exact equality; a round end lost in the
// packing starts a round early (its time is 0), a peer or kind packed wrong shows in the ops.
TEST_CASE("schedule_exec: packed rounds run as generated, round by round", "[benchmark][schedule_exec]") {
  test::Fixture f("loggp", 2, 1, "loggp");
  bench::ScheduleExec exec(*f.stack, 2);
  std::vector<Seen> seen;
  exec.amo = [&](int rank, const coll::Op& op, Completion done) {
    seen.push_back({rank, op, f.sim.now()});
    f.sim.after(1e-6, std::move(done));
  };
  auto now = [&](int rank, const coll::Op& op, Completion done) {
    seen.push_back({rank, op, f.sim.now()});
    done();
  };
  exec.wait_counter = now;
  exec.reduce = now;
  constexpr int kBig = (1 << 27) - 2;
  auto sched = [] {
    coll::Schedule s;
    s.round().amo(0).reduce(4096).round().round().wait_counter(3).amo(kBig).round().reduce(8);
    return s;
  };
  double done_at = -1;
  exec.start(0, sched(), 7, bench::Group{0, 1, 2}, [&] { done_at = f.sim.now(); });
  f.sim.run();
  using K = coll::OpKind;
  const std::vector<coll::Op> want{{K::Amo, 0, 0}, {K::Reduce, -1, 4096}, {K::WaitCounter, -1, 3},
                                   {K::Amo, kBig, 0}, {K::Reduce, -1, 8}};
  const std::vector<double> when{0, 0, 1e-6, 1e-6, 2e-6};
  REQUIRE(seen.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("op " << i);
    CHECK(seen[i].rank == 0);
    CHECK(seen[i].op == want[i]);
    CHECK(seen[i].at == when[i]);
  }
  CHECK(done_at == 2e-6);

  seen.clear();
  coll::Schedule s;
  s.round().amo(2);
  exec.start(1, std::move(s), 7, bench::Group{1, 3, 2}, [] {});
  f.sim.run();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].op == coll::Op{K::Amo, 7, 0});  // world peer 1 + 3 x 2
}

// Expected: a peer beyond what the packing holds (2^27 - 1) is refused with a logic_error naming it, before any
// operation runs; a schedule of empty rounds completes at once.
TEST_CASE("schedule_exec: a peer too large to pack is refused; empty rounds complete at once", "[benchmark][schedule_exec]") {
  test::Fixture f("loggp", 1, 1, "loggp");
  bench::ScheduleExec exec(*f.stack, 1);
  int amos = 0;
  exec.amo = [&](int, const coll::Op&, Completion done) {
    ++amos;
    done();
  };
  coll::Schedule s;
  s.round().amo(0).round().amo((1 << 27) - 1);
  CHECK_THROWS_WITH(exec.start(0, std::move(s), 1, bench::Group{0, 1, 1}, [] {}),
                    Catch::Contains("peer 134217727"));
  CHECK(amos == 0);
  bool done = false;
  coll::Schedule empty;
  empty.round().round();
  exec.start(0, std::move(empty), 1, bench::Group{0, 1, 1}, [&] { done = true; });
  CHECK(done);
}
