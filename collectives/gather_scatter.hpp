// Allgather, gather and scatter schedule generators (the OSU collective benchmarks of slingshot-ex Figs. 9-11), each
// mirroring one Open MPI coll/base algorithm and named after its coll/tuned enum string:
//   allgather "ring"          ompi_coll_base_allgather_intra_ring: n-1 rounds, send to me+1 the block received from
//                             me-1 in the previous round (each round one block of params.bytes)
//   gather    "basic_linear"  ompi_coll_base_gather_intra_basic_linear: non-roots send their block to the root; the
//                             root receives them one after the other (blocking receives in rank order)
//   scatter   "basic_linear"  ompi_coll_base_scatter_intra_basic_linear: the root sends each rank its block in rank
//                             order (blocking sends); non-roots receive one block
// LIMITATIONS: no local copy of the root's own block; no segmentation; coll/tuned's decision rules for these three
// collectives are data (collectives/decision/ompi_v5_tuned.json, mpich_default.json), and a size and rank count whose
// rule names an algorithm not listed here is refused (the file's "not_implemented").
#pragma once
#include "collectives/registry.hpp"

namespace ompisim::coll {

void register_gather_scatter(CollRegistry& reg);

Schedule allgather_ring(int me, int nranks, const AlgoParams& params);
Schedule gather_basic_linear(int me, int nranks, const AlgoParams& params);
Schedule scatter_basic_linear(int me, int nranks, const AlgoParams& params);

}  // namespace ompisim::coll
