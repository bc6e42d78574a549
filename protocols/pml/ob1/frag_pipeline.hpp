// The rest of one rendezvous as pml/ob1 schedules it after the ACK, in either of the two schedules Open MPI had.
// A plain state machine (no clock, no engine): the caller asks next() for what to post and reports each completion
// with complete(btl index). In both, at most `depth` fragments of the request are in flight (req_pipeline_depth
// against pml_ob1_send_pipeline_depth / pml_ob1_recv_pipeline_depth), the next one posted when one completes, and
// offsets increase fragment by fragment. A BTL of weight 0 takes no part (the stripe_above what-if below its threshold).
//
// Schedule::Remaining -- Open MPI 1.1 and 1.2 (mca_pml_ob1_send_request_schedule for send FRAGs over the send array,
// mca_pml_ob1_recv_request_schedule for RDMA PUTs over the RDMA array; pml_ob1_sendreq.c / pml_ob1_recvreq.c of v1.1.0
// and v1.2.9): while bytes remain, the next BTL of the array in round robin (mca_bml_base_btl_array_get_next) gets a
// fragment sized from the bytes STILL REMAINING:
//   size = remaining                      when the array has one BTL, or remaining < the BTL's take-all threshold
//                                         (btl_min_send_size for FRAGs, btl_eager_limit for PUTs)
//   size = (size_t)(weight * remaining)   otherwise ("a percentage of the overall message length (regardless of amount
//                                         previously assigned)", bml/r2's bandwidth weight)
// capped at the BTL's fragment size (btl_max_send_size - FRAG header; btl_max_rdma_size).
// The RDMA side over a receive buffer already registered with the BTLs (`registered`: mca_pml_ob1_rdma_btls found a
// registration, req_rdma_cnt != 0, the branch at v1.1.1 pml_ob1_recvreq.c:607-644) differs in two ways: no
// btl_max_rdma_size cap (the cap at :673-676 is only in the branch that registers each fragment as it goes), and
// `num_btl_avail = req_rdma_cnt - req_rdma_idx` counts only the BTLs from the chosen one to the end of the array, so
// the last BTL in use takes all the remaining bytes. Over two BTLs the rest is two PUTs: the first BTL weight x rest,
// the second the remainder (its own weight's share).
//
// Schedule::WeightedLength -- Open MPI 1.3 and later (trunk from 54b40aef91 / e74aa6b295 / 77e54ebc7e, 2007-07-01;
// v1.3.0 to v1.8.8 unchanged): the range is split up front (mca_pml_ob1_calc_weighted_length, pml_ob1.h, called by
// mca_pml_ob1_send_request_copy_in_out for FRAGs and mca_pml_ob1_rdma_pipeline_btls for PUTs) over at most
// `max_btls` BTLs (pml_ob1_max_send_per_range / pml_ob1_max_rdma_per_request, default 4) sorted by decreasing weight:
// each gets (size_t)(size * weight / weight_total) of the WHOLE range while more than its btl_eager_limit is left
// unassigned, else all that is left; the rounding remainder goes to the first (heaviest). Fragments then go round
// robin over the BTLs that still have bytes (range_btl_idx / req_rdma_idx), each min(its bytes left, its fragment
// size) (mca_pml_ob1_send_request_schedule_once / mca_pml_ob1_recv_request_schedule_once). On the RDMA side the BTL
// whose fragment completed is scheduled first when it has bytes left (mca_pml_ob1_put_completion passes its bml_btl
// as start_bml_btl); the send side keeps plain round robin.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ompisim::pml::ob1 {

