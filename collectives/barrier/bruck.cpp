// barrier "bruck" ↔ ompi_coll_base_barrier_intra_bruck, ompi/mca/coll/base/coll_base_barrier.c
// (v2.0–v4.1; coll_tuned_barrier.c in v1.7–v1.10).
//
// Message sequence: dissemination barrier. For distance d = 1, 2, 4, ... < P (ceil(log2 P) rounds) every rank does
// one 0-byte sendrecv (ompi_coll_base_sendrecv_zero: the irecv from (me - d + P) % P posted first, then the send to
// (me + d) % P, then the wait). No rank is special, so it works for
// any P without a fold step. Memory: O(log P).
#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_bruck(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("bruck", me, nranks);
  Schedule s;
  for (int d = 1; d < nranks; d <<= 1) s.round().recv((me - d + nranks) % nranks).send((me + d) % nranks);
  return s;
}

}  // namespace ompisim::coll
