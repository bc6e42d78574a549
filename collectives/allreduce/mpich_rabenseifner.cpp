// allreduce "mpich_rabenseifner" ↔ MPIR_Allreduce of MPICH2 1.0.x (src/mpi/coll/allreduce.c), its path for
// count x type size > MPIR_ALLREDUCE_SHORT_MSG (2048 B), builtin ops and count >= pof2: Rabenseifner's reduce-scatter
// by recursive halving, then an allgather by recursive doubling.
//
// Let pof2 be the largest power of two <= P and rem = P - pof2.
//   - Fold: among ranks < 2*rem, an even rank MPIC_Sends its vector to rank+1 and sits out; the odd rank receives it
//     (and reduces). New ranks: odd r < 2*rem -> r/2, r >= 2*rem -> r - rem; new rank m maps back to 2m+1 (m < rem)
//     or m + rem.
//   - The vector is cut into pof2 pieces: pof2-1 of bytes/pof2 and the last with the rest (MPICH cuts the count).
//   - Reduce-scatter, mask = 1, 2, .. pof2/2: partner newrank ^ mask; the lower of the two keeps the lower half of
//     the pieces it still holds and sends the upper half (the higher the reverse); one MPIC_Sendrecv per step.
//   - Allgather, mask = pof2/2 .. 1: the same partners in reverse order, each sending the pieces it holds and
//     receiving the partner's (the halves of the reduce-scatter, mirrored).
//   - Unfold: an odd rank < 2*rem sends the whole result to rank-1.
// Each MPIR_Reduce_local is a Reduce round after the receive it reduces: the fold's whole vector at the odd rank,
// every reduce-scatter step's kept pieces. P = 1: nothing.
#include "collectives/data_colls.hpp"

#include <vector>

namespace ompisim::coll {

namespace {
struct Span {
  int lo, hi;  // pieces [lo, hi)
};
std::uint32_t span_bytes(const std::vector<std::uint32_t>& cnt, Span s) {
  std::uint32_t b = 0;
  for (int i = s.lo; i < s.hi; ++i) b += cnt[static_cast<std::size_t>(i)];
  return b;
}
}  // namespace

Schedule allreduce_mpich_rabenseifner(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("allreduce/mpich_rabenseifner", me, nranks);
  Schedule s;
  if (nranks == 1) return s;
  const std::uint32_t b = params.bytes;
  const int pof2 = detail::floor_pow2(nranks);
  const int rem = nranks - pof2;
  int newrank = me - rem;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      s.round().send_blocking(me + 1, b);
      s.round().recv(me + 1, b);
      return s;
    }
    s.round().recv(me - 1, b);
    s.round().reduce(b);  // MPIR_Reduce_local
    newrank = me / 2;
  }
  std::vector<std::uint32_t> cnt(static_cast<std::size_t>(pof2), b / static_cast<std::uint32_t>(pof2));
  cnt.back() = b - (b / static_cast<std::uint32_t>(pof2)) * static_cast<std::uint32_t>(pof2 - 1);
  auto real = [&](int nr) { return nr < rem ? nr * 2 + 1 : nr + rem; };
  Span held{0, pof2};
  std::vector<detail::HalvingStep> steps;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int nd = newrank ^ mask;
    const int mid = held.lo + (held.hi - held.lo) / 2;
    Span lower{held.lo, mid}, upper{mid, held.hi};
    Span sent = newrank < nd ? upper : lower, kept = newrank < nd ? lower : upper;
    const detail::HalvingStep step{real(nd), span_bytes(cnt, sent), span_bytes(cnt, kept)};
    s.round().sendrecv_to(step.peer, step.sent, step.peer, step.kept);
    s.round().reduce(step.kept);
    steps.push_back(step);
    held = kept;
  }
  detail::allgather_mirroring(s, steps);
  if (me < 2 * rem) s.round().send_blocking(me - 1, b);
  return s;
}

}  // namespace ompisim::coll
