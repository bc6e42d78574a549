// The event queue the engines use: events come out by time, and same-time events in the order they were scheduled
// (so runs are deterministic). The engines never schedule before the last event taken out (Simulator::at clamps to
// now), so the queue is a monotone priority queue: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan) over the bits of
// the time. A non-negative double orders as its 64-bit pattern; bucket 0 holds the keys equal to the last key taken,
// bucket b >= 1 those whose highest bit differing from it is bit b-1. A push appends to its bucket; when bucket 0 is
// empty the lowest non-empty bucket is split by its smallest key into lower buckets (a key only moves down, at most 64
// times). All same-time keys sit in one bucket in push order and move together in order, so same-time events keep
// their insertion order: the order is exactly that of a (time, insertion number) heap.
// Cache layout (a whole-machine barrier has about one pending event per rank, a 5 MB queue and a 10 MB slab): every
// access to the keys is a sequential append or scan (a 4-ary heap's sift-down missed the cache at every level below
// the top few: 34 % of a 299,008-rank Titan barrier's CPU); the callbacks stay in a slab and never move;
// - a bucket is a list of fixed 4 KiB blocks of keys (340 times and slots), taken from and given back to one free
//   list that never returns memory: a split hands each block back as soon as its keys are placed, so the queue holds
//   about its largest number of pending keys (12 bytes each) plus a partly filled block per bucket. Buckets as vectors
//   grew by doubling and freed the split one; jemalloc purged those buffers and the next growth faulted them in
//   again, zeroing 2 MiB huge pages: a fifth of the 299,008-rank Titan p2p barrier's CPU;
// - the slab is a list of fixed 1,024-slot chunks reached through a small table (9 KB of pointers at 300,000
//   pending events, which stays in cache): it grows by chunks and never copies itself to a doubled array (a vector's
//   doubling held 1.5x-3x of the pending callbacks: 50 MB of a 250 MB Titan barrier), and a slot costs one dependent
//   load less than std::deque's 16-slot blocks;
// - taking an event prefetches the next earliest event's slot when it is known (bucket 0 not empty), so that slot's
//   line arrives while the taken callback runs.
// Slots are touched only on push and pop, never while keys are split.
#pragma once
#include "core/sim.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <stdexcept>
#include <vector>

