// mtl/portals' operation state machine (mtl_portals_op.hpp), driven without the engine, and the records it leaves
// behind after runs of every path.
#include "protocols/mtl/portals/mtl_portals_op.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::mtl::portals;

// Configuration: an operation record in IDLE, then the events of each send and receive path in order. Expected: the
// states of the header's sequences, ending COMPLETE. How validated: the state after each step, one SECTION per path.
TEST_CASE("mtl/portals op: every path to COMPLETE", "[unit][protocol][mtl]") {
  using S = OpState;
  using E = OpEvent;
  const std::vector<std::pair<E, S>> polled = {{E::Unlink, S::Polling}, {E::Polled, S::Complete}};
  const std::vector<std::pair<E, S>> pulled = {
      {E::MatchedLong, S::GetPosting}, {E::GetIssued, S::AwaitReply}, {E::ReplyEnd, S::Polling}, {E::Polled, S::Complete}};
  const auto path = test::joined<S, E>;
  const std::vector<std::pair<E, S>> long_put = {{E::StartPut, S::Posting}, {E::LongPut, S::LongPutSent},
                                                 {E::SendEnd, S::LongPutSent}};
  const std::vector<test::Path<S, E>> paths = {
      {"copy block send", {{E::StartCopy, S::CopyPosting}, {E::CopyPut, S::Complete}}},
      {"copy block send that waited",
       {{E::WaitCopyBlock, S::AwaitCopyBlock}, {E::StartCopy, S::CopyPosting}, {E::CopyPut, S::Complete}}},
      {"short send",
       path({{{E::StartPut, S::Posting}, {E::ShortPut, S::PutSent}, {E::SendEnd, S::Polling}}, polled})},
      {"long send delivered", path({long_put, {{E::Ack, S::Polling}}, polled})},
      {"long send pulled", path({long_put, {{E::GetEnd, S::Polling}}, polled})},
      {"posted receive",
       path({{{E::PostRecv, S::RecvPosting}, {E::Attached, S::Posted}, {E::PutEnd, S::Polling}}, polled})},
      {"unexpected short", {{E::MatchedShort, S::CopyingOut}, {E::Copied, S::Complete}}},
      {"unexpected short, event pending",
       {{E::MatchedUnseen, S::AwaitEvent}, {E::MatchedShort, S::CopyingOut}, {E::Copied, S::Complete}}},
      {"unexpected long", pulled},
      {"found by PtlMDUpdate", path({{{E::PostRecv, S::RecvPosting}}, pulled})},
      {"rendezvous header",
       path({{{E::PostRecv, S::RecvPosting},
              {E::Attached, S::Posted},
              {E::HeaderPutEnd, S::HeaderPolling},
              {E::Unlink, S::HeaderPolling}},
             pulled})},
  };
  test::walk(paths);
}

// Configuration: a record in the state on the left, given the event on the right. Expected: ProtocolError whose text
// names the machine, the state and the event. How validated: the error text. (A short put is not acknowledged; a
// posted receive is not pulled before its header is read; a copy-block send has no event; START events are disabled;
// nothing follows COMPLETE.)
TEST_CASE("mtl/portals op: an impossible event names state and event", "[unit][protocol][mtl]") {
  using S = OpState;
  using E = OpEvent;
  test::check_impossible<S, E>({
      {S::PutSent, E::Ack, "mtl/portals op: event 'ACK' is impossible in state 'PUT_SENT'"},
      {S::Posted, E::MatchedLong, "mtl/portals op: event 'MATCHED_LONG' is impossible in state 'POSTED'"},
      {S::CopyPosting, E::SendEnd, "mtl/portals op: event 'SEND_END' is impossible in state 'COPY_POSTING'"},
      {S::Posted, E::OtherEvent, "mtl/portals op: event 'OTHER_EVENT' is impossible in state 'POSTED'"},
      {S::Complete, E::Unlink, "mtl/portals op: event 'UNLINK' is impossible in state 'COMPLETE'"},
  });
}

// Configuration: Red Storm, 2 ranks on two nodes; Open MPI's protocol (zero bytes, a copy block at 1 KiB, an uncopied
// short send at 16 KiB, a long send at 64 KiB) and Cray MPI's (1 KiB, and its rendezvous at 200,000 B); each message
// sent after its receive is posted and once before (unexpected). Expected: every request completes and no operation
// record is left (each path ends in COMPLETE and frees its record). How validated: completions, mtl_live_ops and the
// path counters.
TEST_CASE("mtl/portals: every path frees its operation record", "[protocol][mtl][seastar]") {
  struct Case {
    const char* stack;
    std::uint64_t bytes;
    const char* counter;
    std::uint64_t count;
  };
  const std::vector<Case> cases = {
      {"openmpi-cm", 0, "mtl_zero_sends", 2},          {"openmpi-cm", 1024, "mtl_copy_block_sends", 2},
      {"openmpi-cm", 16384, "mtl_unexpected_short", 1}, {"openmpi-cm", 65536, "mtl_long_gets", 1},
      {"native", 1024, "craympi_unexpected_short", 1},  {"native", 200000, "craympi_long_gets", 2},
  };
  for (const auto& c : cases) {
    INFO(c.stack << " " << c.bytes << " B");
    test::Fixture f("red-storm", 2, 1, c.stack);
    CHECK(test::send_expected_and_unexpected(f, c.bytes) == 4);
    auto s = f.stack->stats();
    CHECK(s.counters[c.counter] == c.count);
    CHECK(s.counters["mpi_truncate_errors"] == 0);
    // the live requests under the stack's own name (Cray MPI reports mtl/portals' model under craympi_*), reported
    const std::string live = std::string(c.stack) == "native" ? "craympi_live_requests" : "mtl_live_ops";
    REQUIRE(s.counters.count(live) == 1);
    CHECK(s.counters[live] == 0);
  }
}
