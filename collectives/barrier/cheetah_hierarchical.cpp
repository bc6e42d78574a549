// barrier "cheetah-hierarchical" ↔ a Cheetah ML barrier over two levels (Gemini paper §V-A: ML combines a
// shared-memory primitive on the UMA subgroup with a network primitive on the P2P subgroup; ompi/mca/coll/ml,
// v1.7–v2.x): node-level fan-in by shared-memory atomics, the uGNI BCOL atomic tree (cheetah_atomic.cpp) among the
// node leaders, node-level fan-out.
//
// Placement is by block: rank r is on node r / params.ranks_per_node and the node's first rank is its leader (the
// last node may be partial). Leaders are numbered by node id and arranged in the same heap-layout n-ary tree of
// radix params.radix as cheetah-atomic, rooted at node 0's leader (rank 0).
// Message sequence:
//   - Non-leader: Amo(leader) (an atomic on a shared cache line), then WaitCounter(1) -> exit.
//   - Leader with m local members and c tree children:
//       WaitCounter(m)                         node fan-in (skipped if m == 0)
//       WaitCounter(m + c)                     network fan-in (skipped if c == 0)
//       Amo(parent leader), WaitCounter(m + c + 1)   unless node 0
//       Amo(each child leader)                 network fan-out (skipped if c == 0)
//       Amo(each local member)                 node fan-out (skipped if m == 0)
// A leader has one counter, incremented by both levels, so the waits are cumulative; the node-level wait comes first
// because ML runs the shared-memory BCOL before the network BCOL. Memory: O(radix + ranks_per_node).
#include <stdexcept>
#include <string>

#include "collectives/barrier/barriers.hpp"

namespace ompisim::coll {

Schedule barrier_cheetah_hierarchical(int me, int nranks, const AlgoParams& params) {
  detail::check_ranks("cheetah-hierarchical", me, nranks);
  const int radix = params.radix;
  const int rpn = params.ranks_per_node;
  if (radix < 2)
    throw std::invalid_argument("barrier/cheetah-hierarchical: radix = " + std::to_string(radix) +
                                " (must be >= 2)");
  if (rpn < 1)
    throw std::invalid_argument("barrier/cheetah-hierarchical: ranks_per_node = " + std::to_string(rpn) +
                                " (must be >= 1)");
  const int node = me / rpn;
  const int leader = node * rpn;
  Schedule s;
  if (me != leader) {
    s.round().amo(leader);
    s.round().wait_counter(1);
    return s;
  }
  const int nnodes = (nranks + rpn - 1) / rpn;
  const int node_end = nranks - leader < rpn ? nranks : leader + rpn;
  const auto m = static_cast<std::uint32_t>(node_end - leader - 1);
  const int parent = nary_parent(node, radix);
  const int first = nary_first_child(node, radix);
  const auto c = static_cast<std::uint32_t>(nary_num_children(node, nnodes, radix));
  if (m > 0) s.round().wait_counter(m);
  if (c > 0) s.round().wait_counter(m + c);
  if (parent >= 0) {
    s.round().amo(parent * rpn);
    s.round().wait_counter(m + c + 1);
  }
  if (c > 0) {
    s.round();
    for (int k = first; k < first + static_cast<int>(c); ++k) s.amo(k * rpn);
  }
  if (m > 0) {
    s.round();
    for (int r = leader + 1; r < node_end; ++r) s.amo(r);
  }
  return s;
}

}  // namespace ompisim::coll
