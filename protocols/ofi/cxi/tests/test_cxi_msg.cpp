// ofi/cxi's message state machines (cxi_msg.hpp), driven without the engine, and the records the provider leaves
// behind after runs of every path.
#include "models/slingshot/nic.hpp"
#include "protocols/ofi/cxi/cxi_msg.hpp"
#include "protocols/ofi/cxi/cxi_provider.hpp"
#include "protocols/ofi/tests/unexpected_owner.hpp"
#include "protocols/register.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::ofi;
using namespace ompisim::ofi::cxi;

// Configuration: a send side in IDLE, then the events of each send path in order. Expected: the states of the header's
// send sequence, ending COMPLETE. How validated: the state after each step, one SECTION per path.
TEST_CASE("ofi/cxi send: every path to COMPLETE", "[unit][protocol][ofi]") {
  using S = TxState;
  using E = TxEvent;
  const std::vector<std::pair<E, S>> acked = {
      {E::TargetAck, S::AckReturning}, {E::AckArrived, S::CqReading}, {E::CqRead, S::Complete}};
  const std::vector<std::pair<E, S>> launched = {{E::Issue, S::Issuing}, {E::Launch, S::Sent}};
  auto after_launch = [&](const std::vector<std::pair<E, S>>& rest) { return test::joined<S, E>({launched, rest}); };
  const auto dropped =
      test::joined<S, E>({{{E::Drop, S::AwaitRecovery}, {E::Resend, S::Issuing}, {E::Launch, S::Sent}}, acked});
  const std::vector<test::Path<S, E>> paths = {
      {"acknowledged send (eager delivered, rendezvous pulled or discarded)", after_launch(acked)},
      {"fi_tinject (no completion)", after_launch({{E::TargetAckNoCq, S::Complete}})},
      {"dropped under flow control, sent again", after_launch(dropped)},
  };
  test::walk(paths);
}

// Configuration: a target side in IDLE, then the events of each receive path in order. Expected: the states of the
// header's target sequence, ending COMPLETE. How validated: the state after each step, one SECTION per path.
TEST_CASE("ofi/cxi receive: every path to COMPLETE", "[unit][protocol][ofi]") {
  using S = RxState;
  using E = RxEvent;
  const auto path = test::joined<S, E>;
  const std::vector<std::pair<E, S>> arrive = {{E::Arrive, S::Arrived}};
  const std::vector<std::pair<E, S>> copied_eager = {{E::Copied, S::CopyLanding}, {E::Landed, S::Complete}};
  const std::vector<std::pair<E, S>> software_pull = {{E::CopiedEagerPart, S::PullIssuing},
                                                      {E::PullIssued, S::Pulling},
                                                      {E::Pulled, S::CqReading},
                                                      {E::CqRead, S::Complete}};
  const std::vector<std::pair<E, S>> queued = {{E::Queued, S::Unexpected}, {E::Matched, S::CopyingOut}};
  const std::vector<test::Path<S, E>> paths = {
      {"NIC match, eager in place",
       path({arrive, {{E::NicMatchedEager, S::Landing}, {E::Landed, S::CqReading}, {E::CqRead, S::Complete}}})},
      {"NIC match, rendezvous pulled by the NIC",
       path({arrive, {{E::NicMatchedRdzv, S::Pulling}, {E::Pulled, S::CqReading}, {E::CqRead, S::Complete}}})},
      {"overflow buffers, eager", path({arrive, queued, copied_eager})},
      {"overflow buffers, rendezvous", path({arrive, queued, software_pull})},
      {"host match, eager", path({arrive, {{E::HostMatch, S::HostMatching}, {E::Matched, S::CopyingOut}}, copied_eager})},
      {"host match, rendezvous",
       path({arrive, {{E::HostMatch, S::HostMatching}, {E::Matched, S::CopyingOut}}, software_pull})},
      {"host match, unexpected",
       path({arrive, {{E::HostMatch, S::HostMatching}, {E::Queued, S::Unexpected}, {E::Matched, S::CopyingOut}},
             copied_eager})},
      {"held behind its predecessor",
       path({{{E::Hold, S::Held}, {E::Arrive, S::Arrived}, {E::NicMatchedEager, S::Landing}, {E::Landed, S::CqReading},
              {E::CqRead, S::Complete}}})},
      {"dropped, then arriving again", path({arrive, {{E::Drop, S::Idle}}, arrive, queued, copied_eager})},
      {"discarded", path({arrive, {{E::Queued, S::Unexpected}, {E::Discard, S::Complete}}})},
  };
  test::walk(paths);
}

