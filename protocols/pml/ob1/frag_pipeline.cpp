#include "protocols/pml/ob1/frag_pipeline.hpp"

#include <algorithm>

namespace ompisim::pml::ob1 {

FragPipeline::FragPipeline(std::vector<Share> shares, std::uint64_t first_offset, int depth)
    : share_(std::move(shares)), share_in_flight_(share_.size(), 0), off_(first_offset), depth_(std::max(1, depth)) {
  for (auto& s : share_) {
    s.chunk = std::max<std::uint64_t>(1, s.chunk);
    total_frags_ += (s.bytes + s.chunk - 1) / s.chunk;
  }
}

std::optional<FragPipeline::Frag> FragPipeline::next() {
  if (in_flight_ >= depth_ || posted_ == total_frags_) return std::nullopt;
  const std::size_t n = share_.size();
  std::size_t i = n;
  while (i == n && !freed_.empty()) {  // the slot goes back to the BTL that freed it, while it has bytes left
    if (share_[freed_.front()].bytes > 0) i = freed_.front();
    freed_.erase(freed_.begin());
  }
  if (i == n) {  // round robin over the BTLs with bytes left
    std::size_t k = 0;
    while (k < n && share_[(next_ + k) % n].bytes == 0) ++k;
    if (k == n) return std::nullopt;  // unreachable while posted_ < total_frags_
    i = (next_ + k) % n;
    next_ = (i + 1) % n;
  }
  Share& s = share_[i];
  Frag f{i, s.btl, off_, std::min(s.chunk, s.bytes), s.flags};
  s.bytes -= f.len;
  off_ += f.len;
  ++in_flight_;
  ++share_in_flight_[i];
  ++posted_;
  return f;
}

bool FragPipeline::complete(std::size_t share) {
  if (share < share_in_flight_.size() && share_in_flight_[share] > 0) {
    --share_in_flight_[share];
    --in_flight_;
    freed_.push_back(share);
  }
  ++completed_;
  return completed_ >= total_frags_;
}

FragPipeline::State FragPipeline::state() const {
  if (completed_ >= total_frags_) return State::Done;
  if (posted_ == total_frags_) return State::Draining;
  return in_flight_ >= depth_ ? State::Full : State::Posting;
}

const char* to_string(FragPipeline::State s) {
  switch (s) {
    case FragPipeline::State::Posting: return "posting";
    case FragPipeline::State::Full: return "full";
    case FragPipeline::State::Draining: return "draining";
    case FragPipeline::State::Done: return "done";
  }
  return "?";
}

}  // namespace ompisim::pml::ob1
