// Cray MPT's uGNI netmod: one record per message from MPID_Isend to the completion of both requests, with an explicit
// state and a transition table (plain data, pure transitions, no clock, no engine). MpichGni keeps the records in a
// Slab; each step is a member `on_<event>(id)` that moves the record with step() and starts the next NIC or CPU
// activity, whose continuation carries only the record's index (or, once the record is gone, the MPI request's id).
//
// Message sequence (mpich_gni.hpp describes the paths). The sender's CPU posts the send (POSTING), which picks the path:
//  - on the node, copy-in (START_SHM_EAGER: SHM_COPYING, then the cell is signalled: IN_FLIGHT; the send is complete),
//    or an RTS for the XPMEM single copy (START_LMT: IN_FLIGHT);
//  - between nodes, SMSG eager (START_SMSG: IN_FLIGHT; the send completes once posted), E1 (START_E1: a DMA buffer,
//    AWAIT_DMA_BUFFER; the copy into it, E1_COPYING, completes the send; the descriptor, E1_DESC_SENT; the receiver's
//    GET, E1_PULLING; then the data is IN_FLIGHT to the match and the buffer-free SMSG goes back) or the rendezvous
//    (START_RNDV: the sender's buffer is registered, REGISTERING, then the RTS is IN_FLIGHT).
// On arrival the receiver's CPU polls it (POLLING) and hands it to the matching queues (QUEUED: unexpected, or held
// until the messages before it have come). Matched: eager data is copied out (COPYING_OUT) and the receive completes;
// an LMT RTS pays the XPMEM attach (LMT_ATTACHING), copies (LMT_COPYING), completes the receive and signals DONE
// (LMT_DONE_SENT); a rendezvous RTS pays the receive cost (RNDV_CHARGING), registers the receive buffer
// (RECV_REGISTERING), GETs (PULLING), completes the receive and sends DONE (GET_DONE_SENT), or, misaligned, sends CTS
// (CTS_SENT), the sender PUTs (PUTTING), completes the send and sends DONE (PUT_DONE_SENT). DONE's arrival completes
// the other side (COMPLETE). Any other (state, event) pair throws ProtocolError naming both.
#pragma once
#include "platform/buffer.hpp"
#include "protocols/base/transition_table.hpp"

#include <cstdint>

namespace ompisim::native {

enum class MsgState : std::uint8_t {
  Idle, Posting, ShmCopying, AwaitDmaBuffer, E1Copying, E1DescSent, E1Pulling, Registering, InFlight, Polling, Queued,
  CopyingOut, LmtAttaching, LmtCopying, LmtDoneSent, RndvCharging, RecvRegistering, Pulling, GetDoneSent, CtsSent,
  Putting, PutDoneSent, Complete
};
enum class MsgEvent : std::uint8_t {
  Post, StartShmEager, StartLmt, StartSmsg, StartE1, StartRndv, CpuDone, BufferReady, Copied, DescArrived, GetDone,
  Registered, Arrived, MatchedEager, MatchedLmt, MatchedRndv, StartGet, StartPutFallback, CtsArrived, PutDone,
  DoneArrived
};
const char* to_string(MsgState s);
const char* to_string(MsgEvent e);

// The state after event `e` in state `s`; ProtocolError ("mpich_gni message") for an impossible pair.
MsgState step(MsgState s, MsgEvent e);

// One message: its envelope, both requests, the buffers the rendezvous needs.
struct GniMsg {
  MsgState state = MsgState::Idle;
  bool eager = true;  // data with the message (SHM eager, SMSG eager, E1), else an RTS (LMT, rendezvous)
  int src = 0, dst = 0, tag = 0;
  std::uint32_t ctx = 0, seq = 0;
  std::uint64_t bytes = 0, sid = 0, rid = 0;  // rid once matched
  Buffer sbuf, rbuf;                           // rbuf once matched
};

}  // namespace ompisim::native
