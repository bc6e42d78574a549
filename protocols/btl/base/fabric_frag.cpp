#include "protocols/btl/base/fabric_frag.hpp"

namespace ompisim::btl::fabric {

namespace {
constexpr std::array<const char*, 7> kFragStateNames{
    "IDLE", "ISSUING", "COPYING", "AWAIT_CHANNEL", "ON_WIRE", "RECEIVING", "COMPLETE"};
constexpr std::array<const char*, 6> kFragEventNames{
    "START", "COPY_IN", "CHANNEL_BUSY", "CHANNEL_FREE", "ARRIVED", "RECEIVED"};
constexpr std::array<const char*, 8> kRdmaStateNames{
    "IDLE", "ISSUING_PUT", "ISSUING_GET", "AWAIT_CHANNEL", "WRITING", "READING", "COMPLETING", "COMPLETE"};
constexpr std::array<const char*, 7> kRdmaEventNames{
    "START_PUT", "START_GET", "CHANNEL_BUSY", "CHANNEL_FREE", "ISSUED", "FLOW_DONE", "COMPLETED"};

using F = FragState;
using FE = FragEvent;
constexpr std::array<base::Transition<FragState, FragEvent>, 9> kFragTable{{
    {F::Idle, FE::Start, F::Issuing},
    {F::Issuing, FE::CopyIn, F::Copying},
    {F::Issuing, FE::ChannelFree, F::OnWire},
    {F::Issuing, FE::ChannelBusy, F::AwaitChannel},
    {F::Copying, FE::ChannelFree, F::OnWire},
    {F::Copying, FE::ChannelBusy, F::AwaitChannel},
    {F::AwaitChannel, FE::ChannelFree, F::OnWire},
    {F::OnWire, FE::Arrived, F::Receiving},
    {F::Receiving, FE::Received, F::Complete},
}};
using R = RdmaState;
using RE = RdmaEvent;
constexpr std::array<base::Transition<RdmaState, RdmaEvent>, 9> kRdmaTable{{
    {R::Idle, RE::StartPut, R::IssuingPut},
    {R::Idle, RE::StartGet, R::IssuingGet},
    {R::IssuingPut, RE::ChannelFree, R::Writing},
    {R::IssuingPut, RE::ChannelBusy, R::AwaitChannel},
    {R::AwaitChannel, RE::ChannelFree, R::Writing},
    {R::IssuingGet, RE::Issued, R::Reading},
    {R::Writing, RE::FlowDone, R::Completing},
    {R::Reading, RE::FlowDone, R::Completing},
    {R::Completing, RE::Completed, R::Complete},
}};
}  // namespace

const char* to_string(FragState s) { return name_of<FragState::Complete>(s, kFragStateNames); }
const char* to_string(FragEvent e) { return name_of<FragEvent::Received>(e, kFragEventNames); }
const char* to_string(RdmaState s) { return name_of<RdmaState::Complete>(s, kRdmaStateNames); }
const char* to_string(RdmaEvent e) { return name_of<RdmaEvent::Completed>(e, kRdmaEventNames); }

FragState step(FragState s, FragEvent e) { return base::step<kFragTable>("btl fabric frag", s, e); }
RdmaState step(RdmaState s, RdmaEvent e) { return base::step<kRdmaTable>("btl fabric rdma", s, e); }

}  // namespace ompisim::btl::fabric
