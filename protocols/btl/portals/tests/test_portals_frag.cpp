// btl/portals' send fragment, arrival and GET state machines (portals_frag.hpp), driven without the engine; then every
// path of the BTL under pml/ob1, checking that each frees its records.
#include "models/seastar/seastar.hpp"
#include "protocols/btl/portals/btl_portals.hpp"
#include "protocols/btl/portals/portals_frag.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::btl::portals;

// Configuration: records in IDLE: a send fragment that finds a free slot and one that waits for a slot; an arrival; a
// GET. Expected: the states of the header's sequences, ending COMPLETE. How validated: the state after each step.
TEST_CASE("btl/portals records: send fragment, arrival and GET sequences", "[unit][protocol][portals]") {
  using S = FragState;
  using E = FragEvent;
  const std::vector<std::pair<E, S>> tail = {{E::Prepared, S::Copying},
                                             {E::Copied, S::Calling},
                                             {E::Put, S::AwaitCompletion},
                                             {E::CompletionEvent, S::ReadingCompletion},
                                             {E::CompletionRead, S::Complete}};
  const auto now = test::joined<S, E>({{{E::Start, S::Preparing}}, tail});
  const auto queued = test::joined<S, E>({{{E::Queue, S::AwaitSlot}, {E::SlotFree, S::Preparing}}, tail});
  test::walk(std::vector<test::Path<S, E>>{{"send at once", now}, {"send after a slot frees", queued}});
  test::walk(std::vector<test::Path<ArrivalState, ArrivalEvent>>{
      {"arrival",
       {{ArrivalEvent::Put, ArrivalState::InFlight},
        {ArrivalEvent::PutEnd, ArrivalState::Reading},
        {ArrivalEvent::PutEndRead, ArrivalState::Complete}}}});
  test::walk(std::vector<test::Path<GetState, GetEvent>>{
      {"get",
       {{GetEvent::Start, GetState::Calling},
        {GetEvent::Posted, GetState::InFlight},
        {GetEvent::ReplyEnd, GetState::Reading},
        {GetEvent::ReplyEndRead, GetState::Complete}}}});
}

// Configuration: records in the state on the left, given the event on the right. Expected: ProtocolError whose text
// names the machine, the state and the event. (A queued fragment is not put before its slot frees; a fragment's
// completion is not read before it was put; a completed arrival or GET takes no event.) How validated: the error text.
TEST_CASE("btl/portals records: an impossible event names state and event", "[unit][protocol][portals]") {
  test::check_impossible(std::vector<std::tuple<FragState, FragEvent, const char*>>{
      {FragState::AwaitSlot, FragEvent::Put, "btl/portals frag: event 'PUT' is impossible in state 'AWAIT_SLOT'"},
      {FragState::Calling, FragEvent::CompletionEvent,
       "btl/portals frag: event 'COMPLETION_EVENT' is impossible in state 'CALLING'"},
      {FragState::Preparing, FragEvent::SlotFree,
       "btl/portals frag: event 'SLOT_FREE' is impossible in state 'PREPARING'"},
  });
  test::check_impossible(std::vector<std::tuple<ArrivalState, ArrivalEvent, const char*>>{
      {ArrivalState::Complete, ArrivalEvent::PutEnd,
       "btl/portals arrival: event 'PUT_END' is impossible in state 'COMPLETE'"},
      {ArrivalState::InFlight, ArrivalEvent::PutEndRead,
       "btl/portals arrival: event 'PUT_END_READ' is impossible in state 'IN_FLIGHT'"},
  });
  test::check_impossible(std::vector<std::tuple<GetState, GetEvent, const char*>>{
      {GetState::Calling, GetEvent::ReplyEnd, "btl/portals get: event 'REPLY_END' is impossible in state 'CALLING'"},
      {GetState::Complete, GetEvent::ReplyEndRead,
       "btl/portals get: event 'REPLY_END_READ' is impossible in state 'COMPLETE'"},
  });
}

