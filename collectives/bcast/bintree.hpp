// The binary tree of ompi_coll_base_topo_build_tree(2, comm, root) (coll_base_topo.c), on shifted ranks
// s = (me - root) mod P: s at level l = floor(log2(s + 1)) has the children s + 2^l and s + 2^(l+1) (while < P); the
// parent of s >= 2 is found by subtracting 2^(l-1) until below 2^l - 1 (0 for s = 1, 2). Used by bcast
// "binary_tree" and "split_binary_tree".
#pragma once

namespace ompisim::coll::detail {

inline int bintree_level(long long s) {
  int level = 0;
  for (long long num = 0; num <= s; ++level) num += 1LL << level;
  return level - 1;
}

inline long long bintree_parent(long long s) {
  if (s < 2) return 0;
  const int level = bintree_level(s);
  const long long delta = 1LL << level, slimit = delta - 1;
  long long p = s;
  while (p >= slimit) p -= delta / 2;
  return p;
}

}  // namespace ompisim::coll::detail
