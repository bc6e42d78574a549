// How pml/ob1 spreads one message over the BTLs bml/r2 gives a peer (the paper's §3.4 and Fig. 2): which BTL carries
// the first fragment, and the weight by which each BTL of the send array takes a share of the bytes still remaining
// when its next fragment is scheduled (frag_pipeline.hpp). Pure functions of the peer's endpoint record (no clock, no
// engine). Policies, chosen by the MCA parameter pml_ob1_stripe_policy:
//   0 weighted_rr  Open MPI 1.1 (the paper's "simple" policy): the first fragment on the eager array's next BTL,
//                  round robin (mca_bml_base_btl_array_get_next); the rest scheduled round robin, each fragment
//                  weight x remaining bytes with bml/r2's bandwidth weights (exported btl_bandwidth)
//                  (mca_pml_ob1_send_request_schedule / mca_pml_ob1_recv_request_schedule of v1.1.0).
//   1 stripe_above a what-if: the first fragment always on the BTL with the lowest measured latency (the NIC's, ties
//                  to the higher bandwidth); the rest on the BTL with the highest measured bandwidth unless it is at
//                  least pml_ob1_stripe_min_size, then weighted by each BTL's measured bandwidth.
// A peer with one BTL gets everything on it under every policy.
#pragma once
#include "protocols/bml/r2/bml_r2.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::pml::ob1 {

enum class StripePolicy : std::uint8_t { WeightedRoundRobin = 0, StripeAbove = 1 };
constexpr int kStripePolicies = 2;
const char* to_string(StripePolicy p);

// Whether a message of `bytes` is spread over several BTLs of the peer: weighted_rr whenever the peer has several;
// stripe_above only from `stripe_min_size` on (below, the message uses the fastest BTL's single-BTL protocols: RGET
// when it has GET).
bool striped(const bml::r2::Endpoint& ep, StripePolicy p, std::uint64_t bytes, std::uint64_t stripe_min_size);
// The BTL of the send array with the highest measured bandwidth.
btl::Btl* fastest_btl(const bml::r2::Endpoint& ep);
// The BTL that carries the first fragment. `rr`: the peer's round-robin counter (advanced).
btl::Btl* first_fragment_btl(const bml::r2::Endpoint& ep, StripePolicy p, std::uint32_t& rr);
// The scheduling weight of each BTL of ep.send (same order) for the `left` bytes after the first fragment: the
// share of the remaining bytes its fragments take (0: it takes no part). Sums to 1.
std::vector<double> stripe_weights(const bml::r2::Endpoint& ep, StripePolicy p, std::uint64_t left,
                                   std::uint64_t stripe_min_size);

}  // namespace ompisim::pml::ob1