// Configuration: send slots without the engine: (a) 3 process slots, no peer window: fragments 1-5 to peers 1 and 2;
// (b) 8 process slots, a window of 1 per peer: 1, 2 to peer 1, 3 to peer 2, 4 to peer 1; (c) 2 process slots and a
// window of 1: 1 to peer 1, 2 to peer 2, 3 to peer 1, 4 to peer 3. Expected: (a) the first 3 go, 4 and 5 wait and go
// one per release, oldest first, whatever the peer (Open MPI's max_pending_ops, FIFO portals_queued_sends); (b) one
// fragment per peer in flight: 2 and 4 wait behind peer 1's window while 3 goes to peer 2, releases to peer 2 let none
// go, a release to peer 1 lets 2 go (not 4: per-peer order), the next one 4; (c) with the process full nothing goes
// even where a window has room; a release to peer 2 frees a process slot but 3 still waits for peer 1's window, so 4
// (peer 3) goes past it. How validated: admit's and release's answers and the counts after each step.
TEST_CASE("btl/portals: send slots, process-wide and per peer, oldest that fits first", "[unit][protocol][portals]") {
  SECTION("process-wide only (peer window 0)") {
    SendSlots s(3, 0);
    CHECK(s.admit(1, 1));
    CHECK(s.admit(2, 2));
    CHECK(s.admit(3, 1));
    CHECK_FALSE(s.admit(4, 2));
    CHECK_FALSE(s.admit(5, 1));
    CHECK(s.outstanding() == 3);
    CHECK(s.waiting() == 2);
    CHECK(s.release(1) == std::optional<std::uint64_t>{4});
    CHECK(s.release(2) == std::optional<std::uint64_t>{5});
    CHECK(s.outstanding() == 3);
    CHECK(s.outstanding_to(1) == 2);
    CHECK_FALSE(s.release(1).has_value());
    CHECK(s.outstanding() == 2);
    CHECK(s.waiting() == 0);
  }
  SECTION("a window of one per peer") {
    SendSlots s(8, 1);
    CHECK(s.admit(1, 1));
    CHECK_FALSE(s.admit(2, 1));
    CHECK(s.admit(3, 2));
    CHECK_FALSE(s.admit(4, 1));
    CHECK(s.outstanding_to(1) == 1);
    CHECK(s.outstanding_to(2) == 1);
    CHECK_FALSE(s.release(2).has_value());  // peer 2's slot: nothing waits for it
    CHECK(s.release(1) == std::optional<std::uint64_t>{2});
    CHECK(s.outstanding_to(1) == 1);
    CHECK(s.release(1) == std::optional<std::uint64_t>{4});
    CHECK_FALSE(s.release(1).has_value());
    CHECK(s.outstanding() == 0);
    CHECK(s.admit(5, 1));  // nothing waits: goes at once
  }
  SECTION("the process full, then a window full") {
    SendSlots s(2, 1);
    CHECK(s.admit(1, 1));
    CHECK(s.admit(2, 2));
    CHECK_FALSE(s.admit(3, 1));
    CHECK_FALSE(s.admit(4, 3));  // peer 3's window is free but the process is full
    CHECK(s.release(2) == std::optional<std::uint64_t>{4});  // 3 still waits for peer 1's window
    CHECK(s.waiting() == 1);
    CHECK(s.release(1) == std::optional<std::uint64_t>{3});
    CHECK(s.outstanding_to(3) == 1);
    CHECK(s.outstanding_to(1) == 1);
  }
}

// Configuration: ob1 + btl/self + btl/portals built directly on red-storm, 2 ranks on two nodes; 8 messages 0 -> 1 of
// each path, half with the receive posted and half unexpected: 1 KiB (a pre-pinned eager fragment), 1 KiB with one
// eager fragment (the others max-size fragments, bound and unlinked), 1 KiB with one outstanding fragment (the
// others wait for a slot), 1 KiB with a window of one fragment per peer, 1 KiB without ACKs (SEND_END completes) and
// with SEND_END read too, 1 MiB (ob1 RGET: a Portals GET). Expected: every request completes, the path's counter counts, and no send fragment, arrival or GET
// record is left. How validated: completions, counters and BtlPortals::records_in_flight().
TEST_CASE("btl/portals: every path frees its fragment, arrival and GET records", "[protocol][portals]") {
  using Mca = BtlPortalsMca;
  struct Case {
    const char* name;
    std::uint64_t bytes;
    Sourced Mca::*param;
    double value;
    PortalsStat stat;
    std::uint64_t at_least;
  };
  const std::vector<Case> cases = {
      {"eager fragment", 1024, &Mca::btl_portals_eager_frag_limit, 32, PortalsStat::Frags, 8},
      {"max-size fragments", 1024, &Mca::btl_portals_eager_frag_limit, 1, PortalsStat::MdUnlinks, 1},
      {"queued sends", 1024, &Mca::btl_portals_max_pending_ops, 1, PortalsStat::QueuedSends, 1},
      {"peer window", 1024, &Mca::btl_portals_peer_window, 1, PortalsStat::QueuedSends, 1},
      {"no ACK", 1024, &Mca::btl_portals_needs_ack, 0, PortalsStat::SendEvents, 8},
      {"SEND_END and ACK", 1024, &Mca::btl_portals_send_end_event, 1, PortalsStat::SendEvents, 16},
      {"RGET", 1 << 20, &Mca::btl_portals_eager_frag_limit, 32, PortalsStat::RdmaGets, 8},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    test::Fixture f("red-storm", 2, 1, "");
    (f.mca_.get<Mca>().*c.param).value = c.value;
    btl::self::BtlSelf self(f.world->cpus());
    auto& nic = seastar::SeaStar::of(f.world->nic_services(), f.sim, f.world->contexts(), f.world->cpus(),
                                     f.world->fabric());
    BtlPortals portals(f.world->contexts(), f.world->cpus(), nic, f.mca_.get<Mca>());
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&self, &portals});
    int done = 0;
    for (int i = 0; i < 4; ++i) ob1.irecv(1, 0, i, c.bytes, Buffer{1 << 24, true}, [&] { ++done; });
    for (int i = 0; i < 8; ++i) ob1.isend(0, 1, i, c.bytes, Buffer{4096, true}, [&] { ++done; });
    f.sim.run();  // tags 4-7 are unexpected until their receives are posted
    for (int i = 4; i < 8; ++i) ob1.irecv(1, 0, i, c.bytes, Buffer{1 << 24, true}, [&] { ++done; });
    f.sim.run();
    CHECK(done == 16);
    CHECK(portals.count(c.stat) >= c.at_least);
    CHECK(portals.records_in_flight() == 0);
  }
}
