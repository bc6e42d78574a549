#include "protocols/native/qsnet/mpich_qsnet_msg.hpp"

namespace ompisim::native {

const char* to_string(QsnetState s) {
  switch (s) {
    case QsnetState::Idle: return "IDLE";
    case QsnetState::Posting: return "POSTING";
    case QsnetState::InFlight: return "IN_FLIGHT";
    case QsnetState::NicMatching: return "NIC_MATCHING";
    case QsnetState::Queued: return "QUEUED";
    case QsnetState::CopyingOut: return "COPYING_OUT";
    case QsnetState::NicServing: return "NIC_SERVING";
    case QsnetState::Pulling: return "PULLING";
    case QsnetState::DoneSent: return "DONE_SENT";
    case QsnetState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(QsnetEvent e) {
  switch (e) {
    case QsnetEvent::Post: return "POST";
    case QsnetEvent::SendInline: return "SEND_INLINE";
    case QsnetEvent::SendRndv: return "SEND_RNDV";
    case QsnetEvent::Arrived: return "ARRIVED";
    case QsnetEvent::ThreadDone: return "THREAD_DONE";
    case QsnetEvent::MatchedInline: return "MATCHED_INLINE";
    case QsnetEvent::MatchedRndv: return "MATCHED_RNDV";
    case QsnetEvent::Copied: return "COPIED";
    case QsnetEvent::ReadDone: return "READ_DONE";
    case QsnetEvent::DoneArrived: return "DONE_ARRIVED";
  }
  return "?";
}

namespace {
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

QsnetState step(QsnetState s, QsnetEvent e) { return base::step(kTable, "mpich_qsnet message", s, e); }

}  // namespace ompisim::native
