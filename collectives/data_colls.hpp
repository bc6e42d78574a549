// Data-carrying collective schedule generators (allreduce, alltoall, bcast), used by the application skeletons
// (benchmarks/app_skeleton.cpp). Each mirrors one Open MPI coll/base algorithm and is named after its coll/tuned enum
// string; the file of each generator says which function it mirrors. Message sizes come from AlgoParams::bytes.
//
// Every generator has the Generator signature of schedule.hpp and builds rank `me`'s schedule only. Invalid arguments
// (me outside [0, nranks), nranks < 1, a root outside [0, nranks)) throw std::invalid_argument naming the algorithm,
// the parameter and the value.
//
// The allreduces' local reductions are Reduce operations of the schedule (a round after the receive each reduces),
// which the executor charges at the processor's cost per element (benchmarks/schedule_exec.hpp reduce_arithmetic).
// The ring posts each block's receive before it reduces the previous block (PostRecv / Wait), as the source does.
// LIMITATIONS: no copies are timed; no segmentation (coll/tuned segments large bcasts); a skeleton picks the allreduce by size only through a
// decision table (benchmarks/app_skeleton.cpp "collectives"); the alltoall's block to self is a local copy, not a
// message, and is left out.
#pragma once
#include "collectives/registry.hpp"
#include "collectives/schedule.hpp"

namespace ompisim::coll {

// Registers allreduce "recursive_doubling", "ring", "segmented_ring", "mpich_rabenseifner", "rabenseifner", "mpich_smp" and
// "nonoverlapping", alltoall "pairwise" and bcast "binomial".
void register_data_collectives(CollRegistry& reg);

Schedule allreduce_recursive_doubling(int me, int nranks, const AlgoParams& params);
// coll/tuned v1.3's ring (allreduce/ring.cpp) and MPICH2 1.0.x's Rabenseifner allreduce (allreduce/mpich_rabenseifner.cpp).
Schedule allreduce_ring(int me, int nranks, const AlgoParams& params);
// The ring in phases of params.segsize (allreduce/ring.cpp); segment size 0: the ring.
Schedule allreduce_ring_segmented(int me, int nranks, const AlgoParams& params);
Schedule allreduce_mpich_rabenseifner(int me, int nranks, const AlgoParams& params);
// Open MPI's Rabenseifner allreduce, coll/base redscat_allgather (allreduce/rabenseifner.cpp).
Schedule allreduce_rabenseifner(int me, int nranks, const AlgoParams& params);
// MPICH's ch4 node-aware allreduce (allreduce/mpich_smp.cpp): needs params.layout and params.stages (Stage::Node: the
// reduce within a node, Stage::Roots: the leaders' allreduce, Stage::NodeAfter: the bcast within a node).
Schedule allreduce_mpich_smp(int me, int nranks, const AlgoParams& params);
// coll/tuned's nonoverlapping allreduce (allreduce/nonoverlapping.cpp): needs params.stages (Stage::Comm: the reduce
// to rank 0, Stage::CommAfter: the bcast from rank 0).
Schedule allreduce_nonoverlapping(int me, int nranks, const AlgoParams& params);
Schedule alltoall_pairwise(int me, int nranks, const AlgoParams& params);
Schedule bcast_binomial(int me, int nranks, const AlgoParams& params);

}  // namespace ompisim::coll
