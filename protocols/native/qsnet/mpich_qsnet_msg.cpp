#include "protocols/native/qsnet/mpich_qsnet_msg.hpp"

namespace ompisim::native {

namespace {
constexpr std::array<const char*, 10> kQsnetStateNames{
    "IDLE", "POSTING", "IN_FLIGHT", "NIC_MATCHING", "QUEUED", "COPYING_OUT", "NIC_SERVING", "PULLING", "DONE_SENT",
    "COMPLETE"};
constexpr std::array<const char*, 10> kQsnetEventNames{
    "POST", "SEND_INLINE", "SEND_RNDV", "ARRIVED", "THREAD_DONE", "MATCHED_INLINE", "MATCHED_RNDV", "COPIED",
    "READ_DONE", "DONE_ARRIVED"};

using QS = QsnetState;
using QE = QsnetEvent;
constexpr std::array<base::Transition<QsnetState, QsnetEvent>, 11> kQsnetTable{{
    {QS::Idle, QE::Post, QS::Posting},
    {QS::Posting, QE::SendInline, QS::InFlight},
    {QS::Posting, QE::SendRndv, QS::InFlight},
    // at the receiver's NIC: the thread processor's walk of the posted receives, then Tport's lists
    {QS::InFlight, QE::Arrived, QS::NicMatching},
    {QS::NicMatching, QE::ThreadDone, QS::Queued},
    {QS::Queued, QE::MatchedInline, QS::CopyingOut},
    {QS::CopyingOut, QE::Copied, QS::Complete},
    // the rendezvous, served by the receiver's thread processor
    {QS::Queued, QE::MatchedRndv, QS::NicServing},
    {QS::NicServing, QE::ThreadDone, QS::Pulling},
    {QS::Pulling, QE::ReadDone, QS::DoneSent},
    {QS::DoneSent, QE::DoneArrived, QS::Complete},
}};
}  // namespace

const char* to_string(QsnetState s) { return name_of<QsnetState::Complete>(s, kQsnetStateNames); }
const char* to_string(QsnetEvent e) { return name_of<QsnetEvent::DoneArrived>(e, kQsnetEventNames); }

QsnetState step(QsnetState s, QsnetEvent e) { return base::step<kQsnetTable>("mpich_qsnet message", s, e); }

}  // namespace ompisim::native
