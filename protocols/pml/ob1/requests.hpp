// pml/ob1 send and receive requests: plain data and pure transitions (no clock, no engine).
//
// Send (mca_pml_ob1_send_request_start_btl): a message that fits the BTL's eager limit goes as one MATCH fragment
// with its data (start_copy/start_prepare) and completes when the BTL has taken the data. A larger contiguous message
// over a BTL with GET goes as an RGET header (start_rdma): the receiver pulls the data and answers FIN. Otherwise
// RNDV (start_rndv) carries the first rndv_eager_limit bytes; the receiver answers ACK and the sender streams FRAGs.
// An ACK after RGET is legal (the receiver fell back from RGET to RNDV). Any other (state, event) is a ProtocolError.
//
// Early completion (Open MPI v1.1, v1.2 and the trunk until e361bcb64c of 2008-05-30; MCA pml_ob1_use_early_completion,
// v1.2.6's name for it): mca_pml_ob1_send_request_start_copy packs the data into the BTL's fragment and marks the MPI
// request complete (MCA_PML_OB1_SEND_REQUEST_MPI_COMPLETE) before btl_send; the fragment's callback
// (mca_pml_ob1_match_completion_free) only frees the descriptor and completes the request at the PML level (it is then
// released). Event Packed: the first, in MATCH_SENT, with mpi_complete false; BtlDone then ends the request. Without
// early completion (v1.3 on, and start_prepare: a BTL that sends in place) BtlDone completes both at once.
//
// Receive: POSTED until matched; a MATCH completes it (after the copy out); an RGET moves it to PULLING until the GET
// is done (then FIN); an RNDV moves it to AWAIT_FRAGS (ACK sent) until every byte has arrived.
#pragma once
#include "core/errors.hpp"
#include "protocols/btl/btl.hpp"
#include "mpi/request.hpp"
#include "protocols/pml/ob1/hdr.hpp"

namespace ompisim::pml::ob1 {

enum class SendState : std::uint8_t { Idle, MatchSent, RndvSent, RgetSent, Pipelining, Complete };
enum class RecvState : std::uint8_t { Posted, Pulling, AwaitFrags, Complete };
enum class SendEvent : std::uint8_t { BtlDone, Ack, Fin, FragsDone, Packed };
enum class RecvEvent : std::uint8_t { MatchedEager, MatchedRget, MatchedRndv, GetDone, FragArrived };
const char* to_string(SendState s);
const char* to_string(RecvState s);
const char* to_string(SendEvent e);
const char* to_string(RecvEvent e);

// mca_pml_ob1_send_request_t: the MPI request (rank, peer, tag, communicator, size, buffer) and ob1's protocol state.
struct SendRequest : mpi::Request {
  SendState state = SendState::Idle;
  std::uint32_t seq = 0;
  std::uint64_t first = 0;  // bytes the first fragment carried (its BTL depends on the stripe policy)
  bool put = false;         // the rest goes by RDMA PUT fragments (no copy out at the receiver)
  bool mpi_complete = false;  // MPI_Wait/Test would return (req_ompi.req_complete); the request lives until Complete
};

// mca_pml_ob1_recv_request_t: peer and tag may be wildcards until matched; msg_bytes is the matched message's length.
struct RecvRequest : mpi::Request {
  RecvState state = RecvState::Posted;
  std::uint32_t convert_elem = 0;  // element size of typed data (0: MPI_BYTE / MPI_PACKED, never converted)
  std::uint64_t received = 0;
};

// Chooses the protocol and moves Idle -> MatchSent | RgetSent | RndvSent; returns the header to send. `caps`: the
// first eager BTL's; `rdma`: whether bml/r2 gave the peer an RDMA array (RGET needs one).
Hdr start(SendRequest& r, const btl::BtlCaps& caps, bool rdma = true);
// Bytes carried by the first fragment for the chosen header.
std::uint64_t first_payload(const SendRequest& r, Hdr h, const btl::BtlCaps& caps);
void on_event(SendRequest& r, SendEvent e);
// Whether the send completes early at the MPI level (`use_early`: pml_ob1_use_early_completion): only a MATCH sent by
// start_copy, i.e. a message that fits the eager limit, from a BTL without SEND_INPLACE or of zero bytes
// (mca_pml_ob1_send_request_start_btl: start_prepare otherwise, which completes in the callback).
bool early_completion(const SendRequest& r, Hdr h, const btl::BtlCaps& caps, bool use_early);
void on_event(RecvRequest& r, RecvEvent e, std::uint64_t bytes = 0);

}  // namespace ompisim::pml::ob1
