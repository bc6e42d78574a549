// Cray MPT's uGNI netmod message state machine (mpich_gni_msg.hpp), driven without the engine, and the records it
// leaves behind after runs of every path.
#include "protocols/native/mpich_gni.hpp"
#include "protocols/native/mpich_gni_msg.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::native;

// Configuration: a message record in IDLE, then the events of each path in order (on the node copy-in and LMT;
// between nodes SMSG eager, E1, the rendezvous GET and its PUT fallback). Expected: the states of the header's message
// sequence, ending COMPLETE. How validated: the state after each step, one SECTION per path.
TEST_CASE("mpich_gni message: every path from POST to COMPLETE", "[unit][protocol][mpich]") {
  using S = MsgState;
  using E = MsgEvent;
  const std::vector<std::pair<E, S>> arrival = {{E::Arrived, S::Polling}, {E::CpuDone, S::Queued}};
  const std::vector<std::pair<E, S>> eager_out = {{E::MatchedEager, S::CopyingOut}, {E::Copied, S::Complete}};
  // a rendezvous' RTS (its buffer registered first), and its match (the receiver's buffer registered), before the GET
  // or the PUT fallback
  const std::vector<std::pair<E, S>> rndv_sent = {{E::StartRndv, S::Registering}, {E::Registered, S::InFlight}};
  const std::vector<std::pair<E, S>> rndv_matched = {{E::MatchedRndv, S::RndvCharging},
                                                     {E::CpuDone, S::RecvRegistering}};
  const std::vector<std::pair<E, S>> posted = {{E::Post, S::Posting}};
  auto path = [&](std::vector<std::vector<std::pair<E, S>>> parts) {
    parts.insert(parts.begin(), posted);
    return test::joined(parts);
  };
  const std::vector<test::Path<S, E>> paths = {
      {"shm eager", path({{{E::StartShmEager, S::ShmCopying}, {E::Copied, S::InFlight}}, arrival, eager_out})},
      {"lmt",
       path({{{E::StartLmt, S::InFlight}},
             arrival,
             {{E::MatchedLmt, S::LmtAttaching},
              {E::CpuDone, S::LmtCopying},
              {E::Copied, S::LmtDoneSent},
              {E::DoneArrived, S::Complete}}})},
      {"smsg eager", path({{{E::StartSmsg, S::InFlight}}, arrival, eager_out})},
      {"e1",
       path({{{E::StartE1, S::AwaitDmaBuffer},
              {E::BufferReady, S::E1Copying},
              {E::Copied, S::E1DescSent},
              {E::DescArrived, S::E1Pulling},
              {E::GetDone, S::InFlight}},
             arrival,
             eager_out})},
      {"rendezvous get",
       path({rndv_sent,
             arrival,
             rndv_matched,
             {{E::StartGet, S::Pulling}, {E::GetDone, S::GetDoneSent}, {E::DoneArrived, S::Complete}}})},
      {"rendezvous put fallback",
       path({rndv_sent,
             arrival,
             rndv_matched,
             {{E::StartPutFallback, S::CtsSent},
              {E::CtsArrived, S::Putting},
              {E::PutDone, S::PutDoneSent},
              {E::DoneArrived, S::Complete}}})},
  };
  test::walk(paths);
}

// Configuration: a record in the state on the left, given the event on the right. Expected: ProtocolError whose text
// names the machine, the state and the event. How validated: the error text. (A message is matched only once polled;
// eager data never sees a DONE; an E1 descriptor is not a CTS; nothing follows COMPLETE; a path is chosen once.)
TEST_CASE("mpich_gni message: an impossible event names state and event", "[unit][protocol][mpich]") {
  using S = MsgState;
  using E = MsgEvent;
  const std::vector<std::tuple<S, E, const char*>> bad = {
      {S::InFlight, E::MatchedEager, "mpich_gni message: event 'MATCHED_EAGER' is impossible in state 'IN_FLIGHT'"},
      {S::CopyingOut, E::DoneArrived, "mpich_gni message: event 'DONE_ARRIVED' is impossible in state 'COPYING_OUT'"},
      {S::E1DescSent, E::CtsArrived, "mpich_gni message: event 'CTS_ARRIVED' is impossible in state 'E1_DESC_SENT'"},
      {S::Complete, E::Copied, "mpich_gni message: event 'COPIED' is impossible in state 'COMPLETE'"},
      {S::ShmCopying, E::StartSmsg, "mpich_gni message: event 'START_SMSG' is impossible in state 'SHM_COPYING'"},
      {S::Pulling, E::PutDone, "mpich_gni message: event 'PUT_DONE' is impossible in state 'PULLING'"},
  };
  test::check_impossible(bad);
}

// Configuration: Cray MPT on Cielo, 2 ranks on one node (copy-in at 1 KiB, LMT at 1 MiB) and on two nodes (SMSG eager
// at 64 B, E1 at 4,000 B with the vshort limit at 1,024 B, rendezvous GET at 64 KiB from an aligned and PUT fallback
// from a misaligned buffer); each message sent after its receive is posted and once before (unexpected). Expected:
// every request completes and no message record is left (each path ends in COMPLETE and frees its record). How
// validated: completions, the stack's messages_in_flight() and the path counters.
TEST_CASE("mpich_gni: every path frees its message record", "[protocol][mpich][gemini]") {
  struct Case {
    const char* name;
    int ppn;
    std::uint64_t bytes, addr;
    const char* counter;
  };
  const std::vector<Case> cases = {
      {"shm eager", 2, 1024, 4096, "shm_eager"},   {"lmt", 2, 1 << 20, 4096, "shm_lmt"},
      {"smsg eager", 1, 64, 4096, "smsg_eager"},   {"e1", 1, 4000, 4096, "e1_eager"},
      {"rendezvous get", 1, 65536, 4096, "rndv_get"}, {"put fallback", 1, 65536, 4097, "rndv_put_fallback"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    McaParams mca = machine_mca(*load_machine("cielo"));
    mca.get<MpichGniMca>().mpich_gni_max_vshort_msg_size.value = 1024;
    test::Fixture f("cielo", 2, c.ppn, "native", &mca);
    int done = 0;
    f.stack->irecv(1, 0, 7, c.bytes, Buffer{1 << 20, true}, [&] { ++done; });
    f.stack->isend(0, 1, 7, c.bytes, Buffer{c.addr, true}, [&] { ++done; });
    f.stack->isend(0, 1, 8, c.bytes, Buffer{c.addr, true}, [&] { ++done; });
    f.sim.run();  // the tag-8 message is unexpected until its receive is posted
    f.stack->irecv(1, 0, 8, c.bytes, Buffer{1 << 20, true}, [&] { ++done; });
    f.sim.run();
    CHECK(done == 4);
    CHECK(f.stack->stats().counters[c.counter] == 2);
    auto* mpt = dynamic_cast<MpichGni*>(f.stack.get());
    REQUIRE(mpt != nullptr);
    CHECK(mpt->messages_in_flight() == 0);
  }
}
