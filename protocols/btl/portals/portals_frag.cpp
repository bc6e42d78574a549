#include "protocols/btl/portals/portals_frag.hpp"

namespace ompisim::btl::portals {

namespace {
constexpr std::array<const char*, 8> kFragStateNames{
    "IDLE", "AWAIT_SLOT", "PREPARING", "COPYING", "CALLING", "AWAIT_COMPLETION", "READING_COMPLETION", "COMPLETE"};
constexpr std::array<const char*, 8> kFragEventNames{
    "QUEUE", "START", "SLOT_FREE", "PREPARED", "COPIED", "PUT", "COMPLETION_EVENT", "COMPLETION_READ"};
constexpr std::array<const char*, 4> kArrivalStateNames{"IDLE", "IN_FLIGHT", "READING", "COMPLETE"};
constexpr std::array<const char*, 3> kArrivalEventNames{"PUT", "PUT_END", "PUT_END_READ"};
constexpr std::array<const char*, 5> kGetStateNames{"IDLE", "CALLING", "IN_FLIGHT", "READING", "COMPLETE"};
constexpr std::array<const char*, 4> kGetEventNames{"START", "POSTED", "REPLY_END", "REPLY_END_READ"};

using F = FragState;
using FE = FragEvent;
constexpr std::array<base::Transition<FragState, FragEvent>, 8> kFragTransitions{{
    {F::Idle, FE::Queue, F::AwaitSlot},
    {F::AwaitSlot, FE::SlotFree, F::Preparing},
    {F::Idle, FE::Start, F::Preparing},
    {F::Preparing, FE::Prepared, F::Copying},
    {F::Copying, FE::Copied, F::Calling},
    {F::Calling, FE::Put, F::AwaitCompletion},
    {F::AwaitCompletion, FE::CompletionEvent, F::ReadingCompletion},
    {F::ReadingCompletion, FE::CompletionRead, F::Complete},
}};
using A = ArrivalState;
using AE = ArrivalEvent;
constexpr std::array<base::Transition<ArrivalState, ArrivalEvent>, 3> kArrivalTable{{
    {A::Idle, AE::Put, A::InFlight},
    {A::InFlight, AE::PutEnd, A::Reading},
    {A::Reading, AE::PutEndRead, A::Complete},
}};
using G = GetState;
using GE = GetEvent;
constexpr std::array<base::Transition<GetState, GetEvent>, 4> kGetTable{{
    {G::Idle, GE::Start, G::Calling},
    {G::Calling, GE::Posted, G::InFlight},
    {G::InFlight, GE::ReplyEnd, G::Reading},
    {G::Reading, GE::ReplyEndRead, G::Complete},
}};
}  // namespace

const char* to_string(FragState v) { return name_of<FragState::Complete>(v, kFragStateNames); }
const char* to_string(FragEvent v) { return name_of<FragEvent::CompletionRead>(v, kFragEventNames); }
const char* to_string(ArrivalState v) { return name_of<ArrivalState::Complete>(v, kArrivalStateNames); }
const char* to_string(ArrivalEvent v) { return name_of<ArrivalEvent::PutEndRead>(v, kArrivalEventNames); }
const char* to_string(GetState v) { return name_of<GetState::Complete>(v, kGetStateNames); }
const char* to_string(GetEvent v) { return name_of<GetEvent::ReplyEndRead>(v, kGetEventNames); }

bool SendSlots::fits(int peer) const {
  if (outstanding_ >= max_) return false;
  if (window_ <= 0) return true;
  auto it = to_peer_.find(peer);
  return it == to_peer_.end() || it->second < window_;
}

int SendSlots::outstanding_to(int peer) const {
  auto it = to_peer_.find(peer);
  return it == to_peer_.end() ? 0 : it->second;
}

bool SendSlots::admit(std::uint64_t fid, int peer) {
  auto w = waiting_for_.find(peer);
  if (fits(peer) && (w == waiting_for_.end() || w->second == 0)) {
    ++outstanding_, ++to_peer_[peer];
    return true;
  }
  ++waiting_for_[peer];
  queue_.emplace_back(fid, peer);
  return false;
}

std::optional<std::uint64_t> SendSlots::release(int peer) {
  --outstanding_;
  if (--to_peer_[peer] == 0) to_peer_.erase(peer);
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (!fits(it->second)) {
      if (outstanding_ >= max_) return std::nullopt;  // no process slot: nothing behind can go either
      continue;  // its peer's window is full: later fragments to other peers may go
    }
    const auto [fid, to] = *it;
    queue_.erase(it);
    --waiting_for_[to];
    ++outstanding_, ++to_peer_[to];
    return fid;
  }
  return std::nullopt;
}

FragState step(FragState s, FragEvent e) { return base::step<kFragTransitions>("btl/portals frag", s, e); }
ArrivalState step(ArrivalState s, ArrivalEvent e) { return base::step<kArrivalTable>("btl/portals arrival", s, e); }
GetState step(GetState s, GetEvent e) { return base::step<kGetTable>("btl/portals get", s, e); }

}  // namespace ompisim::btl::portals
