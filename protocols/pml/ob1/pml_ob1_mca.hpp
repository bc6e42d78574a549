// pml/ob1's MCA parameters of the model: how one message is spread over several BTLs to one peer (stripe.hpp), and
// how many fragments of one rendezvous are in flight (Open MPI's send / recv pipeline depths).
// Open MPI 1.1 has one policy (weighted_rr); stripe_above is this model's what-if, so both parameters are model
// parameters in ob1's name space, with their sources.
#pragma once
#include "core/params.hpp"
#include "protocols/pml/ob1/frag_pipeline.hpp"
#include "protocols/pml/ob1/stripe.hpp"

namespace ompisim::pml::ob1 {

struct Ob1Mca : ParamTable<Ob1Mca> {
  Sourced pml_ob1_stripe_policy, pml_ob1_stripe_min_size, pml_ob1_send_pipeline_depth, pml_ob1_recv_pipeline_depth,
      pml_ob1_frag_schedule, pml_ob1_max_send_per_range, pml_ob1_max_rdma_per_request, pml_ob1_use_early_completion,
      mpi_leave_pinned;

  Ob1Mca() { set_defaults(); }
  static const ParamRows<Ob1Mca>& rows() {
    static const ParamRows<Ob1Mca> r{
        {&Ob1Mca::mpi_leave_pinned, 0, "Open MPI v1.1.1 ompi/mca/pml/ob1/pml_ob1_component.c: "
         "mca_base_param_register_int(\"mpi\", NULL, \"leave_pinned\", ..., 0) -> mca_pml_ob1.leave_pinned; read by "
         "pml_ob1_rdma.c mca_pml_ob1_rdma_btls (register a buffer no registration covers, and keep it)",
         {"mpi_leave_pinned", Dim::Count, "1: ob1 registers a user buffer with the RDMA BTLs' memory pools when no "
          "registration covers it and leaves it pinned, so every contiguous buffer takes Open MPI 1.1's registered "
          "RDMA path; 0: only buffers registered already (MPI_Alloc_mem) do, the others take the RNDV / FRAG / capped "
          "PUT path (read under pml_ob1_frag_schedule remaining, Open MPI 1.1/1.2)", 0, 1}},
        {&Ob1Mca::pml_ob1_use_early_completion, 0, "Open MPI v1.3 on (trunk from e361bcb64c, 2008-05-30; v1.3.4, "
         "v1.8.8): ompi/mca/pml/ob1/pml_ob1_sendreq.c mca_pml_ob1_send_request_start_copy completes the MPI request "
         "in the descriptor's callback (mca_pml_ob1_match_completion_free -> send_request_pml_complete) unless the "
         "BTL returns 1 from btl_send; Open MPI v1.1.x, v1.2.x (pml_ob1_use_early_completion, default 1, from v1.2.6: "
         "r17689, trac 1224) and the trunk before e361bcb64c complete it right after the data is packed (a stack "
         "preset of those versions sets 1)",
         {"pml_ob1_use_early_completion", Dim::Count, "1: an eager send packed into a BTL fragment (start_copy) is "
          "complete at the MPI level when the send call returns, its descriptor freed later by the fragment's "
          "completion (Open MPI 1.1, 1.2, trunk before May 2008); 0: both on the fragment's completion (v1.3 on)", 0,
          1}},
        {&Ob1Mca::pml_ob1_frag_schedule, 0, "Open MPI v1.3 on (trunk from 54b40aef91 and e74aa6b295, 2007-07-01, "
         "'Precalculate what part of a message should be send via each BTL in advance'; v1.3.0 to v1.8.8): "
         "ompi/mca/pml/ob1/pml_ob1.h mca_pml_ob1_calc_weighted_length splits the rest up front (pml_ob1_sendreq.c "
         "copy_in_out, pml_ob1_rdma.c rdma_pipeline_btls), schedule_once sends it round robin; Open MPI v1.1.x and "
         "v1.2.x (v1.1.0, v1.2.9 pml_ob1_sendreq.c mca_pml_ob1_send_request_schedule, pml_ob1_recvreq.c "
         "mca_pml_ob1_recv_request_schedule) size each fragment btl_weight x bytes_remaining (a stack preset of those "
         "versions sets 1)",
         {"pml_ob1_frag_schedule", Dim::Count, "how the rest of a rendezvous is cut into fragments over several BTLs: "
          "weighted_length (Open MPI 1.3 on: each BTL's share of the range fixed up front by weight, then round "
          "robin), remaining (Open MPI 1.1/1.2: round robin, each fragment weight x the bytes still remaining)", 0, 1,
          {"weighted_length", "remaining"}}},
        {&Ob1Mca::pml_ob1_max_send_per_range, 4, "Open MPI v1.3.0 to v1.8.8 ompi/mca/pml/ob1/pml_ob1_component.c: "
         "max_send_per_range default 4 (BTLs a FRAG range is split over)",
         {"pml_ob1_max_send_per_range", Dim::Count, "weighted_length: BTLs of the send array one FRAG range is split "
          "over", 1, 1 << 10}},
        {&Ob1Mca::pml_ob1_max_rdma_per_request, 4, "Open MPI v1.3.0 to v1.8.8 ompi/mca/pml/ob1/pml_ob1_component.c: "
         "max_rdma_per_request default 4 (BTLs an RDMA pipeline is split over)",
         {"pml_ob1_max_rdma_per_request", Dim::Count, "weighted_length: BTLs of the RDMA array one PUT pipeline is "
          "split over", 1, 1 << 10}},
        {&Ob1Mca::pml_ob1_stripe_policy, 0, "Open MPI v1.1 ompi/mca/pml/ob1 (pml_ob1_sendreq.c schedule: eager array "
         "round robin, bandwidth-weighted rest) is policy 0, weighted_rr",
         {"pml_ob1_stripe_policy", Dim::Count, "striping over several BTLs to one peer: weighted_rr (Open MPI 1.1, "
          "the paper's), stripe_above (first fragment on the lowest-latency BTL; the rest on the fastest BTL, split "
          "by measured bandwidth only above pml_ob1_stripe_min_size)", 0, kStripePolicies - 1, {"weighted_rr",
          "stripe_above"}}},
        {&Ob1Mca::pml_ob1_stripe_min_size, 128 * 1024, "estimate (what-if, policy 1 only): above 128 KiB the slower "
         "NIC's extra latency (a few us) is a few percent of the transfer time on the faster one",
         {"pml_ob1_stripe_min_size", Dim::Bytes, "stripe_above: smallest rest of a message split over several BTLs",
          0, 1LL << 40}},
        {&Ob1Mca::pml_ob1_send_pipeline_depth, 3, "Open MPI ompi/mca/pml/ob1/pml_ob1_component.c: send_pipeline_depth "
         "default 3 (Open MPI 1.0/1.1 tree); pml_ob1_sendreq.c schedule: FRAGs of one request in flight",
         {"pml_ob1_send_pipeline_depth", Dim::Count, "send FRAGs of one rendezvous in flight at once", 1, 1 << 20}},
        {&Ob1Mca::pml_ob1_recv_pipeline_depth, 4, "Open MPI ompi/mca/pml/ob1/pml_ob1_component.c: recv_pipeline_depth "
         "default 4 (Open MPI 1.0/1.1 tree); pml_ob1_recvreq.c schedule: RDMA PUTs of one request in flight",
         {"pml_ob1_recv_pipeline_depth", Dim::Count, "RDMA PUT fragments of one rendezvous in flight at once", 1,
          1 << 20}},
    };
    return r;
  }
  StripeConfig config() const {
    return {static_cast<StripePolicy>(static_cast<int>(pml_ob1_stripe_policy.get())),
            static_cast<std::uint64_t>(pml_ob1_stripe_min_size.get()),
            static_cast<int>(pml_ob1_send_pipeline_depth.get()), static_cast<int>(pml_ob1_recv_pipeline_depth.get()),
            static_cast<FragPipeline::Schedule>(static_cast<int>(pml_ob1_frag_schedule.get())),
            static_cast<int>(pml_ob1_max_send_per_range.get()), static_cast<int>(pml_ob1_max_rdma_per_request.get()),
            mpi_leave_pinned.get() != 0};
  }
};

}  // namespace ompisim::pml::ob1
