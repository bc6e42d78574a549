// The algorithms coll/tuned's fixed decision (Open MPI v5.0.x) and MPICH's default selection choose for the five OSU
// collectives at the sizes of the Slingshot paper, beyond the coll/base ones of data_colls.hpp and gather_scatter.hpp;
// registered by register_tuned_collectives (collectives/registry.cpp). Each file names the function it mirrors.
#pragma once
#include "collectives/registry.hpp"

namespace ompisim::coll {

void register_tuned_collectives(CollRegistry& reg);

Schedule alltoall_linear(int me, int nranks, const AlgoParams& params);
// alltoall and allgather "two_proc" (P == 2): one sendrecv of the block with rank me ^ 1.
Schedule exchange_two_procs(int me, int nranks, const AlgoParams& params);
Schedule alltoall_modified_bruck(int me, int nranks, const AlgoParams& params);
Schedule allgather_recursive_doubling(int me, int nranks, const AlgoParams& params);
Schedule allgather_bruck(int me, int nranks, const AlgoParams& params);
Schedule allgather_neighbor(int me, int nranks, const AlgoParams& params);
Schedule bcast_knomial(int me, int nranks, const AlgoParams& params);
Schedule bcast_split_bintree(int me, int nranks, const AlgoParams& params);
Schedule bcast_basic_linear(int me, int nranks, const AlgoParams& params);
Schedule bcast_pipeline(int me, int nranks, const AlgoParams& params);
Schedule bcast_binary_tree(int me, int nranks, const AlgoParams& params);
Schedule bcast_scatter_allgather(int me, int nranks, const AlgoParams& params);
Schedule gather_binomial(int me, int nranks, const AlgoParams& params);
Schedule gather_linear_sync(int me, int nranks, const AlgoParams& params);
Schedule scatter_binomial(int me, int nranks, const AlgoParams& params);
Schedule scatter_linear_nb(int me, int nranks, const AlgoParams& params);
Schedule alltoall_mpich_scattered(int me, int nranks, const AlgoParams& params);
Schedule alltoall_mpich_pairwise(int me, int nranks, const AlgoParams& params);
Schedule bcast_mpich_scatter_rdb_allgather(int me, int nranks, const AlgoParams& params);
Schedule bcast_mpich_scatter_ring_allgather(int me, int nranks, const AlgoParams& params);
Schedule bcast_mpich_binomial(int me, int nranks, const AlgoParams& params);
// Node-aware: needs params.layout and params.stages (std::invalid_argument without them).
Schedule bcast_mpich_smp(int me, int nranks, const AlgoParams& params);

}  // namespace ompisim::coll
