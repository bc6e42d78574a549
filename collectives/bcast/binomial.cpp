// bcast "binomial" ↔ ompi_coll_base_bcast_intra_binomial, ompi/mca/coll/base/coll_base_bcast.c (v2.0–v4.1), which runs
// ompi_coll_base_bcast_intra_generic over the tree of ompi_coll_base_topo_build_bmtree (coll_base_topo.c), here with
// one segment (segment size 0: the whole message at once).
//
// Tree: with v = (me - root) mod P and mask = the smallest power of two > v, the parent of v is v ^ (mask / 2)
// (v with its top bit cleared) and the children are v ^ mask, v ^ 2 mask, ... while < P (all shifted back by root).
// Message sequence: a non-root rank receives the message from its parent (one round), then sends it to all of its
// children at once (one round: isends then wait-all, as the generic bcast does). Memory: O(log P).
#include "collectives/data_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule bcast_binomial(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/binomial", me, nranks);
  detail::check_root("bcast/binomial", params.root, nranks);
  const int v = (me - params.root + nranks) % nranks;
  auto real = [&](int x) { return (x + params.root) % nranks; };
  int mask = 1;
  while (mask <= v) mask <<= 1;  // smallest power of two > v (1 for the root)
  Schedule s;
  if (v != 0) s.round().recv(real(v ^ (mask >> 1)), params.bytes);
  bool any = false;
  for (int m = mask; m < nranks; m <<= 1) {
    const int c = v ^ m;
    if (c >= nranks) break;
    if (!any) s.round();
    any = true;
    s.send(real(c), params.bytes);
  }
  return s;
}

}  // namespace ompisim::coll
