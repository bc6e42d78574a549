// barrier "cheetah-hierarchical" ↔ a Cheetah ML barrier over two levels (Gemini paper §V-A: ML combines a
// shared-memory primitive on the UMA subgroup with a network primitive on the P2P subgroup; ompi/mca/coll/ml,
// v1.7–v2.x): node-level fan-in by shared-memory atomics, the uGNI BCOL atomic tree (cheetah_atomic.cpp) among the
// node leaders, node-level fan-out.
//
// Nodes are the placement's (params.layout: the UMA subgroup is the ranks that share a node, whatever the mapping;
// without a layout, block placement by params.ranks_per_node), numbered by their lowest rank, which leads the node.
// Leaders are arranged in the same heap-layout n-ary tree of radix params.radix as cheetah-atomic, rooted at rank
// 0's node, and their atomics go through the NIC (the uGNI BCOL); the node level's are shared-memory atomics.
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
#include <algorithm>
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
  if (!params.layout && rpn < 1)
    throw std::invalid_argument("barrier/cheetah-hierarchical: ranks_per_node = " + std::to_string(rpn) +
                                " (must be >= 1)");
  const NodeLayout* l = params.layout;
  if (l && l->nranks() != nranks)
    throw std::invalid_argument("barrier/cheetah-hierarchical: a layout of " + std::to_string(l->nranks()) +
                                " ranks for " + std::to_string(nranks));
  // Node k's local rank i, its size, the node count (the layout's, or block placement's arithmetic: O(1) per rank).
  auto member = [&](int k, int i) { return l ? l->member(k, i) : k * rpn + i; };
  auto node_size = [&](int k) { return l ? l->node_size(k) : std::min(rpn, nranks - k * rpn); };
  const int nnodes = l ? l->nnodes() : (nranks + rpn - 1) / rpn;
  const int node = l ? l->node(me) : me / rpn;
  const int leader = member(node, 0);
  Schedule s;
  if (me != leader) {
    s.round().amo(leader);
    s.round().wait_counter(1);
    return s;
  }
  const int members = node_size(node);
  const auto m = static_cast<std::uint32_t>(members - 1);
  const int parent = nary_parent(node, radix);
  const int first = nary_first_child(node, radix);
  const auto c = static_cast<std::uint32_t>(nary_num_children(node, nnodes, radix));
  if (m > 0) s.round().wait_counter(m);
  if (c > 0) s.round().wait_counter(m + c);
  if (parent >= 0) {
    s.round().amo_nic(member(parent, 0));
    s.round().wait_counter(m + c + 1);
  }
  if (c > 0) {
    s.round();
    for (int k = first; k < first + static_cast<int>(c); ++k) s.amo_nic(member(k, 0));
  }
  if (m > 0) {
    s.round();
    for (int i = 1; i < members; ++i) s.amo(member(node, i));
  }
  return s;
}

}  // namespace ompisim::coll
