// Per-peer counters of one rank: a map from a peer rank to a 32-bit value, created on first contact (ob1's per-peer
// send sequence and the matching engine's expected sequence, mca_pml_ob1_comm_proc_t's send_sequence /
// expected_sequence; cxi's per-pair sequences; the index of a uGNI endpoint). Open addressing with linear probing in
// one small array, because it is looked up on every message and a rank talks to few peers in most runs (a
// whole-machine barrier: about 20) but to all of them in an alltoall. The hash keeps a run of consecutive peers in
// consecutive slots (the low bits of the peer pick the slot, its high bits are mixed in multiplicatively): an
// alltoall or a ring visits its peers in order, so successive lookups of one rank share a cache line, while peers a
// power of two apart (a barrier's partners) still spread over the table.
#pragma once
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace ompisim {

class PeerSeq {
public:
  // The counter of `peer` (>= 0), 0 when first seen. The reference is valid until the next first contact.
  std::uint32_t& operator[](int peer) {
    if (slots_.empty()) slots_.assign(4, Slot{});
    for (;;) {
      const std::size_t mask = slots_.size() - 1;
      for (std::size_t i = hash(peer, mask) & mask;; i = (i + 1) & mask) {
        if (slots_[i].peer == peer) return slots_[i].value;
        if (slots_[i].peer == kEmpty) {
          if (4 * (used_ + 1) > 3 * slots_.size()) break;  // keep the load below 3/4: grow, then probe again
          ++used_;
          slots_[i].peer = peer;
          return slots_[i].value;
        }
      }
      grow();
    }
  }
  std::size_t size() const { return used_; }

private:
  static constexpr int kEmpty = -1;
  struct Slot {
    int peer = kEmpty;
    std::uint32_t value = 0;
  };
  // mask + 1 is the table size, a power of two.
  static std::size_t hash(int peer, std::size_t mask) {
    const auto p = static_cast<std::uint32_t>(peer);
    return p + static_cast<std::uint32_t>((p >> std::popcount(mask)) * 2654435761u);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.peer == kEmpty) continue;
      std::size_t i = hash(s.peer, mask) & mask;
      while (slots_[i].peer != kEmpty) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace ompisim
