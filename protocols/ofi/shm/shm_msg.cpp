#include "protocols/ofi/shm/shm_msg.hpp"

namespace ompisim::ofi::shm {

const char* to_string(ShmTxState s) {
  switch (s) {
    case ShmTxState::Idle: return "IDLE";
    case ShmTxState::Posting: return "POSTING";
    case ShmTxState::CopyingIn: return "COPYING_IN";
    case ShmTxState::AwaitPeer: return "AWAIT_PEER";
    case ShmTxState::SignalReturning: return "SIGNAL_RETURNING";
    case ShmTxState::CqReading: return "CQ_READING";
    case ShmTxState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(ShmTxEvent e) {
  switch (e) {
    case ShmTxEvent::Post: return "POST";
    case ShmTxEvent::CopyIn: return "COPY_IN";
    case ShmTxEvent::CopiedIn: return "COPIED_IN";
    case ShmTxEvent::CommandSent: return "COMMAND_SENT";
    case ShmTxEvent::PeerDone: return "PEER_DONE";
    case ShmTxEvent::SignalArrived: return "SIGNAL_ARRIVED";
    case ShmTxEvent::CqRead: return "CQ_READ";
  }
  return "?";
}

const char* to_string(ShmRxState s) {
  switch (s) {
    case ShmRxState::Idle: return "IDLE";
    case ShmRxState::Progressing: return "PROGRESSING";
    case ShmRxState::Unexpected: return "UNEXPECTED";
    case ShmRxState::Attaching: return "ATTACHING";
    case ShmRxState::CopyingOut: return "COPYING_OUT";
    case ShmRxState::Complete: return "COMPLETE";
  }
  return "?";
}

const char* to_string(ShmRxEvent e) {
  switch (e) {
    case ShmRxEvent::Arrive: return "ARRIVE";
    case ShmRxEvent::MatchedInject: return "MATCHED_INJECT";
    case ShmRxEvent::MatchedPeer: return "MATCHED_PEER";
    case ShmRxEvent::Queued: return "QUEUED";
    case ShmRxEvent::Discard: return "DISCARD";
    case ShmRxEvent::Attached: return "ATTACHED";
    case ShmRxEvent::Copied: return "COPIED";
  }
  return "?";
}

namespace {
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

ShmTxState step(ShmTxState s, ShmTxEvent e) { return base::step(kTxTable, "shm send", s, e); }
ShmRxState step(ShmRxState s, ShmRxEvent e) { return base::step(kRxTable, "shm receive", s, e); }

}  // namespace ompisim::ofi::shm
