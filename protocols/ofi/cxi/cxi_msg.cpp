#include "protocols/ofi/cxi/cxi_msg.hpp"

namespace ompisim::ofi::cxi {

namespace {
constexpr std::array<const char*, 7> kTxStateNames{
    "IDLE", "ISSUING", "SENT", "AWAIT_RECOVERY", "ACK_RETURNING", "CQ_READING", "COMPLETE"};
constexpr std::array<const char*, 8> kTxEventNames{
    "ISSUE", "LAUNCH", "DROP", "RESEND", "TARGET_ACK", "TARGET_ACK_NO_CQ", "ACK_ARRIVED", "CQ_READ"};
constexpr std::array<const char*, 12> kRxStateNames{
    "IDLE", "HELD", "ARRIVED", "HOST_MATCHING", "UNEXPECTED", "LANDING", "COPYING_OUT", "COPY_LANDING", "PULL_ISSUING",
    "PULLING", "CQ_READING", "COMPLETE"};
constexpr std::array<const char*, 15> kRxEventNames{
    "HOLD", "ARRIVE", "DROP", "NIC_MATCHED_EAGER", "NIC_MATCHED_RDZV", "QUEUED", "HOST_MATCH", "MATCHED", "DISCARD",
    "COPIED", "COPIED_EAGER_PART", "LANDED", "PULL_ISSUED", "PULLED", "CQ_READ"};

using T = TxState;
using TE = TxEvent;
constexpr std::array<base::Transition<TxState, TxEvent>, 8> kTxTable{{
    {T::Idle, TE::Issue, T::Issuing},
    {T::Issuing, TE::Launch, T::Sent},
    // flow control: the target NIC dropped the header; the recovery has it issued again
    {T::Sent, TE::Drop, T::AwaitRecovery},
    {T::AwaitRecovery, TE::Resend, T::Issuing},
    // transmit complete: the target's ack, then the completion read by the host (none for fi_tinject)
    {T::Sent, TE::TargetAck, T::AckReturning},
    {T::Sent, TE::TargetAckNoCq, T::Complete},
    {T::AckReturning, TE::AckArrived, T::CqReading},
    {T::CqReading, TE::CqRead, T::Complete},
}};

using R = RxState;
using RE = RxEvent;
constexpr std::array<base::Transition<RxState, RxEvent>, 19> kRxTable{{
    // the header at the target, in the pair's order
    {R::Idle, RE::Hold, R::Held},
    {R::Idle, RE::Arrive, R::Arrived},
    {R::Held, RE::Arrive, R::Arrived},
    // hardware matching: dropped, matched in the NIC, or unexpected in the overflow buffers
    {R::Arrived, RE::Drop, R::Idle},
    {R::Arrived, RE::NicMatchedEager, R::Landing},
    {R::Arrived, RE::NicMatchedRdzv, R::Pulling},
    {R::Arrived, RE::Queued, R::Unexpected},
    // software matching: the host reads the event and asks the owner's queue
    {R::Arrived, RE::HostMatch, R::HostMatching},
    {R::HostMatching, RE::Matched, R::CopyingOut},
    {R::HostMatching, RE::Queued, R::Unexpected},
    {R::Unexpected, RE::Matched, R::CopyingOut},
    {R::Unexpected, RE::Discard, R::Complete},
    // the payload copied out of host memory; a rendezvous' rest pulled by a Get software issues
    {R::CopyingOut, RE::Copied, R::CopyLanding},
    {R::CopyingOut, RE::CopiedEagerPart, R::PullIssuing},
    {R::CopyLanding, RE::Landed, R::Complete},
    {R::Landing, RE::Landed, R::CqReading},
    {R::PullIssuing, RE::PullIssued, R::Pulling},
    {R::Pulling, RE::Pulled, R::CqReading},
    {R::CqReading, RE::CqRead, R::Complete},
}};
}  // namespace

const char* to_string(TxState s) { return name_of<TxState::Complete>(s, kTxStateNames); }
const char* to_string(TxEvent e) { return name_of<TxEvent::CqRead>(e, kTxEventNames); }
const char* to_string(RxState s) { return name_of<RxState::Complete>(s, kRxStateNames); }
const char* to_string(RxEvent e) { return name_of<RxEvent::CqRead>(e, kRxEventNames); }

TxState step(TxState s, TxEvent e) { return base::step<kTxTable>("cxi send", s, e); }
RxState step(RxState s, RxEvent e) { return base::step<kRxTable>("cxi receive", s, e); }

}  // namespace ompisim::ofi::cxi