// Configuration: a side in the state on the left, given the event on the right. Expected: ProtocolError whose text names
// the machine, the state and the event. How validated: the error text. (No ack before the header leaves; a dropped
// header is not acknowledged; a held header is not matched before it is in order; a receive matched in the NIC is not
// copied by the host; nothing follows COMPLETE.)
TEST_CASE("ofi/cxi message: an impossible event names state and event", "[unit][protocol][ofi]") {
  test::check_impossible<TxState, TxEvent>({
      {TxState::Issuing, TxEvent::TargetAck, "cxi send: event 'TARGET_ACK' is impossible in state 'ISSUING'"},
      {TxState::AwaitRecovery, TxEvent::TargetAck,
       "cxi send: event 'TARGET_ACK' is impossible in state 'AWAIT_RECOVERY'"},
      {TxState::Complete, TxEvent::CqRead, "cxi send: event 'CQ_READ' is impossible in state 'COMPLETE'"},
  });
  test::check_impossible<RxState, RxEvent>({
      {RxState::Held, RxEvent::NicMatchedEager, "cxi receive: event 'NIC_MATCHED_EAGER' is impossible in state 'HELD'"},
      {RxState::Landing, RxEvent::Copied, "cxi receive: event 'COPIED' is impossible in state 'LANDING'"},
      {RxState::Pulling, RxEvent::Discard, "cxi receive: event 'DISCARD' is impossible in state 'PULLING'"},
      {RxState::Complete, RxEvent::Landed, "cxi receive: event 'LANDED' is impossible in state 'COMPLETE'"},
  });
}

namespace {
struct Run {
  std::size_t sends = 0, recvs = 0;
  std::map<std::string, std::uint64_t> c;
  std::size_t in_flight = 0;
};

// The CXI provider alone on crusher (2 ranks, `rpn` per node; overflow buffers of `oflow` bytes when nonzero): rank 1
// posts a receive of `bytes` (tag 7), rank 0 sends tag 7 and tag 8 of `bytes` (by fi_tinject when `inject`), and rank 1
// posts tag 8's receive at t = 1 ms (unexpected until then). With `storm`, 12 more messages of tags 9.. arrive
// unexpected as well (and their receives are posted at 1 ms).
Run alone(std::uint64_t bytes, bool software, int rpn = 1, bool inject = false, std::uint64_t oflow = 0, int storm = 0) {
  test::CrusherJob j(2, rpn);
  const auto& n = slingshot::nic(*j.machine);
  auto cfg = CxiConfig::from(n.p, n.software, j.mca.get<CxiMca>());
  cfg.software_matching = software;
  if (oflow) cfg.oflow_bytes = oflow;
  CxiProvider cxi(j.sim, j.world->contexts(), j.world->cpus(), j.world->fabric(), cfg);
  Run r;
  CqOwnerOps ops;
  ops.write = [&](const CqEntry& e) { ++((e.flags & CqEntry::Recv) ? r.recvs : r.sends); };
  cxi.set_cq(ops);
  cxi.trecv(1, 0, 7, bytes, Buffer{}, 1);
  j.sim.at(1e-6, [&] {
    for (int t = 7; t <= 8 + storm; ++t) {
      if (inject) cxi.tinject(0, 1, t, bytes, Buffer{}, [&] { ++r.sends; });
      else cxi.tsend(0, 1, t, bytes, Buffer{}, 10 + static_cast<std::uint64_t>(t));
    }
  });
  j.sim.at(1e-3, [&] {
    for (int t = 8; t <= 8 + storm; ++t) cxi.trecv(1, 0, t, bytes, Buffer{}, 2);
  });
  j.sim.run();
  cxi.add_counters(r.c);
  r.in_flight = cxi.messages_in_flight();
  return r;
}
}  // namespace