class FragPipeline {
public:
  // The largest fragment: a BTL segment's 32-bit seg_len (the registered-buffer PUTs' only cap above the weights).
  static constexpr std::uint64_t kMaxSegment = 0xffffffffu;
  enum class Schedule : std::uint8_t { WeightedLength = 0, Remaining = 1 };
  struct Btl {
    std::size_t btl = 0;          // caller's index of the BTL (opaque here)
    double weight = 0;            // bml/r2 weight (share of the range); 0: not used
    std::uint64_t max_frag = 1;   // largest fragment (>= 1)
    std::uint64_t take_all = 0;   // Remaining: below this many remaining bytes the fragment takes them all;
                                  // WeightedLength: the BTL's eager limit (takes what is left when no more remains)
    std::uint8_t flags = 0;       // descriptor flags of its fragments (PUT or none)
  };
  struct Frag {
    std::size_t share = 0;  // index into the BTLs given to the constructor
    std::size_t btl = 0;
    std::uint64_t offset = 0, len = 0;
    std::uint8_t flags = 0;
  };
  enum class State : std::uint8_t { Posting, Full, Draining, Done };

  // `bytes`: the rest of the message; `first_offset`: offset of its first byte (after the first fragment). `depth` < 1
  // counts as 1. At least one BTL must have a weight > 0 when `bytes` > 0 (std::invalid_argument otherwise).
  // WeightedLength: `max_btls` (>= 1) bounds the BTLs the range is split over (the first ones in the given order);
  // `refill_completer`: a completion puts its BTL first in line (the RDMA side). Remaining: `registered` selects the
  // RDMA side over an already registered buffer (above).
  FragPipeline(std::vector<Btl> btls, std::uint64_t first_offset, std::uint64_t bytes, int depth,
               Schedule schedule = Schedule::Remaining, int max_btls = 4, bool refill_completer = false,
               bool registered = false);

  // The next fragment to post, or nothing when `depth` fragments are in flight or every byte has been posted.
  std::optional<Frag> next();
  // Remaining: the round robin's position (the BTL index the next fragment starts looking from). Open MPI 1.1 keeps
  // it in the peer's BTL array (mca_bml_base_btl_array_get_next on btl_send / btl_rdma), so it carries over from one
  // request to the next: the caller restores it with start_at before the first next() and reads it back after each.
  void start_at(std::size_t share) { next_ = btl_.empty() ? 0 : share % btl_.size(); }
  std::size_t rr_position() const { return next_; }
  // A posted fragment of BTL `share` (Frag::share) completed. Returns true when it was the last one of the request.
  bool complete(std::size_t share);

  // Posting: bytes left and fewer than `depth` in flight; Full: `depth` in flight; Draining: everything posted,
  // some in flight; Done.
  State state() const;
  Schedule schedule() const { return schedule_; }
  int in_flight() const { return in_flight_; }
  int in_flight(std::size_t share) const { return share_in_flight_.at(share); }
  int depth() const { return depth_; }
  std::uint64_t remaining() const { return remaining_; }
  std::uint64_t posted_frags() const { return posted_; }
  // WeightedLength: bytes of the range assigned to BTL `share` up front (0 for Remaining).
  std::uint64_t assigned(std::size_t share) const { return assigned_.empty() ? 0 : assigned_.at(share); }

private:
  std::optional<Frag> post(std::size_t i, std::uint64_t len);
  std::vector<Btl> btl_;
  std::vector<int> share_in_flight_;
  std::size_t next_ = 0, used_ = 0;  // round-robin position; BTLs with a weight > 0
  std::uint64_t off_ = 0, remaining_ = 0, posted_ = 0, completed_ = 0;
  int in_flight_ = 0, depth_ = 1;
  Schedule schedule_ = Schedule::Remaining;
  bool refill_ = false, registered_ = false;
  // WeightedLength: the BTLs in calc_weighted_length's order (indices into btl_), bytes assigned up front and still
  // to post per BTL.
  std::vector<std::size_t> order_;
  std::vector<std::uint64_t> assigned_, left_;
};

const char* to_string(FragPipeline::State s);
const char* to_string(FragPipeline::Schedule s);

// mca_pml_ob1_calc_weighted_length (Open MPI v1.3.0 to v1.8.8 pml_ob1.h) over BTLs already in its order (sorted by
// decreasing weight): the bytes of `size` each one carries.
std::vector<std::uint64_t> calc_weighted_length(const std::vector<double>& weight,
                                                const std::vector<std::uint64_t>& eager_limit, std::uint64_t size);

}  // namespace ompisim::pml::ob1
