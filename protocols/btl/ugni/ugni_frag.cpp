#include "protocols/btl/ugni/ugni_frag.hpp"

namespace ompisim::btl::ugni {

namespace {
constexpr std::array<const char*, 10> kFragStateNames{
    "IDLE", "COPYING", "SMSG_SENT", "AWAIT_SEND_BUFFER", "EAGER_COPYING", "INIT_GET_SENT", "AWAIT_RECV_BUFFER",
    "PULLING", "RDMA_COMPLETE_SENT", "COMPLETE"};
constexpr std::array<const char*, 8> kFragEventNames{
    "START_SHORT", "START_EAGER", "BUFFER_READY", "COPIED", "SEND_ARRIVED", "INIT_GET_ARRIVED", "GET_DONE",
    "RDMA_COMPLETE_ARRIVED"};
constexpr std::array<const char*, 6> kRdmaStateNames{
    "IDLE", "GET_POSTED", "PUT_INIT_SENT", "PUTTING", "RDMA_COMPLETE_SENT", "COMPLETE"};
constexpr std::array<const char*, 5> kRdmaEventNames{
    "START_GET", "START_PUT_FALLBACK", "PUT_INIT_ARRIVED", "RDMA_DONE", "RDMA_COMPLETE_ARRIVED"};

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

const char* to_string(FragState s) { return name_of<FragState::Complete>(s, kFragStateNames); }
const char* to_string(FragEvent e) { return name_of<FragEvent::RdmaCompleteArrived>(e, kFragEventNames); }
const char* to_string(RdmaState s) { return name_of<RdmaState::Complete>(s, kRdmaStateNames); }
const char* to_string(RdmaEvent e) { return name_of<RdmaEvent::RdmaCompleteArrived>(e, kRdmaEventNames); }

FragState step(FragState s, FragEvent e) { return base::step<kFragTable>("btl/ugni frag", s, e); }
RdmaState step(RdmaState s, RdmaEvent e) { return base::step<kRdmaTable>("btl/ugni rdma", s, e); }

}  // namespace ompisim::btl::ugni
