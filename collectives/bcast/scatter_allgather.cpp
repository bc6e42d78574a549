// bcast "scatter_allgather" ↔ ompi_coll_base_bcast_intra_scatter_allgather, ompi/mca/coll/base/coll_base_bcast.c
// (v4.1-v5.0; coll/tuned's fixed decision, algorithm 8): a binomial-tree scatter of the message cut into P blocks of
// sc = ceil(count / P) elements, then a recursive-doubling allgather of the blocks.
//
// Fewer elements than ranks (count = bytes / AlgoParams::elem_bytes < P, 0 included): the source runs
// ompi_coll_base_bcast_intra_basic_linear instead, and so does this generator.
// Message sequence, on shifted ranks v = (me - root) mod P:
//   - Scatter: a rank v > 0 receives from v - m (m = the lowest set bit of v) the blocks of its subtree,
//     min(count - v sc, m sc) elements, if count - v sc > 0 (a blocking receive); then, for m = the largest power of
//     two below its lowest set bit (below P for the root) down to 1, it sends child v + m (if < P) the blocks of that
//     child's subtree, min(count - (v + m) sc, m sc) elements when positive (blocking sends).
//   - Allgather, mask m = 1, 2, 4, ... < P: v holds its m-aligned group's blocks, data(v, m) = min(m sc, count -
//     floor(v / m) m sc) elements (0 if negative); it exchanges them with v ^ m when that rank exists (one sendrecv,
//     zero-element messages included). Where the partner group is cut by P (rounddown(v ^ m, m) + m > P), the ranks of
//     the lower group that had no partner get the partner group's blocks by recursive halving inside the group: for
//     h = m/2 .. 1, with g = rounddown(v, 2h) and n = P - rounddown(v, m) - m ranks holding them, v sends to v ^ h
//     when v ^ h > v, v < g + n and v ^ h >= g + n, and receives from v ^ h when v ^ h < v, v ^ h < g + n and v >= g + n
//     (blocking send and receive, the partner group's data(v ^ m, m) elements each).
// Memory: O(log P) per rank.
#include "collectives/tuned_colls.hpp"

#include <algorithm>

namespace ompisim::coll {

namespace {
long long clamp_elems(long long x, long long hi) { return std::clamp(x, 0LL, hi); }
}  // namespace

Schedule bcast_scatter_allgather(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/scatter_allgather", me, nranks);
  detail::check_root("bcast/scatter_allgather", params.root, nranks);
  Schedule s;
  if (nranks == 1) return s;
  const long long elem = std::max<std::uint32_t>(params.elem_bytes, 1);
  const long long count = params.bytes / elem, P = nranks;
  if (count < P) return bcast_basic_linear(me, nranks, params);
  const long long sc = (count + P - 1) / P;
  const long long v = (me - params.root + P) % P;
  auto real = [&](long long x) { return static_cast<int>((x + params.root) % P); };
  auto bytes = [&](long long elems) { return static_cast<std::uint32_t>(elems * elem); };
  // Scatter.
  long long top = 1;
  while (top < P && (v & top) == 0) top <<= 1;  // v's lowest set bit (P or above for the root)
  if (v != 0 && count - v * sc > 0) s.round().recv(real(v - top), bytes(std::min(count - v * sc, top * sc)));
  for (long long m = top >> 1; m > 0; m >>= 1)
    if (v + m < P && count - (v + m) * sc > 0) s.round().send_blocking(real(v + m), bytes(std::min(count - (v + m) * sc, m * sc)));
  // Allgather by recursive doubling.
  auto data = [&](long long x, long long m) { return clamp_elems(count - (x / m) * m * sc, m * sc); };
  for (long long m = 1; m < P; m <<= 1) {
    const long long vr = v ^ m, vr0 = (vr / m) * m, v0 = (v / m) * m;
    if (vr < P) s.round().sendrecv_to(real(vr), bytes(data(v, m)), real(vr), bytes(data(vr, m)));
    if (vr0 + m <= P) continue;
    const long long n = P - v0 - m, d = data(vr0, m);
    for (long long h = m >> 1; h > 0; h >>= 1) {
      const long long w = v ^ h, g = (v / (2 * h)) * (2 * h);
      if (w > v && v < g + n && w >= g + n) s.round().send_blocking(real(w), bytes(d));
      else if (w < v && w < g + n && v >= g + n) s.round().recv(real(w), bytes(d));
    }
  }
  return s;
}

}  // namespace ompisim::coll
