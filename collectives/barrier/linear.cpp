// barrier "linear" ↔ ompi_coll_base_barrier_intra_basic_linear, ompi/mca/coll/base/coll_base_barrier.c
// (v2.0–v4.1; the same function lived in coll/tuned and coll/basic in v1.7–v1.10).
//
// Message sequence: every non-root rank sends a 0-byte message to rank 0 and then waits for a 0-byte message from
// rank 0. Rank 0 posts P-1 receives at once (Open MPI uses MPI_ANY_SOURCE; here each receive names its peer, which
// matches the same messages), waits for all of them, then sends to ranks 1..P-1 with blocking sends, one after the
// other (one round per send, as each blocking send must complete locally before the next is posted).
// Memory: O(P) for rank 0, O(1) elsewhere.
#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_linear(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("linear", me, nranks);
  Schedule s;
  if (me > 0) {
    s.round().send(0);
    s.round().recv(0);
    return s;
  }
  if (nranks == 1) return s;
  s.round();
  for (int i = 1; i < nranks; ++i) s.recv(i);
  for (int i = 1; i < nranks; ++i) s.round().send(i);
  return s;
}

}  // namespace ompisim::coll
