// The commodity-NIC BTL's per-operation records and their state machines (FabricBtl: btl/openib, btl/gm, btl/tcp of
// Open MPI 1.1): plain data and pure transitions, no clock, no engine. FabricBtl keeps one record per operation in
// flight in a Slab; each step is a member function `on_<event>(id)` that moves the record with step() and starts the
// next CPU or fabric activity, whose continuation carries only the record's index. Where the step itself decides what
// comes next (copy into a BTL buffer or not; the channel free or busy), the decision is the event.
//
// Send fragment (FabricBtl::send). START: the sender's CPU pays frag_overhead (ISSUING). Then, for a fragment that is
// neither in place nor RDMA, COPY_IN: the data is copied into a BTL buffer (COPYING). Then the fragment joins its
// channel: CHANNEL_FREE puts it on the wire at once (ON_WIRE), CHANNEL_BUSY queues it behind the fragment on the wire
// (AWAIT_CHANNEL) until CHANNEL_FREE. ARRIVED: the whole fragment is at the receiver, whose CPU pays frag_overhead
// (RECEIVING); RECEIVED: the PML's callback runs (COMPLETE).
//
// RDMA operation (FabricBtl::put / get). START_PUT / START_GET: the initiator's CPU pays frag_overhead (ISSUING_PUT /
// ISSUING_GET). A put joins the connection's low-priority channel as a send fragment does (CHANNEL_FREE / CHANNEL_BUSY,
// AWAIT_CHANNEL) and is written to the peer (WRITING); a get is ISSUED at once and pulled from the peer (READING), on no
// channel. FLOW_DONE: the initiator's CPU pays frag_overhead for the completion (COMPLETING); COMPLETED: done
// (COMPLETE). Any other (state, event) pair throws ProtocolError naming both.
#pragma once
#include "protocols/base/transition_table.hpp"
#include "protocols/btl/base/frag_records.hpp"

#include <cstdint>

namespace ompisim::btl::fabric {

// The send fragment's machine: ProtocolError ("btl fabric frag") for an impossible (state, event) pair.
enum class FragState : std::uint8_t { Idle, Issuing, Copying, AwaitChannel, OnWire, Receiving, Complete };
enum class FragEvent : std::uint8_t { Start, CopyIn, ChannelBusy, ChannelFree, Arrived, Received };
const char* to_string(FragState s);
const char* to_string(FragEvent e);
FragState step(FragState s, FragEvent e);  // the state after event `e` in state `s`

// The RDMA operation's machine: ProtocolError ("btl fabric rdma") for an impossible pair.
enum class RdmaState : std::uint8_t {
  Idle, IssuingPut, IssuingGet, AwaitChannel, Writing, Reading, Completing, Complete
};
enum class RdmaEvent : std::uint8_t { StartPut, StartGet, ChannelBusy, ChannelFree, Issued, FlowDone, Completed };
const char* to_string(RdmaState s);
const char* to_string(RdmaEvent e);
RdmaState step(RdmaState s, RdmaEvent e);

// A send fragment (its local completion when the user buffer is free: after the copy into a BTL buffer, else once the
// NIC has sent it all), whether it is copied in and the channel it goes on.
struct SendFrag : SendRecord<FragState> {
  bool copy_in = false;
  int channel = 0;
};

// An RDMA write (put: initiator -> peer) or read (get: peer -> initiator).
using RdmaFrag = RdmaRecord<RdmaState>;

}  // namespace ompisim::btl::fabric
