#include "protocols/native/mpich_gni_msg.hpp"

namespace ompisim::native {

namespace {
constexpr std::array<const char*, 23> kMsgStateNames{
    "IDLE", "POSTING", "SHM_COPYING", "AWAIT_DMA_BUFFER", "E1_COPYING", "E1_DESC_SENT", "E1_PULLING", "REGISTERING",
    "IN_FLIGHT", "POLLING", "QUEUED", "COPYING_OUT", "LMT_ATTACHING", "LMT_COPYING", "LMT_DONE_SENT", "RNDV_CHARGING",
    "RECV_REGISTERING", "PULLING", "GET_DONE_SENT", "CTS_SENT", "PUTTING", "PUT_DONE_SENT", "COMPLETE"};
constexpr std::array<const char*, 21> kMsgEventNames{
    "POST", "START_SHM_EAGER", "START_LMT", "START_SMSG", "START_E1", "START_RNDV", "CPU_DONE", "BUFFER_READY",
    "COPIED", "DESC_ARRIVED", "GET_DONE", "REGISTERED", "ARRIVED", "MATCHED_EAGER", "MATCHED_LMT", "MATCHED_RNDV",
    "START_GET", "START_PUT_FALLBACK", "CTS_ARRIVED", "PUT_DONE", "DONE_ARRIVED"};

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

const char* to_string(MsgState s) { return name_of<MsgState::Complete>(s, kMsgStateNames); }
const char* to_string(MsgEvent e) { return name_of<MsgEvent::DoneArrived>(e, kMsgEventNames); }

MsgState step(MsgState s, MsgEvent e) { return base::step<kTable>("mpich_gni message", s, e); }

}  // namespace ompisim::native
