// ofi/shm's message state machines (shm_msg.hpp), driven without the engine, and the records the provider leaves
// behind after runs of every path.
#include "protocols/ofi/base/shared_rx_queue.hpp"
#include "protocols/ofi/shm/shm_msg.hpp"
#include "protocols/ofi/shm/shm_provider.hpp"
#include "protocols/ofi/tests/unexpected_owner.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::ofi;
using namespace ompisim::ofi::shm;

// Configuration: a send side in IDLE, then the events of each send path in order. Expected: the states of the header's
// send sequence, ending COMPLETE. How validated: the state after each step, one SECTION per path.
TEST_CASE("ofi/shm send: every path to COMPLETE", "[unit][protocol][ofi]") {
  using S = ShmTxState;
  using E = ShmTxEvent;
  const std::vector<test::Path<S, E>> paths = {
      {"inject (fi_tsend and fi_tinject)",
       {{E::Post, S::Posting}, {E::CopyIn, S::CopyingIn}, {E::CopiedIn, S::Complete}}},
      {"single copy or GPU IPC (copied or discarded by the receiver)",
       {{E::Post, S::Posting},
        {E::CommandSent, S::AwaitPeer},
        {E::PeerDone, S::SignalReturning},
        {E::SignalArrived, S::CqReading},
        {E::CqRead, S::Complete}}},
  };
  test::walk(paths);
}

// Configuration: a receive side in IDLE, then the events of each receive path in order. Expected: the states of the
// header's receive sequence, ending COMPLETE. How validated: the state after each step, one SECTION per path.
TEST_CASE("ofi/shm receive: every path to COMPLETE", "[unit][protocol][ofi]") {
  using S = ShmRxState;
  using E = ShmRxEvent;
  const std::pair<E, S> arrive{E::Arrive, S::Progressing}, queued{E::Queued, S::Unexpected};
  const std::pair<E, S> attached{E::Attached, S::CopyingOut}, copied{E::Copied, S::Complete};
  const std::vector<test::Path<S, E>> paths = {
      {"inject, expected", {arrive, {E::MatchedInject, S::CopyingOut}, copied}},
      {"inject, unexpected", {arrive, queued, {E::MatchedInject, S::CopyingOut}, copied}},
      {"single copy or IPC, expected", {arrive, {E::MatchedPeer, S::Attaching}, attached, copied}},
      {"single copy or IPC, unexpected", {arrive, queued, {E::MatchedPeer, S::Attaching}, attached, copied}},
      {"discarded", {arrive, queued, {E::Discard, S::Complete}}},
  };
  test::walk(paths);
}

// Configuration: a side in the state on the left, given the event on the right. Expected: ProtocolError whose text names
// the machine, the state and the event. How validated: the error text. (An inject send waits for no peer; a command is
// not matched before the receiver's progress reads it; a matched message is not discarded; nothing follows COMPLETE.)
TEST_CASE("ofi/shm message: an impossible event names state and event", "[unit][protocol][ofi]") {
  test::check_impossible<ShmTxState, ShmTxEvent>({
      {ShmTxState::CopyingIn, ShmTxEvent::PeerDone, "shm send: event 'PEER_DONE' is impossible in state 'COPYING_IN'"},
      {ShmTxState::Complete, ShmTxEvent::PeerDone, "shm send: event 'PEER_DONE' is impossible in state 'COMPLETE'"},
  });
  test::check_impossible<ShmRxState, ShmRxEvent>({
      {ShmRxState::Idle, ShmRxEvent::MatchedPeer, "shm receive: event 'MATCHED_PEER' is impossible in state 'IDLE'"},
      {ShmRxState::Attaching, ShmRxEvent::Discard, "shm receive: event 'DISCARD' is impossible in state 'ATTACHING'"},
      {ShmRxState::Complete, ShmRxEvent::Copied, "shm receive: event 'COPIED' is impossible in state 'COMPLETE'"},
  });
}

