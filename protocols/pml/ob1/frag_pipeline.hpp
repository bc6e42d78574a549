// The rest of one rendezvous as pml/ob1 of Open MPI 1.1 schedules it after the ACK (mca_pml_ob1_send_request_schedule
// for send FRAGs over the send array, mca_pml_ob1_recv_request_schedule for RDMA PUTs over the RDMA array;
// pml_ob1_sendreq.c / pml_ob1_recvreq.c of v1.1.0): while bytes remain and fewer than `depth` fragments of the request
// are in flight (req_pipeline_depth against pml_ob1_send_pipeline_depth / pml_ob1_recv_pipeline_depth), the next BTL
// of the array in round robin (mca_bml_base_btl_array_get_next) gets a fragment sized from the bytes STILL REMAINING:
//   size = remaining                      when the array has one BTL, or remaining < the BTL's take-all threshold
//                                         (btl_min_send_size for FRAGs, btl_eager_limit for PUTs)
//   size = (size_t)(weight * remaining)   otherwise ("a percentage of the overall message length (regardless of amount
//                                         previously assigned)", bml/r2's bandwidth weight)
// capped at the BTL's fragment size (btl_max_send_size - FRAG header; btl_max_rdma_size). The next one is posted when
// one completes; offsets increase fragment by fragment. (Open MPI 1.3 and later split each range up front,
// mca_pml_ob1_calc_weighted_length; this is the 1.1 schedule the heterogeneous paper ran.)
// A BTL of weight 0 takes no part (the stripe_above what-if below its threshold). A plain state machine (no clock, no
// engine): the caller asks next() for what to post and reports each completion with complete(btl index).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ompisim::pml::ob1 {

class FragPipeline {
public:
  struct Btl {
    std::size_t btl = 0;          // caller's index of the BTL (opaque here)
    double weight = 0;            // share of the remaining bytes a fragment takes (bml/r2 weight); 0: not used
    std::uint64_t max_frag = 1;   // largest fragment (>= 1)
    std::uint64_t take_all = 0;   // below this many remaining bytes the fragment takes them all
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
  FragPipeline(std::vector<Btl> btls, std::uint64_t first_offset, std::uint64_t bytes, int depth);

  // The next fragment to post, or nothing when `depth` fragments are in flight or every byte has been posted.
  std::optional<Frag> next();
  // A posted fragment of BTL `share` (Frag::share) completed. Returns true when it was the last one of the request.
  bool complete(std::size_t share);

  // Posting: bytes left and fewer than `depth` in flight; Full: `depth` in flight; Draining: everything posted,
  // some in flight; Done.
  State state() const;
  int in_flight() const { return in_flight_; }
  int in_flight(std::size_t share) const { return share_in_flight_.at(share); }
  int depth() const { return depth_; }
  std::uint64_t remaining() const { return remaining_; }
  std::uint64_t posted_frags() const { return posted_; }

private:
  std::vector<Btl> btl_;
  std::vector<int> share_in_flight_;
  std::size_t next_ = 0, used_ = 0;  // round-robin position; BTLs with a weight > 0
  std::uint64_t off_ = 0, remaining_ = 0, posted_ = 0, completed_ = 0;
  int in_flight_ = 0, depth_ = 1;
};

const char* to_string(FragPipeline::State s);

}  // namespace ompisim::pml::ob1
