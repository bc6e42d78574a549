#include "protocols/native/mpich_gni_msg.hpp"

namespace ompisim::native {

const char* to_string(MsgState s) {
  switch (s) {
    case MsgState::Idle: return "IDLE";
    case MsgState::Posting: return "POSTING";
    case MsgState::ShmCopying: return "SHM_COPYING";
    case MsgState::AwaitDmaBuffer: return "AWAIT_DMA_BUFFER";
    case MsgState::E1Copying: return "E1_COPYING";
    case MsgState::E1DescSent: return "E1_DESC_SENT";
    case MsgState::E1Pulling: return "E1_PULLING";
    case MsgState::Registering: return "REGISTERING";
    case MsgState::InFlight: return "IN_FLIGHT";
    case MsgState::Polling: return "POLLING";
    case MsgState::Queued: return "QUEUED";
    case MsgState::CopyingOut: return "COPYING_OUT";
    case MsgState::LmtAttaching: return "LMT_ATTACHING";
    case MsgState::LmtCopying: return "LMT_COPYING";
    case MsgState::LmtDoneSent: return "LMT_DONE_SENT";
    case MsgState::RndvCharging: return "RNDV_CHARGING";
    case MsgState::RecvRegistering: return "RECV_REGISTERING";
    case MsgState::Pulling: return "PULLING";
    case MsgState::GetDoneSent: return "GET_DONE_SENT";
    case MsgState::CtsSent: return "CTS_SENT";
    case MsgState::Putting: return "PUTTING";
    case MsgState::PutDoneSent: return "PUT_DONE_SENT";
    case MsgState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(MsgEvent e) {
  switch (e) {
    case MsgEvent::Post: return "POST";
    case MsgEvent::StartShmEager: return "START_SHM_EAGER";
    case MsgEvent::StartLmt: return "START_LMT";
    case MsgEvent::StartSmsg: return "START_SMSG";
    case MsgEvent::StartE1: return "START_E1";
    case MsgEvent::StartRndv: return "START_RNDV";
    case MsgEvent::CpuDone: return "CPU_DONE";
    case MsgEvent::BufferReady: return "BUFFER_READY";
    case MsgEvent::Copied: return "COPIED";
    case MsgEvent::DescArrived: return "DESC_ARRIVED";
    case MsgEvent::GetDone: return "GET_DONE";
    case MsgEvent::Registered: return "REGISTERED";
    case MsgEvent::Arrived: return "ARRIVED";
    case MsgEvent::MatchedEager: return "MATCHED_EAGER";
    case MsgEvent::MatchedLmt: return "MATCHED_LMT";
    case MsgEvent::MatchedRndv: return "MATCHED_RNDV";
    case MsgEvent::StartGet: return "START_GET";
    case MsgEvent::StartPutFallback: return "START_PUT_FALLBACK";
    case MsgEvent::CtsArrived: return "CTS_ARRIVED";
    case MsgEvent::PutDone: return "PUT_DONE";
    case MsgEvent::DoneArrived: return "DONE_ARRIVED";
  }
  return "?";
}

namespace {
using S = MsgState;
using E = MsgEvent;
constexpr std::array<base::Transition<MsgState, MsgEvent>, 29> kTable{{
    {S::Idle, E::Post, S::Posting},
    // the sender's paths
    {S::Posting, E::StartShmEager, S::ShmCopying},
    {S::ShmCopying, E::Copied, S::InFlight},
    {S::Posting, E::StartLmt, S::InFlight},
    {S::Posting, E::StartSmsg, S::InFlight},
    {S::Posting, E::StartE1, S::AwaitDmaBuffer},
    {S::AwaitDmaBuffer, E::BufferReady, S::E1Copying},
    {S::E1Copying, E::Copied, S::E1DescSent},
    {S::E1DescSent, E::DescArrived, S::E1Pulling},
    {S::E1Pulling, E::GetDone, S::InFlight},
    {S::Posting, E::StartRndv, S::Registering},
    {S::Registering, E::Registered, S::InFlight},
    // arrival and matching
    {S::InFlight, E::Arrived, S::Polling},
    {S::Polling, E::CpuDone, S::Queued},
    {S::Queued, E::MatchedEager, S::CopyingOut},
    {S::CopyingOut, E::Copied, S::Complete},
    // on the node, the large-message transfer
    {S::Queued, E::MatchedLmt, S::LmtAttaching},
    {S::LmtAttaching, E::CpuDone, S::LmtCopying},
    {S::LmtCopying, E::Copied, S::LmtDoneSent},
    {S::LmtDoneSent, E::DoneArrived, S::Complete},
    // between nodes, the rendezvous and its PUT fallback
    {S::Queued, E::MatchedRndv, S::RndvCharging},
    {S::RndvCharging, E::CpuDone, S::RecvRegistering},
    {S::RecvRegistering, E::StartGet, S::Pulling},
    {S::Pulling, E::GetDone, S::GetDoneSent},
    {S::GetDoneSent, E::DoneArrived, S::Complete},
    {S::RecvRegistering, E::StartPutFallback, S::CtsSent},
    {S::CtsSent, E::CtsArrived, S::Putting},
    {S::Putting, E::PutDone, S::PutDoneSent},
    {S::PutDoneSent, E::DoneArrived, S::Complete},
}};
}  // namespace

MsgState step(MsgState s, MsgEvent e) { return base::step(kTable, "mpich_gni message", s, e); }

}  // namespace ompisim::native
