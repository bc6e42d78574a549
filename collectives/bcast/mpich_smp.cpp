// bcast "mpich_smp" ↔ MPIDI_Bcast_intra_composition_alpha, src/mpid/ch4/src/ch4_coll_impl.h (MPICH v3.4a2, the ANL
// base of Cray MPICH 8.1.x, whose release notes say it "uses the new ANL MPICH CH4 code path"). MPI_Bcast -> MPIR_Bcast
// -> MPID_Bcast (MPIR_CVAR_BCAST_DEVICE_COLLECTIVE and MPIR_CVAR_DEVICE_COLLECTIVES default true) -> MPIDI_Bcast_select
// (ch4_coll_select.h), which takes this composition on a node-aware communicator with MPIR_CVAR_ENABLE_SMP_COLLECTIVES
// and MPIR_CVAR_ENABLE_SMP_BCAST (default true); with MPIR_CVAR_MAX_SMP_BCAST_MSG_SIZE at its default 0 the size it
// tests is 0, so it is taken at every message size (collectives/decision/mpich_default.json, row "node_aware").
//
// Steps, on the layout of MPIR_Comm_create_subcomms (NodeLayout):
//  1. a root that is not its node's leader (not in node_roots_comm) sends the message to local rank 0 of its node
//     (MPIC_Send on node_comm); that leader receives it (MPIC_Recv);
//  2. the leaders run MPIDI_NM_mpi_bcast on node_roots_comm with root = the root's node (the netmod's choice,
//     MPIDI_OFI_Bcast_select: params.stages, Stage::Roots, for the number of nodes);
//  3. every node with more than one rank runs MPIDI_SHM_mpi_bcast on node_comm with root 0 (MPIDI_POSIX_Bcast_select:
//     Stage::Node, for the node's size); the root, when not a leader, receives the message again here, as in MPICH.
// Cray MPICH's SMP-aware tree (intro_mpi(3) MPICH_BCAST_ONLY_TREE) has the same three steps with a tree in each stage,
// whose radices are params.roots_radix / params.node_radix (MPICH_BCAST_INTERNODE_RADIX / _INTRANODE_RADIX) when set.
// Each stage's schedule is generated in the sub-communicator's ranks and mapped to the communicator's. Memory: the
// stages' (O(log P)) plus O(1).
#include "collectives/tuned_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule bcast_mpich_smp(int me, int nranks, const AlgoParams& p) {
  const NodeLayout& L = detail::rooted_composition_layout("bcast/mpich_smp", me, nranks, p);
  Schedule s;
  const int my_node = L.node(me), root_node = L.node(p.root);
  const bool leader = L.local(me) == 0;
  // 1. root -> its node's leader.
  if (L.local(p.root) != 0) {
    if (me == p.root) s.round().send(L.leader(root_node), p.bytes);
    else if (leader && my_node == root_node) s.round().recv(p.root, p.bytes);
  }
  // 2. among the leaders.
  if (leader && L.nnodes() > 1) {
    AlgoParams q = p;
    q.root = root_node;
    if (p.roots_radix > 0) q.radix = p.roots_radix;
    detail::append_roots_stage(s, Stage::Roots, me, q);
  }
  // 3. within each node, from its leader.
  if (L.node_size(my_node) > 1) {
    AlgoParams q = p;
    q.root = 0;
    if (p.node_radix > 0) q.radix = p.node_radix;
    detail::append_node_stage(s, Stage::Node, me, q);
  }
  return s;
}

}  // namespace ompisim::coll
