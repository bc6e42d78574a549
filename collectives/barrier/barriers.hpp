// Barrier schedule generators. Each mirrors one Open MPI barrier and is named after its coll/tuned enum string
// (ompi/mca/coll/tuned/coll_tuned_barrier.c, v1.7–v4.1: linear, double_ring, recursive_doubling, bruck, two_proc,
// tree) or after the Cheetah BCOL it models ("cheetah-atomic": uGNI BCOL atomic barrier, Gemini paper §V-B;
// "cheetah-p2p": ompi/mca/bcol/ptpcoll barrier, v1.7–v2.x; "cheetah-hierarchical": node-level shared-memory atomics
// under a network-level atomic tree).
//
// Every generator has the Generator signature of schedule.hpp: Schedule f(int me, int nranks, const AlgoParams&).
// It builds rank `me`'s schedule only, in O(log P) or O(radix) memory (linear's root: O(P)). Invalid arguments
// (me outside [0, nranks), nranks < 1, radix < 2, ranks_per_node < 1, two_proc with nranks != 2) throw
// std::invalid_argument naming the algorithm, the parameter and the value; nothing is adjusted silently.
//
// LIMITATIONS: the schedule alphabet has no synchronous-send mode, so the MCA_PML_BASE_SEND_SYNCHRONOUS sends of
// double_ring and recursive_doubling are emitted as ordinary Sends; Cheetah ML-level overheads (sequence numbers,
// bcol function dispatch) are the engine's concern, not the schedule's.
#pragma once
#include "collectives/registry.hpp"
#include "collectives/schedule.hpp"

namespace ompisim::coll {

// Registers every barrier algorithm below with coll "barrier".
void register_barriers(CollRegistry& reg);

Schedule barrier_linear(int me, int nranks, const AlgoParams& params);
Schedule barrier_double_ring(int me, int nranks, const AlgoParams& params);
Schedule barrier_recursive_doubling(int me, int nranks, const AlgoParams& params);
Schedule barrier_bruck(int me, int nranks, const AlgoParams& params);
Schedule barrier_two_proc(int me, int nranks, const AlgoParams& params);
Schedule barrier_tree(int me, int nranks, const AlgoParams& params);
Schedule barrier_cheetah_atomic(int me, int nranks, const AlgoParams& params);
Schedule barrier_cheetah_p2p(int me, int nranks, const AlgoParams& params);
Schedule barrier_cheetah_hierarchical(int me, int nranks, const AlgoParams& params);

// The n-ary tree of the Cheetah atomic barriers (heap layout, rooted at 0): parent(r) = (r-1)/radix, children of r
// are r*radix+1 .. r*radix+radix clipped to < n. Defined in cheetah_atomic.cpp.
int nary_parent(int r, int radix);           // -1 for the root
int nary_first_child(int r, int radix);      // may be >= n (then r is a leaf)
int nary_num_children(int r, int n, int radix);

namespace detail {
// Throws std::invalid_argument unless 0 <= me < nranks.
void check_ranks(const char* algo, int me, int nranks);  // check_rank_args("barrier/<algo>", ...)
}  // namespace detail

}  // namespace ompisim::coll
