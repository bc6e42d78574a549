// Per-peer counters of one rank: a map from a peer rank to a 32-bit value, created on first contact (ob1's per-peer
// send sequence and the matching engine's expected sequence, mca_pml_ob1_comm_proc_t's send_sequence /
// expected_sequence; cxi's per-pair sequences; the index of a uGNI endpoint). It is looked up on every message; a rank
// talks to few peers in most runs (a whole-machine barrier: about 20, spread over every rank) but to all of them in an
// alltoall, so the table has two layouts in one buffer:
// * hashed: open addressing with linear probing, (peer, value) pairs, load below 3/4. The hash keeps a run of
//   consecutive peers in consecutive slots (the low bits of the peer pick the slot, its high bits are mixed in
//   multiplicatively): an alltoall or a ring visits its peers in order, so successive lookups of one rank share a
//   cache line, while peers a power of two apart (a barrier's partners) still spread over the table;
// * dense: peers 0 .. capacity-1 in blocks of 15, one block a 64-byte cache line: a word of bits saying which of the
//   block's peers were seen, then their 15 values (no probing; a peer's value and its bit share one line, so a lookup
//   touches one line). A table takes it when the hashed table would grow and the dense one for every peer seen so far
//   is no larger; it goes back to hashed when a new peer would need a dense table larger than the hashed one. So a
//   table never holds more bytes than the hashed layout alone would, and a 300,000-rank barrier's tables stay hashed.
// Buffers are 64-byte aligned. The object is 24 bytes (one pointer, two 32-bit counts, the layout flag); a rank that
// never communicates holds no buffer.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

namespace ompisim {

class PeerSeq {
public:
  PeerSeq() = default;
  PeerSeq(PeerSeq&&) noexcept = default;
  PeerSeq& operator=(PeerSeq&&) noexcept = default;
  PeerSeq(const PeerSeq& o) : cap_(o.cap_), used_(o.used_), dense_(o.dense_) {
    const std::size_t n = words(dense_, cap_);
    if (n == 0) return;
    buf_ = allocate(n);
    std::memcpy(buf_.get(), o.buf_.get(), n * sizeof(std::uint32_t));
  }
  PeerSeq& operator=(const PeerSeq& o) {
    if (this != &o) *this = PeerSeq(o);
    return *this;
  }

  // The counter of `peer` (>= 0), 0 when first seen. The reference is valid until the next first contact.
  std::uint32_t& operator[](int peer) {
    const auto p = static_cast<std::uint32_t>(peer);
    if (dense_ && p < cap_) {
      std::uint32_t* block = buf_.get() + std::size_t{p / kBlockPeers} * kBlockWords;
      const std::uint32_t slot = p % kBlockPeers;
      const std::uint32_t bit = 1u << slot;
      if (!(block[0] & bit)) {
        block[0] |= bit;
        ++used_;
      }
      return block[1 + slot];
    }
    return dense_ ? dense_miss(p) : hashed(p);
  }
  // The counter of `peer` when it was seen, nullptr otherwise (no first contact is made).
  const std::uint32_t* find(int peer) const {
    const auto p = static_cast<std::uint32_t>(peer);
    if (dense_) {
      if (p >= cap_) return nullptr;
      const std::uint32_t* block = buf_.get() + std::size_t{p / kBlockPeers} * kBlockWords;
      return block[0] >> (p % kBlockPeers) & 1u ? block + 1 + p % kBlockPeers : nullptr;
    }
    if (cap_ == 0) return nullptr;
    const std::uint32_t mask = cap_ - 1;
    for (std::size_t i = hash(p, cap_) & mask;; i = (i + 1) & mask) {
      if (buf_[2 * i] == p) return buf_.get() + 2 * i + 1;
      if (buf_[2 * i] == kEmpty) return nullptr;
    }
  }
  std::size_t size() const { return used_; }
  bool dense() const { return dense_; }
  // Bytes of the table's buffer (for tests of the memory bound).
  std::size_t bytes() const { return words(dense_, cap_) * sizeof(std::uint32_t); }
  // The word holding `peer`'s seen bit in the dense layout, nullptr in the hashed one or beyond the range (for tests
  // of the layout: it shares a cache line with the peer's counter).
  const std::uint32_t* seen_word(int peer) const {
    const auto p = static_cast<std::uint32_t>(peer);
    return dense_ && p < cap_ ? buf_.get() + std::size_t{p / kBlockPeers} * kBlockWords : nullptr;
  }
  // Bytes of the hashed layout holding `n` peers (at least 4 slots, load at most 3/4).
  static std::size_t hashed_bytes(std::size_t n) { return 2 * sizeof(std::uint32_t) * hashed_slots(n); }
  static constexpr std::size_t kLineBytes = 64;

private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  // Dense blocks: one cache line, a word of seen bits and the values of kBlockPeers peers.
  static constexpr std::uint32_t kBlockWords = kLineBytes / sizeof(std::uint32_t);
  static constexpr std::uint32_t kBlockPeers = kBlockWords - 1;
  struct Free {
    void operator()(std::uint32_t* p) const { ::operator delete[](p, std::align_val_t{kLineBytes}); }
  };
  using Buf = std::unique_ptr<std::uint32_t[], Free>;
  // `n` words, zeroed, on a cache-line boundary.
  static Buf allocate(std::size_t n) {
    auto* p = static_cast<std::uint32_t*>(::operator new[](n * sizeof(std::uint32_t), std::align_val_t{kLineBytes}));
    std::memset(p, 0, n * sizeof(std::uint32_t));
    return Buf(p);
  }
  static std::size_t hashed_slots(std::size_t n) {
    std::size_t s = 4;
    while (4 * n > 3 * s) s *= 2;
    return s;
  }
  // Buffer words: hashed, two per slot; dense, one block per kBlockPeers peers (capacity is a multiple of it).
  static std::size_t words(bool dense, std::uint32_t cap) {
    return dense ? std::size_t{cap / kBlockPeers} * kBlockWords : 2 * std::size_t{cap};
  }
  static std::uint32_t dense_cap(std::uint32_t range) { return (range + kBlockPeers - 1) / kBlockPeers * kBlockPeers; }
  static std::size_t hash(std::uint32_t p, std::uint32_t slots) {
    return p + static_cast<std::uint32_t>((p >> std::countr_zero(slots)) * 2654435761u);
  }

