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
// RDMA PUT pipeline (Open MPI 1.1 to 1.8: receiver-scheduled): the receiver's ACK carries the offset where its RDMA
// starts (hdr_rdma_offset; the message's length when it takes everything by copy); the sender sends the bytes before
// it as FRAGs and FRAGS_DONE needs those FRAGs done and every byte after it PUT. The receiver sends one PUT control
// message per fragment with its registered segment; the sender writes the fragment there (btl_put) and answers FIN
// (mca_pml_ob1_send_request_put, mca_pml_ob1_put_completion). PUT_DONE (bytes) counts that on the sender; it is legal
// in RNDV_SENT too (a PUT on another BTL can overtake the ACK). The receiver counts PUT_FIN (bytes) in AWAIT_FRAGS.
// Registered path of Open MPI 1.1 (a RNDV flagged PIN by start_rdma, the receiver's buffer registered too): the
// receiver sends no ACK ("start rdma at current fragment offset - no need to ack", v1.1.1 mca_pml_ob1_recv_request_ack)
// and flags its PUTs ACK instead; PUT_ACK (the first flagged PUT to arrive: req_got_put_ack) moves RNDV_SENT to
// PIPELINING with nothing by copy (rdma offset = the RNDV's bytes, 0; no FRAG), and is ignored in PIPELINING (a later
// flagged PUT). The sender completes once every byte is PUT (mca_pml_ob1_put_completion: the last FIN sent with
// req_got_put_ack: ADVANCE_NO_SCHEDULE, then PML complete).
//
// Receive: POSTED until matched; a MATCH completes it (after the copy out); an RGET moves it to PULLING until the GET
// is done (then FIN); an RNDV moves it to AWAIT_FRAGS (ACK sent) until every byte has arrived (FRAGs copied out, or
// RDMA PUT fragments reported by their FINs).
#pragma once
#include "core/errors.hpp"
#include "protocols/btl/btl.hpp"
#include "mpi/request.hpp"
#include "protocols/pml/ob1/hdr.hpp"

