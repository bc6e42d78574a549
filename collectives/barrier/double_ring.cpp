// barrier "double_ring" ↔ ompi_coll_base_barrier_intra_doublering, ompi/mca/coll/base/coll_base_barrier.c
// (v2.0–v4.1; coll_tuned_barrier.c in v1.7–v1.10).
//
// Message sequence (all messages 0 bytes, all calls blocking, hence one operation per round):
//   ring 1: rank 0 sends to its right neighbour and receives from its left one; every other rank receives from the
//           left and then sends to the right;
//   ring 2: the same again (Open MPI uses a synchronous send here; the schedule alphabet has no synchronous mode).
// Left neighbour: Open MPI computes (rank-1)%size, which is -1 (MPI_ANY_SOURCE) on rank 0; the only sender to rank 0
// is rank P-1, so naming P-1 explicitly matches the same message. With P == 1 rank 0 sends to and receives from
// itself, as in Open MPI.
#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_double_ring(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("double_ring", me, nranks);
  const int left = (me - 1 + nranks) % nranks;
  const int right = (me + 1) % nranks;
  Schedule s;
  for (int ring = 0; ring < 2; ++ring) {
    if (me > 0) s.round().recv(left);
    s.round().send(right);
    if (me == 0) s.round().recv(left);
  }
  return s;
}

}  // namespace ompisim::coll