  std::uint32_t& hashed(std::uint32_t p) {
    if (cap_ == 0) reset_hashed(4);
    for (;;) {
      const std::uint32_t mask = cap_ - 1;
      for (std::size_t i = hash(p, cap_) & mask;; i = (i + 1) & mask) {
        if (buf_[2 * i] == p) return buf_[2 * i + 1];
        if (buf_[2 * i] == kEmpty) {
          if (4 * (used_ + 1) > 3 * std::size_t{cap_}) break;  // keep the load below 3/4: grow, then look again
          ++used_;
          buf_[2 * i] = p;
          return buf_[2 * i + 1];
        }
      }
      grow_hashed(p);
      if (dense_) return (*this)[static_cast<int>(p)];
    }
  }
  // The hashed table is full: double it, or go dense if the dense table of every peer seen and `p` is no larger.
  void grow_hashed(std::uint32_t p) {
    std::uint32_t top = p;
    for (std::uint32_t i = 0; i < cap_; ++i)
      if (buf_[2 * i] != kEmpty) top = std::max(top, buf_[2 * i]);
    const std::uint32_t dc = dense_cap(top + 1);
    if (words(true, dc) * sizeof(std::uint32_t) <= hashed_bytes(used_ + 1)) {
      relayout(true, dc);
    } else {
      relayout(false, 2 * cap_);
    }
  }
  // A peer beyond the dense range: widen the range (doubling when that fits) or go back to hashed.
  std::uint32_t& dense_miss(std::uint32_t p) {
    const std::size_t budget = hashed_bytes(used_ + 1);
    const std::uint32_t wide = dense_cap(std::max<std::uint32_t>(p + 1, 2 * cap_));
    const std::uint32_t tight = dense_cap(p + 1);
    if (words(true, wide) * sizeof(std::uint32_t) <= budget) {
      relayout(true, wide);
    } else if (words(true, tight) * sizeof(std::uint32_t) <= budget) {
      relayout(true, tight);
    } else {
      relayout(false, static_cast<std::uint32_t>(hashed_slots(used_ + 1)));
    }
    return (*this)[static_cast<int>(p)];
  }
  void reset_hashed(std::uint32_t slots) {
    buf_ = allocate(2 * std::size_t{slots});
    for (std::uint32_t i = 0; i < slots; ++i) buf_[2 * i] = kEmpty;
    cap_ = slots;
    dense_ = false;
  }
  void put_hashed(std::uint32_t p, std::uint32_t v) {
    const std::uint32_t mask = cap_ - 1;
    std::size_t i = hash(p, cap_) & mask;
    while (buf_[2 * i] != kEmpty) i = (i + 1) & mask;
    buf_[2 * i] = p;
    buf_[2 * i + 1] = v;
  }
  // Rebuild in the given layout and capacity (slots or peers), keeping every (peer, value).
  void relayout(bool dense, std::uint32_t cap) {
    Buf old = std::move(buf_);
    const std::uint32_t old_cap = cap_;
    const bool old_dense = dense_;
    if (dense) {
      buf_ = allocate(words(true, cap));  // zeroed: values 0, no peer seen
      cap_ = cap;
      dense_ = true;
    } else {
      reset_hashed(cap);
    }
    auto keep = [&](std::uint32_t p, std::uint32_t v) {
      if (dense_) {
        std::uint32_t* block = buf_.get() + std::size_t{p / kBlockPeers} * kBlockWords;
        block[0] |= 1u << (p % kBlockPeers);
        block[1 + p % kBlockPeers] = v;
      } else {
        put_hashed(p, v);
      }
    };
    for (std::uint32_t i = 0; i < old_cap; ++i) {
      if (!old_dense && old[2 * i] != kEmpty) keep(old[2 * i], old[2 * i + 1]);
      if (old_dense) {
        const std::uint32_t* block = old.get() + std::size_t{i / kBlockPeers} * kBlockWords;
        if (block[0] >> (i % kBlockPeers) & 1u) keep(i, block[1 + i % kBlockPeers]);
      }
    }
  }

  Buf buf_;
  std::uint32_t cap_ = 0;   // hashed: slots (a power of two); dense: peers (a multiple of kBlockPeers)
  std::uint32_t used_ = 0;  // distinct peers seen
  bool dense_ = false;
};

}  // namespace ompisim
