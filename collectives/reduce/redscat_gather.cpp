// reduce "rabenseifner" ↔ ompi_coll_base_reduce_intra_redscat_gather, ompi/mca/coll/base/coll_base_reduce.c
// (v4.1-v5.0; coll/tuned's reduce algorithm 7, which v5's fixed decision picks below 8 B on 2 or 3 ranks):
// Rabenseifner's reduce-scatter by recursive vector halving and distance doubling, then a binomial gather of the
// pieces to the root by vector doubling and distance halving.
//
// Message sequence. Let pof2 be the largest power of two <= P, rem = P - pof2, n = params.bytes of
// n / AlgoParams::elem_bytes elements; every half below is floor(elements / 2) elements, as Open MPI halves counts.
//   - Fewer elements than pof2 (n / AlgoParams::elem_bytes < pof2) or pof2 < 2: ompi_coll_base_reduce_intra_basic_
//     linear instead ("switching to basic linear reduce"), the same schedule as reduce "linear".
//   - Fold (ranks < 2*rem): an odd rank sendrecvs with rank-1 (sends the left half, receives the right: the rest),
//     reduces the right half and MPI_Sends it to rank-1, then sits out; the even rank sendrecvs (sends the right half,
//     receives the left), reduces the left half and receives the reduced right half. New ranks: even r < 2*rem -> r/2,
//     r >= 2*rem -> r - rem; new rank m maps back to 2m (m < rem) or m + rem.
//   - Reduce-scatter, mask = 1, 2, .., pof2/2, partner new rank ^ mask: the lower rank of the pair keeps the left
//     floor(w/2) of its window w (first n) and sends the right w - floor(w/2), the higher sends the left floor(w/2) and
//     keeps the right; one ompi_coll_base_sendrecv, then the reduction of the part kept.
//   - Root: a root < 2*rem and odd sat out; new rank 0 (rank 0) sends it its piece (the last step's kept part) and sits
//     out, and the root plays new rank 0 (receiving, from then on, what rank 0 would). Else the root's new rank.
//   - Gather, mask = pof2/2 .. 1 (step = log2(mask)): a rank whose partner's subtree (new rank >> step << step) is the
//     root's sends what it holds (its kept part of that step) and stops; the others receive what they sent at that
//     step.
// P = 1: nothing. Memory: O(log P).
#include "collectives/reduce/reduce.hpp"

#include <algorithm>
#include <vector>

namespace ompisim::coll {

Schedule reduce_rabenseifner(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("reduce/rabenseifner", me, nranks);
  detail::check_root("reduce/rabenseifner", p.root, nranks);
  const std::uint32_t n = p.bytes;
  const int pof2 = detail::floor_pow2(nranks);
  if (pof2 < 2 || n / std::max<std::uint32_t>(p.elem_bytes, 1) < static_cast<std::uint32_t>(pof2))
    return reduce_linear(me, nranks, p);
  Schedule s;
  const int rem = nranks - pof2, root = p.root;
  const std::uint32_t eb = std::max<std::uint32_t>(p.elem_bytes, 1);
  auto half = [eb](std::uint32_t w) { return w / eb / 2 * eb; };  // the bytes of floor(elements / 2)
  int vrank = me - rem;
  if (me < 2 * rem) {  // the fold
    const std::uint32_t lhalf = half(n), rhalf = n - lhalf;
    if (me % 2 != 0) {
      s.round().sendrecv_to(me - 1, lhalf, me - 1, rhalf);
      s.round().reduce(rhalf);
      s.round().send_blocking(me - 1, rhalf);
      vrank = -1;
    } else {
      s.round().sendrecv_to(me + 1, rhalf, me + 1, lhalf);
      s.round().reduce(lhalf);
      s.round().recv(me + 1, rhalf);
      vrank = me / 2;
    }
  }
  auto real = [&](int v) { return v < rem ? v * 2 : v + rem; };
  std::vector<std::uint32_t> kept, sent;  // per step of the reduce-scatter: the part kept (received) and sent
  if (vrank != -1) {
    std::uint32_t w = n;
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int dest = real(vrank ^ mask);
      const std::uint32_t left = half(w), right = w - left;
      sent.push_back(me < dest ? right : left);
      kept.push_back(me < dest ? left : right);
      s.round().sendrecv_to(dest, sent.back(), dest, kept.back());
      s.round().reduce(kept.back());
      w = kept.back();
    }
  }
  int vroot = root - rem;
  if (root < 2 * rem) {
    vroot = root % 2 != 0 ? 0 : root / 2;
    if (root % 2 != 0 && me == root) {  // the root sat out: it takes rank 0's piece and its place
      std::uint32_t w = n;
      for (int mask = 1; mask < pof2; mask <<= 1) {
        kept.push_back(half(w));
        sent.push_back(w - half(w));
        w = half(w);
      }
      s.round().recv(0, kept.back());
      vrank = 0;
    } else if (root % 2 != 0 && vrank == 0) {
      s.round().send_blocking(root, kept.back());
      vrank = -1;
    }
  }
  if (vrank == -1) return s;
  int step = static_cast<int>(kept.size()) - 1;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1, --step) {  // the gather
    const int vdest = vrank ^ mask;
    const int dest = vdest == 0 && root < 2 * rem && root % 2 != 0 ? root : real(vdest);
    if (((vdest >> step) << step) == ((vroot >> step) << step)) {
      s.round().send_blocking(dest, kept[static_cast<std::size_t>(step)]);
      break;
    }
    s.round().recv(dest, sent[static_cast<std::size_t>(step)]);
  }
  return s;
}

}  // namespace ompisim::coll
