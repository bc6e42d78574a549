// ptl/elan4 under pml/teg on osu-elan4: progress modes, RDMA schemes and their control messages, message conservation.
#include "core/errors.hpp"
#include "protocols/ptl/elan4/progress.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using namespace ompisim::ptl::elan4;

namespace {
// The stack is built before the job's resources are declared (its progress threads need their cores' resources).
struct TegFixture {
  std::unique_ptr<Machine> m = load_machine("osu-elan4");
  test::Job job{*m, make_placement(*m, 2, 1, {}, "test")};
  engine::DesEngine& sim = job.sim;
  std::unique_ptr<Stack> stack;
  McaParams mca;
  TegFixture(std::initializer_list<std::pair<const char*, const char*>> sets, const char* preset = "openmpi-elan4") {
    mca = machine_mca(*m);
    auto list = param_list(mca);
    for (auto& [k, v] : sets) REQUIRE(set_param(list, k, std::string("\"") + v + "\"", "test"));
    stack = make_stack(*job.world, mca, preset, "test");
    job.seal();
  }
  std::uint64_t counter(const std::string& k) const {
    auto c = stack->stats().counters;
    return c.count(k) ? c.at(k) : 0;
  }
};
// n messages of `bytes` each way between ranks 0 and 1; receives posted first (expected) or after the sends arrived
// (unexpected). Returns how many completions ran.
int exchange(TegFixture& f, std::uint64_t bytes, int n, bool late_receives) {
  int done = 0;
  auto post_recvs = [&] {
    for (int i = 0; i < n; ++i) {
      f.stack->irecv(1, 0, i, bytes, Buffer{0x100000, true}, [&] { ++done; });
      f.stack->irecv(0, 1, i, bytes, Buffer{0x200000, true}, [&] { ++done; });
    }
  };
  if (!late_receives) post_recvs();
  for (int i = 0; i < n; ++i) {
    f.stack->isend(0, 1, i, bytes, Buffer{0x300000, true}, [&] { ++done; });
    f.stack->isend(1, 0, i, bytes, Buffer{0x400000, true}, [&] { ++done; });
  }
  if (late_receives) f.sim.at(1e-3, post_recvs);
  f.sim.run();
  return done;
}
// osu_latency's loop with blocking calls: rank 0 sends (waits for the send), then receives; rank 1 receives, then
// sends back. Returns the one-way latency (half the mean round trip).
double pingpong(TegFixture& f, std::uint64_t bytes, int iters) {
  struct Loop {
    TegFixture& f;
    std::uint64_t bytes;
    int iters, i0 = 0, i1 = 0;
    double end = 0;
    void r0_send() { f.stack->isend(0, 1, 0, bytes, Buffer{0x300000, true}, [this] { r0_recv(); }); }
    void r0_recv() {
      f.stack->irecv(0, 1, 0, bytes, Buffer{0x100000, true}, [this] {
        if (++i0 == iters) end = f.sim.now();
        else r0_send();
      });
    }
    void r1_recv() { f.stack->irecv(1, 0, 0, bytes, Buffer{0x200000, true}, [this] { r1_send(); }); }
    void r1_send() {
      f.stack->isend(1, 0, 0, bytes, Buffer{0x400000, true}, [this] {
        if (++i1 < iters) r1_recv();
      });
    }
  } loop{f, bytes, iters};
  loop.r1_recv();
  loop.r0_send();
  f.sim.run();
  return loop.end / (2.0 * iters);
}
}  // namespace

