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
  // Open MPI's free lists cap every growth at the maximum, the first one too (opal/class/opal_free_list.c,
  // ompi_free_list_grow in the 1.x series: num_elements = fl_max_to_alloc - fl_num_allocated when more is asked), so
  // an initial count above the maximum allocates the maximum; a maximum of 0 is no limit.
  BufferPool(std::uint32_t num, std::uint32_t inc, std::uint32_t max)
      : allocated_(first_allocation(num, max)), inc_(inc), max_(max > 0 ? max : UINT32_MAX) {}
  // The buffers a pool of initial count `num` and maximum `max` (0: none) allocates first.
  static std::uint32_t first_allocation(std::uint32_t num, std::uint32_t max) { return max > 0 ? std::min(num, max) : num; }
  enum class Result { Got, Grew, Wait };
  // Takes a buffer if one is free (Got), after growing the pool (Grew: the caller pays the registration), or
  // queues `on_free` to run when one is returned (Wait).
  Result take(std::function<void()> on_free) {
    if (in_use_ < allocated_) return ++in_use_, Result::Got;
    if (allocated_ < max_ && inc_ > 0) {  // an increment of 0 never grows (ompi_free_list_grow of 0 elements fails)
      allocated_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(max_, std::uint64_t{allocated_} + inc_));
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
