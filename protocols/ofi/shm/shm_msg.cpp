#include "protocols/ofi/shm/shm_msg.hpp"

namespace ompisim::ofi::shm {

namespace {
constexpr std::array<const char*, 7> kShmTxStateNames{
    "IDLE", "POSTING", "COPYING_IN", "AWAIT_PEER", "SIGNAL_RETURNING", "CQ_READING", "COMPLETE"};
constexpr std::array<const char*, 7> kShmTxEventNames{
    "POST", "COPY_IN", "COPIED_IN", "COMMAND_SENT", "PEER_DONE", "SIGNAL_ARRIVED", "CQ_READ"};
constexpr std::array<const char*, 6> kShmRxStateNames{
    "IDLE", "PROGRESSING", "UNEXPECTED", "ATTACHING", "COPYING_OUT", "COMPLETE"};
constexpr std::array<const char*, 7> kShmRxEventNames{
    "ARRIVE", "MATCHED_INJECT", "MATCHED_PEER", "QUEUED", "DISCARD", "ATTACHED", "COPIED"};

using T = ShmTxState;
using TE = ShmTxEvent;
constexpr std::array<base::Transition<ShmTxState, ShmTxEvent>, 7> kTxTable{{
    {T::Idle, TE::Post, T::Posting},
    // inject: the copy into the shared inject buffer completes the send
    {T::Posting, TE::CopyIn, T::CopyingIn},
    {T::CopyingIn, TE::CopiedIn, T::Complete},
    // single copy, GPU IPC: the receiver copies from the sender's memory and signals back
    {T::Posting, TE::CommandSent, T::AwaitPeer},
    {T::AwaitPeer, TE::PeerDone, T::SignalReturning},
    {T::SignalReturning, TE::SignalArrived, T::CqReading},
    {T::CqReading, TE::CqRead, T::Complete},
}};

using R = ShmRxState;
using RE = ShmRxEvent;
constexpr std::array<base::Transition<ShmRxState, ShmRxEvent>, 9> kRxTable{{
    {R::Idle, RE::Arrive, R::Progressing},
    {R::Progressing, RE::MatchedInject, R::CopyingOut},
    {R::Progressing, RE::MatchedPeer, R::Attaching},
    {R::Progressing, RE::Queued, R::Unexpected},
    {R::Unexpected, RE::MatchedInject, R::CopyingOut},
    {R::Unexpected, RE::MatchedPeer, R::Attaching},
    {R::Unexpected, RE::Discard, R::Complete},
    {R::Attaching, RE::Attached, R::CopyingOut},
    {R::CopyingOut, RE::Copied, R::Complete},
}};
}  // namespace

const char* to_string(ShmTxState s) { return name_of<ShmTxState::Complete>(s, kShmTxStateNames); }
const char* to_string(ShmTxEvent e) { return name_of<ShmTxEvent::CqRead>(e, kShmTxEventNames); }
const char* to_string(ShmRxState s) { return name_of<ShmRxState::Complete>(s, kShmRxStateNames); }
const char* to_string(ShmRxEvent e) { return name_of<ShmRxEvent::Copied>(e, kShmRxEventNames); }

ShmTxState step(ShmTxState s, ShmTxEvent e) { return base::step<kTxTable>("shm send", s, e); }
ShmRxState step(ShmRxState s, ShmRxEvent e) { return base::step<kRxTable>("shm receive", s, e); }

}  // namespace ompisim::ofi::shm
