// MPICH-QsNetII's Tport messages: one record per message from MPI_Isend to the completion of both requests, with an
// explicit state and a transition table (plain data, pure transitions, no clock, no engine). MpichQsnet keeps the
// records in a Slab; each step is a member `on_<event>(id)` that moves the record with step() and starts the next NIC
// or CPU activity, whose continuation carries only the record's index (or, once the record is gone, the MPI request's
// id).
//
// Message sequence (mpich_qsnet.hpp describes the protocol). The sender's CPU posts the send (POSTING) and the 32-byte
// envelope goes out with its data inline (SEND_INLINE, up to mpich_qsnet_eager_limit; the target NIC's
// acknowledgement completes the send) or alone (SEND_RNDV): IN_FLIGHT. At the receiver's NIC the thread processor
// walks the posted receives (NIC_MATCHING), then hands it to Tport's lists (QUEUED: matched at once, unexpected in a
// host buffer, or held until the messages before it have come). Matched: inline data is in the user buffer or copied
// out of the host buffer (COPYING_OUT) and the receive completes (COMPLETE); a rendezvous is served by the receiver's
// thread processor (NIC_SERVING), which pulls the data with RDMA reads (PULLING), completes the receive and tells the
// sender's NIC (DONE_SENT); its arrival completes the send (COMPLETE). Any other (state, event) pair throws
// ProtocolError naming both.
#pragma once
#include "protocols/base/transition_table.hpp"

#include <cstdint>

namespace ompisim::native {

enum class QsnetState : std::uint8_t {
  Idle, Posting, InFlight, NicMatching, Queued, CopyingOut, NicServing, Pulling, DoneSent, Complete
};
enum class QsnetEvent : std::uint8_t {
  Post, SendInline, SendRndv, Arrived, ThreadDone, MatchedInline, MatchedRndv, Copied, ReadDone, DoneArrived
};
const char* to_string(QsnetState s);
const char* to_string(QsnetEvent e);

// The state after event `e` in state `s`; ProtocolError ("mpich_qsnet message") for an impossible pair.
QsnetState step(QsnetState s, QsnetEvent e);

// One message: its envelope and both requests.
struct QsnetMsg {
  QsnetState state = QsnetState::Idle;
  bool big = false;  // a rendezvous (above mpich_qsnet_eager_limit), else data inline with the envelope
  int src = 0, dst = 0, tag = 0;
  std::uint32_t ctx = 0, seq = 0;
  std::uint64_t bytes = 0, sid = 0, rid = 0;  // rid once matched
};

}  // namespace ompisim::native
