// The commodity-NIC BTL's send fragment and RDMA operation state machines (fabric_frag.hpp), driven without the engine.
#include "protocols/btl/base/fabric_frag.hpp"
#include "tests/protocol_paths.hpp"

#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

using namespace ompisim;
using namespace ompisim::btl::fabric;

// Configuration: a fragment record in IDLE, then the events of each way through FabricBtl::send: in place on a free
// channel, in place behind a busy channel, copied in on a free channel, copied in behind a busy channel. Expected: the
// states of fabric_frag.hpp's header, ending COMPLETE. How validated: the state after each step.
TEST_CASE("btl fabric send fragment: in place or copied in, channel free or busy", "[unit][protocol][btl]") {
  using S = FragState;
  using E = FragEvent;
  const std::vector<test::Path<S, E>> paths = {
      {"in place, channel free",
       {{E::Start, S::Issuing}, {E::ChannelFree, S::OnWire}, {E::Arrived, S::Receiving}, {E::Received, S::Complete}}},
      {"in place, channel busy",
       {{E::Start, S::Issuing},
        {E::ChannelBusy, S::AwaitChannel},
        {E::ChannelFree, S::OnWire},
        {E::Arrived, S::Receiving},
        {E::Received, S::Complete}}},
      {"copied in, channel free",
       {{E::Start, S::Issuing},
        {E::CopyIn, S::Copying},
        {E::ChannelFree, S::OnWire},
        {E::Arrived, S::Receiving},
        {E::Received, S::Complete}}},
      {"copied in, channel busy",
       {{E::Start, S::Issuing},
        {E::CopyIn, S::Copying},
        {E::ChannelBusy, S::AwaitChannel},
        {E::ChannelFree, S::OnWire},
        {E::Arrived, S::Receiving},
        {E::Received, S::Complete}}},
  };
  test::walk(paths);
}

// Configuration: a fragment record in the state on the left, given the event on the right. Expected: ProtocolError
// whose text names the machine, the state and the event. How validated: the error text. (A fragment is copied once,
// before it joins its channel; a queued one does not wait twice; one on the wire is not received before it arrives; a
// completed one takes no event; nothing happens before START.)
TEST_CASE("btl fabric send fragment: an impossible event names state and event", "[unit][protocol][btl]") {
  using S = FragState;
  using E = FragEvent;
  const std::vector<std::tuple<S, E, const char*>> bad = {
      {S::Copying, E::CopyIn, "btl fabric frag: event 'COPY_IN' is impossible in state 'COPYING'"},
      {S::AwaitChannel, E::CopyIn, "btl fabric frag: event 'COPY_IN' is impossible in state 'AWAIT_CHANNEL'"},
      {S::AwaitChannel, E::ChannelBusy,
       "btl fabric frag: event 'CHANNEL_BUSY' is impossible in state 'AWAIT_CHANNEL'"},
      {S::OnWire, E::Received, "btl fabric frag: event 'RECEIVED' is impossible in state 'ON_WIRE'"},
      {S::Receiving, E::Arrived, "btl fabric frag: event 'ARRIVED' is impossible in state 'RECEIVING'"},
      {S::Complete, E::Received, "btl fabric frag: event 'RECEIVED' is impossible in state 'COMPLETE'"},
      {S::Idle, E::ChannelFree, "btl fabric frag: event 'CHANNEL_FREE' is impossible in state 'IDLE'"},
  };
  test::check_impossible(bad);
}

// Configuration: an RDMA record in IDLE, then a put on a free channel, a put behind a busy channel and a get.
// Expected: ISSUING_PUT -> [AWAIT_CHANNEL ->] WRITING -> COMPLETING -> COMPLETE and ISSUING_GET -> READING ->
// COMPLETING -> COMPLETE; a get never joins a channel, a put is not ISSUED without one, a flow is done once. How
// validated: the states and the error text.
TEST_CASE("btl fabric rdma operation: put on the channel, get off it", "[unit][protocol][btl]") {
  using S = RdmaState;
  using E = RdmaEvent;
  const std::vector<test::Path<S, E>> paths = {
      {"put, channel free",
       {{E::StartPut, S::IssuingPut},
        {E::ChannelFree, S::Writing},
        {E::FlowDone, S::Completing},
        {E::Completed, S::Complete}}},
      {"put, channel busy",
       {{E::StartPut, S::IssuingPut},
        {E::ChannelBusy, S::AwaitChannel},
        {E::ChannelFree, S::Writing},
        {E::FlowDone, S::Completing},
        {E::Completed, S::Complete}}},
      {"get",
       {{E::StartGet, S::IssuingGet}, {E::Issued, S::Reading}, {E::FlowDone, S::Completing},
        {E::Completed, S::Complete}}},
  };
  test::walk(paths);
  const std::vector<std::tuple<S, E, const char*>> bad = {
      {S::IssuingGet, E::ChannelFree, "btl fabric rdma: event 'CHANNEL_FREE' is impossible in state 'ISSUING_GET'"},
      {S::IssuingGet, E::ChannelBusy, "btl fabric rdma: event 'CHANNEL_BUSY' is impossible in state 'ISSUING_GET'"},
      {S::IssuingPut, E::Issued, "btl fabric rdma: event 'ISSUED' is impossible in state 'ISSUING_PUT'"},
      {S::Completing, E::FlowDone, "btl fabric rdma: event 'FLOW_DONE' is impossible in state 'COMPLETING'"},
      {S::Complete, E::Completed, "btl fabric rdma: event 'COMPLETED' is impossible in state 'COMPLETE'"},
  };
  test::check_impossible(bad);
}
