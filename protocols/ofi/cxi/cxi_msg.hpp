// ofi/cxi's messages: one record per tagged message from fi_tsend / fi_tinject to both completions, with the sending
// side's state and the target side's state, each moved by its own transition table (plain data, pure transitions, no
// clock, no engine). CxiProvider keeps the records in its request table; each step is a member `on_<event>(id)` that
// moves a state with step() and starts the next NIC, fabric or CPU activity, whose continuation carries only the
// record's id. The record is freed when both sides are COMPLETE.
//
// Send side. The host issues the command (ISSUING); once issued it is SENT: the header (with an inject or eager
// payload, or a rendezvous' eager part) crosses the fabric. The target acknowledges (transmit complete): an eager
// payload when the target NIC has it (matched in place, in the overflow buffers, or in a request buffer), a rendezvous
// when its Get has finished or the unexpected message is discarded. The ack returns (ACK_RETURNING), the host reads
// the completion (CQ_READING) and the send is COMPLETE; fi_tinject writes no completion (ACK_NO_CQ: COMPLETE at once).
// A header the target NIC drops (overflow buffers exhausted) waits for the flow-control recovery (AWAIT_RECOVERY) and
// is issued again (RESEND: ISSUING).
//
// Target side. A header that comes before its predecessors of the same pair waits (HELD); in order it has ARRIVED.
// Hardware matching: dropped under flow control (back to IDLE until it is sent again), matched against a posted
// receive (an eager payload landing in place, LANDING, then the host reads the completion, CQ_READING; a rendezvous
// pulled by the NIC's Get, PULLING, then CQ_READING), or queued in the overflow buffers (UNEXPECTED). Software
// matching: the host reads the event (HOST_MATCHING) and either finds a receive or queues the message (UNEXPECTED).
// A receive found by the host or started on an unexpected message (fi_peer start_tag) has the payload copied out of
// host memory (COPYING_OUT): an eager one then lands (COPY_LANDING) and is COMPLETE; a rendezvous' eager part is
// followed by the Get software issues (PULL_ISSUING, PULLING, CQ_READING). An unexpected message can be discarded
// (fi_peer discard_tag: COMPLETE). Any other (state, event) pair throws ProtocolError naming both.
#pragma once
#include "core/sim.hpp"
#include "platform/buffer.hpp"
#include "platform/nic.hpp"
#include "protocols/base/transition_table.hpp"
#include "protocols/ofi/cxi/cxi_protocol.hpp"
#include "protocols/ofi/base/peer_messages.hpp"

#include <cstdint>

namespace ompisim::ofi::cxi {

// The send side's machine: ProtocolError ("cxi send") for an impossible (state, event) pair.
enum class TxState : std::uint8_t { Idle, Issuing, Sent, AwaitRecovery, AckReturning, CqReading, Complete };
enum class TxEvent : std::uint8_t { Issue, Launch, Drop, Resend, TargetAck, TargetAckNoCq, AckArrived, CqRead };
const char* to_string(TxState s);
const char* to_string(TxEvent e);
TxState step(TxState s, TxEvent e);  // the state after event `e` in state `s`

// The target side's machine: ProtocolError ("cxi receive") for an impossible pair.
enum class RxState : std::uint8_t {
  Idle, Held, Arrived, HostMatching, Unexpected, Landing, CopyingOut, CopyLanding, PullIssuing, Pulling, CqReading,
  Complete
};
enum class RxEvent : std::uint8_t {
  Hold, Arrive, Drop, NicMatchedEager, NicMatchedRdzv, Queued, HostMatch, Matched, Discard, Copied, CopiedEagerPart,
  Landed, PullIssued, Pulled, CqRead
};
const char* to_string(RxState s);
const char* to_string(RxEvent e);
RxState step(RxState s, RxEvent e);

// One message: the provider's record (PeerMsg) and what its protocol and the target side have learnt.
struct CxiMsg : PeerMsg<TxState, RxState> {
  SendProtocol proto = SendProtocol::Eager;
  std::uint32_t seq = 0;
  std::uint32_t oflow_epoch = 0;   // the overflow buffers' recovery epoch its payload was taken in
  bool in_oflow = false;           // its payload (or eager part) holds overflow-buffer space
  bool no_cq = false;              // fi_tinject: no send completion is written
  std::uint64_t landed = 0;        // bytes that came with the header into the receive (a rendezvous pulls the rest)
  double t_transfer = 0;           // start of the transfer in flight (the trace's NIC spans)
  // The fabric's paths between its nodes, source -> target and back, each looked up on first use and kept with the
  // message (Fabric::path is a function of the node pair: a rendezvous asks for each twice).
  PathCost to_dst, to_src;
  bool have_to_dst = false, have_to_src = false;
};

}  // namespace ompisim::ofi::cxi
