// bcast "mpich_binomial" ↔ MPIR_Bcast_intra_binomial, src/mpi/coll/bcast/bcast_intra_binomial.c (MPICH v3.4a2, the
// ANL base of Cray MPICH 8.1.x; the same in 3.3-4.x). Not Open MPI's binomial (bcast/binomial.cpp): the tree is the
// mirror image and the sends are blocking and largest subtree first.
//
// With rel = (me - root) mod P: the parent is rel - m for m the lowest set bit of rel (MPICH's receive loop: mask
// doubles until rel & mask); the children are rel + m for m = (that bit, or the smallest power of two >= P for the
// root) / 2, / 4, ..., 1 while rel + m < P, in that order (largest subtree first), each sent with a blocking MPIC_Send
// (one round per send). Peers are shifted back by root. Memory: O(log P).
#include "collectives/mpich_binomial_tree.hpp"
#include "collectives/tuned_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule bcast_mpich_binomial(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("bcast/mpich_binomial", me, nranks);
  detail::check_root("bcast/mpich_binomial", p.root, nranks);
  Schedule s;
  if (nranks == 1 || p.bytes == 0) return s;  // MPICH returns at once for one rank or 0 bytes
  const int rel = (me - p.root + nranks) % nranks;
  detail::mpich_binomial_tree(
      rel, nranks, [&](int m) { s.round().recv((me - m + nranks) % nranks, p.bytes); },
      [&](int m) { s.round().send((me + m) % nranks, p.bytes); });
  return s;
}

}  // namespace ompisim::coll
