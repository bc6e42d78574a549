// Registration of the barrier schedule generators (explicit register_*(), no static constructors), plus shared argument checks.
// Names are Open MPI coll/tuned enum strings (ompi/mca/coll/tuned/coll_tuned_barrier.c, `barrier_algorithms[]`,
// v1.7–v4.1) or "cheetah-*" for the Cheetah BCOL barriers.
#include <stdexcept>
#include <string>

#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

namespace detail {
void check_ranks(const char* algo, int me, int nranks) { check_rank_args(std::string("barrier/") + algo, me, nranks); }
}  // namespace detail

void register_barriers(CollRegistry& reg) {
  const std::string base = "ompi/mca/coll/base/coll_base_barrier.c (v2.0–v4.1; coll_tuned_barrier.c in v1.7–v1.10)";
  reg.add({"barrier", "linear", "all ranks send to 0, then 0 sends to all (0-byte messages)",
           base + " ompi_coll_base_barrier_intra_basic_linear", &barrier_linear, false});
  reg.add({"barrier", "double_ring", "token passes twice around the ring 0 -> 1 -> ... -> P-1 -> 0",
           base + " ompi_coll_base_barrier_intra_doublering", &barrier_double_ring, false});
  reg.add({"barrier", "recursive_doubling",
           "pairwise exchanges with me^2^k; ranks above the largest power of two fold in and are released after",
           base + " ompi_coll_base_barrier_intra_recursivedoubling", &barrier_recursive_doubling, false});
  reg.add({"barrier", "bruck", "dissemination: ceil(log2 P) rounds, send to me+2^k, receive from me-2^k (mod P)",
           base + " ompi_coll_base_barrier_intra_bruck", &barrier_bruck, false});
  reg.add({"barrier", "two_proc", "single 0-byte sendrecv between the two ranks (P == 2 only)",
           base + " ompi_coll_base_barrier_intra_two_procs", &barrier_two_proc, false, false, false, RankRule::Two});
  reg.add({"barrier", "tree", "hypercube-embedded binomial fan-in to rank 0, then fan-out (0-byte messages)",
           base + " ompi_coll_base_barrier_intra_tree", &barrier_tree, false});
  reg.add({"barrier", "cheetah-atomic",
           "uGNI BCOL atomic barrier: n-ary (params.radix) fan-in/fan-out tree of remote atomic adds and polling",
           "Cheetah uGNI BCOL barrier (Open MPI for Cray XE/XK, Gemini paper §V-B; no public Open MPI source found)",
           &barrier_cheetah_atomic, true, false, true});
  reg.add({"barrier", "cheetah-p2p",
           "PTPCOLL BCOL barrier: recursive doubling over ob1 0-byte sends, extra ranks served by a proxy",
           "ompi/mca/bcol/ptpcoll/bcol_ptpcoll_barrier.c bcol_ptpcoll_barrier_recurs_dbl_new (v1.7–v2.x, "
           "default bcol_ptpcoll_barrier_alg = 1)",
           &barrier_cheetah_p2p, false});
  reg.add({"barrier", "cheetah-hierarchical",
           "node fan-in to the node leader by shared-memory atomics, atomic n-ary tree among leaders, node fan-out",
           "Cheetah ML over BASESMUMA (UMA subgroup) + uGNI BCOL (P2P subgroup), ompi/mca/coll/ml v1.7–v2.x; "
           "Gemini paper §V",
           &barrier_cheetah_hierarchical, true, false, true});
}

}  // namespace ompisim::coll
