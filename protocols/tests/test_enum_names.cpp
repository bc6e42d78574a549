// The protocols' enumerator names (name_of over each enum's name array, core/enum_names.hpp; name_of itself and the
// enums of the lower layers are tested in tests/test_enum_names.cpp): every enumerator has its own name, the arrays
// follow the enums' order, and a value outside the enum is "?".
#include "protocols/base/transition_table.hpp"
#include "protocols/btl/portals/portals_frag.hpp"
#include "protocols/btl/ugni/ugni_frag.hpp"
#include "protocols/mtl/portals/mtl_portals_op.hpp"
#include "protocols/native/mpich_gni_msg.hpp"
#include "protocols/native/qsnet/mpich_qsnet_msg.hpp"
#include "protocols/ofi/cxi/cxi_msg.hpp"
#include "protocols/ofi/shm/shm_msg.hpp"
#include "protocols/pml/ob1/frag_pipeline.hpp"
#include "protocols/pml/ob1/hdr.hpp"
#include "protocols/pml/ob1/requests.hpp"
#include "protocols/pml/ob1/stripe.hpp"
#include "protocols/ptl/elan4/elan4_frag.hpp"
#include "protocols/register.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace ompisim;

namespace {
// The names of enumerators 0 .. last of E: none "?", none repeated; the first and last as given (the array's order).
template <class E>
void check_names(E last, const std::string& first_name, const std::string& last_name) {
  const auto n = static_cast<std::size_t>(last) + 1;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = to_string(static_cast<E>(i));
    INFO(i << ": " << name);
    CHECK(name != "?");
    CHECK_FALSE(name.empty());
    CHECK(seen.insert(name).second);
  }
  CHECK(to_string(static_cast<E>(0)) == first_name);
  CHECK(to_string(last) == last_name);
  CHECK(std::string(to_string(static_cast<E>(n))) == "?");
}
}  // namespace

// Configuration: every enum of the protocols' state machines, messages and policies. Expected: each enumerator named,
// no name twice within an enum, the first and last names those of the first and last enumerators, "?" past the last.
// How validated: to_string over every value from 0 to one past the last enumerator.
TEST_CASE("every protocol enum names each of its enumerators once and in order", "[unit][protocol][names]") {
  check_names(btl::ugni::FragState::Complete, "IDLE", "COMPLETE");
  check_names(btl::ugni::FragEvent::RdmaCompleteArrived, "START_SHORT", "RDMA_COMPLETE_ARRIVED");
  check_names(btl::ugni::RdmaState::Complete, "IDLE", "COMPLETE");
  check_names(btl::ugni::RdmaEvent::RdmaCompleteArrived, "START_GET", "RDMA_COMPLETE_ARRIVED");
  check_names(btl::portals::FragState::Complete, "IDLE", "COMPLETE");
  check_names(btl::portals::FragEvent::CompletionRead, "QUEUE", "COMPLETION_READ");
  check_names(btl::portals::ArrivalState::Complete, "IDLE", "COMPLETE");
  check_names(btl::portals::ArrivalEvent::PutEndRead, "PUT", "PUT_END_READ");
  check_names(btl::portals::GetState::Complete, "IDLE", "COMPLETE");
  check_names(btl::portals::GetEvent::ReplyEndRead, "START", "REPLY_END_READ");
  check_names(ofi::cxi::TxState::Complete, "IDLE", "COMPLETE");
  check_names(ofi::cxi::TxEvent::CqRead, "ISSUE", "CQ_READ");
  check_names(ofi::cxi::RxState::Complete, "IDLE", "COMPLETE");
  check_names(ofi::cxi::RxEvent::CqRead, "HOLD", "CQ_READ");
  check_names(ofi::cxi::SendProtocol::Rendezvous, "inject", "rendezvous");
  check_names(ofi::shm::ShmTxState::Complete, "IDLE", "COMPLETE");
  check_names(ofi::shm::ShmTxEvent::CqRead, "POST", "CQ_READ");
  check_names(ofi::shm::ShmRxState::Complete, "IDLE", "COMPLETE");
  check_names(ofi::shm::ShmRxEvent::Copied, "ARRIVE", "COPIED");
  check_names(ptl::elan4::SendState::Complete, "IDLE", "COMPLETE");
  check_names(ptl::elan4::SendEvent::AckArrived, "START", "ACK_ARRIVED");
  check_names(ptl::elan4::RecvState::Complete, "IDLE", "COMPLETE");
  check_names(ptl::elan4::RecvEvent::FinArrived, "ISSUED", "FIN_ARRIVED");
  check_names(ptl::elan4::RdmaState::Complete, "IDLE", "COMPLETE");
  check_names(ptl::elan4::RdmaEvent::ControlIssued, "START", "CONTROL_ISSUED");
  check_names(mtl::portals::OpState::Complete, "IDLE", "COMPLETE");
  check_names(mtl::portals::OpEvent::Polled, "WAIT_COPY_BLOCK", "POLLED");
  check_names(native::MsgState::Complete, "IDLE", "COMPLETE");
  check_names(native::MsgEvent::DoneArrived, "POST", "DONE_ARRIVED");
  check_names(native::QsnetState::Complete, "IDLE", "COMPLETE");
  check_names(native::QsnetEvent::DoneArrived, "POST", "DONE_ARRIVED");
  check_names(pml::ob1::SendState::Complete, "IDLE", "COMPLETE");
  check_names(pml::ob1::RecvState::Complete, "POSTED", "COMPLETE");
  check_names(pml::ob1::SendEvent::PutAck, "BTL_DONE", "PUT_ACK");
  check_names(pml::ob1::RecvEvent::PutFin, "MATCHED_EAGER", "PUT_FIN");
  check_names(pml::ob1::FragPipeline::State::Done, "posting", "done");
  check_names(pml::ob1::FragPipeline::Schedule::Remaining, "weighted_length", "remaining");
  check_names(pml::ob1::StripePolicy::StripeAbove, "weighted_rr", "stripe_above");
  check_names(pml::Hdr::Fin, "MATCH", "FIN");
  check_names(Reach::Network, "self", "network");
}
