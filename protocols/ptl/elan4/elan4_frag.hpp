// ptl/elan4's records and their state machines (plain data and pure transitions: no clock, no engine). PtlElan4
// keeps each kind in a Slab; each protocol step is a member `on_<event>(id)` (with the handling context where a
// waiter noticed a queue entry) that moves the record with step() and starts the next NIC or CPU activity, whose
// continuation carries only the record's index. A queue entry's payload names its kind and its record (entry_payload).
//
// Send fragment (the first fragment at the sender, ↔ mca_ptl_elan_send_frag_t): it waits for one of the process's
// QDMA descriptors (AWAIT_QDESC; ptl_elan4_num_qdescs), copies the inline data into the 2 KB send buffer (COPYING),
// writes the QDMA descriptor (ISSUING) and issues the QDMA. An eager one is done when the QDMA completed (EAGER_SENT:
// the descriptor comes back); with ptl_elan4_cq_qdma its completion is reported into the completion queue
// (EAGER_SENT_CQ, AWAIT_CQ_ENTRY) and the send request completes when that entry is handled. A rendezvous keeps the
// descriptor until it is answered (AWAIT_ANSWER): a FIN_ACK (read scheme: the data was taken, the send completes) or
// an ACK (write scheme: the sender's RDMA write starts as an RDMA operation).
//
// Receive fragment (the first fragment at the receiver, ↔ mca_ptl_elan_recv_frag_t): in flight from the QDMA's issue
// (IN_FLIGHT) to its handling from the receive queue; an eager one is then matched and done, a rendezvous waits for
// the PML's ptl_matched (AWAIT_MATCH). Read scheme: done there (the receiver's RDMA read is an RDMA operation). Write
// scheme: the host writes the ACK (ISSUING_ACK), then waits for the FIN (AWAIT_FIN), which completes the receive.
//
// RDMA operation (the initiator's read or write of the rest, ↔ a put/get descriptor): it waits for one of the
// process's RDMA descriptors (AWAIT_PUTGET; ptl_elan4_num_putget), writes the RDMA command (ISSUING) and the NIC moves
// the data (IN_FLIGHT; a chained FIN / FIN_ACK leaves from the NIC when it completes). The initiator's host sees the
// completion (its host event, or its completion-queue entry): with the control message chained the request
// progresses and the operation is done; otherwise the host issues the control message first (ISSUING_CONTROL).
// Any other (state, event) pair throws ProtocolError naming both.
#pragma once
#include "protocols/base/transition_table.hpp"
#include "protocols/ptl/ptl.hpp"

#include <cstdint>

namespace ompisim::ptl::elan4 {

// The send fragment's machine: ProtocolError ("ptl/elan4 send frag") for an impossible (state, event) pair.
enum class SendState : std::uint8_t {
  Idle, AwaitQdesc, Copying, Issuing, EagerSent, EagerSentCq, AwaitCqEntry, AwaitAnswer, Complete
};
enum class SendEvent : std::uint8_t {
  Start, QdescReady, Copied, IssuedEager, IssuedEagerCq, IssuedRendezvous, QdmaDone, CqEntry, FinAckArrived,
  AckArrived
};
const char* to_string(SendState s);
const char* to_string(SendEvent e);
SendState step(SendState s, SendEvent e);  // the state after event `e` in state `s`

// The receive fragment's machine: ProtocolError ("ptl/elan4 recv frag") for an impossible pair.
enum class RecvState : std::uint8_t { Idle, InFlight, AwaitMatch, IssuingAck, AwaitFin, Complete };
enum class RecvEvent : std::uint8_t {
  Issued, ArrivedEager, ArrivedRendezvous, MatchedRead, MatchedWrite, AckIssued, FinArrived
};
const char* to_string(RecvState s);
const char* to_string(RecvEvent e);
RecvState step(RecvState s, RecvEvent e);

// The RDMA operation's machine: ProtocolError ("ptl/elan4 rdma") for an impossible pair.
enum class RdmaState : std::uint8_t { Idle, AwaitPutget, Issuing, InFlight, IssuingControl, Complete };
enum class RdmaEvent : std::uint8_t { Start, PutgetReady, Issued, DoneChained, DoneUnchained, ControlIssued };
const char* to_string(RdmaState s);
const char* to_string(RdmaEvent e);
RdmaState step(RdmaState s, RdmaEvent e);

// What a queue entry is (its payload's low bits) and so which record its payload names.
enum class Entry : std::uint8_t {
  First,       // a first fragment at the receiver: a RecvFrag
  Ack,         // at the sender (write scheme): the SendFrag answered
  FinAck,      // at the sender (read scheme): the SendFrag answered
  Fin,         // at the receiver (write scheme): the RecvFrag awaiting it
  RdmaDone,    // the initiator's completion entry of an RdmaOp
  SendDone,    // an eager SendFrag's QDMA completed (ptl_elan4_cq_qdma)
  DescReport,  // a QDMA descriptor's completion that no record waits for (rendezvous fragment, host-sent control)
};
constexpr std::uint64_t entry_payload(Entry k, std::uint32_t id) {
  return (static_cast<std::uint64_t>(id) << 3) | static_cast<std::uint64_t>(k);
}
constexpr Entry entry_kind(std::uint64_t payload) { return static_cast<Entry>(payload & 7u); }
constexpr std::uint32_t entry_record(std::uint64_t payload) { return static_cast<std::uint32_t>(payload >> 3); }

struct SendFrag {
  SendState state = SendState::Idle;
  int ctx = 0;  // the context that called ptl_send
  MatchHeader h;
  std::uint32_t recv_frag = 0;  // its RecvFrag, once issued (the write scheme's FIN completes it)
};

struct RecvFrag {
  RecvState state = RecvState::Idle;
  MatchHeader h;
  std::uint64_t recv_req = 0;   // once matched
  std::uint32_t send_frag = 0;  // the sender's SendFrag (its ACK or FIN_ACK answers it)
};

struct RdmaOp {
  RdmaState state = RdmaState::Idle;
  bool read = true;       // read: the receiver initiates; write: the sender does
  int ctx = 0, rank = 0;  // the initiator's context that started it, and its rank
  MatchHeader h;
  std::uint64_t req = 0;        // the initiator's request to progress (read: receive; write: send)
  std::uint32_t peer_frag = 0;  // the record its FIN_ACK / FIN answers (read: the SendFrag; write: the RecvFrag)
};

}  // namespace ompisim::ptl::elan4
