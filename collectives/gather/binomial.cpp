// gather "binomial" and scatter "binomial" ↔ ompi_coll_base_gather_intra_binomial and
// ompi_coll_base_scatter_intra_binomial, ompi/mca/coll/base/coll_base_gather.c / coll_base_scatter.c (v2.0-v5.0), over
// the binomial tree of coll_base_topo.c (v = (me - root) mod P; children v + mask for mask = 1, 2, 4, ... below the
// lowest set bit of v, parent v with its lowest set bit cleared).
//  gather: a rank receives from each child in turn (blocking receives, children in increasing mask order) the
//    child's subtree, min(mask, P - child) blocks, then sends its own block plus everything received to its parent.
//  scatter: a rank receives its subtree's blocks from its parent (min(lowbit(v), P - v) blocks), then sends each child
//    its subtree in turn (blocking sends, children in decreasing mask order, as Open MPI walks tree_next backwards).
// scatter "linear_nb" ↔ ompi_coll_base_scatter_intra_linear_nb with max_reqs 0 (coll/tuned's fixed decision): the
// root posts all P-1 isends at once and waits for all.
#include "collectives/tuned_colls.hpp"
#include "collectives/gather_scatter.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace ompisim::coll {

namespace {
std::uint32_t blocks_bytes(long long blocks, std::uint32_t bytes) {
  return static_cast<std::uint32_t>(std::min<long long>(blocks * bytes, 0xffffffffLL));
}
struct Bm {
  int parent = -1;                              // virtual rank, -1 at the root
  std::vector<std::pair<int, int>> children;    // (virtual rank, subtree blocks), increasing mask
  int subtree = 1;                              // blocks of this rank's subtree
};
Bm bmtree(int v, int nranks) {
  Bm t;
  int mask = 1;
  while (mask < nranks) {
    int remote = v ^ mask;
    if (remote < v) {
      t.parent = remote;
      break;
    }
    if (remote < nranks) {
      int blocks = std::min(mask, nranks - remote);
      t.children.push_back({remote, blocks});
      t.subtree += blocks;
    }
    mask <<= 1;
  }
  return t;
}
}  // namespace

Schedule gather_binomial(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("gather/binomial", me, nranks);
  detail::check_root("gather/binomial", p.root, nranks);
  const int v = (me - p.root + nranks) % nranks;
  auto real = [&](int x) { return (x + p.root) % nranks; };
  Bm t = bmtree(v, nranks);
  Schedule s;
  for (auto& [c, blocks] : t.children) s.round().recv(real(c), blocks_bytes(blocks, p.bytes));
  if (t.parent >= 0) s.round().send_blocking(real(t.parent), blocks_bytes(t.subtree, p.bytes));  // MCA_PML_CALL(send)
  return s;
}

Schedule scatter_binomial(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("scatter/binomial", me, nranks);
  detail::check_root("scatter/binomial", p.root, nranks);
  const int v = (me - p.root + nranks) % nranks;
  auto real = [&](int x) { return (x + p.root) % nranks; };
  Bm t = bmtree(v, nranks);
  Schedule s;
  if (t.parent >= 0) s.round().recv(real(t.parent), blocks_bytes(t.subtree, p.bytes));
  for (auto it = t.children.rbegin(); it != t.children.rend(); ++it)
    s.round().send_blocking(real(it->first), blocks_bytes(it->second, p.bytes));  // MCA_PML_CALL(send)
  return s;
}

Schedule scatter_linear_nb(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("scatter/linear_nb", me, nranks);
  detail::check_root("scatter/linear_nb", p.root, nranks);
  return detail::root_isends_to_all(me, nranks, p.root, p.bytes);
}

}  // namespace ompisim::coll
