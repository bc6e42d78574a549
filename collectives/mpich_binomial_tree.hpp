// MPICH's binomial tree (MPIR_Bcast_intra_binomial, src/mpi/coll/bcast/bcast_intra_binomial.c, and
// MPII_Scatter_for_bcast, bcast_utils.c; MPICH v3.4a2): over rel = (me - root) mod P, the parent is rel - m for m the
// lowest set bit of rel (the receive loop: mask doubles until rel & mask; none at the root), and the children are
// rel + m for m = that bit / 2, / 4, ..., 1 (the root: from the smallest power of two >= P, halved) while rel + m < P,
// in that order (largest subtree first). The callers say what crosses each edge.
#pragma once

namespace ompisim::coll::detail {

// Calls recv_from_parent(m) for the parent rel - m (not at the root), then send_to_child(m) for each child rel + m.
template <class Recv, class Send>
void mpich_binomial_tree(int rel, int nranks, Recv&& recv_from_parent, Send&& send_to_child) {
  int mask = 1;
  while (mask < nranks) {
    if (rel & mask) {
      recv_from_parent(mask);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < nranks) send_to_child(mask);
}

}  // namespace ompisim::coll::detail
