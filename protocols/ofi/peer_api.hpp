// libfabric's peer-provider API as plain C++ (fi_peer(3), fi_lnx(7); slingshot-ex §III.C, Listings 1-2): the objects a
// linking provider (LINKx) shares with the core providers under it.
//   - RxEntry          fi_peer_rx_entry: a posted receive, or an unexpected message a core provider has queued
//   - SrxOwner         fi_ops_srx_owner: get_msg/get_tag/queue_msg/queue_tag/free_entry, called by core providers
//   - SrxPeer          fi_ops_srx_peer: start_msg/start_tag/discard_msg/discard_tag, called by the owner
//   - CqOwnerOps       fi_ops_cq_owner: write/writeerr, core providers write completions into the owner's CQ
// Addresses are ranks (fi_addr_t after address-vector insertion); a tag is an MPI tag (one communicator).
// Nothing here knows the engine: unit tests drive it directly.
#pragma once
#include "platform/buffer.hpp"

#include <cstdint>
#include <functional>

namespace ompisim::ofi {

constexpr int kAnyAddr = -1;  // FI_ADDR_UNSPEC: a receive from any source
constexpr int kAnyTag = -1;   // all tag bits ignored
constexpr int kNoEntry = -2;  // -FI_ENOENT: get_* found no posted receive; the entry returned is a new one to queue

struct RxEntry {
  std::uint64_t id = 0;
  int owner_rank = 0;          // whose receive queue
  int addr = kAnyAddr;         // posted: wanted source (or any); unexpected: the sender
  int tag = kAnyTag;           // posted: wanted tag (or any); unexpected: the message's tag
  bool tagged = true;          // fi_trecv / fi_recv
  std::uint64_t size = 0;      // the receive buffer's length (an unexpected entry: the message's until matched)
  std::uint64_t msg_size = 0;  // unexpected: the message's length
  Buffer buf{};                // posted: the application's buffer
  std::uint64_t context = 0;   // posted: the owner's request (what the CQ entry returns)
  int peer = -1;               // unexpected: index of the core provider that queued it (whose start_* to call)
  std::uint64_t peer_context = 0;  // unexpected: the core provider's own message state
};

class SrxOwner {
public:
  virtual ~SrxOwner() = default;
  // A message from `addr` with `tag` (`size` bytes) arrived at `rank` through core provider `peer`. Returns 0 and the
  // matching posted receive in `*entry` (removed from the queue: this caller owns it now), or kNoEntry and a fresh
  // entry describing the message, which the caller fills in (peer_context) and hands to queue_tag.
  virtual int get_tag(int rank, int peer, int addr, int tag, std::uint64_t size, RxEntry** entry) = 0;
  virtual int get_msg(int rank, int peer, int addr, std::uint64_t size, RxEntry** entry) = 0;
  virtual int queue_tag(RxEntry* entry) = 0;
  virtual int queue_msg(RxEntry* entry) = 0;
  // The caller is done with an entry it got from get_* (a matched receive after its completion, or a started
  // unexpected message).
  virtual void free_entry(RxEntry* entry) = 0;
};

class SrxPeer {
public:
  virtual ~SrxPeer() = default;
  // The owner matched a receive to the unexpected message `entry` (entry->buf/size/context now describe the receive):
  // move its data into the buffer and write the completion.
  virtual int start_tag(RxEntry* entry) = 0;
  virtual int start_msg(RxEntry* entry) = 0;
  // Drop the message's data (a cancelled or truncating receive).
  virtual int discard_tag(RxEntry* entry) = 0;
  virtual int discard_msg(RxEntry* entry) = 0;
};

// A completion: the request context given at post time, what completed, and (receives) the matched envelope.
struct CqEntry {
  enum Flags : std::uint32_t { Send = 1, Recv = 2, Tagged = 4 };
  int rank = 0;
  std::uint64_t context = 0;
  std::uint32_t flags = 0;
  std::uint64_t len = 0;
  int tag = 0, src = 0;
  int provider = -1;  // which core provider wrote it (for tests and counters; not part of fi_cq_tagged_entry)
};

struct CqOwnerOps {
  std::function<void(const CqEntry&)> write;
  std::function<void(const CqEntry&)> writeerr;
};

}  // namespace ompisim::ofi
