// LINKx's shared receive queue (slingshot-ex §III.C.2; libfabric prov/lnx): one per receiving rank, owned by LINKx,
// registered with every core provider of the link. Software tag matching (§III.C.3: the shared queue rules out the
// providers' hardware matching). Posted receives and unexpected messages are matched in order:
//   expected   (posted, then arriving): post_tag() queues the receive; a core provider's get_tag() returns it (0),
//              removes it, and the provider moves the data and writes the shared CQ.
//   unexpected (arriving, then posted): get_tag() finds nothing (kNoEntry) and returns a new entry; the provider queues
//              it with queue_tag(); post_tag() later matches it and calls that provider's start_tag().
//   ANY_SOURCE race: whichever core provider calls get_tag() first takes the posted receive; the other finds it gone
//              and queues its message as unexpected. A receive is never returned twice (exactly-once delivery).
// The same class serves as the matching lists of a NIC with hardware matching (CXI's priority and overflow lists):
// the semantics are MPI's; who pays for the walk (host or NIC) is the caller's concern.
// Per-rank queues are created on first use; entries are records in fixed chunks, reused once freed (no allocation
// per message). LIMITATIONS: one communicator; linear walks (as LINKx's lists).
#pragma once
#include "protocols/ofi/peer_api.hpp"

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace ompisim::ofi {

class SharedRxQueue final : public SrxOwner {
public:
  // The core providers, by index (RxEntry::peer); a provider may be added after construction.
  int add_peer(SrxPeer* p);
  // The application posts a receive (fi_trecv / fi_recv to the linked endpoint). Returns true when it matched an
  // unexpected message (that provider's start_* has been called), false when it is queued as posted.
  bool post_tag(int rank, int src, int tag, std::uint64_t size, Buffer buf, std::uint64_t context);
  bool post_msg(int rank, int src, std::uint64_t size, Buffer buf, std::uint64_t context);

  int get_tag(int rank, int peer, int addr, int tag, std::uint64_t size, RxEntry** entry) override;
  int get_msg(int rank, int peer, int addr, std::uint64_t size, RxEntry** entry) override;
  int queue_tag(RxEntry* entry) override;
  int queue_msg(RxEntry* entry) override;
  void free_entry(RxEntry* entry) override;

  std::size_t posted_now() const;
  std::size_t unexpected_now() const;
  std::size_t live_entries() const { return live_; }
  std::uint64_t matched_expected = 0, matched_unexpected = 0;

private:
  // An entry and the owner's bookkeeping: its place in one of its rank's FIFOs (a doubly-linked list through the
  // entries: taking a match out of the middle of a queue is an unlink) and whether it is handed out. The entry comes
  // first, so the RxEntry* the providers hold is the node's address.
  struct Node {
    RxEntry e;
    Node* prev = nullptr;
    Node* next = nullptr;
    Node* next_free = nullptr;
    bool live = false;
  };
  static_assert(std::is_standard_layout_v<Node>, "RxEntry* must convert back to its Node");
  static Node* node(RxEntry* e) { return reinterpret_cast<Node*>(e); }
  struct Fifo {
    Node* head = nullptr;
    Node* tail = nullptr;
    std::size_t n = 0;
    void push_back(Node* x);
    void unlink(Node* x);
  };
  struct Queues {
    Fifo posted_tag, posted_msg, unexpected_tag, unexpected_msg;
  };
  // A new entry of `rank`'s queues for (addr, tag); an untagged entry matches any tag.
  RxEntry* alloc(int rank, int addr, int tag, bool tagged, std::uint64_t size);
  bool post(int rank, int src, int tag, bool tagged, std::uint64_t size, Buffer buf, std::uint64_t context);
  int get(int rank, int peer, int addr, int tag, bool tagged, std::uint64_t size, RxEntry** entry);
  // A rank's queues, indexed by rank (four list heads per rank up to the highest seen, held in place: no pointer to
  // chase and no container to allocate per rank).
  Queues& queues(int rank) {
    auto i = static_cast<std::size_t>(rank);
    if (i >= q_.size()) q_.resize(i + 1);
    return q_[i];
  }
  std::vector<Queues> q_;
  // Entries live in fixed chunks (never moved while handed out); a freed one is reused first.
  static constexpr std::size_t kChunk = 1024;
  std::vector<std::unique_ptr<Node[]>> chunks_;
  std::size_t top_ = 0, live_ = 0;
  Node* free_ = nullptr;
  std::vector<SrxPeer*> peers_;
  std::uint64_t next_ = 1;
};

inline bool rx_matches(int want_addr, int want_tag, int addr, int tag) {
  return (want_addr == kAnyAddr || want_addr == addr) && (want_tag == kAnyTag || want_tag == tag);
}

}  // namespace ompisim::ofi
