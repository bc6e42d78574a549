// A fixed free list of descriptors, as Open MPI's 2004 ptl/elan keeps them (src/mca/ptl/elan/src): tx_desc_free for
// QDMA sends, put_desc_free and get_desc_free for RDMAs, each filled once at initialisation
// (ptl_elan_comm_init.c) and never grown. mca_ptl_elan_alloc_desc (ptl_elan_frag.c) takes the first free one, and
// with none free it spins in the component's progress until one is given back: here the work waits in order and runs
// when a descriptor comes back. Plain C++: no time.
#pragma once
#include <deque>
#include <functional>
#include <stdexcept>

namespace ompisim::ptl::elan4 {

class DescPool {
public:
  explicit DescPool(int size) : size_(size), free_(size) {
    if (size < 1) throw std::invalid_argument("a descriptor pool needs at least one descriptor");
  }
  // Runs `work` now with a descriptor if one is free (returns false), else once one is given back (returns true).
  bool take(std::function<void()> work) {
    if (free_ > 0) {
      --free_;
      work();
      return false;
    }
    waiting_.push_back(std::move(work));
    return true;
  }
  // A descriptor comes back: the oldest waiting work takes it (and runs now), else it is free.
  void give_back() {
    if (!waiting_.empty()) {
      auto w = std::move(waiting_.front());
      waiting_.pop_front();
      w();
      return;
    }
    if (free_ == size_) throw std::logic_error("a descriptor given back that was not taken");
    ++free_;
  }
  int free() const { return free_; }
  std::size_t waiting() const { return waiting_.size(); }

private:
  int size_, free_;
  std::deque<std::function<void()>> waiting_;
};

}  // namespace ompisim::ptl::elan4
