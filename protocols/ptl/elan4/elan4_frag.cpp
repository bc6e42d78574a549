#include "protocols/ptl/elan4/elan4_frag.hpp"

namespace ompisim::ptl::elan4 {

namespace {
constexpr std::array<const char*, 9> kSendStateNames{
    "IDLE", "AWAIT_QDESC", "COPYING", "ISSUING", "EAGER_SENT", "EAGER_SENT_CQ", "AWAIT_CQ_ENTRY", "AWAIT_ANSWER",
    "COMPLETE"};
constexpr std::array<const char*, 10> kSendEventNames{
    "START", "QDESC_READY", "COPIED", "ISSUED_EAGER", "ISSUED_EAGER_CQ", "ISSUED_RENDEZVOUS", "QDMA_DONE", "CQ_ENTRY",
    "FIN_ACK_ARRIVED", "ACK_ARRIVED"};
constexpr std::array<const char*, 6> kRecvStateNames{
    "IDLE", "IN_FLIGHT", "AWAIT_MATCH", "ISSUING_ACK", "AWAIT_FIN", "COMPLETE"};
constexpr std::array<const char*, 7> kRecvEventNames{
    "ISSUED", "ARRIVED_EAGER", "ARRIVED_RENDEZVOUS", "MATCHED_READ", "MATCHED_WRITE", "ACK_ISSUED", "FIN_ARRIVED"};
constexpr std::array<const char*, 6> kRdmaStateNames{
    "IDLE", "AWAIT_PUTGET", "ISSUING", "IN_FLIGHT", "ISSUING_CONTROL", "COMPLETE"};
constexpr std::array<const char*, 6> kRdmaEventNames{
    "START", "PUTGET_READY", "ISSUED", "DONE_CHAINED", "DONE_UNCHAINED", "CONTROL_ISSUED"};

using S = SendState;
using SE = SendEvent;
constexpr std::array<base::Transition<SendState, SendEvent>, 11> kSendTable{{
    {S::Idle, SE::Start, S::AwaitQdesc},
    {S::AwaitQdesc, SE::QdescReady, S::Copying},
    {S::Copying, SE::Copied, S::Issuing},
    {S::Issuing, SE::IssuedEager, S::EagerSent},
    {S::EagerSent, SE::QdmaDone, S::Complete},
    {S::Issuing, SE::IssuedEagerCq, S::EagerSentCq},
    {S::EagerSentCq, SE::QdmaDone, S::AwaitCqEntry},
    {S::AwaitCqEntry, SE::CqEntry, S::Complete},
    {S::Issuing, SE::IssuedRendezvous, S::AwaitAnswer},
    {S::AwaitAnswer, SE::FinAckArrived, S::Complete},
    {S::AwaitAnswer, SE::AckArrived, S::Complete},
}};
using R = RecvState;
using RE = RecvEvent;
constexpr std::array<base::Transition<RecvState, RecvEvent>, 7> kRecvTable{{
    {R::Idle, RE::Issued, R::InFlight},
    {R::InFlight, RE::ArrivedEager, R::Complete},
    {R::InFlight, RE::ArrivedRendezvous, R::AwaitMatch},
    {R::AwaitMatch, RE::MatchedRead, R::Complete},
    {R::AwaitMatch, RE::MatchedWrite, R::IssuingAck},
    {R::IssuingAck, RE::AckIssued, R::AwaitFin},
    {R::AwaitFin, RE::FinArrived, R::Complete},
}};
using D = RdmaState;
using DE = RdmaEvent;
constexpr std::array<base::Transition<RdmaState, RdmaEvent>, 6> kRdmaTable{{
    {D::Idle, DE::Start, D::AwaitPutget},
    {D::AwaitPutget, DE::PutgetReady, D::Issuing},
    {D::Issuing, DE::Issued, D::InFlight},
    {D::InFlight, DE::DoneChained, D::Complete},
    {D::InFlight, DE::DoneUnchained, D::IssuingControl},
    {D::IssuingControl, DE::ControlIssued, D::Complete},
}};
}  // namespace

const char* to_string(SendState v) { return name_of<SendState::Complete>(v, kSendStateNames); }
const char* to_string(SendEvent v) { return name_of<SendEvent::AckArrived>(v, kSendEventNames); }
const char* to_string(RecvState v) { return name_of<RecvState::Complete>(v, kRecvStateNames); }
const char* to_string(RecvEvent v) { return name_of<RecvEvent::FinArrived>(v, kRecvEventNames); }
const char* to_string(RdmaState v) { return name_of<RdmaState::Complete>(v, kRdmaStateNames); }
const char* to_string(RdmaEvent v) { return name_of<RdmaEvent::ControlIssued>(v, kRdmaEventNames); }

SendState step(SendState s, SendEvent e) { return base::step<kSendTable>("ptl/elan4 send frag", s, e); }
RecvState step(RecvState s, RecvEvent e) { return base::step<kRecvTable>("ptl/elan4 recv frag", s, e); }
RdmaState step(RdmaState s, RdmaEvent e) { return base::step<kRdmaTable>("ptl/elan4 rdma", s, e); }

}  // namespace ompisim::ptl::elan4
