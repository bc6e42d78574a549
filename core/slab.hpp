// Slab<T>: records of a component's in-flight operations, named by a 32-bit index, so that the callbacks of an
// operation capture (this, index) and fit std::function's inline buffer (16 bytes) instead of each copying the
// operation's fields into a heap-allocated closure. Fixed chunks of 1,024 records reached through a small table: a
// record never moves while it lives (a reference stays valid across later creates), freed indices are reused first,
// and memory follows the largest number of records alive at once (never given back).
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ompisim {

template <class T>
class Slab {
public:
  // A new record built from `args`; its index stays valid until erase().
  template <class... Args>
  std::uint32_t create(Args&&... args) {
    std::uint32_t i;
    if (free_.empty()) {
      i = top_++;
      if ((i & (kChunk - 1)) == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
    } else {
      i = free_.back();
      free_.pop_back();
    }
    (*this)[i] = T{std::forward<Args>(args)...};
    ++live_;
    return i;
  }
  T& operator[](std::uint32_t i) { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }
  // Frees record i (reset to T{}, releasing what it holds); its index is reused by a later create().
  void erase(std::uint32_t i) {
    (*this)[i] = T{};
    free_.push_back(i);
    --live_;
  }
  std::size_t size() const { return live_; }

private:
  static constexpr std::uint32_t kChunkBits = 10, kChunk = std::uint32_t{1} << kChunkBits;
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<std::uint32_t> free_;
  std::uint32_t top_ = 0;
  std::size_t live_ = 0;
};

}  // namespace ompisim
