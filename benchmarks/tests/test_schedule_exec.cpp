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

// Configuration: loggp stack, two ranks; the Reduce hook takes 20 us. (A) rank 0 posts a 100-byte receive from rank 1
// (PostRecv) and waits for it in its next round; rank 1 reduces, then sends: against the same run with rank 0's plain
// Recv. (B) rank 0 posts the receive, reduces, then waits; rank 1 sends at once. (C) two receives posted in one
// round, 100 then 200 bytes, waited for in two rounds. Expected: (A) the Wait completes when the message arrives, at
// the plain Recv's time; (B) the message arrived during the reduction, so the Wait completes at once: rank 0 done at
// 20 us exactly; (C) both complete, and every send is received once (the posting order of the matches is the zero-time
// checker's test, collectives/tests/test_data_colls.cpp).
// A Wait without a PostRecv, and a schedule ending with a PostRecv not waited for, are logic errors naming the rank.
TEST_CASE("schedule_exec: PostRecv is waited for in a later round", "[benchmark][schedule_exec]") {
  auto run = [](coll::Schedule s0, coll::Schedule s1) {
    test::Fixture f("loggp", 2, 1, "loggp");
    bench::ScheduleExec exec(*f.stack, 2);
    exec.reduce = [&](int, const coll::Op&, Completion done) { f.sim.after(20e-6, std::move(done)); };
    double done0 = -1;
    exec.start(0, std::move(s0), 3, bench::Group{0, 1, 2}, [&] { done0 = f.sim.now(); });
    exec.start(1, std::move(s1), 3, bench::Group{0, 1, 2}, [] {});
    f.sim.run();
    CHECK(f.stack->stats().sends_completed == f.stack->stats().recvs_completed);
    return done0;
  };
  coll::Schedule late;
  late.round().reduce(8).round().send(0, 100);
  coll::Schedule posted, plain;
  posted.round().post_recv(1, 100).round().wait();
  plain.round().recv(1, 100);
  const double t_plain = run(plain, late);
  CHECK(t_plain > 20e-6);
  CHECK(run(posted, late) == t_plain);

  coll::Schedule early, overlap;
  early.round().send(0, 100);
  overlap.round().post_recv(1, 100).round().reduce(8).round().wait();
  CHECK(run(overlap, early) == 20e-6);

  coll::Schedule two, sends;
  two.round().post_recv(1, 100).post_recv(1, 200).round().wait().round().wait();
  sends.round().send(0, 100).round().send(0, 200);
  CHECK(run(two, sends) > 0);

  test::Fixture f("loggp", 1, 1, "loggp");
  bench::ScheduleExec exec(*f.stack, 1);
  coll::Schedule bad;
  bad.round().wait();
  CHECK_THROWS_WITH(exec.start(0, std::move(bad), 1, bench::Group{0, 1, 1}, [] {}),
                    Catch::Contains("rank 0: a Wait without a PostRecv"));
  test::Fixture g("loggp", 1, 1, "loggp");
  bench::ScheduleExec exec1(*g.stack, 1);
  coll::Schedule unwaited;
  unwaited.round().post_recv(0, 8);
  CHECK_THROWS_WITH(exec1.start(0, std::move(unwaited), 1, bench::Group{0, 1, 1}, [] {}),
                    Catch::Contains("rank 0's schedule ended with 1 PostRecv not waited for"));
}
