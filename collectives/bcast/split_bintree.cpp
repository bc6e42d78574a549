// bcast "split_binary_tree" ↔ ompi_coll_base_bcast_intra_split_bintree, ompi/mca/coll/base/coll_base_bcast.c
// (v4.1-v5.0), with one segment per half (segment size 0, as coll/tuned's fixed decision passes: it picks this
// algorithm for 16-32 KiB messages at 128-1023 ranks).
//
// Tree: ompi_coll_base_topo_build_tree(2, comm, root) (coll_base_topo.c): with s = (me - root) mod P at level
// l = floor(log2(s + 1)), the children are s + 2^l and s + 2^(l+1) (while < P), the parent of s >= 2 is found by
// subtracting 2^(l-1) until below 2^l - 1 (0 for s = 1, 2). Shifted ranks that are odd form the left subtree (under
// s = 1), even ones the right subtree (under s = 2); the root counts as right.
// Message sequence. Step 1: the message is split in two halves (the first rounded up); the root sends the first half
// to its left child, then the second to its right child (blocking sends, one after the other); every other rank
// receives its subtree's half from its parent and sends it to each child in turn. Step 2: each rank exchanges its
// half with its pair in the other subtree (odd s with s + 1, even s with s - 1, one sendrecv); with P even, the last
// rank (s = P - 1, whose pair would be the root) receives the second half from the root instead.
// A message of one byte cannot be split: the source then runs bcast_intra_chain with fan-out 1 (a pipeline
// root -> s = 1 -> 2 -> ... in one segment), and so does this generator.
#include "collectives/tuned_colls.hpp"
#include "collectives/bcast/bintree.hpp"
#include "collectives/data_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

using detail::bintree_level;
using detail::bintree_parent;

Schedule bcast_split_bintree(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/split_binary_tree", me, nranks);
  detail::check_root("bcast/split_binary_tree", params.root, nranks);
  Schedule s;
  if (nranks == 1) return s;
  const long long v = (me - params.root + nranks) % nranks;
  auto real = [&](long long x) { return static_cast<int>((x + params.root) % nranks); };
  const std::uint32_t half[2] = {params.bytes - params.bytes / 2, params.bytes / 2};
  if (half[0] == 0 || half[1] == 0) return bcast_pipeline(me, nranks, params);  // the source's chain of fan-out 1
  const int lr = static_cast<int>((v + 1) % 2);  // 0: left subtree (odd v), 1: right (even v, and the root)
  // Sends are blocking MCA_PML_CALL(send) / ompi_coll_base_sendrecv in coll_base_bcast.c (v5.0.0rc11), except the
  // chain fall-back's (bcast_intra_generic: isend).
  // Step 1: down the binary tree.
  const int level = bintree_level(v);
  const long long delta = 1LL << level;
  if (v == 0) {
    for (int i = 0; i < 2; ++i)
      if (delta * (i + 1) < nranks) s.round().send_blocking(real(delta * (i + 1)), half[i]);
  } else {
    s.round().recv(real(bintree_parent(v)), half[lr]);
    for (int i = 0; i < 2; ++i)
      if (v + delta * (i + 1) < nranks) s.round().send_blocking(real(v + delta * (i + 1)), half[lr]);
  }
  // Step 2: swap halves with the pair in the other subtree.
  const long long pair = lr == 0 ? (v + 1) % nranks : (v + nranks - 1) % nranks;
  if (nranks % 2 != 0) {
    if (v != 0) s.round().sendrecv_to(real(pair), half[lr], real(pair), half[1 - lr]);
  } else if (v == 0) {
    s.round().send_blocking(real(nranks - 1), half[1]);
  } else if (v == nranks - 1) {
    s.round().recv(real(0), half[1]);
  } else {
    s.round().sendrecv_to(real(pair), half[lr], real(pair), half[1 - lr]);
  }
  return s;
}

}  // namespace ompisim::coll
