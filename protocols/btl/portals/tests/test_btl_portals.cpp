// btl/portals send completion and flow control (Open MPI v1.3-era btl_portals_component.c): with needs_ack = 1 a
// fragment completes when the sender reads its PTL_EVENT_ACK, with 0 on SEND_END; at most max_pending_ops fragments
// are outstanding per process, the rest wait in order. DES engine, red-storm, ob1 + btl/portals, 2 ranks on 2 nodes.
#include "tests/test_helpers.hpp"
#include "models/seastar/nic.hpp"
#include "protocols/btl/portals/btl_portals_mca.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>

using namespace ompisim;

namespace {
using Mca = btl::portals::BtlPortalsMca;

// red-storm, 2 ranks on 2 nodes; one btl/portals MCA value set before ob1 + btl/portals is built.
void portals_stack(test::Fixture& f, Sourced Mca::*param, double value) {
  (f.mca_.get<Mca>().*param).value = value;
  f.stack = make_stack(*f.world, f.mca_, "openmpi-ob1", "test");
}

// `rounds` rounds of 20 eager sends 0 -> 1 into pre-posted receives (send i of a round is size_of(i) bytes, its
// receive posted with the same size), each round issued at once and run to completion. Returns the sends completed.
template <class SizeOf>
int send_rounds(test::Fixture& f, int rounds, SizeOf size_of) {
  int sent = 0;
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < 20; ++i) f.stack->irecv(1, 0, 3, size_of(i), Buffer{0x20000, true}, [] {});
    for (int i = 0; i < 20; ++i) f.stack->isend(0, 1, 3, size_of(i), Buffer{0x10000, true}, [&] { ++sent; });
    f.sim.run();
  }
  return sent;
}

// After `n` sends with their receives pre-posted, `sent` of them complete: every receive completed too, none
// truncated (the sizes differ, so a reordering would truncate), no request left. Returns btl_portals_queued_sends
// and the end time.
std::pair<std::uint64_t, double> queued_sends_when_all_delivered(test::Fixture& f, int sent, int n) {
  auto s = f.stack->stats();
  CHECK(sent == n);
  CHECK(s.recvs_completed == n);
  CHECK(s.counters["mpi_truncate_errors"] == 0);
  CHECK(s.live_requests == 0);
  return {s.counters["btl_portals_queued_sends"], f.sim.now()};
}

struct Run {
  double send_done = -1, recv_done = -1;
  StackStats stats;
};
// One 8 B eager send 0 -> 1 into a pre-posted receive.
Run one_send(long long needs_ack, double interrupt_extra = 0, long long send_end_event = 0) {
  test::Fixture f("red-storm", 2, 1, "");
  seastar::nic(*f.machine).p.host_interrupt_cost.value += interrupt_extra;
  f.mca_.get<Mca>().btl_portals_send_end_event.value = static_cast<double>(send_end_event);
  portals_stack(f, &Mca::btl_portals_needs_ack, static_cast<double>(needs_ack));
  Run r;
  f.stack->irecv(1, 0, 3, 8, Buffer{0x20000, true}, [&] { r.recv_done = f.sim.now(); });
  f.stack->isend(0, 1, 3, 8, Buffer{0x10000, true}, [&] { r.send_done = f.sim.now(); });
  f.sim.run();
  r.stats = f.stack->stats();
  return r;
}
}  // namespace

// Configuration: one eager send, needs_ack 1 and 0; then needs_ack 1 with a 1 us larger host interrupt cost.
// Expected: with ACKs the send completes after the receiver got the data (the ACK comes back from the target NIC),
// one ACK is counted, and the interrupt that delivers the ACK is on the send's completion path (+1 us at least);
// without ACKs the send completes on SEND_END, before the data is received, and no ACK is sent.
TEST_CASE("btl/portals: a send fragment completes on its ACK (needs_ack) or on SEND_END", "[unit][btl][portals]") {
  Run ack = one_send(1), noack = one_send(0), slow = one_send(1, 1e-6);
  REQUIRE(ack.send_done > 0);
  REQUIRE(noack.send_done > 0);
  CHECK(ack.stats.counters["seastar_acks"] == 1);
  CHECK(noack.stats.counters["seastar_acks"] == 0);
  CHECK(noack.send_done < noack.recv_done);  // SEND_END: the data has left, not arrived
  CHECK(ack.send_done > noack.send_done);
  CHECK(slow.send_done - ack.send_done >= 1e-6 * (1 - 1e-9));  // the ACK's interrupt is on the path
  for (auto* r : {&ack, &noack}) {
    CHECK(r->stats.sends_completed == 1);
    CHECK(r->stats.recvs_completed == 1);
    CHECK(r->stats.live_requests == 0);
  }
}

// Configuration: 20 eager sends of 8 B from rank 0 to rank 1 (receives pre-posted), max_pending_ops 3 and 8192.
// Expected: with 3, 17 sends wait for a slot (btl_portals_queued_sends) and still complete, in order (every receive is
// posted with its own size, so a reordering would count as a truncation); with 8192 none waits; the run with 3 slots
// takes longer (each slot comes back only after an ACK round trip).
TEST_CASE("btl/portals: max_pending_ops bounds the outstanding fragments, FIFO beyond", "[unit][btl][portals]") {
  auto run = [](long long slots) {
    test::Fixture f("red-storm", 2, 1, "");
    portals_stack(f, &Mca::btl_portals_max_pending_ops, static_cast<double>(slots));
    const int sent = send_rounds(f, 1, [](int i) { return 8LL + i; });
    return queued_sends_when_all_delivered(f, sent, 20);
  };
  auto [q3, t3] = run(3);
  auto [qall, tall] = run(8192);
  CHECK(q3 == 17);
  CHECK(qall == 0);
  CHECK(t3 > tall);
}