// Configuration: ProgressPlan from the MCA choices.
// Expected: auto gives one_thread the shared receive queue (completion QDMAs into queue 0, one thread for both),
//           two_threads a second queue and thread, basic/interrupt none; contradictions are refused; interrupt mode
//           blocks at once on its queue but polls RDMA events; a thread blocks only after the spin time.
// How validated: the plan's answers.
TEST_CASE("ptl/elan4: progress modes map queues to waiters and decide when a waiter has blocked", "[unit][ptl]") {
  auto one = ProgressPlan::make(2, 0), two = ProgressPlan::make(3, 0), basic = ProgressPlan::make(0, 0),
       intr = ProgressPlan::make(1, 0);
  CHECK(one.completion_queue() == 0);
  CHECK(one.waiter_for_queue(0) == 1);
  CHECK(one.threads() == 1);
  CHECK(two.completion_queue() == 1);
  CHECK(two.waiter_for_queue(0) == 1);
  CHECK(two.waiter_for_queue(1) == 2);
  CHECK(two.threads() == 2);
  CHECK(basic.completion_queue() == -1);
  CHECK(basic.waiter_for_event() == 0);
  CHECK(ProgressPlan::make(0, 3).completion_queue() == 1);  // polling with a two-queue completion (Fig. 8)
  CHECK_THROWS_AS(ProgressPlan::make(2, 3), std::invalid_argument);
  CHECK_THROWS_AS(ProgressPlan::make(3, 1), std::invalid_argument);
  CHECK_THROWS_AS(one.waiter_for_event(), std::logic_error);
  CHECK_FALSE(basic.blocked(10, 0, 1));
  CHECK(intr.blocked(10, 9.9, 1, true));
  CHECK_FALSE(intr.blocked(10, 9.9, 1, false));
  CHECK_FALSE(intr.blocked(10, 10, 1, true));  // still busy: not blocked
  CHECK_FALSE(one.blocked(10, 9.5, 1));
  CHECK(one.blocked(10, 8.5, 1));
  // Host events read per poll: the polling main thread reads two with a separate completion queue, else one.
  CHECK(basic.queues_polled(0) == 1);
  CHECK(ProgressPlan::make(0, 2).queues_polled(0) == 1);
  CHECK(ProgressPlan::make(0, 3).queues_polled(0) == 2);
  CHECK(two.queues_polled(1) == 1);
  CHECK(two.queues_polled(2) == 1);
}

// Configuration: osu_latency's loop at 2 KiB (RDMA read rendezvous, chained), polling progress with a completion queue
//                shared with the receive queue (one-queue) and with a separate one (two-queue), Fig. 8.
// Expected: two-queue slower than one-queue, by less than 3 % (paper §6.2: checking two host events costs "about the
//           same" as checking one; here one more host_event_poll_cost per poll of the main thread).
// How validated: the one-way latencies of the two runs (DES engine).
TEST_CASE("ptl/elan4: a second completion queue costs a polling main thread one more event read", "[unit][ptl]") {
  TegFixture one({{"ptl_elan4_rdma", "read"}, {"ptl_elan4_completion_queue", "one"}});
  TegFixture two({{"ptl_elan4_rdma", "read"}, {"ptl_elan4_completion_queue", "two"}});
  const double l1 = pingpong(one, 2048, 20), l2 = pingpong(two, 2048, 20);
  INFO("one-queue " << l1 * 1e6 << " us, two-queue " << l2 * 1e6 << " us");
  CHECK(l2 > l1);
  CHECK(l2 < 1.03 * l1);
}

// Configuration: 2 ranks, 5 messages of 8 KiB each way, RDMA read vs RDMA write, chained.
// Expected: every request completes (20 completions); read: one FIN_ACK per message, no ACK or FIN; write: one ACK
//           and one FIN per message, no FIN_ACK; one RDMA of the right kind per message.
// How validated: stack counters after the run (DES engine).
TEST_CASE("ptl/elan4: RDMA read and write complete every message with their own control messages", "[unit][ptl]") {
  TegFixture r({{"ptl_elan4_rdma", "read"}});
  CHECK(exchange(r, 8192, 5, false) == 20);
  CHECK(r.counter("ptl_elan4_fin_acks") == 10);
  CHECK(r.counter("ptl_elan4_acks") == 0);
  CHECK(r.counter("ptl_elan4_fins") == 0);
  CHECK(r.counter("elan4_rdma_reads") == 10);
  CHECK(r.counter("elan4_chained_ops") == 10);
  TegFixture wr({{"ptl_elan4_rdma", "write"}});
  CHECK(exchange(wr, 8192, 5, false) == 20);
  CHECK(wr.counter("ptl_elan4_acks") == 10);
  CHECK(wr.counter("ptl_elan4_fins") == 10);
  CHECK(wr.counter("ptl_elan4_fin_acks") == 0);
  CHECK(wr.counter("elan4_rdma_writes") == 10);
  CHECK(wr.stack->stats().live_requests == 0);
}

