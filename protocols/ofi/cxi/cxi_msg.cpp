#include "protocols/ofi/cxi/cxi_msg.hpp"

namespace ompisim::ofi::cxi {

const char* to_string(TxState s) {
  switch (s) {
    case TxState::Idle: return "IDLE";
    case TxState::Issuing: return "ISSUING";
    case TxState::Sent: return "SENT";
    case TxState::AwaitRecovery: return "AWAIT_RECOVERY";
    case TxState::AckReturning: return "ACK_RETURNING";
    case TxState::CqReading: return "CQ_READING";
    case TxState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(TxEvent e) {
  switch (e) {
    case TxEvent::Issue: return "ISSUE";
    case TxEvent::Launch: return "LAUNCH";
    case TxEvent::Drop: return "DROP";
    case TxEvent::Resend: return "RESEND";
    case TxEvent::TargetAck: return "TARGET_ACK";
    case TxEvent::TargetAckNoCq: return "TARGET_ACK_NO_CQ";
    case TxEvent::AckArrived: return "ACK_ARRIVED";
    case TxEvent::CqRead: return "CQ_READ";
  }
  return "?";
}

const char* to_string(RxState s) {
  switch (s) {
    case RxState::Idle: return "IDLE";
    case RxState::Held: return "HELD";
    case RxState::Arrived: return "ARRIVED";
    case RxState::HostMatching: return "HOST_MATCHING";
    case RxState::Unexpected: return "UNEXPECTED";
    case RxState::Landing: return "LANDING";
    case RxState::CopyingOut: return "COPYING_OUT";
    case RxState::CopyLanding: return "COPY_LANDING";
    case RxState::PullIssuing: return "PULL_ISSUING";
    case RxState::Pulling: return "PULLING";
    case RxState::CqReading: return "CQ_READING";
    case RxState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(RxEvent e) {
  switch (e) {
    case RxEvent::Hold: return "HOLD";
    case RxEvent::Arrive: return "ARRIVE";
    case RxEvent::Drop: return "DROP";
    case RxEvent::NicMatchedEager: return "NIC_MATCHED_EAGER";
    case RxEvent::NicMatchedRdzv: return "NIC_MATCHED_RDZV";
    case RxEvent::Queued: return "QUEUED";
    case RxEvent::HostMatch: return "HOST_MATCH";
    case RxEvent::Matched: return "MATCHED";
    case RxEvent::Discard: return "DISCARD";
    case RxEvent::Copied: return "COPIED";
    case RxEvent::CopiedEagerPart: return "COPIED_EAGER_PART";
    case RxEvent::Landed: return "LANDED";
    case RxEvent::PullIssued: return "PULL_ISSUED";
    case RxEvent::Pulled: return "PULLED";
    case RxEvent::CqRead: return "CQ_READ";
  }
  return "?";
}

namespace {
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

TxState step(TxState s, TxEvent e) { return base::step(kTxTable, "cxi send", s, e); }
RxState step(RxState s, RxEvent e) { return base::step(kRxTable, "cxi receive", s, e); }

}  // namespace ompisim::ofi::cxi
