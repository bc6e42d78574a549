// pml/ob1's MCA parameters of the model: how one message is spread over several BTLs to one peer (stripe.hpp), and
// how many fragments of one rendezvous are in flight (Open MPI's send / recv pipeline depths).
// Open MPI 1.1 has one policy (weighted_rr); stripe_above is this model's what-if, so both parameters are model
// parameters in ob1's name space, with their sources.
#pragma once
#include "core/params.hpp"
#include "protocols/pml/ob1/stripe.hpp"

namespace ompisim::pml::ob1 {

struct Ob1Mca {
  Sourced pml_ob1_stripe_policy{0, "Open MPI v1.1 ompi/mca/pml/ob1 (pml_ob1_sendreq.c schedule: eager array round robin, "
                                   "bandwidth-weighted rest) is policy 0, weighted_rr"};
  Sourced pml_ob1_stripe_min_size{128 * 1024,
                                  "estimate (what-if, policy 1 only): above 128 KiB the slower NIC's extra latency "
                                  "(a few us) is a few percent of the transfer time on the faster one"};

  Sourced pml_ob1_send_pipeline_depth{3, "Open MPI ompi/mca/pml/ob1/pml_ob1_component.c: send_pipeline_depth default 3 "
                                          "(Open MPI 1.0/1.1 tree); pml_ob1_sendreq.c schedule: FRAGs of one request in flight"};
  Sourced pml_ob1_recv_pipeline_depth{4, "Open MPI ompi/mca/pml/ob1/pml_ob1_component.c: recv_pipeline_depth default 4 "
                                          "(Open MPI 1.0/1.1 tree); pml_ob1_recvreq.c schedule: RDMA PUTs of one request in flight"};

  Sourced pml_ob1_use_early_completion{
      0, "Open MPI v1.3 on (trunk from e361bcb64c, 2008-05-30; v1.3.4, v1.8.8): ompi/mca/pml/ob1/pml_ob1_sendreq.c "
         "mca_pml_ob1_send_request_start_copy completes the MPI request in the descriptor's callback "
         "(mca_pml_ob1_match_completion_free -> send_request_pml_complete) unless the BTL returns 1 from btl_send; "
         "Open MPI v1.1.x, v1.2.x (pml_ob1_use_early_completion, default 1, from v1.2.6: r17689, trac 1224) and the "
         "trunk before e361bcb64c complete it right after the data is packed (a stack preset of those versions sets 1)"};

  template <class V>
  void visit(V&& v) {
    v(pml_ob1_use_early_completion, {"pml_ob1_use_early_completion", Dim::Count,
                                     "1: an eager send packed into a BTL fragment (start_copy) is complete at the MPI "
                                     "level when the send call returns, its descriptor freed later by the fragment's "
                                     "completion (Open MPI 1.1, 1.2, trunk before May 2008); 0: both on the fragment's "
                                     "completion (v1.3 on)",
                                     0, 1});
    v(pml_ob1_stripe_policy, {"pml_ob1_stripe_policy", Dim::Count,
                              "striping over several BTLs to one peer: weighted_rr (Open MPI 1.1, the paper's), "
                              "stripe_above (first fragment on the lowest-latency BTL; the rest on the fastest BTL, "
                              "split by measured bandwidth only above pml_ob1_stripe_min_size)",
                              0, kStripePolicies - 1, {"weighted_rr", "stripe_above"}});
    v(pml_ob1_stripe_min_size, {"pml_ob1_stripe_min_size", Dim::Bytes,
                                "stripe_above: smallest rest of a message split over several BTLs", 0, 1LL << 40});
    v(pml_ob1_send_pipeline_depth, {"pml_ob1_send_pipeline_depth", Dim::Count,
                                    "send FRAGs of one rendezvous in flight at once", 1, 1 << 20});
    v(pml_ob1_recv_pipeline_depth, {"pml_ob1_recv_pipeline_depth", Dim::Count,
                                    "RDMA PUT fragments of one rendezvous in flight at once", 1, 1 << 20});
  }
  StripeConfig config() const {
    return {static_cast<StripePolicy>(static_cast<int>(pml_ob1_stripe_policy.value)),
            static_cast<std::uint64_t>(pml_ob1_stripe_min_size.value),
            static_cast<int>(pml_ob1_send_pipeline_depth.value), static_cast<int>(pml_ob1_recv_pipeline_depth.value)};
  }
};

}  // namespace ompisim::pml::ob1
