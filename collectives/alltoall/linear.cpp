// alltoall "linear" ↔ ompi_coll_base_alltoall_intra_basic_linear, ompi/mca/coll/base/coll_base_alltoall.c (v2.0-v5.0);
// "linear_sync" ↔ ompi_coll_base_alltoall_intra_linear_sync with coll_tuned_alltoall_max_requests = 0 (its default),
// which makes it post all P-1 receives and sends at once too (total_reqs = size - 1 when max_outstanding_reqs <= 0),
// so both give the same schedule here.
//
// Message sequence: one round: irecv from (me + i) mod P for i = 1 .. P-1, then isend to (me - i) mod P for
// i = 1 .. P-1, then wait for all (the block to self is a local copy, left out). P-1 messages in flight per rank, P(P-1)
// in the whole communicator: the concurrency the flow path has to absorb (benchmarks/README.md, bench/README.md).
// Memory: O(P) per rank.
#include "collectives/tuned_colls.hpp"
#include "collectives/data_colls.hpp"

namespace ompisim::coll {

Schedule alltoall_linear(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("alltoall/linear", me, nranks);
  Schedule s;
  s.round();
  for (int i = 1; i < nranks; ++i) s.recv((me + i) % nranks, params.bytes);
  for (int i = 1; i < nranks; ++i) s.send((me + nranks - i) % nranks, params.bytes);
  return s;
}

}  // namespace ompisim::coll