namespace ompisim::pml::ob1 {

enum class SendState : std::uint8_t { Idle, MatchSent, RndvSent, RgetSent, Pipelining, Complete };
enum class RecvState : std::uint8_t { Posted, Pulling, AwaitFrags, Complete };
enum class SendEvent : std::uint8_t { BtlDone, Ack, Fin, FragsDone, Packed, PutDone, PutAck };
enum class RecvEvent : std::uint8_t { MatchedEager, MatchedRget, MatchedRndv, GetDone, FragArrived, PutFin };
const char* to_string(SendState s);
const char* to_string(RecvState s);
const char* to_string(SendEvent e);
const char* to_string(RecvEvent e);

// mca_pml_ob1_send_request_t: the MPI request (rank, peer, tag, communicator, size, buffer) and ob1's protocol state.
struct SendRequest : mpi::Request {
  SendState state = SendState::Idle;
  std::uint32_t seq = 0;
  std::uint64_t first = 0;  // bytes the first fragment carried (its BTL depends on the stripe policy)
  std::uint64_t rdma_offset = 0;  // the ACK's: bytes from here on come as the receiver's RDMA PUTs
  std::uint64_t put_done = 0;     // bytes written by RDMA PUT (FIN sent)
  bool frags_done = false;        // the FRAGs of [first, rdma_offset) are all done (or there were none)
  bool mpi_complete = false;  // MPI_Wait/Test would return (req_ompi.req_complete); the request lives until Complete
};

// mca_pml_ob1_recv_request_t: peer and tag may be wildcards until matched; msg_bytes is the matched message's length.
struct RecvRequest : mpi::Request {
  RecvState state = RecvState::Posted;
  std::uint32_t convert_elem = 0;  // element size of typed data (0: MPI_BYTE / MPI_PACKED, never converted)
  std::uint64_t received = 0;
  // Unpacks of already counted data still running (the RNDV's own data, unpacked after its ACK went out): the
  // request completes once it is Complete and none is left.
  int unpacking = 0;
};

// Chooses the protocol and moves Idle -> MatchSent | RgetSent | RndvSent; returns the header to send. `caps`: the
// first eager BTL's; `rdma`: whether bml/r2 gave the peer an RDMA array (RGET needs one).
Hdr start(SendRequest& r, const btl::BtlCaps& caps, bool rdma = true);
// Bytes carried by the first fragment for the chosen header.
std::uint64_t first_payload(const SendRequest& r, Hdr h, const btl::BtlCaps& caps);
void on_event(SendRequest& r, SendEvent e, std::uint64_t bytes = 0);
// PIPELINING with the FRAGs done and every byte from rdma_offset on PUT: FRAGS_DONE may follow.
bool rest_done(const SendRequest& r);
// Whether the send completes early at the MPI level (`use_early`: pml_ob1_use_early_completion): only a MATCH sent by
// start_copy, i.e. a message that fits the eager limit, from a BTL without SEND_INPLACE or of zero bytes
// (mca_pml_ob1_send_request_start_btl: start_prepare otherwise, which completes in the callback).
bool early_completion(const SendRequest& r, Hdr h, const btl::BtlCaps& caps, bool use_early);
void on_event(RecvRequest& r, RecvEvent e, std::uint64_t bytes = 0);

// Open MPI 1.1's registration-dependent protocol (v1.1.1; pml_ob1_frag_schedule remaining). Pure functions of what
// the code tests; the requests then go through the transitions above.
//
// mca_pml_ob1_rdma_btls (pml_ob1_rdma.c): a BTL of the peer's RDMA array counts for a buffer when it has no memory
// pool ("registration is not required"), when an existing registration covers the buffer (mpool_find: MPI_Alloc_mem
// registered it with every mpool), or when mpi_leave_pinned is set (it registers the buffer now and caches it).
bool v11_rdma_usable(bool btl_has_mpool, bool buf_registered, bool leave_pinned);

// The receiver's choice on a matched RNDV (mca_pml_ob1_recv_request_ack, v1.1.1 pml_ob1_recvreq.c 160-240; its
// mpi_leave_pinned_pipeline branch is not modelled: that parameter's default 0 skips it).
struct RndvAckIn {
  std::uint64_t msg_bytes = 0, received = 0;  // hdr_msg_length; the RNDV's own data
  bool contig = false;           // the RNDV is flagged CONTIG and the receive buffer needs no convertor buffers
  bool pin = false;              // the RNDV is flagged PIN (start_rdma: the sender's buffer registered)
  std::size_t rdma_cnt = 0;      // mca_pml_ob1_rdma_btls on the receive buffer (req_rdma_cnt)
  std::size_t rdma_btls = 0;     // BTLs in the peer's RDMA array (mca_bml_base_btl_array_get_size(btl_rdma))
  std::uint64_t btl_rdma_offset = 0;  // bml/r2's btl_rdma_offset: the largest btl_min_rdma_size of that array
};
struct RndvAck {
  bool send_ack = true;           // false: "memory is already registered on both sides ... no need to ack"
  std::uint64_t rdma_offset = 0;  // req_rdma_offset: bytes from here on come by RDMA PUT (msg_bytes: none)
  bool registered = false;        // the PUTs take the branch over the receive buffer's registrations (req_rdma_cnt
                                  // != 0): uncapped, the last BTL taking the rest
};
// Three outcomes when bytes remain after the RNDV's own: both sides registered (PIN and rdma_cnt != 0): no ACK, PUTs
// from the RNDV's end over the registered BTLs; otherwise, for contiguous data with an RDMA array whose
// btl_rdma_offset is below the length: ACK(rdma_offset = max(btl_rdma_offset, received)), the bytes before it as
// FRAGs, PUTs after it registered fragment by fragment; otherwise ACK(msg_bytes), everything by copy.
RndvAck v11_rndv_ack(const RndvAckIn& in);

}  // namespace ompisim::pml::ob1