// Configuration: rank 0 sends 20 rendezvous messages (4 KiB) to rank 1, whose receives are posted at 1 ms; RDMA read
//                and RDMA write; then 2 RDMA descriptors and 6 rendezvous messages posted both ways at once.
// Expected: with the 2004 source's 16 QDMA send descriptors (OMPI_PTL_ELAN_NUM_QDESCS), each held by a rendezvous
//           until it is answered, only 16 first fragments leave before the receives exist; 4 sends wait and leave as
//           answers come back; every message completes. With 2 RDMA descriptors each rank's reads wait for the host to
//           see earlier ones complete, and all complete.
// How validated: the ptl_elan4_rendezvous and ptl_elan4_desc_waits counters read at 0.9 ms and at the end.
TEST_CASE("ptl/elan4: a rendezvous holds its QDMA descriptor until answered, an RDMA waits for one", "[unit][ptl]") {
  for (const char* scheme : {"read", "write"}) {
    INFO(scheme);
    TegFixture f({{"ptl_elan4_rdma", scheme}});
    int done = 0;
    std::uint64_t before = 0;
    for (int i = 0; i < 20; ++i) f.stack->isend(0, 1, i, 4096, Buffer{0x300000, true}, [&] { ++done; });
    f.sim.at(0.9e-3, [&] { before = f.counter("ptl_elan4_rendezvous"); });
    f.sim.at(1e-3, [&] {
      for (int i = 0; i < 20; ++i) f.stack->irecv(1, 0, i, 4096, Buffer{0x100000, true}, [&] { ++done; });
    });
    f.sim.run();
    CHECK(before == 16);
    CHECK(f.counter("ptl_elan4_rendezvous") == 20);
    CHECK(f.counter("ptl_elan4_desc_waits") == 4);
    CHECK(done == 40);
    CHECK(f.stack->stats().live_requests == 0);
  }
  TegFixture g({{"ptl_elan4_num_putget", "2"}});
  CHECK(exchange(g, 4096, 6, false) == 24);
  CHECK(g.counter("elan4_rdma_reads") == 12);
  CHECK(g.counter("ptl_elan4_desc_waits") >= 2);
  CHECK(g.stack->stats().live_requests == 0);
}

// Configuration: every progress mode (with its completion queue), eager (100 B) and rendezvous (4 KiB) messages,
//                receives posted before and after the messages arrive; unchained and two-queue polling too.
// Expected: message conservation: every send and every receive completes exactly once, nothing is left posted or
//           unexpected; thread modes hand every receive completion to the main thread when the receive was posted first; interrupt mode takes
//           interrupts, basic none.
// How validated: completion counts and stack statistics.
TEST_CASE("ptl/elan4: every progress mode delivers every message exactly once whether expected or unexpected", "[unit][ptl]") {
  for (const char* mode : {"basic", "interrupt", "one_thread", "two_threads"})
    for (std::uint64_t bytes : {100u, 4096u})
      for (bool late : {false, true}) {
        CAPTURE(mode, bytes, late);
        TegFixture f({{"ptl_elan4_progress", mode}});
        CHECK(exchange(f, bytes, 4, late) == 16);
        auto st = f.stack->stats();
        CHECK(st.sends_completed == 8);
        CHECK(st.recvs_completed == 8);
        CHECK(st.live_requests == 0);
        CHECK(st.unexpected_now == 0);
        CHECK(st.posted_now == 0);
        if (std::string(mode) == "basic") CHECK(f.counter("ptl_elan4_interrupts") == 0);
        if (std::string(mode) == "interrupt") CHECK(f.counter("ptl_elan4_interrupts") > 0);
        if (std::string(mode).find("thread") != std::string::npos && !late) CHECK(f.counter("ptl_elan4_handoffs") >= 8);
        if (late) CHECK(f.counter("teg_unexpected") == 8);
      }
  TegFixture u({{"ptl_elan4_chained", "off"}, {"ptl_elan4_completion_queue", "two"}});
  CHECK(exchange(u, 4096, 3, false) == 12);
  CHECK(u.counter("elan4_chained_ops") == 6);  // only the completion QDMAs are chained; FIN_ACKs come from the host
  CHECK(u.counter("ptl_elan4_fin_acks") == 6);
}

