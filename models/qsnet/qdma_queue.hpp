// An Elan4 QDMA receive queue (libelan4's ELAN4_QUEUE with its QSLOTS): a fixed number of fixed-size slots in host
// memory that remote QDMAs write into, in arrival order; the host consumes the oldest slot and gives it back. A QDMA
// that finds no free slot is refused (the NIC retries it later: flow control is the sender NIC's retry, never a
// drop). Plain C++, no time: models/qsnet/elan4.cpp prices it.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>

namespace ompisim::qsnet {

template <class Msg>
class QdmaQueue {
public:
  enum class Put : std::uint8_t { Stored, Full, TooLarge };
  QdmaQueue(int slots, std::uint32_t slot_bytes) : slots_(slots), slot_bytes_(slot_bytes) {
    if (slots < 1) throw std::invalid_argument("QDMA queue: at least one slot");
  }
  // The NIC writes a message of `bytes` into the next free slot.
  Put put(std::uint32_t bytes, Msg m) {
    if (bytes > slot_bytes_) return Put::TooLarge;
    if (static_cast<int>(q_.size()) >= slots_) {
      ++refused_;
      return Put::Full;
    }
    q_.push_back(std::move(m));
    ++stored_;
    return Put::Stored;
  }
  bool empty() const { return q_.empty(); }
  // The host takes the oldest message; its slot is free again.
  Msg pop() {
    if (q_.empty()) throw std::logic_error("QDMA queue: pop on an empty queue");
    Msg m = std::move(q_.front());
    q_.pop_front();
    ++consumed_;
    return m;
  }
  int used() const { return static_cast<int>(q_.size()); }
  int free_slots() const { return slots_ - used(); }
  int slots() const { return slots_; }
  std::uint32_t slot_bytes() const { return slot_bytes_; }
  std::uint64_t stored() const { return stored_; }
  std::uint64_t consumed() const { return consumed_; }
  std::uint64_t refused() const { return refused_; }

private:
  int slots_;
  std::uint32_t slot_bytes_;
  std::deque<Msg> q_;
  std::uint64_t stored_ = 0, consumed_ = 0, refused_ = 0;
};

}  // namespace ompisim::qsnet
