#include "protocols/pml/ob1/frag_pipeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::pml::ob1 {

FragPipeline::FragPipeline(std::vector<Btl> btls, std::uint64_t first_offset, std::uint64_t bytes, int depth)
    : btl_(std::move(btls)), share_in_flight_(btl_.size(), 0), off_(first_offset), remaining_(bytes),
      depth_(std::max(1, depth)) {
  for (auto& b : btl_) {
    b.max_frag = std::max<std::uint64_t>(1, b.max_frag);
    if (b.weight > 0) ++used_;
  }
  if (bytes > 0 && used_ == 0) throw std::invalid_argument("pml/ob1 fragment pipeline: no BTL with a weight");
}

std::optional<FragPipeline::Frag> FragPipeline::next() {
  if (in_flight_ >= depth_ || remaining_ == 0) return std::nullopt;
  const std::size_t n = btl_.size();
  std::size_t i = next_ % n;
  while (btl_[i].weight <= 0) i = (i + 1) % n;  // mca_bml_base_btl_array_get_next over the BTLs in use
  next_ = (i + 1) % n;
  const Btl& b = btl_[i];
  std::uint64_t len = remaining_;
  if (used_ > 1 && remaining_ >= b.take_all) {
    len = static_cast<std::uint64_t>(b.weight * static_cast<double>(remaining_));
    len = std::clamp<std::uint64_t>(len, 1, remaining_);
  }
  len = std::min(len, b.max_frag);
  Frag f{i, b.btl, off_, len, b.flags};
  remaining_ -= len;
  off_ += len;
  ++in_flight_;
  ++share_in_flight_[i];
  ++posted_;
  return f;
}

bool FragPipeline::complete(std::size_t share) {
  if (share < share_in_flight_.size() && share_in_flight_[share] > 0) {
    --share_in_flight_[share];
    --in_flight_;
  }
  ++completed_;
  return remaining_ == 0 && completed_ >= posted_;
}

FragPipeline::State FragPipeline::state() const {
  if (remaining_ == 0) return completed_ >= posted_ ? State::Done : State::Draining;
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
