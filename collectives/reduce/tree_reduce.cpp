// reduce "binomial", "in_order_binary", "binary", "pipeline" and "chain" ↔ ompi_coll_base_reduce_intra_binomial,
// _in_order_binary, _binary, _pipeline and _chain, ompi/mca/coll/base/coll_base_reduce.c (v4.1-v5.0), as coll/tuned v5's
// fixed decision calls them: do_this(..., alg, 0, 0, 0), segment size 0 (one segment: segcount = count) and no
// request limit; and (binomial, pipeline) as coll/tuned v1.3's calls them, with a segment size (AlgoParams::segsize).
// Each runs ompi_coll_base_reduce_generic over a tree from coll_base_topo.c:
//  - binomial: ompi_coll_base_topo_build_in_order_bmtree(root): with v = (rank - root) mod P, for mask = 1, 2, 4, ..
//    the first v ^ mask below v is the parent; every v ^ mask above v (and < P) before it is a child, in that order
//    (root 0 on 8 ranks: 0 -> 1, 2, 4; 2 -> 3; 4 -> 5, 6; 6 -> 7);
//  - in_order_binary: ompi_coll_base_topo_build_in_order_bintree, rooted at io_root = P-1 whatever the root: a node of
//    a subtree of `size` ranks whose top is its last rank has the right subtree of size/2 ranks (its first ones) and
//    the left one of the rest (left child: the rank below the top; right child: the right subtree's top); then, when
//    the root is not P-1, P-1 sends the result to the root (MCA_PML_CALL(send)), which receives it.
//  - binary: ompi_coll_base_topo_build_tree(2, root): a binary tree on v = (rank - root) mod P by levels (root 0 on
//    7 ranks: 0 -> 1, 2; 1 -> 3, 5; 2 -> 4, 6);
//  - pipeline and chain: ompi_coll_base_topo_build_chain(fanout, root), pipeline with fanout 1 and chain with the
//    fanout coll/tuned passes, 0, which build_chain forces to 1 ("invalid fanout of ZERO, forcing to 1 (pipeline)"):
//    both the one chain root <- v 1 <- v 2 <- .. <- v P-1, P-1 messages in sequence.
// ompi_coll_base_reduce_generic (v5.0; ompi_coll_tuned_reduce_generic, coll_tuned_reduce.c v1.3.0, the same loop), with
// segments of AlgoParams::segsize (COLL_TUNED_COMPUTED_SEGCOUNT on the caller's elements; coll/tuned v1.3's fixed
// decision passes 1, 32 or 64 KiB, v5's 0: one segment) and no request limit (max_outstanding_reqs 0 in both
// decisions). A node with children runs, for segment k = 0 .. S (S segments) and child i in turn: it posts the receive
// of child i's segment k (k < S), waits for the request posted before it (two inbufs: the previous child's, or the last
// child's previous segment), and reduces what that request received: for i > 0 child i-1's segment k; for i = 0 the
// last child's segment k-1, after which segment k-1 is complete and goes to the parent (a blocking MCA_PML_CALL(send),
// unless the node is the root). So each receive is posted one step before it is waited for. A leaf sends its segments
// one after the other with blocking sends.
// Memory: O(log P) (the tree's children) and O(S) operations.
#include "collectives/reduce/reduce.hpp"

#include <vector>

