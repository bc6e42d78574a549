// ofi/shm's messages: one record per tagged message from fi_tsend / fi_tinject to both completions, with the sending
// side's state and the receiving side's state, each moved by its own transition table (plain data, pure transitions,
// no clock, no engine). ShmProvider keeps the records in its request table; each step is a member `on_<event>(id)` that
// moves a state with step() and starts the next copy, CPU activity or cache-line hand-off, whose continuation carries
// only the record's id. The record is freed when both sides are COMPLETE.
//
// Send side. The sender's CPU posts the command (POSTING). Inject path: it copies the payload into the shared inject
// buffer (COPYING_IN) and the send is COMPLETE (fi_tinject: its `injected` call instead of a completion); the command
// then reaches the peer. Single-copy and GPU IPC paths: the command (with the iov or IPC handle) goes to the peer and
// the sender waits (AWAIT_PEER) until the receiver has copied the data (or discarded the message) and signals; the
// signal crosses back (SIGNAL_RETURNING), the sender reads the completion (CQ_READING) and the send is COMPLETE.
//
// Receive side. The command reaches the receiver, whose progress reads it (PROGRESSING) and asks the owner's queue: no
// receive, the message is UNEXPECTED until the owner starts it (fi_peer start_tag) or discards it (COMPLETE). Matched:
// an inject payload is copied out of the inject buffer (COPYING_OUT); data in the sender's memory first pays the XPMEM
// attach or IPC handle open and the library's per-message cost (ATTACHING), then the receiver's CPU or a GPU copy
// engine copies it (COPYING_OUT). The copy's end is the receive's completion (COMPLETE). Any other (state, event) pair
// throws ProtocolError naming both.
#pragma once
#include "core/sim.hpp"
#include "platform/buffer.hpp"
#include "protocols/base/transition_table.hpp"
#include "protocols/ofi/base/peer_messages.hpp"

#include <cstdint>

namespace ompisim::ofi::shm {

// ShmStat's first three, in this order (shm_statistics.hpp).
enum class ShmPath : std::uint8_t { Inject, SingleCopy, Ipc };

// The send side's machine: ProtocolError ("shm send") for an impossible (state, event) pair.
enum class ShmTxState : std::uint8_t { Idle, Posting, CopyingIn, AwaitPeer, SignalReturning, CqReading, Complete };
enum class ShmTxEvent : std::uint8_t { Post, CopyIn, CopiedIn, CommandSent, PeerDone, SignalArrived, CqRead };
const char* to_string(ShmTxState s);
const char* to_string(ShmTxEvent e);
ShmTxState step(ShmTxState s, ShmTxEvent e);  // the state after event `e` in state `s`

// The receive side's machine: ProtocolError ("shm receive") for an impossible pair.
enum class ShmRxState : std::uint8_t { Idle, Progressing, Unexpected, Attaching, CopyingOut, Complete };
enum class ShmRxEvent : std::uint8_t { Arrive, MatchedInject, MatchedPeer, Queued, Discard, Attached, Copied };
const char* to_string(ShmRxState s);
const char* to_string(ShmRxEvent e);
ShmRxState step(ShmRxState s, ShmRxEvent e);

// One message: the provider's record (PeerMsg), its path and where the receiver copies from.
struct ShmMsg : PeerMsg<ShmTxState, ShmRxState> {
  ShmPath path = ShmPath::Inject;
  MemSpace from{};  // where the receiver copies from (single copy, IPC)
};

}  // namespace ompisim::ofi::shm
