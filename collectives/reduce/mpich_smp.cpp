// reduce "mpich_smp" ↔ MPIDI_Reduce_intra_composition_alpha, src/mpid/ch4/src/ch4_coll_impl.h (MPICH v3.4a2, the ANL
// base of Cray MPICH 8.1.x). MPI_Reduce -> MPIR_Reduce -> MPID_Reduce (the device collectives, default on) ->
// MPIDI_Reduce_select (ch4_coll_select.h), which takes this composition on a node-aware communicator
// (MPIR_Comm_is_node_aware) for a commutative operation with MPIR_CVAR_ENABLE_SMP_COLLECTIVES and
// MPIR_CVAR_ENABLE_SMP_REDUCE (default true); with MPIR_CVAR_MAX_SMP_REDUCE_MSG_SIZE at its default 0 the size it tests
// is 0, so it is taken at every message size (collectives/decision/mpich_default.json "reduce", row "node_aware").
//
// Steps, on the layout of MPIR_Comm_create_subcomms (NodeLayout), every message the whole vector (params.bytes):
//  1. every node other than the root's, with more than one rank, runs MPIDI_SHM_mpi_reduce on node_comm to local
//     rank 0 (MPIDI_POSIX_Reduce_select: Stage::Node, for the node's size);
//  2. the leaders run MPIDI_NM_mpi_reduce on node_roots_comm to the root's node (MPIR_Get_internode_rank;
//     MPIDI_OFI_Reduce_select: Stage::Roots, for the number of nodes); the leader of the root's node joins with its own
//     vector, its node not reduced yet;
//  3. the root's node, with more than one rank, runs MPIDI_SHM_mpi_reduce on node_comm to the root's local rank
//     (Stage::NodeAfter, for the node's size), its leader contributing step 2's result.
// A rank alone on its node takes part in step 2 only (its own vector). Each stage's schedule is generated in the
// sub-communicator's ranks and mapped to the communicator's. Memory: the stages' plus O(1).
#include "collectives/reduce/reduce.hpp"
#include "collectives/schedule.hpp"

namespace ompisim::coll {

Schedule reduce_mpich_smp(int me, int nranks, const AlgoParams& p) {
  const NodeLayout& L = detail::rooted_composition_layout("reduce/mpich_smp", me, nranks, p);
  Schedule s;
  const int my_node = L.node(me), root_node = L.node(p.root);
  const bool shared = L.node_size(my_node) > 1;
  AlgoParams q = p;
  if (my_node != root_node && shared) {  // 1. reduce within the node to its leader
    q.root = 0;
    detail::append_node_stage(s, Stage::Node, me, q);
  }
  if (L.local(me) == 0 && L.nnodes() > 1) {  // 2. reduce among the leaders to the root's node
    q.root = root_node;
    detail::append_roots_stage(s, Stage::Roots, me, q);
  }
  if (my_node == root_node && shared) {  // 3. reduce within the root's node to the root
    q.root = L.local(p.root);
    detail::append_node_stage(s, Stage::NodeAfter, me, q);
  }
  return s;
}

}  // namespace ompisim::coll
