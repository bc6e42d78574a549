// barrier "tree" ↔ ompi_coll_base_barrier_intra_tree, ompi/mca/coll/base/coll_base_barrier.c
// (v2.0–v4.1; coll_tuned_barrier.c in v1.7–v1.10).
//
// Message sequence: let D be the smallest power of two >= P. The tree is the binomial tree embedded in the
// hypercube: for a bit `jump`, rank r is paired with partner = r ^ jump when partner's bits below `jump` are all zero
// and partner < P.
//   - Fan-in, jump = 1, 2, ..., D/2: a rank receives from a higher partner (a child) and sends to a lower one (its
//     parent; after that no further pairing applies to it).
//   - Fan-out, jump = D/2, ..., 1: the reverse: receive from the lower partner (the parent), send to higher ones.
// All calls are blocking 0-byte send/recv, so each is its own round. Rank 0 only receives in the fan-in and only
// sends in the fan-out. Memory: O(log P).
#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_tree(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("tree", me, nranks);
  int depth = 1;
  while (depth < nranks) depth <<= 1;
  auto paired = [&](int partner, int jump) { return (partner & (jump - 1)) == 0 && partner < nranks; };
  Schedule s;
  for (int jump = 1; jump < depth; jump <<= 1) {
    const int partner = me ^ jump;
    if (!paired(partner, jump)) continue;
    if (partner > me)
      s.round().recv(partner);
    else
      s.round().send(partner);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    const int partner = me ^ jump;
    if (!paired(partner, jump)) continue;
    if (partner > me)
      s.round().send(partner);
    else
      s.round().recv(partner);
  }
  return s;
}

}  // namespace ompisim::coll
