// Registration of the data-carrying collective generators (explicit register_*(), no static constructors). Names are Open MPI
// coll/tuned enum strings (coll_tuned_allreduce.c, coll_tuned_alltoall.c, coll_tuned_bcast.c, v1.2–v4.1).
#include "collectives/data_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {


void register_data_collectives(CollRegistry& reg) {
  reg.add({"allreduce", "recursive_doubling",
           "pairwise exchanges of the whole vector with me^2^k; extra ranks fold into their odd neighbour first",
           "ompi/mca/coll/base/coll_base_allreduce.c ompi_coll_base_allreduce_intra_recursivedoubling (v2.0–v4.1; "
           "coll_tuned_allreduce.c in v1.2–v1.10)",
           &allreduce_recursive_doubling, false});
  reg.add({"allreduce", "ring",
           "ring: P blocks, P-1 reduce steps then P-1 allgather steps, each sending to me+1 and receiving from me-1",
           "ompi/mca/coll/tuned/coll_tuned_allreduce.c ompi_coll_tuned_allreduce_intra_ring (v1.3; coll_base_allreduce.c "
           "in v2.0–v4.1)",
           &allreduce_ring, false});
  reg.add({"allreduce", "segmented_ring",
           "the ring in phases: each block cut into pieces of the decision's segment size, one ring computation loop "
           "per phase, then the ring's distribution (segment size 0, as v5's fixed decision calls it: the ring)",
           "ompi/mca/coll/tuned/coll_tuned_allreduce.c ompi_coll_tuned_allreduce_intra_ring_segmented (v1.3; "
           "coll_base_allreduce.c ompi_coll_base_allreduce_intra_ring_segmented in v2.0-v5.0)",
           &allreduce_ring_segmented, false});
  reg.add({"allreduce", "mpich_rabenseifner",
           "MPICH2: reduce-scatter by recursive halving, then allgather by recursive doubling; extra ranks fold first",
           "MPICH2 1.0.x src/mpi/coll/allreduce.c MPIR_Allreduce, its path above MPIR_ALLREDUCE_SHORT_MSG (2048 B)",
           &allreduce_mpich_rabenseifner, false});
  reg.add({"allreduce", "rabenseifner",
           "reduce-scatter by recursive vector halving, then allgather by recursive doubling; extra ranks fold in "
           "halves into their even neighbour first",
           "ompi/mca/coll/base/coll_base_allreduce.c ompi_coll_base_allreduce_intra_redscat_allgather (v4.1-v5.0; "
           "coll/tuned allreduce algorithm 6)",
           &allreduce_rabenseifner, false});
  reg.add({"allreduce", "mpich_smp",
           "MPICH ch4 node-aware allreduce: reduce within every node to its leader, allreduce among the node leaders, "
           "bcast within every node",
           "MPICH src/mpid/ch4/src/ch4_coll_impl.h MPIDI_Allreduce_intra_composition_alpha (v3.4a2)",
           &allreduce_mpich_smp, false, true});
  reg.add({"allreduce", "nonoverlapping",
           "the communicator's own reduce to rank 0, then its own bcast from rank 0 (each chosen by coll/tuned's "
           "decision)",
           "ompi/mca/coll/base/coll_base_allreduce.c ompi_coll_base_allreduce_intra_nonoverlapping (v4.1-v5.0; "
           "coll/tuned allreduce algorithm 2)",
           &allreduce_nonoverlapping, false, true});
  reg.add({"alltoall", "pairwise", "P-1 sendrecv steps: send to me+k, receive from me-k (mod P)",
           "ompi/mca/coll/base/coll_base_alltoall.c ompi_coll_base_alltoall_intra_pairwise (v2.0–v4.1; "
           "coll_tuned_alltoall.c in v1.2–v1.10)",
           &alltoall_pairwise, false});
  reg.add({"bcast", "binomial", "binomial tree rooted at params.root, one segment: receive from parent, send to children",
           "ompi/mca/coll/base/coll_base_bcast.c ompi_coll_base_bcast_intra_binomial over "
           "coll_base_topo.c ompi_coll_base_topo_build_bmtree (v2.0–v4.1), segment size 0",
           &bcast_binomial, false});
}

}  // namespace ompisim::coll
