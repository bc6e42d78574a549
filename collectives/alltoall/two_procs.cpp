// alltoall and allgather "two_proc" ↔ ompi_coll_base_alltoall_intra_two_procs (coll_base_alltoall.c) and
// ompi_coll_base_allgather_intra_two_procs (coll_base_allgather.c), v4.1-v5.0: on two ranks (the functions return
// MPI_ERR_UNSUPPORTED_OPERATION on any other count; the registry entries declare it), each rank exchanges its block
// with rank ^ 1 in one ompi_coll_base_sendrecv and copies its own block locally (a copy not charged here).
#include "collectives/tuned_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule exchange_two_procs(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("two_proc", me, nranks);
  if (nranks != 2) throw std::invalid_argument("two_proc: nranks = " + std::to_string(nranks) + " (requires exactly 2)");
  Schedule s;
  s.round().sendrecv(me ^ 1, params.bytes);
  return s;
}

}  // namespace ompisim::coll
