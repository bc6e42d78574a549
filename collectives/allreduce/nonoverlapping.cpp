// allreduce "nonoverlapping" ↔ ompi_coll_base_allreduce_intra_nonoverlapping, ompi/mca/coll/base/coll_base_allreduce.c
// (v4.1-v5.0): the communicator's own MPI_Reduce to rank 0 (comm->c_coll->coll_reduce: under coll/tuned its fixed
// reduce decision, ompi_coll_tuned_reduce_intra_dec_fixed), then its own MPI_Bcast of the result from rank 0
// (comm->c_coll->coll_bcast: coll/tuned's bcast decision). The two calls' algorithms are the composition's stages
// Stage::Comm and Stage::CommAfter, which the decision table's "stages" chooses for the communicator's size (so a
// scenario cannot name it alone), each with the segment size its decision gives (coll/tuned v1.3's reduce and bcast
// decisions give them; v5's none). The same in v1.3.0 (coll_tuned_allreduce.c
// ompi_coll_tuned_allreduce_intra_nonoverlapping: comm->c_coll.coll_reduce to 0, then comm->c_coll.coll_bcast).
// Memory: the two stages'.
#include "collectives/data_colls.hpp"

#include <stdexcept>

namespace ompisim::coll {

Schedule allreduce_nonoverlapping(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("allreduce/nonoverlapping", me, nranks);
  if (p.stages == nullptr || !*p.stages)
    throw std::invalid_argument("allreduce/nonoverlapping: needs the stages' decision (the module's reduce and bcast)");
  AlgoParams q = p;
  q.root = 0;
  Schedule s = detail::run_stage(Stage::Comm, me, nranks, q);
  detail::append_mapped(s, detail::run_stage(Stage::CommAfter, me, nranks, q), [](int r) { return r; });
  return s;
}

}  // namespace ompisim::coll
