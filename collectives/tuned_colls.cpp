// Registration of the generators of tuned_colls.hpp (names: Open MPI's coll/tuned enum strings, mpich_* for MPICH's).
#include "collectives/tuned_colls.hpp"

namespace ompisim::coll {

void register_tuned_collectives(CollRegistry& reg) {
  const char* base = "ompi/mca/coll/base/";
  auto src = [&](const char* file, const char* fn) { return std::string(base) + file + " " + fn + " (v4.1-v5.0)"; };
  reg.add({"alltoall", "linear", "all P-1 irecvs then all P-1 isends at once, wait all",
           src("coll_base_alltoall.c", "ompi_coll_base_alltoall_intra_basic_linear"), &alltoall_linear, false, false,
           false, RankRule::Any, true});
  reg.add({"alltoall", "linear_sync", "linear_sync with coll_tuned_alltoall_max_requests = 0: every request at once",
           src("coll_base_alltoall.c", "ompi_coll_base_alltoall_intra_linear_sync"), &alltoall_linear, false, false,
           false, RankRule::Any, true});
  reg.add({"alltoall", "modified_bruck", "ceil(log2 P) sendrecvs with me+-2^k of the blocks whose index has bit k set",
           src("coll_base_alltoall.c", "ompi_coll_base_alltoall_intra_bruck"), &alltoall_modified_bruck, false});
  reg.add({"alltoall", "two_proc", "one sendrecv of the block with the other rank (P == 2 only)",
           src("coll_base_alltoall.c", "ompi_coll_base_alltoall_intra_two_procs"), &exchange_two_procs, false, false,
           false, RankRule::Two});
  reg.add({"allgather", "two_proc", "one sendrecv of the block with the other rank (P == 2 only)",
           src("coll_base_allgather.c", "ompi_coll_base_allgather_intra_two_procs"), &exchange_two_procs, false, false,
           false, RankRule::Two});
  reg.add({"allgather", "recursive_doubling", "log2 P exchanges of 2^k blocks with me^2^k (bruck if P is not a power of 2)",
           src("coll_base_allgather.c", "ompi_coll_base_allgather_intra_recursivedoubling"),
           &allgather_recursive_doubling, false});
  reg.add({"allgather", "bruck", "ceil(log2 P) rounds: send to me-2^k, receive from me+2^k, min(2^k, P-2^k) blocks",
           src("coll_base_allgather.c", "ompi_coll_base_allgather_intra_bruck"), &allgather_bruck, false});
  reg.add({"allgather", "neighbor", "neighbour exchange: P/2 rounds alternating between me+1 and me-1 (ring if P odd)",
           src("coll_base_allgather.c", "ompi_coll_base_allgather_intra_neighborexchange"), &allgather_neighbor, false});
  reg.add({"bcast", "knomial", "k-nomial tree (radix 4), one segment: receive from the parent, send to every child",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_knomial"), &bcast_knomial, false, false, true});
  reg.add({"bcast", "split_binary_tree",
           "binary tree, one half of the message down each subtree (in segments where the decision gives a "
           "segsize), then halves swapped between pairs",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_split_bintree"), &bcast_split_bintree, false});
  reg.add({"bcast", "basic_linear", "the root isends to every other rank at once, then waits for all",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_basic_linear"), &bcast_basic_linear, false});
  reg.add({"bcast", "pipeline", "chain root -> 1 -> 2 -> ... (build_chain fan-out 1), in segments where the decision gives a segsize",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_pipeline"), &bcast_pipeline, false});
  reg.add({"bcast", "chain",
           "chains of fan-out 0 as coll/tuned's fixed decision passes it, which build_chain forces to 1: the pipeline's "
           "chain, in segments where the decision gives a segsize",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_chain"), &bcast_pipeline, false});
  reg.add({"bcast", "binary_tree", "binary tree (build_tree fan-out 2): receive from the parent, send to both children (in segments "
           "where the decision gives a segsize)",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_bintree"), &bcast_binary_tree, false});
  reg.add({"bcast", "scatter_allgather",
           "binomial scatter of P blocks of ceil(count/P), then a recursive-doubling allgather (recursive halving for a "
           "cut partner group); basic_linear below P elements",
           src("coll_base_bcast.c", "ompi_coll_base_bcast_intra_scatter_allgather"), &bcast_scatter_allgather, false});
  reg.add({"gather", "binomial", "binomial tree: receive each child's subtree in turn, send the lot to the parent",
           src("coll_base_gather.c", "ompi_coll_base_gather_intra_binomial"), &gather_binomial, false});
  reg.add({"gather", "linear_sync",
           "for each rank in turn the root posts the block's receive and sends a zero-byte sync; the block then an "
           "empty second segment come back (first segment size 0: the whole block)",
           src("coll_base_gather.c", "ompi_coll_base_gather_intra_linear_sync"), &gather_linear_sync, false});
  reg.add({"scatter", "binomial", "binomial tree: receive the subtree's blocks, send each child its subtree in turn",
           src("coll_base_scatter.c", "ompi_coll_base_scatter_intra_binomial"), &scatter_binomial, false});
  reg.add({"scatter", "linear_nb", "the root posts all P-1 isends at once",
           src("coll_base_scatter.c", "ompi_coll_base_scatter_intra_linear_nb"), &scatter_linear_nb, false});
  reg.add({"alltoall", "mpich_scattered", "MPICH: batches of 32 (MPIR_CVAR_ALLTOALL_THROTTLE) irecvs and isends",
           "MPICH src/mpi/coll/alltoall/alltoall_intra_scattered.c (3.3-4.x)", &alltoall_mpich_scattered, false, false,
           true});
  reg.add({"alltoall", "mpich_pairwise", "MPICH: P-1 exchanges, partner me^i for P a power of 2, else me+-i",
           "MPICH src/mpi/coll/alltoall/alltoall_intra_pairwise.c (3.3-4.x)", &alltoall_mpich_pairwise, false});
  reg.add({"bcast", "mpich_scatter_rdb_allgather", "MPICH: binomial scatter of P pieces of ceil(n/P) B (short/empty last ones), "
           "recursive-doubling allgather of the bytes held (P a power of 2)",
           "MPICH src/mpi/coll/bcast/bcast_intra_scatter_recursive_doubling_allgather.c and bcast_utils.c "
           "MPII_Scatter_for_bcast (v3.4a2)",
           &bcast_mpich_scatter_rdb_allgather, false, false, false, RankRule::PowerOfTwo});
  reg.add({"bcast", "mpich_scatter_ring_allgather", "MPICH: binomial scatter of P pieces of ceil(n/P) B (short/empty last ones), "
           "ring allgather of each piece's bytes",
           "MPICH src/mpi/coll/bcast/bcast_intra_scatter_ring_allgather.c and bcast_utils.c MPII_Scatter_for_bcast "
           "(v3.4a2)",
           &bcast_mpich_scatter_ring_allgather, false});
  reg.add({"bcast", "mpich_binomial", "MPICH: binomial tree, parent rel - lowest bit, blocking sends largest subtree first",
           "MPICH src/mpi/coll/bcast/bcast_intra_binomial.c MPIR_Bcast_intra_binomial (v3.4a2)", &bcast_mpich_binomial,
           false});
  reg.add({"bcast", "mpich_smp",
           "MPICH ch4 node-aware bcast: root to its node leader, bcast among node leaders, bcast within every node",
           "MPICH src/mpid/ch4/src/ch4_coll_impl.h MPIDI_Bcast_intra_composition_alpha (v3.4a2)", &bcast_mpich_smp,
           false, true});
}

}  // namespace ompisim::coll