namespace {
ShmConfig config() {
  ShmConfig c;
  c.overhead = 0.1e-6;
  c.inject_size = 4096;
  c.xpmem_attach_cost = 1e-6;
  c.ipc_open_cost = 5e-6;
  c.gpu_copy_latency = 1e-6;
  return c;
}
}  // namespace

// Configuration: the shm provider under a shared receive queue on one crusher node (2 ranks): inject (1 KiB), single
// copy (64 KiB) and GPU IPC (64 KiB from a device buffer) messages, each sent once to a posted receive and once before
// its receive (unexpected); 64 B by fi_tinject. Expected: every receive and send completes (fi_tinject: its `injected`
// call instead of a completion), the path's counter counts both messages, and no message record is left (both sides end
// COMPLETE and free it). How validated: completions, counters and messages_in_flight().
TEST_CASE("ofi/shm: every path frees its message record", "[protocol][ofi]") {
  struct Case {
    const char* name;
    std::uint64_t bytes;
    MemKind kind;
    bool inject;
    const char* counter;
  };
  const std::vector<Case> cases = {
      {"inject", 1024, MemKind::Host, false, "shm_inject"},
      {"single copy", 65536, MemKind::Host, false, "shm_single_copy"},
      {"gpu ipc", 65536, MemKind::Device, false, "shm_ipc"},
      {"fi_tinject", 64, MemKind::Host, true, "shm_inject"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    test::CrusherJob j(2, 2);
    ShmProvider shm(j.sim, j.world->contexts(), j.world->cpus(), config());
    SharedRxQueue q;
    std::size_t sends = 0, recvs = 0;
    CqOwnerOps ops;
    ops.write = [&](const CqEntry& e) { ++((e.flags & CqEntry::Recv) ? recvs : sends); };
    shm.bind_peer(&q, q.add_peer(&shm), ops);
    Buffer sbuf{4096, true, MemSpace{c.kind, -1}};
    q.post_tag(1, 0, 7, c.bytes, Buffer{}, 1);
    for (int t : {7, 8}) {
      if (c.inject) shm.tinject(0, 1, t, c.bytes, sbuf, [&] { ++sends; });
      else shm.tsend(0, 1, t, c.bytes, sbuf, 10);
    }
    j.sim.run();
    CHECK(shm.messages_in_flight() == 1);  // tag 8 waits unexpected
    q.post_tag(1, 0, 8, c.bytes, Buffer{}, 2);
    j.sim.run();
    std::map<std::string, std::uint64_t> counters;
    shm.add_counters(counters);
    CHECK(recvs == 2);
    CHECK(sends == 2);
    CHECK(counters[c.counter] == 2);
    CHECK(counters["shm_unexpected"] == 1);
    CHECK(shm.messages_in_flight() == 0);
    CHECK(q.live_entries() == 0);
  }
}

// Configuration: the shm provider as a peer of an owner that never has a receive posted: an inject (1 KiB) and a single
// copy (64 KiB) message from rank 0 to rank 1 on one node are queued as unexpected; the owner then discards both
// (fi_peer discard_tag), or starts both on receives (start_tag). Expected: discarded, both sends complete (the single
// copy's at the discard's signal), no receive completion, shm_discards = 2; started, both receives complete too. Either
// way no message record is left, and starting a freed message is a ProtocolError. How validated: completions, counters
// and messages_in_flight().
TEST_CASE("ofi/shm: unexpected messages started or discarded by the owner free their records", "[protocol][ofi]") {
  for (bool discard : {true, false}) {
    INFO((discard ? "discard" : "start"));
    test::CrusherJob j(2, 2);
    ShmProvider shm(j.sim, j.world->contexts(), j.world->cpus(), config());
    // the inject one's send is complete at its copy into the inject buffer
    test::check_unexpected_started_or_discarded(shm, j.sim, discard, "shm_discards");
  }
}
