// The rest of one rendezvous as pml/ob1 schedules it after the ACK: each BTL of the peer's send array has its share of
// the bytes (split_rest) and its own fragment size; at most `depth` fragments of the request are in flight
// (req_pipeline_depth, bounded by pml_ob1_send_pipeline_depth for send FRAGs and pml_ob1_recv_pipeline_depth for RDMA
// PUTs), the next one posted when one completes; offsets increase fragment by fragment.
// Which BTL gets the next fragment: the first `depth` go round robin over the BTLs with bytes left (Open MPI's
// mca_bml_base_btl_array_get_next); after that a completion's slot goes back to the BTL that completed while it has
// bytes left, else round robin. Open MPI 1.1 keeps plain round robin but sizes each fragment from the bytes still
// remaining (weight x remaining, capped at the BTL's fragment size), which keeps every NIC streaming to the end; this
// model fixes each BTL's share up front, and with strict round robin under the depth bound the faster NIC would run
// dry early and leave the slower one's share as a tail. Refilling the BTL that freed the slot keeps both streaming
// with the same request-wide bound, so a connection holds at most `depth` fragments of one message ahead of a later
// control message.
// A plain state machine (no clock, no engine): the caller asks next() for what to post and reports each completion
// with complete(share).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ompisim::pml::ob1 {

class FragPipeline {
public:
  struct Share {
    std::size_t btl = 0;  // caller's index of the BTL (opaque here)
    std::uint64_t bytes = 0, chunk = 1;  // bytes this BTL carries; its fragment size (>= 1)
    std::uint8_t flags = 0;  // descriptor flags of its fragments (PUT or none)
  };
  struct Frag {
    std::size_t share = 0;  // index into the shares given to the constructor
    std::size_t btl = 0;
    std::uint64_t offset = 0, len = 0;
    std::uint8_t flags = 0;
  };
  enum class State : std::uint8_t { Posting, Full, Draining, Done };

  // `first_offset`: offset of the first byte of the rest (after the first fragment). `depth` < 1 counts as 1.
  FragPipeline(std::vector<Share> shares, std::uint64_t first_offset, int depth);

  // The next fragment to post, or nothing when `depth` fragments are in flight or every byte has been posted.
  std::optional<Frag> next();
  // A posted fragment of share `share` (Frag::share) completed. Returns true when it was the last one of the request.
  bool complete(std::size_t share);

  // Posting: fragments left and fewer than `depth` in flight; Full: `depth` in flight; Draining: everything posted,
  // some in flight; Done.
  State state() const;
  int in_flight() const { return in_flight_; }
  int in_flight(std::size_t share) const { return share_in_flight_.at(share); }
  int depth() const { return depth_; }
  std::uint64_t total_frags() const { return total_frags_; }
  std::uint64_t frags_left() const { return total_frags_ - completed_; }

private:
  std::vector<Share> share_;  // bytes: still to post
  std::vector<int> share_in_flight_;
  std::vector<std::size_t> freed_;  // shares whose fragment completed, oldest first (at most `depth`)
  std::size_t next_ = 0;  // round-robin position
  std::uint64_t off_ = 0, total_frags_ = 0, posted_ = 0, completed_ = 0;
  int in_flight_ = 0, depth_ = 1;
};

const char* to_string(FragPipeline::State s);

}  // namespace ompisim::pml::ob1