// Configuration: the CXI provider alone on crusher, hardware and software matching: inject (64 B), eager (1 KiB) and
// rendezvous (64 KiB) messages, each sent once to a posted receive and once before its receive (unexpected); the same
// between two ranks of one node (out through the NIC and back); 64 B by fi_tinject; 1 KiB messages into overflow
// buffers of 4 KiB (hardware: dropped, recovered, sent again). Expected: every receive and send completes (fi_tinject:
// its `injected` call instead of a completion), the path's counter counts the messages, and no message record is left
// (both sides end COMPLETE and free it). How validated: completions, counters and messages_in_flight().
TEST_CASE("ofi/cxi: every path frees its message record", "[protocol][ofi]") {
  struct Case {
    const char* name;
    std::uint64_t bytes;
    bool software;
    int rpn;
    const char* counter;
  };
  const std::vector<Case> cases = {
      {"inject", 64, false, 1, "cxi_inject"},          {"eager", 1024, false, 1, "cxi_eager"},
      {"rendezvous", 65536, false, 1, "cxi_rendezvous"}, {"inject, host match", 64, true, 1, "cxi_inject"},
      {"eager, host match", 1024, true, 1, "cxi_eager"}, {"rendezvous, host match", 65536, true, 1, "cxi_rendezvous"},
      {"loopback", 65536, false, 2, "cxi_loopback"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    Run r = alone(c.bytes, c.software, c.rpn);
    CHECK(r.recvs == 2);
    CHECK(r.sends == 2);
    CHECK(r.c[c.counter] == 2);
    CHECK(r.c["cxi_unexpected"] == 1);
    CHECK(r.in_flight == 0);
  }
  SECTION("fi_tinject") {
    Run r = alone(64, false, 1, true);
    CHECK(r.recvs == 2);
    CHECK(r.sends == 2);
    CHECK(r.c["cxi_inject"] == 2);
    CHECK(r.in_flight == 0);
  }
  SECTION("overflow buffers exhausted") {
    Run r = alone(1024, false, 1, false, 4096, 12);
    CHECK(r.recvs == 14);
    CHECK(r.sends == 14);
    CHECK(r.c["cxi_fc_drops"] >= 1);
    CHECK(r.c["cxi_fc_resends"] == r.c["cxi_fc_drops"]);
    CHECK(r.in_flight == 0);
  }
}

// Configuration: the CXI provider as a peer of an owner that never has a receive posted (software matching): an eager
// (1 KiB) and a rendezvous (64 KiB) message from rank 0 to rank 1 are queued as unexpected; the owner then discards
// both (fi_peer discard_tag), or starts both on receives (start_tag). Expected: discarded, both sends complete (the
// rendezvous' at the discard), no receive completion, cxi_discards = 2; started, both receives complete too. Either
// way no message record is left, and starting a freed message is a ProtocolError. How validated: completions,
// counters and messages_in_flight().
TEST_CASE("ofi/cxi: unexpected messages started or discarded by the owner free their records", "[protocol][ofi]") {
  for (bool discard : {true, false}) {
    INFO((discard ? "discard" : "start"));
    test::CrusherJob j(2, 1);
    const auto& n = slingshot::nic(*j.machine);
    CxiProvider cxi(j.sim, j.world->contexts(), j.world->cpus(), j.world->fabric(),
                    CxiConfig::from(n.p, n.software, j.mca.get<CxiMca>()));
    // the eager one's send is complete once it is in the request buffer
    test::check_unexpected_started_or_discarded(cxi, j.sim, discard, "cxi_discards");
  }
}

// Configuration: FI_CXI_RDZV_EAGER_SIZE below, at and above FI_CXI_RDZV_THRESHOLD (2048 B), and the threshold raised
//                to 16 KiB with the eager size left at its 2048 B.
// Expected:      the provider's eager bytes of a rendezvous are the setting up to the threshold and the threshold
//                above it (prov/cxi/src/cxip_info.c lowers a larger value), so a rendezvous of any length leaves at
//                least FI_CXI_RDZV_GET_MIN to its Get; the component's effective value says the same; a raised
//                threshold leaves the setting as it is.
// How validated: the configuration's limits and the registry's effective rule.
TEST_CASE("ofi/cxi: the rendezvous eager size is at most the threshold", "[unit][protocol][ofi]") {
  CxiMca m;
  auto eager_of = [&](double eager, double threshold) {
    m.fi_cxi_rdzv_eager_size.value = eager;
    m.fi_cxi_rdzv_threshold.value = threshold;
    return effective_rdzv_eager_size(m);
  };
  CHECK(eager_of(1024, 2048) == 1024);
  CHECK(eager_of(2048, 2048) == 2048);
  CHECK(eager_of(1048576, 2048) == 2048);
  CHECK(eager_of(2048, 16384) == 2048);
  const ComponentInfo* c = component_registry().find("ofi", "cxi");
  REQUIRE(c);
  REQUIRE(c->effective.size() == 1);
  McaParams mca = component_registry().defaults();
  mca.get<CxiMca>().fi_cxi_rdzv_eager_size.value = 1048576;
  CHECK(c->effective[0].name == "fi_cxi_rdzv_eager_size");
  CHECK(c->effective[0].value(mca, 2) == 2048);
  // a rendezvous just above the eager cut-off still leaves a Get
  ProtocolLimits l;
  l.rdzv_eager_size = eager_of(1048576, 2048);
  const std::uint64_t len = l.rdzv_threshold + l.rdzv_get_min + 1;
  REQUIRE(choose(len, l) == SendProtocol::Rendezvous);
  CHECK(len - eager_bytes(SendProtocol::Rendezvous, len, l) >= l.rdzv_get_min);
}
