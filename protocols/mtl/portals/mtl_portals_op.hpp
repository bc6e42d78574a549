// mtl/portals' operations (mca_mtl_portals_request_t): one record per send or receive from MPI_Isend / MPI_Irecv to
// its completion, with an explicit state and a transition table (plain data, pure transitions, no clock, no engine).
// MtlPortals keeps the records in its request table; each step is a member `on_<event>(id)` that moves the record
// with step() and starts the next Portals call or CPU activity, whose continuation carries only the record's id.
//
// Sends. A short send copied into a send copy block (or a zero-byte send) may wait for a free block, or behind a send
// that does (AWAIT_COPY_BLOCK); its one call (COPY_POSTING) puts from the block and completes it (COPY_PUT: COMPLETE).
// Any other send binds or attaches an MD over the user buffer (POSTING): a short one waits for SEND_END (PUT_SENT); a
// long one for the ACK of a put delivered into a posted receive or the GET_END of the receiver's pull (LONG_PUT_SENT;
// its SEND_END comes first and changes nothing). Receives. The MTL's unexpected list is searched first: a message
// matched there before its event reached the host is waited for (AWAIT_EVENT); a short one is copied out (COPYING_OUT)
// and complete; a long one is pulled: two calls (GET_POSTING), then the get (AWAIT_REPLY) until REPLY_END. Otherwise
// PtlMEMDPost, or three calls without it (RECV_POSTING; a refusal may find a new unexpected message, matched as above)
// put the receive on the match list (POSTED) until PUT_END; with Cray MPI's rendezvous a long message's PUT_END brings
// only its header (HEADER_POLLING), and the data is pulled as above. A completing event is read from the event queue
// (POLLING, where the MD's UNLINK changes nothing) before the request completes (POLLED: COMPLETE). Any other (state,
// event) pair throws ProtocolError naming both.
#pragma once
#include "protocols/base/transition_table.hpp"

#include <cstdint>

namespace ompisim::mtl::portals {

enum class OpState : std::uint8_t {
  Idle, AwaitCopyBlock, CopyPosting, Posting, PutSent, LongPutSent, RecvPosting, Posted, AwaitEvent, CopyingOut,
  GetPosting, AwaitReply, HeaderPolling, Polling, Complete
};
enum class OpEvent : std::uint8_t {
  WaitCopyBlock, StartCopy, StartPut, CopyPut, ShortPut, LongPut, PostRecv, Attached, MatchedUnseen, MatchedShort,
  MatchedLong, Copied, GetIssued, SendEnd, Ack, GetEnd, PutEnd, HeaderPutEnd, ReplyEnd, Unlink, OtherEvent, Polled
};
const char* to_string(OpState s);
const char* to_string(OpEvent e);

// The state after event `e` in state `s`; ProtocolError ("mtl/portals op") for an impossible pair.
OpState step(OpState s, OpEvent e);

}  // namespace ompisim::mtl::portals
