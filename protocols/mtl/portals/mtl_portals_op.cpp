#include "protocols/mtl/portals/mtl_portals_op.hpp"

namespace ompisim::mtl::portals {

namespace {
constexpr std::array<const char*, 15> kOpStateNames{
    "IDLE", "AWAIT_COPY_BLOCK", "COPY_POSTING", "POSTING", "PUT_SENT", "LONG_PUT_SENT", "RECV_POSTING", "POSTED",
    "AWAIT_EVENT", "COPYING_OUT", "GET_POSTING", "AWAIT_REPLY", "HEADER_POLLING", "POLLING", "COMPLETE"};
constexpr std::array<const char*, 22> kOpEventNames{
    "WAIT_COPY_BLOCK", "START_COPY", "START_PUT", "COPY_PUT", "SHORT_PUT", "LONG_PUT", "POST_RECV", "ATTACHED",
    "MATCHED_UNSEEN", "MATCHED_SHORT", "MATCHED_LONG", "COPIED", "GET_ISSUED", "SEND_END", "ACK", "GET_END", "PUT_END",
    "HEADER_PUT_END", "REPLY_END", "UNLINK", "OTHER_EVENT", "POLLED"};

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

const char* to_string(OpState s) { return name_of<OpState::Complete>(s, kOpStateNames); }
const char* to_string(OpEvent e) { return name_of<OpEvent::Polled>(e, kOpEventNames); }

OpState step(OpState s, OpEvent e) { return base::step<kTable>("mtl/portals op", s, e); }

}  // namespace ompisim::mtl::portals
