#include "protocols/btl/ugni/ugni_frag.hpp"

namespace ompisim::btl::ugni {

const char* to_string(FragState s) {
  switch (s) {
    case FragState::Idle: return "IDLE";
    case FragState::Copying: return "COPYING";
    case FragState::SmsgSent: return "SMSG_SENT";
    case FragState::AwaitSendBuffer: return "AWAIT_SEND_BUFFER";
    case FragState::EagerCopying: return "EAGER_COPYING";
    case FragState::InitGetSent: return "INIT_GET_SENT";
    case FragState::AwaitRecvBuffer: return "AWAIT_RECV_BUFFER";
    case FragState::Pulling: return "PULLING";
    case FragState::RdmaCompleteSent: return "RDMA_COMPLETE_SENT";
    case FragState::Complete: return "COMPLETE";
  }
  return "?";
}
const char* to_string(FragEvent e) {
  switch (e) {
    case FragEvent::StartShort: return "START_SHORT";
    case FragEvent::StartEager: return "START_EAGER";
    case FragEvent::BufferReady: return "BUFFER_READY";
    case FragEvent::Copied: return "COPIED";
    case FragEvent::SendArrived: return "SEND_ARRIVED";
    case FragEvent::InitGetArrived: return "INIT_GET_ARRIVED";
    case FragEvent::GetDone: return "GET_DONE";
    case FragEvent::RdmaCompleteArrived: return "RDMA_COMPLETE_ARRIVED";
  }
  return "?";
}
const char* to_string(RdmaState s) {
  switch (s) {
    case RdmaState::Idle: return "IDLE";
    case RdmaState::GetPosted: return "GET_POSTED";
    case RdmaState::PutInitSent: return "PUT_INIT_SENT";
    case RdmaState::Putting: return "PUTTING";
    case RdmaState::RdmaCompleteSent: return "RDMA_COMPLETE_SENT";
    case RdmaState::Complete: return "COMPLETE";
  }
  return "?";
}
const char* to_string(RdmaEvent e) {
  switch (e) {
    case RdmaEvent::StartGet: return "START_GET";
    case RdmaEvent::StartPutFallback: return "START_PUT_FALLBACK";
    case RdmaEvent::PutInitArrived: return "PUT_INIT_ARRIVED";
    case RdmaEvent::RdmaDone: return "RDMA_DONE";
    case RdmaEvent::RdmaCompleteArrived: return "RDMA_COMPLETE_ARRIVED";
  }
  return "?";
}

namespace {
using F = FragState;
using FE = FragEvent;
constexpr std::array<base::Transition<FragState, FragEvent>, 10> kFragTable{{
    {F::Idle, FE::StartShort, F::Copying},
    {F::Copying, FE::Copied, F::SmsgSent},
    {F::SmsgSent, FE::SendArrived, F::Complete},
    {F::Idle, FE::StartEager, F::AwaitSendBuffer},
    {F::AwaitSendBuffer, FE::BufferReady, F::EagerCopying},
    {F::EagerCopying, FE::Copied, F::InitGetSent},
    {F::InitGetSent, FE::InitGetArrived, F::AwaitRecvBuffer},
    {F::AwaitRecvBuffer, FE::BufferReady, F::Pulling},
    {F::Pulling, FE::GetDone, F::RdmaCompleteSent},
    {F::RdmaCompleteSent, FE::RdmaCompleteArrived, F::Complete},
}};
using R = RdmaState;
using RE = RdmaEvent;
constexpr std::array<base::Transition<RdmaState, RdmaEvent>, 6> kRdmaTable{{
    {R::Idle, RE::StartGet, R::GetPosted},
    {R::GetPosted, RE::RdmaDone, R::Complete},
    {R::Idle, RE::StartPutFallback, R::PutInitSent},
    {R::PutInitSent, RE::PutInitArrived, R::Putting},
    {R::Putting, RE::RdmaDone, R::RdmaCompleteSent},
    {R::RdmaCompleteSent, RE::RdmaCompleteArrived, R::Complete},
}};
}  // namespace

FragState step(FragState s, FragEvent e) { return base::step(kFragTable, "btl/ugni frag", s, e); }
RdmaState step(RdmaState s, RdmaEvent e) { return base::step(kRdmaTable, "btl/ugni rdma", s, e); }

}  // namespace ompisim::btl::ugni
