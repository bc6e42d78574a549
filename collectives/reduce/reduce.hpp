// MPI_Reduce schedule generators (the IMB Reduce of the heterogeneous paper's Fig. 4), each mirroring one Open MPI
// 1.1 function and carrying the reduction itself as Reduce operations (charged by the executor at the cost per element
// of the processor of the rank that reduces):
//   reduce "linear"     ompi_coll_tuned_reduce_intra_basic_linear (coll/tuned v1.1.0 and v1.1.1, a copy of coll/basic's
//                       reduce_lin_intra): non-roots send their vector to the root; the root receives from P-1 first
//                       (into its result buffer), then from P-2 down to 0 one blocking receive at a time, and reduces
//                       after each receive (its own vector in turn, when the loop reaches it): P-1 reductions.
//   reduce "basic_log"  mca_coll_basic_reduce_log_intra (coll/basic v1.1, commutative operation): a hypercube fan-in
//                       on virtual ranks v = (me - root) mod P: at dimension k a rank with bit k set sends its partial
//                       result to v - 2^k and stops; the others receive from v + 2^k (if it exists) and reduce. The
//                       result ends on the root (v = 0).
//   reduce "mpich_binomial"               MPIR_Reduce_intra_binomial (MPICH v3.4a2), commutative operation: the same
//                       fan-in as "basic_log" (the same generator).
//   reduce "mpich_reduce_scatter_gather"  MPIR_Reduce_intra_reduce_scatter_gather (MPICH v3.4a2): Rabenseifner's
//                       reduce (mpich_reduce_scatter_gather.cpp); both are MPICH's choices for the reduce within a node
//                       of its node-aware allreduce (collectives/decision/mpich_default.json "reduce").
//   reduce "mpich_smp"  MPIDI_Reduce_intra_composition_alpha (MPICH v3.4a2): MPI_Reduce on a node-aware communicator,
//                       a reduce within every other node, among the node leaders, then within the root's node
//                       (mpich_smp.cpp); a library's decision table only.
//   reduce "binomial", "in_order_binary"  ompi_coll_base_reduce_intra_binomial / _in_order_binary (v4.1-v5.0) with
//                       one segment, coll/tuned v5's choices for the reduce of its nonoverlapping allreduce
//                       (tree_reduce.cpp); "binary", "pipeline", "chain": its other tree reduces, chosen below 32 ranks;
//                       "rabenseifner": ompi_coll_base_reduce_intra_redscat_gather (redscat_gather.cpp).
// Which one Open MPI 1.1 runs: coll/tuned (priority 30, above coll/basic's 10) with coll_tuned_use_dynamic_rules 0
// uses ompi_coll_tuned_reduce_intra_dec_fixed, which in v1.1.0 and v1.1.1 returns basic_linear at every size and
// communicator size (its size rules are compiled out, '#ifdef coconuts'): collectives/decision/ompi_v1_1_tuned.json.
// LIMITATIONS: the root's local copy of its own vector (P-1 = root in "linear") is not charged; MPI_IN_PLACE is not
// modelled; non-commutative operations (basic_log's in-order variant) are not modelled.
#pragma once
#include "collectives/registry.hpp"

namespace ompisim::coll {

void register_reduce(CollRegistry& reg);

Schedule reduce_linear(int me, int nranks, const AlgoParams& params);
Schedule reduce_basic_log(int me, int nranks, const AlgoParams& params);
// MPICH's Rabenseifner reduce (reduce/mpich_reduce_scatter_gather.cpp); reduce "mpich_binomial" is reduce_basic_log.
Schedule reduce_mpich_reduce_scatter_gather(int me, int nranks, const AlgoParams& params);
// coll/base's tree reduces as coll/tuned v5 calls them (reduce/tree_reduce.cpp).
Schedule reduce_binomial(int me, int nranks, const AlgoParams& params);
Schedule reduce_in_order_binary(int me, int nranks, const AlgoParams& params);
Schedule reduce_binary(int me, int nranks, const AlgoParams& params);
Schedule reduce_pipeline(int me, int nranks, const AlgoParams& params);  // also "chain" (coll/tuned's fanout 0 -> 1)
// coll/base's Rabenseifner reduce, ompi_coll_base_reduce_intra_redscat_gather (reduce/redscat_gather.cpp).
Schedule reduce_rabenseifner(int me, int nranks, const AlgoParams& params);
// MPICH's ch4 node-aware reduce (reduce/mpich_smp.cpp): needs params.layout and params.stages (Stage::Node: the reduce
// within the other nodes, Stage::Roots: among the leaders, Stage::NodeAfter: within the root's node).
Schedule reduce_mpich_smp(int me, int nranks, const AlgoParams& params);

}  // namespace ompisim::coll