// Configuration: MCA values that do not exist or contradict each other.
// Expected: an unknown choice is an InputError naming the parameter and the choices; one_thread with a two-queue
//           completion is an InputError naming ptl_elan4_completion_queue.
// How validated: the exceptions' key and reason.
TEST_CASE("ptl/elan4: unknown or contradicting MCA choices are refused naming the key", "[unit][ptl]") {
  McaParams mca = component_registry().defaults();
  auto list = param_list(mca);
  try {
    set_param(list, "ptl_elan4_progress", "\"three_threads\"", "test");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.key() == "ptl_elan4_progress");
    CHECK_THAT(e.reason(), Catch::Contains("two_threads"));
  }
  CHECK_THROWS_AS(set_param(list, "ptl_elan4_rdma", "\"put\"", "test"), InputError);
  try {
    TegFixture f({{"ptl_elan4_progress", "one_thread"}, {"ptl_elan4_completion_queue", "two"}});
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.key() == "mca.ptl_elan4_completion_queue");
  }
}

// Configuration: ping-pongs (20 round trips) of ptl/elan4 (RDMA read, chained) in one_thread and two_threads modes:
//                4 KiB with the defaults, with the machine's os.context_switch_cost and with it set to 0; then 100 B
//                messages each way and a 4-byte ping-pong with ptl_elan4_cq_qdma on.
// Expected: one thread has the node's other core to itself: no context switch, and its latency does not depend on the
//           switch cost. Two threads share that core (three threads, two CPUs): at 4 KiB the completion-queue thread
//           handles each RDMA's entry, so the core turns between the two threads and the two-thread latency rises by
//           at least half a switch per message over the same run with free switches (the CPU contention the paper
//           names, §6.4). With ptl_elan4_cq_qdma on, every first fragment's QDMA reports into the completion queue
//           (one entry per send, all sends still complete) and the 4-byte two-thread ping-pong turns the core at
//           every message too. Fails if contexts on one core keep separate timelines or turn for free (platform/cpu_timeline.hpp).
// How validated: stack counters and simulated times (DES engine).
TEST_CASE("ptl/elan4: two progress threads share a core and pay a context switch; one thread does not",
          "[unit][ptl]") {
  auto latency = [](const char* mode, double switch_cost, std::uint64_t bytes, const char* cq_qdma,
                    std::uint64_t* switches) {
    TegFixture f({{"ptl_elan4_progress", mode}, {"ptl_elan4_cq_qdma", cq_qdma}});
    f.m->os.context_switch_cost.value = switch_cost;
    double l = pingpong(f, bytes, 20);
    *switches = f.counter("context_switches");
    return l;
  };
  const double sw = load_machine("osu-elan4")->os.context_switch_cost.value;
  REQUIRE(sw > 0);
  std::uint64_t n1 = 0, n2 = 0, n1z = 0, n2z = 0;
  const double one = latency("one_thread", sw, 4096, "off", &n1), two = latency("two_threads", sw, 4096, "off", &n2);
  const double one_free = latency("one_thread", 0, 4096, "off", &n1z);
  const double two_free = latency("two_threads", 0, 4096, "off", &n2z);
  CHECK(n1 == 0);
  CHECK(n2 >= 40);
  CHECK(one == Approx(one_free).epsilon(1e-12));
  CHECK(two > two_free + 0.5 * sw);
  CHECK(two > one);
  {
    TegFixture f({{"ptl_elan4_progress", "one_thread"}, {"ptl_elan4_cq_qdma", "on"}});
    CHECK(exchange(f, 100, 4, false) == 16);
    CHECK(f.counter("ptl_elan4_cq_entries") == 8);
  }
  std::uint64_t n4 = 0;
  const double two4 = latency("two_threads", sw, 4, "on", &n4), two4_free = latency("two_threads", 0, 4, "on", &n4);
  CHECK(n4 >= 40);
  CHECK(two4 > two4_free + 0.5 * sw);
}
