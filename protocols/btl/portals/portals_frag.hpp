// btl/portals' records and their state machines (plain data and pure transitions: no clock, no engine). BtlPortals
// keeps each kind by its Portals id (the send fragment's MD user_ptr and hdr_data, the GET's user_ptr and match bits);
// each protocol step is a member `on_<event>(id)` that moves the record with step() and starts the next CPU or
// Portals activity, whose continuation carries only the id.
//
// Send fragment (the sender's mca_btl_portals_frag_t): with btl_portals_max_pending_ops fragments of the process
// outstanding it waits in FIFO order (AWAIT_SLOT); then the send call runs on the CPU (PREPARING: a pre-pinned eager
// fragment or a max-size one is chosen), copies the data in (COPYING), makes its Portals calls (CALLING: PtlMDBind when
// needed, PtlPutRegion) and waits for its completion event, the ACK (or SEND_END without ACKs) (AWAIT_COMPLETION);
// reading it (READING_COMPLETION) completes the fragment: ob1's callback runs and the slot goes to the oldest queued
// send. A SEND_END read while the ACK is awaited costs its poll and does not move the fragment.
//
// Arrival (the fragment in the target's receive block): put (IN_FLIGHT), its PUT_END read by the target's progress
// (READING), then handed to ob1 (COMPLETE).
//
// RDMA GET (pml/ob1's RGET): the initiator's PtlMDBind + PtlGet (CALLING), the reply in flight (IN_FLIGHT), its
// REPLY_END read (READING), then ob1's completion (COMPLETE).
// Any other (state, event) pair throws ProtocolError naming both.
//
// Send slots (SendSlots): who may put now. A fragment takes a slot of its process (btl_portals_max_pending_ops, Open
// MPI's portals_outstanding_ops) and, with btl_portals_peer_window W > 0, one of the W of its peer (no Open MPI
// limit: the seastar-portals paper's "rate limiting to ensure message reliability", a calibration); it holds both until
// its completion is read. A fragment that finds either full, or older fragments to its peer waiting, waits in the
// process's FIFO (AWAIT_SLOT); a release lets the oldest waiting fragment that now fits go (SLOT_FREE).
#pragma once
#include "protocols/base/transition_table.hpp"
#include "protocols/btl/base/frag_records.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <utility>

namespace ompisim::btl::portals {

// The send fragment's machine: ProtocolError ("btl/portals frag") for an impossible (state, event) pair.
enum class FragState : std::uint8_t {
  Idle, AwaitSlot, Preparing, Copying, Calling, AwaitCompletion, ReadingCompletion, Complete
};
enum class FragEvent : std::uint8_t { Queue, Start, SlotFree, Prepared, Copied, Put, CompletionEvent, CompletionRead };
const char* to_string(FragState s);
const char* to_string(FragEvent e);
FragState step(FragState s, FragEvent e);  // the state after event `e` in state `s`

// The arrival's machine: ProtocolError ("btl/portals arrival") for an impossible pair.
enum class ArrivalState : std::uint8_t { Idle, InFlight, Reading, Complete };
enum class ArrivalEvent : std::uint8_t { Put, PutEnd, PutEndRead };
const char* to_string(ArrivalState s);
const char* to_string(ArrivalEvent e);
ArrivalState step(ArrivalState s, ArrivalEvent e);

// The RDMA GET's machine: ProtocolError ("btl/portals get") for an impossible pair.
enum class GetState : std::uint8_t { Idle, Calling, InFlight, Reading, Complete };
enum class GetEvent : std::uint8_t { Start, Posted, ReplyEnd, ReplyEndRead };
const char* to_string(GetState s);
const char* to_string(GetEvent e);
GetState step(GetState s, GetEvent e);

// One process's send slots (see the header comment): plain bookkeeping, no clock.
class SendSlots {
public:
  // max_pending >= 1; peer_window 0 is no per-peer window.
  SendSlots(int max_pending, int peer_window) : max_(max_pending), window_(peer_window) {}
  // A new fragment `fid` to `peer`: true when it takes its slots and goes now; false when it waits (FIFO).
  bool admit(std::uint64_t fid, int peer);
  // A fragment to `peer` completed: its slots are free. Returns the oldest waiting fragment that now fits (its slots
  // taken), if any; at most one can, as one process slot and one slot of one peer came free.
  std::optional<std::uint64_t> release(int peer);
  int outstanding() const { return outstanding_; }
  int outstanding_to(int peer) const;
  std::size_t waiting() const { return queue_.size(); }

private:
  bool fits(int peer) const;
  int max_, window_, outstanding_ = 0;
  std::unordered_map<int, int> to_peer_;      // outstanding fragments per peer
  std::unordered_map<int, int> waiting_for_;  // waiting fragments per peer
  std::deque<std::pair<std::uint64_t, int>> queue_;  // (fragment, peer), oldest first
};

// A send fragment (its local completion, ob1's callback, on the completion event).
struct SendFrag : SendRecord<FragState> {
  Completion packed;      // send_packed: once PtlPutRegion returned (or at once when queued)
  bool eager = false;     // a pre-pinned eager fragment (else a max-size one, whose MD is unlinked when it is freed)
  bool bind = true;       // this send binds its MD (PtlMDBind): a max-size fragment, or an eager one's first use
};

struct Arrival {
  ArrivalState state = ArrivalState::Idle;
  Descriptor d;
};

struct GetOp : RdmaRecord<GetState> {
  Buffer local;
};

}  // namespace ompisim::btl::portals