namespace ompisim::engine {

class EventQueue {
public:
  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  void push(double t, Callback cb) {
    const std::uint64_t k = key_of(t);
    std::uint32_t slot;
    if (free_.empty()) {
      if (slots_ >= kMaxSlots) throw std::length_error("EventQueue: more than 2^32 - 1 pending events");
      slot = slots_++;
      if ((slot & (kChunk - 1)) == 0) chunks_.push_back(std::make_unique<Callback[]>(kChunk));
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    at(slot) = std::move(cb);
    place(k, slot);
    if (size_++ == 0) min_ = k;
    else if (min_ != kUnknown && k < min_) min_ = k;  // an unknown minimum stays unknown
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  double top_time() const { return std::bit_cast<double>(min_key()); }
  // Removes the earliest event and returns it (time, callback).
  std::pair<double, Callback> pop() {
    const Key k = take_min();
    Callback& s = at(k.slot);
    Callback cb = std::move(s);
    s = nullptr;
    free_.push_back(k.slot);
    return {std::bit_cast<double>(k.t), std::move(cb)};
  }
  // Removes the earliest event and runs its callback where it lies (no move out of the slab: the engines' loop). The
  // callback may push: its slot is not free until it returns, and a new chunk never moves the existing ones.
  void run_top() {
    const std::uint32_t slot = take_min().slot;
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
  struct Key {
    std::uint64_t t;  // the time's bit pattern
    std::uint32_t slot;
  };
  static constexpr std::uint32_t kBlockKeys = 340;  // 340 x (8 + 4) bytes and a link: one 4 KiB block
  struct Block {
    std::uint64_t t[kBlockKeys];
    std::uint32_t slot[kBlockKeys];
    std::uint32_t n;  // keys held
    Block* next;
  };
  struct Bucket {  // keys in push order: head's first key first
    Block* head = nullptr;
    Block* tail = nullptr;
  };
  static constexpr std::uint32_t kMaxSlots = ~std::uint32_t{0};
  static constexpr std::uint32_t kChunkBits = 10, kChunk = std::uint32_t{1} << kChunkBits;
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};  // above every time's pattern (+inf included)
  static constexpr int kBuckets = 65;
  Callback& at(std::uint32_t slot) { return chunks_[slot >> kChunkBits][slot & (kChunk - 1)]; }
  std::uint64_t key_of(double t) const {
    if (!(t >= 0)) throw std::invalid_argument("EventQueue: an event at a negative or NaN time");
    const std::uint64_t k = std::bit_cast<std::uint64_t>(t + 0.0);  // -0.0 becomes +0.0
    if (k < last_) throw std::logic_error("EventQueue: an event before the last one taken out");
    return k;
  }
  int bucket_of(std::uint64_t k) const { return k == last_ ? 0 : 64 - std::countl_zero(k ^ last_); }
  Block* new_block() {
    Block* x = spare_;
    if (x) {
      spare_ = x->next;
    } else {
      blocks_.push_back(std::make_unique_for_overwrite<Block>());
      x = blocks_.back().get();
    }
    x->n = 0;
    x->next = nullptr;
    return x;
  }
  void free_block(Block* x) {
    x->next = spare_;
    spare_ = x;
  }
  void place(std::uint64_t t, std::uint32_t slot) {
    const int b = bucket_of(t);
    Bucket& u = buckets_[b];
    Block* x = u.tail;
    if (!x || x->n == kBlockKeys) {
      x = new_block();
      (u.tail ? u.tail->next : u.head) = x;
      u.tail = x;
    }
    x->t[x->n] = t;
    x->slot[x->n] = slot;
    ++x->n;
    if (b > 0) used_ |= std::uint64_t{1} << (b - 1);
  }
  // Bucket 0 is a FIFO: its head block's keys before head_ are taken; a block is linked only with a key in it.
  bool front_empty() const {
    const Block* h = buckets_[0].head;
    return !h || (head_ == h->n && !h->next);
  }
  // The smallest pending key: the last key taken while bucket 0 holds more, else found in the lowest bucket in use
  // (remembered until a pop).
  std::uint64_t min_key() const {
    if (!front_empty()) return last_;
    if (min_ == kUnknown && size_ > 0) {
      for (const Block* x = buckets_[1 + std::countr_zero(used_)].head; x; x = x->next)
        for (std::uint32_t i = 0; i < x->n; ++i) min_ = std::min(min_, x->t[i]);
    }
    return min_;
  }
  Key take_min() {
    Bucket& front = buckets_[0];
    if (front_empty()) {
      const std::uint64_t m = min_key();
      const int b = 1 + std::countr_zero(used_);
      if (front.head) free_block(front.head);  // an emptied bucket 0 holds its one (taken) block
      front = Bucket{};
      head_ = 0;
      Block* x = std::exchange(buckets_[b], Bucket{}).head;
      used_ &= ~(std::uint64_t{1} << (b - 1));
      last_ = m;
      while (x) {  // every key lands below b, same-time keys in their order; each block is free once placed
        for (std::uint32_t i = 0; i < x->n; ++i) place(x->t[i], x->slot[i]);
        Block* next = x->next;
        free_block(x);
        x = next;
      }
    }
    Block* h = front.head;
    if (head_ == h->n) {  // the head block is used up and another follows
      front.head = h->next;
      free_block(h);
      h = front.head;
      head_ = 0;
    }
    const Key k{h->t[head_], h->slot[head_]};
    ++head_;
    --size_;
    if (front_empty()) {
      min_ = kUnknown;
    } else {
      min_ = last_;
      const std::uint32_t next = head_ < h->n ? h->slot[head_] : h->next->slot[0];
      __builtin_prefetch(&at(next), 1);  // the next pop's callback
    }
    return k;
  }
  Bucket buckets_[kBuckets];
  std::uint32_t head_ = 0;        // keys of bucket 0's head block taken so far
  std::uint64_t used_ = 0;        // bit b-1: bucket b (>= 1) is not empty
  std::uint64_t last_ = 0;        // the last key taken out (0 before the first)
  mutable std::uint64_t min_ = kUnknown;  // the smallest pending key when known
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<Block>> blocks_;  // every block made so far
  Block* spare_ = nullptr;                      // free blocks, linked through next
  std::vector<std::unique_ptr<Callback[]>> chunks_;
  std::uint32_t slots_ = 0;  // slots handed out so far (chunks_ holds them)
  std::vector<std::uint32_t> free_;
};

}  // namespace ompisim::engine
