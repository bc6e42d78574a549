// barrier "cheetah-atomic" ↔ the Cheetah uGNI BCOL atomic barrier described in "Open MPI for Cray XE/XK Systems"
// (Gemini paper, /work/shared/papers/gemini-xe-xk.md §V-B). No uGNI BCOL source was found in the public
// open-mpi/ompi tree (its v1.7–v2.x ompi/mca/bcol holds basesmuma, iboffload and ptpcoll only), so this follows the
// paper's prose.
//
// Message sequence: fan-in/fan-out over an n-ary tree of radix params.radix (Gemini paper Fig. 7 uses 4).
//   - Leaf:     Amo(parent)                      then WaitCounter(1)            (the parent's fan-out add) -> exit
//   - Interior: WaitCounter(#children)           (all children's fan-in adds)
//               Amo(parent), WaitCounter(#children + 1)                         (the parent's fan-out add)
//               Amo(each child)                                                 -> exit
//   - Root:     WaitCounter(#children), then Amo(each child)                    -> exit
// Every Amo goes through the NIC (Schedule::amo_nic), to a peer on the node too: the uGNI BCOL's primitives are defined
// over the P2P subgroup of all processes sharing the Gemini communication domain, each an atomic posted with
// GNI_PostFMA (§V-A, V-B); no shared-memory level (that is cheetah-hierarchical).
// Counters are cumulative within one barrier call (schedule.hpp), which is why an interior rank waits for
// #children + 1: the parent's fan-out add can only arrive after this rank's own fan-in add, i.e. after its children's.
//
// Tree shape (a choice; the paper names only "n-ary tree, root/interior/leaf"): heap layout rooted at rank 0,
// children of r are r*radix+1 .. r*radix+radix (< P), parent (r-1)/radix. It is complete, so its depth is the
// smallest d with (radix^(d+1) - 1)/(radix - 1) >= P (<= ceil(log_radix P)), and every rank computes its parent and
// children in O(1) from its own rank. Memory: O(radix).
#include <stdexcept>
#include <string>

#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

int nary_parent(int r, int radix) { return r == 0 ? -1 : (r - 1) / radix; }

int nary_first_child(int r, int radix) {
  const long long c = static_cast<long long>(r) * radix + 1;
  return c > 0x7fffffff ? 0x7fffffff : static_cast<int>(c);
}

int nary_num_children(int r, int n, int radix) {
  const int first = nary_first_child(r, radix);
  if (first >= n) return 0;
  return n - first < radix ? n - first : radix;
}

Schedule barrier_cheetah_atomic(int me, int nranks, const AlgoParams& params) {
  detail::check_ranks("cheetah-atomic", me, nranks);
  const int radix = params.radix;
  if (radix < 2)
    throw std::invalid_argument("barrier/cheetah-atomic: radix = " + std::to_string(radix) + " (must be >= 2)");
  const int parent = nary_parent(me, radix);
  const int first = nary_first_child(me, radix);
  const auto nchild = static_cast<std::uint32_t>(nary_num_children(me, nranks, radix));
  Schedule s;
  // Fan-in.
  if (nchild > 0) s.round().wait_counter(nchild);
  if (parent >= 0) {
    s.round().amo_nic(parent);
    s.round().wait_counter(nchild + 1);  // fan-out from the parent
  }
  // Fan-out.
  if (nchild > 0) {
    s.round();
    for (int c = first; c < first + static_cast<int>(nchild); ++c) s.amo_nic(c);
  }
  return s;
}

}  // namespace ompisim::coll
