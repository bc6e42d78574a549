// allreduce "recursive_doubling" ↔ ompi_coll_base_allreduce_intra_recursivedoubling,
// ompi/mca/coll/base/coll_base_allreduce.c (v2.0–v4.1; coll_tuned_allreduce.c in v1.2–v1.10). coll/tuned's fixed
// decision (and MPICH's) uses it for small messages, e.g. the 8-byte reductions of POP.
//
// Message sequence (every message carries the whole vector, params.bytes): let p2 be the largest power of two <= P
// and extra = P - p2.
//   - Fold: among ranks < 2*extra, an even rank sends its vector to rank+1 and sits out; an odd rank receives it
//     and reduces it. The remaining p2 ranks get new ranks: odd r < 2*extra -> r/2, r >= 2*extra -> r - extra.
//   - Exchange: log2(p2) steps; in step k the new rank n exchanges with n ^ 2^k (a sendrecv), mapped back to a real
//     rank (new rank m < extra -> 2m+1, else m + extra), then reduces the vector it received (ompi_op_reduce).
//   - Unfold: an odd rank < 2*extra sends the result to rank-1, which receives it.
// Each reduction is a round of its own after the receive it reduces (a Reduce of the whole vector).
// Memory: O(log P).
#include "collectives/data_colls.hpp"

namespace ompisim::coll {

Schedule allreduce_recursive_doubling(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("allreduce/recursive_doubling", me, nranks);
  const std::uint32_t b = params.bytes;
  const int p2 = detail::floor_pow2(nranks);
  const int extra = nranks - p2;
  Schedule s;
  int newrank;
  if (me < 2 * extra) {
    if (me % 2 == 0) {
      s.round().send_blocking(me + 1, b);  // MCA_PML_CALL(send) (coll_base_allreduce.c)
      s.round().recv(me + 1, b);
      return s;
    }
    s.round().recv(me - 1, b);
    s.round().reduce(b);
    newrank = me / 2;
  } else {
    newrank = me - extra;
  }
  for (int mask = 1; mask < p2; mask <<= 1) {
    const int nr = newrank ^ mask;
    const int peer = nr < extra ? nr * 2 + 1 : nr + extra;
    s.round().sendrecv(peer, b);
    s.round().reduce(b);
  }
  if (me < 2 * extra) s.round().send_blocking(me - 1, b);
  return s;
}

}  // namespace ompisim::coll
