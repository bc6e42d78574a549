#include "protocols/pml/ob1/frag_pipeline.hpp"
#include "protocols/base/transition_table.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ompisim::pml::ob1 {

std::vector<std::uint64_t> calc_weighted_length(const std::vector<double>& weight,
                                                const std::vector<std::uint64_t>& eager_limit, std::uint64_t size) {
  std::vector<std::uint64_t> out(weight.size(), 0);
  if (out.empty()) return out;
  if (out.size() == 1) {  // "shortcut for common case for only one BTL"
    out[0] = size;
    return out;
  }
  const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::uint64_t left = size;
  for (std::size_t i = 0; i < out.size() && left; ++i) {
    std::uint64_t len = left > eager_limit[i]
                            ? static_cast<std::uint64_t>(static_cast<double>(size) * (weight[i] / total))
                            : left;
    len = std::min(len, left);
    out[i] = len;
    left -= len;
  }
  out[0] += left;  // "account for rounding errors"
  return out;
}

FragPipeline::FragPipeline(std::vector<Btl> btls, std::uint64_t first_offset, std::uint64_t bytes, int depth,
                           Schedule schedule, int max_btls, bool refill_completer, bool registered)
    : btl_(std::move(btls)), share_in_flight_(btl_.size(), 0), off_(first_offset), remaining_(bytes),
      depth_(std::max(1, depth)), schedule_(schedule), refill_(refill_completer), registered_(registered) {
  for (auto& b : btl_) {
    b.max_frag = std::max<std::uint64_t>(1, b.max_frag);
    if (b.weight > 0) ++used_;
  }
  if (bytes > 0 && used_ == 0) throw std::invalid_argument("pml/ob1 fragment pipeline: no BTL with a weight");
  if (schedule_ != Schedule::WeightedLength) return;
  // The BTLs of the range: the first max_btls in use, sorted by decreasing weight (qsort with
  // mca_pml_ob1_com_btl_comp; stable here, so equal weights keep the array's order).
  for (std::size_t i = 0; i < btl_.size() && order_.size() < static_cast<std::size_t>(std::max(1, max_btls)); ++i)
    if (btl_[i].weight > 0) order_.push_back(i);
  std::stable_sort(order_.begin(), order_.end(), [this](std::size_t a, std::size_t b) {
    return btl_[a].weight > btl_[b].weight;
  });
  std::vector<double> w;
  std::vector<std::uint64_t> eager;
  for (std::size_t i : order_) w.push_back(btl_[i].weight), eager.push_back(btl_[i].take_all);
  const std::vector<std::uint64_t> len = calc_weighted_length(w, eager, bytes);
  assigned_.assign(btl_.size(), 0);
  for (std::size_t k = 0; k < order_.size(); ++k) assigned_[order_[k]] = len[k];
  left_ = assigned_;
}

std::optional<FragPipeline::Frag> FragPipeline::post(std::size_t i, std::uint64_t len) {
  const Btl& b = btl_[i];
  Frag f{i, b.btl, off_, len, b.flags};
  remaining_ -= len;
  off_ += len;
  ++in_flight_;
  ++share_in_flight_[i];
  ++posted_;
  return f;
}

std::optional<FragPipeline::Frag> FragPipeline::next() {
  if (in_flight_ >= depth_ || remaining_ == 0) return std::nullopt;
  if (schedule_ == Schedule::WeightedLength) {
    // Round robin over the range's BTLs with bytes left (the do/while over range_btl_idx / req_rdma_idx).
    const std::size_t n = order_.size();
    std::size_t k = next_ % n;
    while (left_[order_[k]] == 0) k = (k + 1) % n;
    next_ = (k + 1) % n;
    const std::size_t i = order_[k];
    const std::uint64_t len = std::min(left_[i], btl_[i].max_frag);
    left_[i] -= len;
    return post(i, len);
  }
  const std::size_t n = btl_.size();
  std::size_t i = next_ % n;
  while (btl_[i].weight <= 0) i = (i + 1) % n;  // mca_bml_base_btl_array_get_next over the BTLs in use
  next_ = (i + 1) % n;
  const Btl& b = btl_[i];
  // Registered buffer: num_btl_avail == 1 for the last BTL of the array in use (v1.1.1 pml_ob1_recvreq.c:614, 623).
  const bool last_avail =
      registered_ && std::none_of(btl_.begin() + static_cast<std::ptrdiff_t>(i) + 1, btl_.end(),
                                  [](const Btl& x) { return x.weight > 0; });
  std::uint64_t len = remaining_;
  if (used_ > 1 && !last_avail && remaining_ >= b.take_all) {
    len = static_cast<std::uint64_t>(b.weight * static_cast<double>(remaining_));
    len = std::clamp<std::uint64_t>(len, 1, remaining_);
  }
  if (!registered_) len = std::min(len, b.max_frag);  // :673-676, only where each fragment is registered
  // A fragment is one BTL segment, whose length is a 32-bit seg_len (mca_btl_base_segment_t, carried in v1.1's PUT
  // header as the receiver's registered segment): at most 4 GiB - 1 B. An MPI_BYTE message of 1.1's int count never
  // reaches it; a larger message (MPI_INT counts, a what-if size) takes one more fragment of the same schedule.
  len = std::min<std::uint64_t>(len, kMaxSegment);
  return post(i, len);
}

bool FragPipeline::complete(std::size_t share) {
  if (share < share_in_flight_.size() && share_in_flight_[share] > 0) {
    --share_in_flight_[share];
    --in_flight_;
    // mca_pml_ob1_recv_request_schedule_once(recvreq, start_bml_btl): "if starting bml_btl is provided schedule next
    // fragment on it first" when "something left to be send".
    if (refill_ && schedule_ == Schedule::WeightedLength && left_[share] > 0)
      next_ = static_cast<std::size_t>(std::find(order_.begin(), order_.end(), share) - order_.begin());
  }
  ++completed_;
  return remaining_ == 0 && completed_ >= posted_;
}

FragPipeline::State FragPipeline::state() const {
  if (remaining_ == 0) return completed_ >= posted_ ? State::Done : State::Draining;
  return in_flight_ >= depth_ ? State::Full : State::Posting;
}

namespace {
constexpr std::array<const char*, 4> kStateNames{"posting", "full", "draining", "done"};
constexpr std::array<const char*, 2> kScheduleNames{"weighted_length", "remaining"};
}  // namespace

const char* to_string(FragPipeline::State s) { return name_of<FragPipeline::State::Done>(s, kStateNames); }
const char* to_string(FragPipeline::Schedule s) {
  return name_of<FragPipeline::Schedule::Remaining>(s, kScheduleNames);
}

}  // namespace ompisim::pml::ob1
