// btl/ugni's per-operation records and their state machines (↔ mca_btl_ugni_base_frag_t, btl_ugni_frag.h): plain data
// and pure transitions, no clock, no engine. BtlUgni keeps one record per operation in flight in a Slab; each step of
// the protocol is a member function `on_<event>(id)` that moves the record with step() and starts the next NIC or CPU
// activity, whose continuation carries only the record's index.
//
// Send fragment (BtlUgni::send). Short (header + data within the SMSG limit): the sender's CPU copies the data into
// the fragment (COPYING), GNI_SmsgSendWTag sends it with TAG_SEND (SMSG_SENT; the credit wait, if the mailbox has none,
// is the communication domain's), and its arrival on the receiver completes the fragment (the data goes to the PML).
// Eager get: the sender waits for a buffer of its eager_frags_send list (AWAIT_SEND_BUFFER; the list may grow, or the
// fragment waits in order for a buffer to come back), copies the data in (EAGER_COPYING: the PML's send is then
// locally complete), sends INIT_GET (INIT_GET_SENT); on its arrival the receiver waits for a buffer of its
// eager_frags_recv list (AWAIT_RECV_BUFFER), pulls the data with an FMA GET (PULLING), hands it to the PML and sends
// RDMA_COMPLETE (RDMA_COMPLETE_SENT), whose arrival frees the sender's buffer (COMPLETE).
//
// RDMA operation (BtlUgni::get, pml/ob1's RGET). A GET within btl_ugni_get_limit on 4-byte aligned buffers is one FMA
// or BTE GET (GET_POSTED) whose local completion ends it. Otherwise the initiator sends PUT_INIT (PUT_INIT_SENT), the
// data owner PUTs (PUTTING) and answers RDMA_COMPLETE (RDMA_COMPLETE_SENT), whose arrival ends it.
// Any other (state, event) pair throws ProtocolError naming both.
#pragma once
#include "protocols/base/transition_table.hpp"
#include "protocols/btl/base/frag_records.hpp"

#include <cstdint>

namespace ompisim::btl::ugni {

// The send fragment's machine: ProtocolError ("btl/ugni frag") for an impossible (state, event) pair.
enum class FragState : std::uint8_t {
  Idle, Copying, SmsgSent, AwaitSendBuffer, EagerCopying, InitGetSent, AwaitRecvBuffer, Pulling, RdmaCompleteSent,
  Complete
};
enum class FragEvent : std::uint8_t {
  StartShort, StartEager, BufferReady, Copied, SendArrived, InitGetArrived, GetDone, RdmaCompleteArrived
};
const char* to_string(FragState s);
const char* to_string(FragEvent e);
FragState step(FragState s, FragEvent e);  // the state after event `e` in state `s`

// The RDMA operation's machine: ProtocolError ("btl/ugni rdma") for an impossible pair.
enum class RdmaState : std::uint8_t { Idle, GetPosted, PutInitSent, Putting, RdmaCompleteSent, Complete };
enum class RdmaEvent : std::uint8_t { StartGet, StartPutFallback, PutInitArrived, RdmaDone, RdmaCompleteArrived };
const char* to_string(RdmaState s);
const char* to_string(RdmaEvent e);
RdmaState step(RdmaState s, RdmaEvent e);

// A send fragment (its local completion once the data has left the user buffer).
using SendFrag = SendRecord<FragState>;

// An RDMA GET on behalf of the PML (initiator pulls from peer), or its PUT fallback.
struct RdmaFrag : RdmaRecord<RdmaState> {
  bool bte = false;  // BTE above btl_ugni_fma_limit, FMA below
};

}  // namespace ompisim::btl::ugni
