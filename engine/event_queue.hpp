// The event queue both engines use: a 4-ary heap ordered by time, then by insertion (so runs are deterministic and
// same-time events run in the order they were scheduled). The heap holds 16-byte keys; the callbacks stay in a slab
// and never move while the heap is reordered (with a million pending events the sift cost is the engine's hot spot).
// Cache layout (a whole-machine barrier has about one pending event per rank, a 5 MB heap and a 10 MB slab, so nearly
// every pop misses the cache):
// - the heap array starts on a 64-byte line and its root sits at index 3, so a node's four children are one aligned
//   64-byte line: a sift-down level touches one line, not two (LaMarca and Ladner's aligned d-heap);
// - the slab is a list of fixed 1,024-slot chunks reached through a small table (9 KB of pointers at 300,000
//   pending events, which stays in cache): it grows by chunks and never copies itself to a doubled array (a vector's
//   doubling held 1.5x-3x of the pending callbacks: 50 MB of a 250 MB Titan barrier), and a slot costs one dependent
//   load less than std::deque's 16-slot blocks;
// - pop() prefetches the next earliest event's slot, so that slot's line arrives while the popped callback runs.
// Slots are touched only on push and pop, never in the sift loops.
#pragma once
#include "core/sim.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace ompisim::engine {

class EventQueue {
public:
  EventQueue() { heap_.resize(kRoot); }  // three unused keys before the root (see the layout above)
  void push(double t, Callback cb) {
    std::uint32_t slot;
    if (free_.empty()) {
      if (slots_ >= kMaxSlots) throw std::length_error("EventQueue: more than 2^26 pending events");
      slot = slots_++;
      if ((slot & (kChunk - 1)) == 0) chunks_.push_back(std::make_unique<Callback[]>(kChunk));
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    at(slot) = std::move(cb);
    heap_.push_back(Key{t, (seq_++ << kSlotBits) | slot});
    sift_up(heap_.size() - 1);
  }
  bool empty() const { return heap_.size() == kRoot; }
  std::size_t size() const { return heap_.size() - kRoot; }
  double top_time() const { return heap_[kRoot].t; }
  // Removes the earliest event and returns it (time, callback).
  std::pair<double, Callback> pop() {
    Key k = take_root();
    const std::uint32_t slot = slot_of(k);
    Callback& s = at(slot);
    Callback cb = std::move(s);
    s = nullptr;
    free_.push_back(slot);
    return {k.t, std::move(cb)};
  }
  // Removes the earliest event and runs its callback where it lies (no move out of the slab: the engines' loop). The
  // callback may push: its slot is not free until it returns, and a new chunk never moves the existing ones.
  void run_top() {
    const std::uint32_t slot = slot_of(take_root());
    struct Release {  // frees the slot after the callback, also when it throws
      EventQueue& q;
      std::uint32_t slot;
      ~Release() {
        q.at(slot) = nullptr;
        q.free_.push_back(slot);
      }
    } release{*this, slot};
    at(slot)();
  }

private:
  // 16-byte keys, so a node's four children fill one cache line: insertion number in the high 38 bits (ties in time
  // run in insertion order; 2^38 events per run), callback slot in the low 26 bits (at most 2^26 pending events).
  static constexpr int kSlotBits = 26;
  static constexpr std::uint32_t kMaxSlots = std::uint32_t{1} << kSlotBits;
  static constexpr std::uint32_t kChunkBits = 10, kChunk = std::uint32_t{1} << kChunkBits;
  struct Key {
    double t;
    std::uint64_t order;
  };
  static_assert(sizeof(Key) == 16);
  static std::uint32_t slot_of(const Key& k) { return static_cast<std::uint32_t>(k.order & (kMaxSlots - 1)); }
  Callback& at(std::uint32_t slot) { return chunks_[slot >> kChunkBits][slot & (kChunk - 1)]; }
  Key take_root() {
    Key k = heap_[kRoot];
    heap_[kRoot] = heap_.back();
    heap_.pop_back();
    if (!empty()) {
      sift_down(kRoot);
      __builtin_prefetch(&at(slot_of(heap_[kRoot])), 1);  // the next pop's callback
    }
    return k;
  }
  static bool before(const Key& a, const Key& b) { return a.t < b.t || (a.t == b.t && a.order < b.order); }
  // A 4-ary heap: half the levels of a binary one. The root is at index kRoot = 3 and the children of node i are
  // 4(i-2) .. 4(i-2)+3 (the root's are 4..7), its parent i/4 + 2: every group of four siblings starts at a multiple
  // of 4 keys, i.e. of 64 bytes, and the array is 64-byte aligned.
  static constexpr std::size_t kArity = 4, kRoot = 3;
  void sift_up(std::size_t i) {
    Key k = heap_[i];
    while (i > kRoot) {
      std::size_t parent = i / kArity + 2;
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
      std::size_t first = (i - 2) * kArity;
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
  template <class T>
  struct LineAlloc {  // 64-byte aligned storage for the heap
    using value_type = T;
    LineAlloc() = default;
    template <class U>
    LineAlloc(const LineAlloc<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
    template <class U>
    bool operator==(const LineAlloc<U>&) const { return true; }
  };
  std::vector<Key, LineAlloc<Key>> heap_;
  std::vector<std::unique_ptr<Callback[]>> chunks_;
  std::uint32_t slots_ = 0;  // slots handed out so far (chunks_ holds them)
  std::vector<std::uint32_t> free_;
  std::uint64_t seq_ = 0;
};

}  // namespace ompisim::engine
