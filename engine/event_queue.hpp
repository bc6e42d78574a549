// The event queue both engines use: a 4-ary heap ordered by time, then by insertion (so runs are deterministic and
// same-time events run in the order they were scheduled). The heap holds 16-byte keys; the callbacks stay in a slab
// and never move while the heap is reordered (with a million pending events the sift cost is the engine's hot spot).
// The slab is a deque: it grows by fixed chunks, never by copying itself to an array twice its size, so a
// whole-machine run's peak holds the pending callbacks once (a vector's doubling held 1.5x-3x of them: 50 MB of a
// 250 MB Titan barrier). Slots are touched only on push and pop, never in the sift loops.
#pragma once
#include "core/sim.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <vector>

namespace ompisim::engine {

class EventQueue {
public:
  void push(double t, Callback cb) {
    std::uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(slab_.size());
      slab_.push_back(std::move(cb));
    } else {
      slot = free_.back();
      free_.pop_back();
      slab_[slot] = std::move(cb);
    }
    if (slot >= kMaxSlots) throw std::length_error("EventQueue: more than 2^26 pending events");
    heap_.push_back(Key{t, (seq_++ << kSlotBits) | slot});
    sift_up(heap_.size() - 1);
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  double top_time() const { return heap_.front().t; }
  // Removes the earliest event and returns it (time, callback).
  std::pair<double, Callback> pop() {
    Key k = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    const auto slot = static_cast<std::uint32_t>(k.order & (kMaxSlots - 1));
    Callback cb = std::move(slab_[slot]);
    slab_[slot] = nullptr;
    free_.push_back(slot);
    return {k.t, std::move(cb)};
  }

private:
  // 16-byte keys, so a node's four children share one cache line: insertion number in the high 38 bits (ties in time
  // run in insertion order; 2^38 events per run), callback slot in the low 26 bits (at most 2^26 pending events).
  static constexpr int kSlotBits = 26;
  static constexpr std::uint64_t kMaxSlots = std::uint64_t{1} << kSlotBits;
  struct Key {
    double t;
    std::uint64_t order;
  };
  static bool before(const Key& a, const Key& b) { return a.t < b.t || (a.t == b.t && a.order < b.order); }
  // A 4-ary heap: half the levels of a binary one, and the four children share one or two cache lines.
  static constexpr std::size_t kArity = 4;
  void sift_up(std::size_t i) {
    Key k = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / kArity;
      if (!before(k, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = k;
  }
  void sift_down(std::size_t i) {
    Key k = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      std::size_t first = i * kArity + 1;
      if (first >= n) break;
      std::size_t best = first, last = std::min(first + kArity, n);
      for (std::size_t c = first + 1; c < last; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], k)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = k;
  }
  std::vector<Key> heap_;
  std::deque<Callback> slab_;
  std::vector<std::uint32_t> free_;
  std::uint64_t seq_ = 0;
};

}  // namespace ompisim::engine
