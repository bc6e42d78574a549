// alltoall "pairwise" ↔ ompi_coll_base_alltoall_intra_pairwise, ompi/mca/coll/base/coll_base_alltoall.c
// (v2.0–v4.1; coll_tuned_alltoall.c in v1.2–v1.10), the coll/tuned fixed decision's choice for large blocks.
//
// Message sequence: steps k = 1 .. P-1, one per round: a sendrecv of one block (params.bytes) that sends to
// (me + k) mod P and receives from (me - k) mod P (Open MPI's ompi_coll_base_sendrecv_actual: irecv, isend, wait
// for both). Open MPI's loop also runs k = P, the block to self; that is a local copy, not a message, and is left out.
// Memory: O(P).
#include "collectives/data_colls.hpp"

namespace ompisim::coll {

Schedule alltoall_pairwise(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("alltoall/pairwise", me, nranks);
  Schedule s;
  s.rounds.reserve(static_cast<std::size_t>(nranks - 1));
  for (int k = 1; k < nranks; ++k) {
    // ompi_coll_base_sendrecv: irecv, blocking send, wait (each round's two ops in one allocation)
    s.round().rounds.back().ops.reserve(2);
    s.sendrecv_to((me + k) % nranks, params.bytes, (me + nranks - k) % nranks, params.bytes);
  }
  return s;
}

}  // namespace ompisim::coll