namespace ompisim::coll {

namespace {
struct ReduceTreeNode {
  int parent = -1;  // -1: the tree's root
  std::vector<int> children;
};

ReduceTreeNode in_order_bmtree_node(int me, int nranks, int root) {
  ReduceTreeNode t;
  const int v = (me - root + nranks) % nranks;
  for (int mask = 1; mask < nranks; mask <<= 1) {
    const int remote = v ^ mask;
    if (remote < v) {
      t.parent = (remote + root) % nranks;
      break;
    }
    if (remote < nranks) t.children.push_back((remote + root) % nranks);
  }
  return t;
}

ReduceTreeNode in_order_bintree_node(int me, int nranks) {
  ReduceTreeNode t;
  int size = nranks, myrank = me, parent = nranks - 1, delta = 0;
  while (true) {
    const int rightsize = size >> 1;
    int lchild = -1, rchild = -1;
    if (size - 1 > 0) {
      lchild = parent - 1;
      if (lchild > 0) rchild = rightsize - 1;
    }
    if (myrank == parent) {
      if (lchild >= 0) t.children.push_back(lchild + delta);
      if (rchild >= 0) t.children.push_back(rchild + delta);
      break;
    }
    if (myrank > rchild) {  // the left subtree: the ranks above the right one's
      if (myrank == lchild) t.parent = parent + delta;
      size = size - rightsize - 1;
      delta += rightsize;
      myrank -= rightsize;
      parent = size - 1;
    } else {  // the right subtree: its first rightsize ranks
      if (myrank == rchild) t.parent = parent + delta;
      size = rightsize;
      parent = rchild;
    }
  }
  return t;
}

// ompi_coll_base_topo_build_tree(2, comm, root): shifted rank v = (rank - root) mod P on level l (the levels hold 1,
// 2, 4, .. ranks in order), children v + 2^l and v + 2^(l+1) (those below P), parent: v - 2^(l-1) repeatedly until
// below 2^l - 1 (0 for v = 1, 2).
ReduceTreeNode bintree_node(int me, int nranks, int root) {
  ReduceTreeNode t;
  const int v = (me - root + nranks) % nranks;
  int level = 0;
  for (int num = 0, width = 1; num <= v; width *= 2, ++level) num += width;
  --level;  // calculate_level: the last level whose start is at most v
  const int delta = 1 << level;
  for (int i = 1; i <= 2 && v + delta * i < nranks; ++i) t.children.push_back((v + delta * i + root) % nranks);
  if (v == 0) return t;
  int parent = v;
  if (parent < 2) parent = 0;
  else
    while (parent >= delta - 1) parent -= delta / 2;  // calculate_num_nodes_up_to_level(2, level) = 2^level - 1
  t.parent = (parent + root) % nranks;
  return t;
}

// ompi_coll_base_topo_build_chain(1, comm, root): one chain root -> v 1 -> v 2 -> .. -> v P-1.
ReduceTreeNode chain_node(int me, int nranks, int root) {
  ReduceTreeNode t;
  const int v = (me - root + nranks) % nranks;
  if (v > 0) t.parent = (v - 1 + root) % nranks;
  if (v + 1 < nranks) t.children.push_back((v + 1 + root) % nranks);
  return t;
}

// ompi_coll_base_reduce_generic on rank `me`'s node of the tree, in segments of `seg` bytes (the last shorter).
void reduce_generic(Schedule& s, const ReduceTreeNode& t, std::uint32_t bytes, std::uint32_t seg) {
  const std::uint32_t nseg = seg == 0 ? 1 : (bytes + seg - 1) / seg;
  auto size_of = [&](std::uint32_t k) { return k + 1 == nseg ? bytes - k * seg : seg; };
  if (t.children.empty()) {
    if (t.parent >= 0)
      for (std::uint32_t k = 0; k < nseg; ++k) s.round().send_blocking(t.parent, size_of(k));
    return;
  }
  for (std::uint32_t k = 0; k <= nseg; ++k) {
    for (std::size_t i = 0; i < t.children.size(); ++i) {
      s.round();
      if (k < nseg) s.post_recv(t.children[i], size_of(k));
      if (k > 0 || i > 0) s.wait();  // reqs[inbi ^ 1]: there is none before the first receive
      if (i > 0) {
        s.round().reduce(size_of(k));
      } else if (k > 0) {
        s.round().reduce(size_of(k - 1));
        if (t.parent >= 0) s.round().send_blocking(t.parent, size_of(k - 1));
        if (k == nseg) break;
      }
    }
  }
}

// A coll/base tree reduce: the arguments checked, then the generic reduce over the node `build()` gives.
template <class Build>
Schedule generic_tree_reduce(const char* algo, int me, int nranks, const AlgoParams& p, Build build) {
  detail::check_rank_args(algo, me, nranks);
  detail::check_root(algo, p.root, nranks);
  Schedule s;
  reduce_generic(s, build(), p.bytes, detail::segment_bytes(p.bytes, p.segsize, p.elem_bytes));
  return s;
}
}  // namespace

Schedule reduce_binomial(int me, int nranks, const AlgoParams& p) {
  return generic_tree_reduce("reduce/binomial", me, nranks, p, [&] { return in_order_bmtree_node(me, nranks, p.root); });
}

Schedule reduce_binary(int me, int nranks, const AlgoParams& p) {
  return generic_tree_reduce("reduce/binary", me, nranks, p, [&] { return bintree_node(me, nranks, p.root); });
}

Schedule reduce_pipeline(int me, int nranks, const AlgoParams& p) {
  return generic_tree_reduce("reduce/pipeline", me, nranks, p, [&] { return chain_node(me, nranks, p.root); });
}

Schedule reduce_in_order_binary(int me, int nranks, const AlgoParams& p) {
  Schedule s =
      generic_tree_reduce("reduce/in_order_binary", me, nranks, p, [&] { return in_order_bintree_node(me, nranks); });
  const int io_root = nranks - 1;  // the tree's root, whatever the reduce's: the result's last hop
  if (io_root != p.root) {
    if (me == p.root) s.round().recv(io_root, p.bytes);
    else if (me == io_root) s.round().send_blocking(p.root, p.bytes);
  }
  return s;
}

}  // namespace ompisim::coll
