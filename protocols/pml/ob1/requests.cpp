#include "protocols/pml/ob1/requests.hpp"
#include "protocols/base/transition_table.hpp"

#include <algorithm>

namespace ompisim::pml::ob1 {

namespace {
constexpr std::array<const char*, 6> kSendStateNames{
    "IDLE", "MATCH_SENT", "RNDV_SENT", "RGET_SENT", "PIPELINING", "COMPLETE"};
constexpr std::array<const char*, 4> kRecvStateNames{"POSTED", "PULLING", "AWAIT_FRAGS", "COMPLETE"};
constexpr std::array<const char*, 7> kSendEventNames{
    "BTL_DONE", "ACK", "FIN", "FRAGS_DONE", "PACKED", "PUT_DONE", "PUT_ACK"};
constexpr std::array<const char*, 6> kRecvEventNames{
    "MATCHED_EAGER", "MATCHED_RGET", "MATCHED_RNDV", "GET_DONE", "FRAG_ARRIVED", "PUT_FIN"};
}  // namespace

const char* to_string(SendState s) { return name_of<SendState::Complete>(s, kSendStateNames); }
const char* to_string(RecvState s) { return name_of<RecvState::Complete>(s, kRecvStateNames); }
const char* to_string(SendEvent e) { return name_of<SendEvent::PutAck>(e, kSendEventNames); }
const char* to_string(RecvEvent e) { return name_of<RecvEvent::PutFin>(e, kRecvEventNames); }

Hdr start(SendRequest& r, const btl::BtlCaps& caps, bool rdma) {
  if (r.state != SendState::Idle) throw ProtocolError("ob1 send request", to_string(r.state), "start");
  if (r.bytes + hdr_len(Hdr::Match) <= caps.eager_limit) {
    r.state = SendState::MatchSent;
    return Hdr::Match;
  }
  if (rdma && caps.has(btl::flag::Get) && r.buf.contiguous) {
    r.state = SendState::RgetSent;
    return Hdr::Rget;
  }
  r.state = SendState::RndvSent;
  return Hdr::Rndv;
}

std::uint64_t first_payload(const SendRequest& r, Hdr h, const btl::BtlCaps& caps) {
  switch (h) {
    case Hdr::Match: return r.bytes;
    case Hdr::Rndv: {
      const std::uint64_t hdr = hdr_len(Hdr::Rndv);
      return std::min(r.bytes, caps.rndv_eager_limit > hdr ? caps.rndv_eager_limit - hdr : 0);
    }
    default: return 0;
  }
}

void on_event(SendRequest& r, SendEvent e, std::uint64_t bytes) {
  auto bad = [&] { throw ProtocolError("ob1 send request", to_string(r.state), to_string(e)); };
  if (e == SendEvent::PutDone) {  // RDMA PUT of a receiver's segment written, FIN sent (before or after the ACK)
    if (r.state != SendState::RndvSent && r.state != SendState::Pipelining) bad();
    if (r.put_done + bytes > r.bytes) bad();
    r.put_done += bytes;
    return;
  }
  if (e == SendEvent::PutAck) {  // a PUT flagged ACK (Open MPI 1.1's registered path: no ACK sent)
    if (r.state == SendState::Pipelining) return;  // req_got_put_ack already set by an earlier flagged PUT
    if (r.state != SendState::RndvSent || r.first != 0) bad();
    r.state = SendState::Pipelining;
    r.rdma_offset = r.first;  // every byte by RDMA PUT, none by copy
    r.frags_done = true;
    return;
  }
  switch (r.state) {
    case SendState::MatchSent:
      if (e == SendEvent::Packed) {  // early completion: MPI complete, the descriptor still with the BTL
        if (r.mpi_complete) bad();
        r.mpi_complete = true;
        return;
      }
      if (e != SendEvent::BtlDone) bad();
      r.state = SendState::Complete;  // descriptor freed; PML complete (and MPI complete if it was not yet)
      r.mpi_complete = true;
      return;
    case SendState::RgetSent:
      if (e == SendEvent::Fin) r.state = SendState::Complete, r.mpi_complete = true;
      else if (e == SendEvent::Ack) r.state = SendState::Pipelining;  // receiver fell back to RNDV
      else bad();
      return;
    case SendState::RndvSent:
      if (e != SendEvent::Ack) bad();
      r.state = SendState::Pipelining;
      return;
    case SendState::Pipelining:
      if (e != SendEvent::FragsDone || !rest_done(r)) bad();
      r.state = SendState::Complete;
      r.mpi_complete = true;
      return;
    default: bad();
  }
}

bool rest_done(const SendRequest& r) {
  return r.state == SendState::Pipelining && r.frags_done && r.rdma_offset + r.put_done >= r.bytes;
}

bool early_completion(const SendRequest& r, Hdr h, const btl::BtlCaps& caps, bool use_early) {
  return use_early && h == Hdr::Match && (r.bytes == 0 || !caps.has(btl::flag::SendInplace));
}

void on_event(RecvRequest& r, RecvEvent e, std::uint64_t bytes) {
  auto bad = [&] { throw ProtocolError("ob1 recv request", to_string(r.state), to_string(e)); };
  switch (r.state) {
    case RecvState::Posted:
      if (e == RecvEvent::MatchedEager) r.state = RecvState::Complete, r.received = bytes;
      else if (e == RecvEvent::MatchedRget) r.state = RecvState::Pulling;
      else if (e == RecvEvent::MatchedRndv) {
        r.received = bytes;
        r.state = r.received >= r.msg_bytes ? RecvState::Complete : RecvState::AwaitFrags;
      } else bad();
      return;
    case RecvState::Pulling:
      if (e != RecvEvent::GetDone) bad();
      r.received = r.msg_bytes;
      r.state = RecvState::Complete;
      return;
    case RecvState::AwaitFrags:
      if (e != RecvEvent::FragArrived && e != RecvEvent::PutFin) bad();
      r.received += bytes;
      if (r.received >= r.msg_bytes) r.state = RecvState::Complete;
      return;
    default: bad();
  }
}

bool v11_rdma_usable(bool btl_has_mpool, bool buf_registered, bool leave_pinned) {
  return !btl_has_mpool || buf_registered || leave_pinned;
}

RndvAck v11_rndv_ack(const RndvAckIn& in) {
  RndvAck a;
  a.rdma_offset = in.msg_bytes;  // "by default copy"
  if (in.msg_bytes <= in.received || !in.contig) return a;
  if (in.pin && in.rdma_cnt != 0) {  // "start rdma at current fragment offset - no need to ack"
    a.send_ack = false;
    a.rdma_offset = in.received;
    a.registered = true;
    return a;
  }
  if (in.btl_rdma_offset < in.msg_bytes && in.rdma_btls != 0) {  // !leave_pinned_pipeline: "long rdma protocol"
    a.rdma_offset = std::max(in.btl_rdma_offset, in.received);
    a.registered = in.rdma_cnt != 0;  // mca_pml_ob1_recv_request_schedule tests req_rdma_cnt, set above
  }
  return a;
}

}  // namespace ompisim::pml::ob1
