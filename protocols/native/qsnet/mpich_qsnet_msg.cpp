#include "protocols/native/qsnet/mpich_qsnet_msg.hpp"

namespace ompisim::native {

namespace {
constexpr std::array<const char*, 10> kQsnetStateNames{
    "IDLE", "POSTING", "IN_FLIGHT", "NIC_MATCHING", "QUEUED", "COPYING_OUT", "NIC_SERVING", "PULLING", "DONE_SENT",
    "COMPLETE"};
constexpr std::array<const char*, 10> kQsnetEventNames{
    "POST", "SEND_INLINE", "SEND_RNDV", "ARRIVED", "THREAD_DONE", "MATCHED_INLINE", "MATCHED_RNDV", "COPIED",
    "READ_DONE", "DONE_ARRIVED"};

using S = QsnetState;
using E = QsnetEvent;
constexpr std::array<base::Transition<QsnetState, QsnetEvent>, 11> kTable{{
    {S::Idle, E::Post, S::Posting},
    {S::Posting, E::SendInline, S::InFlight},
    {S::Posting, E::SendRndv, S::InFlight},
    // at the receiver's NIC: the thread processor's walk of the posted receives, then Tport's lists
    {S::InFlight, E::Arrived, S::NicMatching},
    {S::NicMatching, E::ThreadDone, S::Queued},
    {S::Queued, E::MatchedInline, S::CopyingOut},
    {S::CopyingOut, E::Copied, S::Complete},
    // the rendezvous, served by the receiver's thread processor
    {S::Queued, E::MatchedRndv, S::NicServing},
    {S::NicServing, E::ThreadDone, S::Pulling},
    {S::Pulling, E::ReadDone, S::DoneSent},
    {S::DoneSent, E::DoneArrived, S::Complete},
}};
}  // namespace

const char* to_string(QsnetState s) { return name_of<QsnetState::Complete>(s, kQsnetStateNames); }
const char* to_string(QsnetEvent e) { return name_of<QsnetEvent::DoneArrived>(e, kQsnetEventNames); }

QsnetState step(QsnetState s, QsnetEvent e) { return base::step<kTable>("mpich_qsnet message", s, e); }

}  // namespace ompisim::native
