// barrier "cheetah-p2p" ↔ the Cheetah PTPCOLL BCOL barrier, ompi/mca/bcol/ptpcoll/bcol_ptpcoll_barrier.c
// (Open MPI v1.7–v2.x; bcol was removed in v3.0): bcol_ptpcoll_barrier_recurs_dbl_new / _extra_new, the algorithm
// selected by the default bcol_ptpcoll_barrier_alg = 1 ("Recursive doubling"; 2 is recursive k-ing) registered in
// bcol_ptpcoll_mca.c. This is the "Cheetah p2p" curve of the Gemini paper Fig. 7 (one rank per node, so the whole
// communicator is a single P2P subgroup and ML runs only this BCOL).
//
// Message sequence (0-byte MPI_INT messages through the PML, i.e. ob1 over ugni): let p2 be the largest power of two
// <= P (pow_2num in bcol_ptpcoll_module.c).
//   - EXTRA rank (r >= p2): isend to its proxy r - p2 and irecv from it, together; done when both complete.
//   - PROXY rank (r < P - p2): irecv from its extra rank r + p2 first.
//   - Every rank r < p2: log2(p2) exchanges, each an isend + irecv with r ^ 2^k started together.
//   - PROXY: isend to the extra rank ("let the extra rank know that we are done").
// The resulting schedule is the same as coll/base recursive_doubling's; it is generated separately because it
// mirrors a different component. No separate ML/BCOL software cost is charged: each message pays ob1's per-message
// costs like any other point-to-point message (the paper gives no figure for ML's own overhead). Memory: O(log P).
#include "collectives/barrier/barriers.hpp"

#include <bit>

namespace ompisim::coll {

Schedule barrier_cheetah_p2p(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("cheetah-p2p", me, nranks);
  const int pow2num = detail::floor_pow2(nranks);
  Schedule s;
  if (me >= pow2num) {  // PTPCOLL_EXTRA
    const int proxy = me - pow2num;
    s.round().send(proxy).recv(proxy);
    return s;
  }
  const bool proxy = me < nranks - pow2num;  // PTPCOLL_PROXY (else PTPCOLL_IN_GROUP)
  // Sized up front (one allocation per round instead of the vectors' doublings: a whole-machine barrier builds
  // 300,000 of these).
  s.rounds.reserve(static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(pow2num))) + (proxy ? 2 : 0));
  if (proxy) s.round().recv(me + pow2num);
  for (int delta = 1; delta < pow2num; delta <<= 1) {
    s.round().rounds.back().ops.reserve(2);
    s.send(me ^ delta).recv(me ^ delta);
  }
  if (proxy) s.round().send(me + pow2num);
  return s;
}

}  // namespace ompisim::coll
