// barrier "two_proc" ↔ ompi_coll_base_barrier_intra_two_procs, ompi/mca/coll/base/coll_base_barrier.c
// (v2.0–v4.1; coll_tuned_barrier.c in v1.7–v1.10).
//
// Message sequence: one 0-byte sendrecv with the other rank, (me + 1) & 1. Defined for exactly two ranks: Open MPI
// only selects it when the communicator size is 2; any other size throws std::invalid_argument here rather than
// producing a schedule that names a rank outside the communicator (P == 1) or leaves ranks out (P > 2).
#include <stdexcept>
#include <string>

#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_two_proc(int me, int nranks, const AlgoParams& /*params*/) {
  detail::check_ranks("two_proc", me, nranks);
  if (nranks != 2)
    throw std::invalid_argument("barrier/two_proc: nranks = " + std::to_string(nranks) + " (requires exactly 2)");
  Schedule s;
  s.round().sendrecv((me + 1) & 1);
  return s;
}

}  // namespace ompisim::coll
