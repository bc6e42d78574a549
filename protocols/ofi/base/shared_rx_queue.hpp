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
// Per-rank queues are created on first use. LIMITATIONS: one communicator; linear walks (as LINKx's lists).
#pragma once
#include "protocols/ofi/peer_api.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
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
  std::size_t live_entries() const { return entries_.size(); }
  std::uint64_t matched_expected = 0, matched_unexpected = 0;

private:
  struct Queues {
    std::deque<RxEntry*> posted_tag, posted_msg, unexpected_tag, unexpected_msg;
  };
  // A new entry of `rank`'s queues for (addr, tag); an untagged entry matches any tag.
  RxEntry* alloc(int rank, int addr, int tag, bool tagged, std::uint64_t size);
  bool post(int rank, int src, int tag, bool tagged, std::uint64_t size, Buffer buf, std::uint64_t context);
  int get(int rank, int peer, int addr, int tag, bool tagged, std::uint64_t size, RxEntry** entry);
  // A rank's queues, created on first use; indexed by rank (a pointer per rank up to the highest seen, instead of a
  // hash lookup on every post and every arriving header).
  Queues& queues(int rank) {
    auto i = static_cast<std::size_t>(rank);
    if (i >= q_.size()) q_.resize(i + 1);
    if (!q_[i]) q_[i] = std::make_unique<Queues>();
    return *q_[i];
  }
  std::vector<std::unique_ptr<Queues>> q_;
  std::unordered_map<std::uint64_t, std::unique_ptr<RxEntry>> entries_;
  std::vector<SrxPeer*> peers_;
  std::uint64_t next_ = 1;
};

inline bool rx_matches(int want_addr, int want_tag, int addr, int tag) {
  return (want_addr == kAnyAddr || want_addr == addr) && (want_tag == kAnyTag || want_tag == tag);
}

}  // namespace ompisim::ofi
