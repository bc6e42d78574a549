// allreduce "mpich_smp" ↔ MPIDI_Allreduce_intra_composition_alpha, src/mpid/ch4/src/ch4_coll_impl.h (MPICH v3.4a2, the
// ANL base of Cray MPICH 8.1.x). MPI_Allreduce -> MPIR_Allreduce -> MPID_Allreduce (the device collectives, default
// on) -> MPIDI_Allreduce_select (ch4_coll_select.h), which takes this composition on a node-aware communicator
// (MPIR_Comm_is_node_aware) for a commutative operation with MPIR_CVAR_ENABLE_SMP_COLLECTIVES and
// MPIR_CVAR_ENABLE_SMP_ALLREDUCE (default true); with MPIR_CVAR_MAX_SMP_ALLREDUCE_MSG_SIZE at its default 0 the size it
// tests is 0, so it is taken at every message size (collectives/decision/mpich_default.json, row "node_aware").
//
// Steps, on the layout of MPIR_Comm_create_subcomms (NodeLayout), every message the whole vector (params.bytes):
//  1. every node with more than one rank runs MPIDI_SHM_mpi_reduce on node_comm to local rank 0 (MPIDI_POSIX_Reduce_
//     select: Stage::Node, for the node's size);
//  2. the leaders run MPIDI_NM_mpi_allreduce on node_roots_comm, in place (MPIDI_OFI_Allreduce_select: Stage::Roots,
//     for the number of nodes);
//  3. every node with more than one rank runs MPIDI_SHM_mpi_bcast on node_comm from local rank 0 (MPIDI_POSIX_Bcast_
//     select: Stage::NodeAfter, for the node's size).
// A rank alone on its node copies its vector into the result (MPIR_Localcopy: not charged) and takes part in step 2
// only. Each stage's schedule is generated in the sub-communicator's ranks and mapped to the communicator's. Memory:
// the stages' plus O(1).
#include "collectives/data_colls.hpp"

namespace ompisim::coll {

Schedule allreduce_mpich_smp(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("allreduce/mpich_smp", me, nranks);
  const NodeLayout& L = detail::composition_layout("allreduce/mpich_smp", nranks, p);
  Schedule s;
  const bool shared = L.node_size(L.node(me)) > 1;
  AlgoParams q = p;
  q.root = 0;
  if (shared) detail::append_node_stage(s, Stage::Node, me, q);  // 1. reduce within the node to its leader
  if (L.local(me) == 0 && L.nnodes() > 1) detail::append_roots_stage(s, Stage::Roots, me, q);  // 2. among the leaders
  if (shared) detail::append_node_stage(s, Stage::NodeAfter, me, q);  // 3. bcast of the result within the node
  return s;
}

}  // namespace ompisim::coll
