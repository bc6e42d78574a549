// bcast "knomial" ↔ ompi_coll_base_bcast_intra_knomial, ompi/mca/coll/base/coll_base_bcast.c (v4.1-v5.0), which runs
// ompi_coll_base_bcast_intra_generic over ompi_coll_base_topo_build_kmtree (coll_base_topo.c) with one segment
// (segment size 0, as coll/tuned's fixed decision passes) and radix params.radix (coll_tuned_bcast_knomial_radix,
// default 4).
//
// Tree: v = (me - root) mod P; the parent is v rounded down to a multiple of radix * mask, for the smallest mask =
// radix^j with v mod (radix * mask) != 0; the children are v + r * m for r = 1 .. radix-1 and m = mask/radix, ..., 1
// (the root: from the largest power of radix below P down), while < P; all shifted back by root.
// Message sequence: receive from the parent (one round), then send to every child at once (isends, wait-all).
#include "collectives/tuned_colls.hpp"
#include "collectives/data_colls.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule bcast_knomial(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/knomial", me, nranks);
  detail::check_root("bcast/knomial", params.root, nranks);
  const int k = params.radix;
  if (k < 2) throw std::invalid_argument("bcast/knomial: radix " + std::to_string(k) + " < 2");
  const int v = (me - params.root + nranks) % nranks;
  auto real = [&](long long x) { return static_cast<int>((x + params.root) % nranks); };
  Schedule s;
  long long mask = 1;
  while (mask < nranks) {
    if (v % (k * mask)) {
      s.round().recv(real(v / (k * mask) * (k * mask)), params.bytes);
      break;
    }
    mask *= k;
  }
  bool any = false;
  for (mask /= k; mask > 0; mask /= k)
    for (int r = 1; r < k; ++r) {
      long long c = v + mask * r;
      if (c >= nranks) continue;
      if (!any) s.round();
      any = true;
      s.send(real(c), params.bytes);
    }
  return s;
}

}  // namespace ompisim::coll