// Configuration: two rounds of 20 eager sends of 8 B from rank 0 to rank 1, each round issued at once (receives
// pre-posted) and run to completion before the next, with btl_portals_eager_frag_limit 32 and 2. Expected (v1.2 to
// v1.3.4 btl_portals_frag.h and btl_portals.c): an eager fragment's MD is bound once, at its first use, and kept: with
// 32 the first round binds 20 fragments (all in flight before the first ACK is read) and the second round binds none,
// nothing is unlinked; with 2, a send that finds both eager fragments in flight takes a max-size fragment, bound for
// its send and unlinked when freed (binds = 2 + unlinks). Fails when every fragment is bound per send (40 binds).
TEST_CASE("btl/portals: pre-pinned eager fragments are bound once; max-size ones per send", "[unit][btl][portals]") {
  auto run = [](long long limit) {
    test::Fixture f("red-storm", 2, 1, "");
    portals_stack(f, &Mca::btl_portals_eager_frag_limit, static_cast<double>(limit));
    int sent = send_rounds(f, 2, [](int) { return 8LL; });
    auto s = f.stack->stats();
    CHECK(sent == 40);
    CHECK(s.recvs_completed == 40);
    return std::make_pair(s.counters["btl_portals_md_binds"], s.counters["btl_portals_md_unlinks"]);
  };
  auto [b32, u32] = run(32);
  auto [b2, u2] = run(2);
  INFO("limit 32: binds " << b32 << ", unlinks " << u32 << "; limit 2: binds " << b2 << ", unlinks " << u2);
  CHECK(u32 == 0);
  CHECK(b32 == 20);
  CHECK(u2 == 36);
  CHECK(b2 == 2 + u2);
}

// Configuration: one 8 B eager send. Expected: the receive block (PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, no
// EVENT_START_DISABLE: btl_portals_recv.h) posts PUT_START and PUT_END for the fragment and the receiver reads both.
TEST_CASE("btl/portals: a receive block posts PUT_START and PUT_END per fragment", "[unit][btl][portals]") {
  Run r = one_send(1);
  CHECK(r.stats.counters["btl_portals_recv_events"] == 2);
}

// Configuration: one 8 B eager send with ACKs, the send MD's SEND_END left on (btl_portals_send_end_event 1: the 2007
// trunk's btl_portals_send.c:64-65, PTL_MD_EVENT_START_DISABLE only) and disabled (0: v1.3.4's optimized build,
// btl_portals_send.c:72-76); then no ACKs. Expected: with the END event on, the sender reads two send events (SEND_END,
// then the ACK) and the fragment still completes on the ACK, after the receiver has the data, one eq_poll_cost later
// than with the END event off (the SEND_END poll runs first on the sender's CPU); with it off, one event (the ACK);
// without ACKs, one (SEND_END). How validated: btl_portals_send_events and the completion times.
TEST_CASE("btl/portals: the 2007 trunk reads SEND_END and the ACK of every fragment", "[unit][btl][portals]") {
  Run both = one_send(1, 0, 1), ack_only = one_send(1, 0, 0), noack = one_send(0, 0, 1);
  CHECK(both.stats.counters["btl_portals_send_events"] == 2);
  CHECK(ack_only.stats.counters["btl_portals_send_events"] == 1);
  CHECK(noack.stats.counters["btl_portals_send_events"] == 1);
  CHECK(both.stats.counters["seastar_acks"] == 1);
  CHECK(both.send_done > both.recv_done);  // completion on the ACK, not on SEND_END
  CHECK(both.send_done >= ack_only.send_done);
  CHECK(both.stats.sends_completed == 1);
  CHECK(both.stats.live_requests == 0);
}

// Configuration: rank 0 sends 20 eager messages of 8 B to rank 1 and 20 to rank 2 (3 ranks on 3 nodes, receives
// pre-posted, all sends issued at once), with btl_portals_peer_window 0 (Open MPI: no per-peer limit), 1 (one fragment
// per peer in flight), and max_pending_ops 1 (one fragment of the process in flight) without a window. Expected: every
// message arrives in order (each receive is posted with its own size) in all three; with no window nothing waits; with
// a window of 1 each peer's later 19 wait (38), and the run takes longer than without a window but less than with one
// fragment per process, because the two peers' windows overlap (each message to a peer waits for the previous one's
// ACK round trip, as the paper's "rate limiting to ensure message reliability" is modelled). How validated:
// btl_portals_queued_sends, truncation counter and end times.
TEST_CASE("btl/portals: a peer window bounds the fragments in flight to each peer", "[unit][btl][portals]") {
  auto run = [](long long window, long long slots) {
    test::Fixture f("red-storm", 3, 1, "");
    f.mca_.get<Mca>().btl_portals_peer_window.value = static_cast<double>(window);
    portals_stack(f, &Mca::btl_portals_max_pending_ops, static_cast<double>(slots));
    int sent = 0;
    for (int dst : {1, 2})
      for (int i = 0; i < 20; ++i) f.stack->irecv(dst, 0, 3, 8 + i, Buffer{0x20000, true}, [] {});
    for (int i = 0; i < 20; ++i)
      for (int dst : {1, 2}) f.stack->isend(0, dst, 3, 8 + i, Buffer{0x10000, true}, [&] { ++sent; });
    f.sim.run();
    return queued_sends_when_all_delivered(f, sent, 40);
  };
  auto [q_none, t_none] = run(0, 8192);
  auto [q_peer, t_peer] = run(1, 8192);
  auto [q_proc, t_proc] = run(0, 1);
  CHECK(q_none == 0);
  CHECK(q_peer == 38);
  CHECK(q_proc == 39);
  CHECK(t_peer > t_none);
  CHECK(t_proc > t_peer);
}
