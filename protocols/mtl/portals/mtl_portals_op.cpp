#include "protocols/mtl/portals/mtl_portals_op.hpp"

namespace ompisim::mtl::portals {

const char* to_string(OpState s) {
  switch (s) {
    case OpState::Idle: return "IDLE";
    case OpState::AwaitCopyBlock: return "AWAIT_COPY_BLOCK";
    case OpState::CopyPosting: return "COPY_POSTING";
    case OpState::Posting: return "POSTING";
    case OpState::PutSent: return "PUT_SENT";
    case OpState::LongPutSent: return "LONG_PUT_SENT";
    case OpState::RecvPosting: return "RECV_POSTING";
    case OpState::Posted: return "POSTED";
    case OpState::AwaitEvent: return "AWAIT_EVENT";
    case OpState::CopyingOut: return "COPYING_OUT";
    case OpState::GetPosting: return "GET_POSTING";
    case OpState::AwaitReply: return "AWAIT_REPLY";
    case OpState::HeaderPolling: return "HEADER_POLLING";
    case OpState::Polling: return "POLLING";
    case OpState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(OpEvent e) {
  switch (e) {
    case OpEvent::WaitCopyBlock: return "WAIT_COPY_BLOCK";
    case OpEvent::StartCopy: return "START_COPY";
    case OpEvent::StartPut: return "START_PUT";
    case OpEvent::CopyPut: return "COPY_PUT";
    case OpEvent::ShortPut: return "SHORT_PUT";
    case OpEvent::LongPut: return "LONG_PUT";
    case OpEvent::PostRecv: return "POST_RECV";
    case OpEvent::Attached: return "ATTACHED";
    case OpEvent::MatchedUnseen: return "MATCHED_UNSEEN";
    case OpEvent::MatchedShort: return "MATCHED_SHORT";
    case OpEvent::MatchedLong: return "MATCHED_LONG";
    case OpEvent::Copied: return "COPIED";
    case OpEvent::GetIssued: return "GET_ISSUED";
    case OpEvent::SendEnd: return "SEND_END";
    case OpEvent::Ack: return "ACK";
    case OpEvent::GetEnd: return "GET_END";
    case OpEvent::PutEnd: return "PUT_END";
    case OpEvent::HeaderPutEnd: return "HEADER_PUT_END";
    case OpEvent::ReplyEnd: return "REPLY_END";
    case OpEvent::Unlink: return "UNLINK";
    case OpEvent::OtherEvent: return "OTHER_EVENT";
    case OpEvent::Polled: return "POLLED";
  }
  return "?";
}

namespace {
using S = OpState;
using E = OpEvent;
constexpr std::array<base::Transition<OpState, OpEvent>, 31> kTable{{
    // sends: copy blocks, then the puts from the user buffer
    {S::Idle, E::WaitCopyBlock, S::AwaitCopyBlock},
    {S::Idle, E::StartCopy, S::CopyPosting},
    {S::AwaitCopyBlock, E::StartCopy, S::CopyPosting},
    {S::CopyPosting, E::CopyPut, S::Complete},
    {S::Idle, E::StartPut, S::Posting},
    {S::AwaitCopyBlock, E::StartPut, S::Posting},
    {S::Posting, E::ShortPut, S::PutSent},
    {S::Posting, E::LongPut, S::LongPutSent},
    {S::PutSent, E::SendEnd, S::Polling},
    {S::LongPutSent, E::SendEnd, S::LongPutSent},
    {S::LongPutSent, E::Ack, S::Polling},
    {S::LongPutSent, E::GetEnd, S::Polling},
    // receives: the unexpected list, else the match list
    {S::Idle, E::MatchedUnseen, S::AwaitEvent},
    {S::Idle, E::MatchedShort, S::CopyingOut},
    {S::Idle, E::MatchedLong, S::GetPosting},
    {S::Idle, E::PostRecv, S::RecvPosting},
    {S::RecvPosting, E::MatchedUnseen, S::AwaitEvent},
    {S::RecvPosting, E::MatchedShort, S::CopyingOut},
    {S::RecvPosting, E::MatchedLong, S::GetPosting},
    {S::RecvPosting, E::Attached, S::Posted},
    {S::AwaitEvent, E::MatchedShort, S::CopyingOut},
    {S::AwaitEvent, E::MatchedLong, S::GetPosting},
    {S::CopyingOut, E::Copied, S::Complete},
    {S::GetPosting, E::GetIssued, S::AwaitReply},
    {S::AwaitReply, E::ReplyEnd, S::Polling},
    {S::Posted, E::PutEnd, S::Polling},
    // Cray MPI's rendezvous: the header matched a posted receive; the data is pulled once the event is read
    {S::Posted, E::HeaderPutEnd, S::HeaderPolling},
    {S::HeaderPolling, E::Unlink, S::HeaderPolling},
    {S::HeaderPolling, E::MatchedLong, S::GetPosting},
    // the completing event read from the event queue
    {S::Polling, E::Unlink, S::Polling},
    {S::Polling, E::Polled, S::Complete},
}};
}  // namespace

OpState step(OpState s, OpEvent e) { return base::step(kTable, "mtl/portals op", s, e); }

}  // namespace ompisim::mtl::portals
