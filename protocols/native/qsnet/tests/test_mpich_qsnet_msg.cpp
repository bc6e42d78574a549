// MPICH-QsNetII's Tport message state machine (mpich_qsnet_msg.hpp), driven without the engine, and the records it
// leaves behind after runs of every path.
#include "protocols/native/qsnet/mpich_qsnet.hpp"
#include "protocols/native/qsnet/mpich_qsnet_msg.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::native;

// Configuration: a message record in IDLE, then the events of each path in order (inline data, the NIC-served
// rendezvous). Expected: the states of the header's message sequence, ending COMPLETE. How validated: the state after
// each step, one SECTION per path.
TEST_CASE("mpich_qsnet message: every path from POST to COMPLETE", "[unit][protocol][qsnet]") {
  using S = QsnetState;
  using E = QsnetEvent;
  // Both paths share the send and the thread processor's walk of the posted receives.
  auto path = [](E send, const std::vector<std::pair<E, S>>& matched) {
    return test::joined<S, E>(
        {{{E::Post, S::Posting}, {send, S::InFlight}, {E::Arrived, S::NicMatching}, {E::ThreadDone, S::Queued}},
         matched});
  };
  const std::vector<test::Path<S, E>> paths = {
      {"inline", path(E::SendInline, {{E::MatchedInline, S::CopyingOut}, {E::Copied, S::Complete}})},
      {"rendezvous",
       path(E::SendRndv,
            {{E::MatchedRndv, S::NicServing},
             {E::ThreadDone, S::Pulling},
             {E::ReadDone, S::DoneSent},
             {E::DoneArrived, S::Complete}})},
  };
  test::walk(paths);
}

// Configuration: a record in the state on the left, given the event on the right. Expected: ProtocolError whose text
// names the machine, the state and the event. How validated: the error text. (A message is matched only once the
// thread processor has walked the posted receives; inline data never sees a DONE; a rendezvous is not pulled before
// the thread processor serves it; nothing follows COMPLETE; a path is chosen once.)
TEST_CASE("mpich_qsnet message: an impossible event names state and event", "[unit][protocol][qsnet]") {
  using S = QsnetState;
  using E = QsnetEvent;
  test::check_impossible<S, E>({
      {S::NicMatching, E::MatchedInline,
       "mpich_qsnet message: event 'MATCHED_INLINE' is impossible in state 'NIC_MATCHING'"},
      {S::CopyingOut, E::DoneArrived, "mpich_qsnet message: event 'DONE_ARRIVED' is impossible in state 'COPYING_OUT'"},
      {S::NicServing, E::ReadDone, "mpich_qsnet message: event 'READ_DONE' is impossible in state 'NIC_SERVING'"},
      {S::Complete, E::Copied, "mpich_qsnet message: event 'COPIED' is impossible in state 'COMPLETE'"},
      {S::InFlight, E::SendRndv, "mpich_qsnet message: event 'SEND_RNDV' is impossible in state 'IN_FLIGHT'"},
      {S::Queued, E::ThreadDone, "mpich_qsnet message: event 'THREAD_DONE' is impossible in state 'QUEUED'"},
  });
}

// Configuration: MPICH-QsNetII on the OSU Elan4 cluster, 2 ranks on two nodes; a 1 KiB message (inline) and a 64 KiB
// one (rendezvous), each sent after its receive is posted and once before (unexpected). Expected: every request
// completes and no message record is left (each path ends in COMPLETE and frees its record). How validated:
// completions, the stack's messages_in_flight() and the path and unexpected counters.
TEST_CASE("mpich_qsnet: every path frees its message record", "[protocol][qsnet]") {
  struct Case {
    const char* name;
    std::uint64_t bytes;
    const char* counter;
  };
  const std::vector<Case> cases = {{"inline", 1024, "tport_eager"}, {"rendezvous", 65536, "tport_big"}};
  for (const auto& c : cases) {
    INFO(c.name);
    test::Fixture f("osu-elan4", 2, 1, "native");
    CHECK(test::send_expected_and_unexpected(f, c.bytes) == 4);
    CHECK(f.stack->stats().counters[c.counter] == 2);
    CHECK(f.stack->stats().counters["tport_unexpected"] == 1);
    auto* mpi = dynamic_cast<MpichQsnet*>(f.stack.get());
    REQUIRE(mpi != nullptr);
    CHECK(mpi->messages_in_flight() == 0);
  }
}
