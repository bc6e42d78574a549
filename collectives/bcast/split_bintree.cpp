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
// With a segment size (AlgoParams::segsize: coll/tuned v1.3's fixed decision passes 1 KiB below 370728 B and 8 KiB
// for large messages on fewer than 13 ranks; ompi_coll_tuned_bcast_intra_split_bintree, coll_tuned_bcast.c v1.3.0),
// step 1 is pipelined: each half is cut into segments of segsize bytes (the last shorter); the root sends segment i of
// the first half to its left child, then segment i of the second to its right child, for i = 0, 1, ... (blocking
// sends); an intermediate rank posts the receive of its half's segment 0, then for each next segment posts its receive,
// waits for the previous one and sends it to each child in turn (blocking), then waits for the last and forwards it;
// a leaf receives its segments one after the other (blocking receives). A half shorter than segsize makes the source
// run the chain (pipeline) with that segment size instead, and so does this generator. Step 2 as above.
#include "collectives/tuned_colls.hpp"
#include "collectives/bcast/bintree.hpp"
#include "collectives/data_colls.hpp"

#include <stdexcept>
#include <string>
#include <vector>

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
  if (params.segsize > half[1]) return bcast_pipeline(me, nranks, params);  // the chain, segmented as asked
  const int lr = static_cast<int>((v + 1) % 2);  // 0: left subtree (odd v), 1: right (even v, and the root)
  // Sends are blocking MCA_PML_CALL(send) / ompi_coll_base_sendrecv in coll_base_bcast.c (v5.0.0rc11), except the
  // chain fall-back's (bcast_intra_generic: isend).
  // Step 1: down the binary tree, each half in segments of `seg` bytes (one segment without a segment size).
  const std::uint32_t seg[2] = {params.segsize > 0 ? params.segsize : half[0],
                                params.segsize > 0 ? params.segsize : half[1]};
  const std::uint32_t nseg[2] = {(half[0] + seg[0] - 1) / seg[0], (half[1] + seg[1] - 1) / seg[1]};
  auto size_of = [&](int h, std::uint32_t i) { return i + 1 == nseg[h] ? half[h] - i * seg[h] : seg[h]; };
  const int level = bintree_level(v);
  const long long delta = 1LL << level;
  std::vector<long long> children;
  for (int i = 0; i < 2; ++i)
    if (v + delta * (i + 1) < nranks) children.push_back(v + delta * (i + 1));
  if (v == 0) {
    for (std::uint32_t k = 0; k < nseg[0]; ++k)
      for (int i = 0; i < static_cast<int>(children.size()); ++i)
        if (k < nseg[i]) s.round().send_blocking(real(children[static_cast<std::size_t>(i)]), size_of(i, k));
  } else if (nseg[lr] == 1 || children.empty()) {  // one segment, or a leaf: blocking receives
    for (std::uint32_t k = 0; k < nseg[lr]; ++k) s.round().recv(real(bintree_parent(v)), size_of(lr, k));
    for (long long c : children) s.round().send_blocking(real(c), half[lr]);
  } else {
    const int parent = real(bintree_parent(v));
    s.round().post_recv(parent, size_of(lr, 0));
    for (std::uint32_t k = 1; k < nseg[lr]; ++k) {
      s.round().post_recv(parent, size_of(lr, k)).wait();
      for (long long c : children) s.round().send_blocking(real(c), seg[lr]);
    }
    s.round().wait();
    for (long long c : children) s.round().send_blocking(real(c), size_of(lr, nseg[lr] - 1));
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
