// A pool of registered buffers that grows in steps up to a bound, with requests beyond it waiting in order: btl/ugni's
// eager-get free lists (btl_ugni_eager_num / _inc / _max) and Cray MPT's E1 DMA buffers (MPICH_GNI_NUM_BUFS, a fixed
// pool: inc 0) share it.
#pragma once
#include "core/errors.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>

namespace ompisim::base {

class BufferPool {
public:
  BufferPool(std::uint32_t num, std::uint32_t inc, std::uint32_t max) : allocated_(num), inc_(inc), max_(max) {}
  enum class Result { Got, Grew, Wait };
  // Takes a buffer if one is free (Got), after growing the pool (Grew: the caller pays the registration), or
  // queues `on_free` to run when one is returned (Wait).
  Result take(std::function<void()> on_free) {
    if (in_use_ < allocated_) return ++in_use_, Result::Got;
    if (allocated_ < max_) {
      allocated_ = std::min(max_, allocated_ + inc_);
      ++in_use_;
      return Result::Grew;
    }
    waiters_.push_back(std::move(on_free));
    return Result::Wait;
  }
  // Returns a buffer; hands it straight to the oldest waiter if any.
  void give_back() {
    if (in_use_ == 0) throw ProtocolError("buffer pool", "empty", "give_back");
    if (!waiters_.empty()) {
      auto w = std::move(waiters_.front());
      waiters_.pop_front();
      w();  // the buffer changes hands; in_use_ is unchanged
      return;
    }
    --in_use_;
  }
  std::uint32_t allocated() const { return allocated_; }
  std::uint32_t in_use() const { return in_use_; }
  std::size_t waiting() const { return waiters_.size(); }

private:
  std::uint32_t allocated_, inc_, max_, in_use_ = 0;
  std::deque<std::function<void()>> waiters_;
};

}  // namespace ompisim::base
