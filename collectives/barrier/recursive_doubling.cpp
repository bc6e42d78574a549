// barrier "recursive_doubling" ↔ ompi_coll_base_barrier_intra_recursivedoubling,
// ompi/mca/coll/base/coll_base_barrier.c (v2.0–v4.1; coll_tuned_barrier.c in v1.7–v1.10).
//
// Message sequence (0-byte messages): let p2 be the largest power of two <= P.
//   - Non-power-of-two fold: a rank r >= p2 ("extra") does one sendrecv with r - p2 and is done when the reply
//     arrives; a rank r < P - p2 first receives the extra rank's message.
//   - Exchange: every rank r < p2 does log2(p2) sendrecv rounds with r ^ 2^k, k = 0, 1, ...
//   - Release: a rank r < P - p2 then sends to r + p2 (a synchronous send in Open MPI), which completes the extra
//     rank's sendrecv.
// A sendrecv is a Send and a Recv started together in one round (ompi_coll_base_sendrecv_zero: irecv, then in
// v5.0.0rc11 a blocking send, wait): the Send is marked blocking, as is the release send. Memory: O(log P).
#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_recursive_doubling(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("recursive_doubling", me, nranks);
  const int p2 = detail::floor_pow2(nranks);
  Schedule s;
  if (me >= p2) {
    s.round().sendrecv(me - p2);
    return s;
  }
  const bool has_extra = me < nranks - p2;
  if (has_extra) s.round().recv(me + p2);
  for (int mask = 1; mask < p2; mask <<= 1) s.round().sendrecv(me ^ mask);
  if (has_extra) s.round().send_blocking(me + p2);
  return s;
}

}  // namespace ompisim::coll
