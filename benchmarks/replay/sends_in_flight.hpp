// The replay's sends not yet received, by (src, dst, tag), each pair's oldest first: what a receive's completion
// removes, and what is left when every rank ended (a send no receive matched, an input error).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace ompisim::bench::replay {

// A send not yet received: its line in the sender's trace.
struct InFlight {
  std::uint64_t bytes, line;
};

// The sends of one (src, dst, tag) not yet received, oldest first: a vector read from `head`, emptied but not freed
// when the last is received, so a pair that has one message in flight at a time allocates once for the whole run.
struct SendFifo {
  std::vector<InFlight> q;
  std::size_t head = 0;
  bool empty() const { return head == q.size(); }
  const InFlight& front() const { return q[head]; }
  void pop() {
    if (++head == q.size()) {
      q.clear(), head = 0;
    } else if (head >= 64 && 2 * head >= q.size()) {  // a queue that never drains: drop what was read
      q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
  }
};
using MsgKey = std::tuple<int, int, int>;  // (src, dst, tag)

// The sends not yet received, by (src, dst, tag): open addressing (linear probing, a power-of-two table at most half
// full) with each pair's FIFO in its slot, so a receive's completion reads one slot. A pair keeps its slot once its
// FIFO empties (a trace's pairs are few and recur).
class SendsInFlight {
public:
  void push(const MsgKey& k, InFlight f) {
    find(k, true)->fifo.q.push_back(f);
    ++count_;
  }
  // Removes the oldest send of (src, dst, tag) and returns it (nothing when none is in flight).
  std::optional<InFlight> pop(const MsgKey& k) {
    Slot* s = find(k, false);
    if (!s || s->fifo.empty()) return std::nullopt;
    const InFlight f = s->fifo.front();
    s->fifo.pop(), --count_;
    return f;
  }
  std::uint64_t size() const { return count_; }
  // The least (src, dst, tag) with a send not received, and its oldest such send (size() > 0).
  std::pair<MsgKey, InFlight> first() const {
    const Slot* best = nullptr;
    for (const Slot& s : slots_)
      if (s.used && !s.fifo.empty() && (!best || s.key < best->key)) best = &s;
    return {best->key, best->fifo.front()};
  }

private:
  struct Slot {
    MsgKey key{};
    bool used = false;
    SendFifo fifo;
  };
  static std::size_t hash(const MsgKey& k) {
    auto [a, b, c] = k;
    std::uint64_t h = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b)) ^
                      static_cast<std::uint64_t>(static_cast<std::uint32_t>(c)) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ (h >> 31)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  Slot* find(const MsgKey& k, bool add) {
    if (add && 2 * (used_ + 1) > slots_.size()) grow();
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.used && s.key == k) return &s;
      if (!s.used) {
        if (!add) return nullptr;
        s.used = true, s.key = k, ++used_;
        return &s;
      }
    }
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(old.empty() ? 1024 : 2 * old.size());
    const std::size_t mask = slots_.size() - 1;
    for (Slot& o : old) {
      if (!o.used) continue;
      std::size_t i = hash(o.key) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = std::move(o);
    }
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::uint64_t count_ = 0;
};

}  // namespace ompisim::bench::replay
