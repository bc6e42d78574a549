// reduce "mpich_reduce_scatter_gather" ↔ MPIR_Reduce_intra_reduce_scatter_gather, src/mpi/coll/reduce/
// reduce_intra_reduce_scatter_gather.c (MPICH v3.4a2): Rabenseifner's reduce, a reduce-scatter by recursive halving,
// then a binomial gather of the pieces to the root. MPICH calls it for builtin operations above
// MPIR_CVAR_REDUCE_SHORT_MSG_SIZE (2048 B) when count >= pof2 (MPIR_Reduce_intra_auto; MPIDI_POSIX_Reduce_select for
// the node stage of MPICH's node-aware allreduce) and asserts the latter; below pof2 elements this generator runs the
// binomial reduce the same selection takes there (reduce "mpich_binomial").
//
// Let pof2 be the largest power of two <= P, rem = P - pof2, count = bytes / elem_bytes elements.
//   - Fold: among ranks < 2*rem, an odd rank MPIC_Sends its whole vector to rank-1 and sits out; the even rank
//     receives it and reduces. New ranks: even r < 2*rem -> r/2, r >= 2*rem -> r - rem; new rank m maps back to 2m
//     (m < rem) or m + rem (the reverse of allreduce's fold: even ranks stay, so that root 0 needs no extra send).
//   - The vector is cut into pof2 pieces of count/pof2 elements, the first count % pof2 one element longer.
//   - Reduce-scatter, mask = 1, 2, .. pof2/2: partner newrank ^ mask; the lower of the two sends the upper half of the
//     pieces it holds and keeps the lower (the higher the reverse); an MPIC_Sendrecv, then the reduction of the kept
//     half.
//   - Gather to the root: when the root sat out (odd, < 2*rem), new rank 0 first sends it its piece 0 and the root
//     plays new rank 0. Then mask = pof2/2 .. 1: with j = log2(mask), a rank whose partner (newrank ^ mask) is in the
//     root's half of the tree at that level (both >> j << j equal) sends the pieces it holds and stops; the other
//     receives the partner's pieces and goes on (one MPIC_Send or MPIC_Recv per step).
// P = 1: nothing. Memory: O(pof2) for the piece sizes, as MPICH's cnts.
#include "collectives/reduce/reduce.hpp"

#include <vector>

namespace ompisim::coll {

namespace {
// The pieces' bytes as prefix sums (before[i] = bytes of pieces 0 .. i-1), so a range's bytes are one subtraction.
struct RsgPieces {
  std::vector<std::uint32_t> before;
  std::uint32_t sum(int lo, int hi) const {
    return before[static_cast<std::size_t>(hi)] - before[static_cast<std::size_t>(lo)];
  }
  std::uint32_t first() const { return before[1]; }
};

RsgPieces rsg_cut(std::uint32_t count, std::uint32_t elem, int pof2) {
  const auto n = static_cast<std::uint32_t>(pof2);
  RsgPieces p;
  p.before.assign(static_cast<std::size_t>(pof2) + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) p.before[i + 1] = p.before[i] + (count / n + (i < count % n ? 1 : 0)) * elem;
  return p;
}

// The gather's binomial fan-in from the reduce-scatter's end state (send_idx, last_idx) to new rank `newroot`.
void rsg_gather_to_root(Schedule& s, const RsgPieces& c, int newrank, int newroot, int send_idx, int last_idx, int pof2,
                    const auto& real) {
  int j = 0;
  while ((1 << (j + 1)) < pof2) ++j;
  for (int mask = pof2 / 2; mask > 0; mask >>= 1, --j) {
    const int newdst = newrank ^ mask;
    int recv_idx = 0;
    std::uint32_t send_b = 0, recv_b = 0;
    if (newrank < newdst) {
      if (mask != pof2 / 2) last_idx += pof2 / (mask * 2);
      recv_idx = send_idx + pof2 / (mask * 2);
      send_b = c.sum(send_idx, recv_idx);
      recv_b = c.sum(recv_idx, last_idx);
    } else {
      recv_idx = send_idx - pof2 / (mask * 2);
      send_b = c.sum(send_idx, last_idx);
      recv_b = c.sum(recv_idx, send_idx);
    }
    if ((newdst >> j) == (newroot >> j)) {  // the partner is in the root's half: send and stop
      s.round().send_blocking(real(newdst), send_b);
      return;
    }
    s.round().recv(real(newdst), recv_b);
    if (newrank > newdst) send_idx = recv_idx;
  }
}
}  // namespace

Schedule reduce_mpich_reduce_scatter_gather(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("reduce/mpich_reduce_scatter_gather", me, nranks);
  detail::check_root("reduce/mpich_reduce_scatter_gather", p.root, nranks);
  const std::uint32_t elem = (p.elem_bytes > 0 && p.bytes % p.elem_bytes == 0) ? p.elem_bytes : 1;
  const std::uint32_t count = p.bytes / elem;
  const int pof2 = detail::floor_pow2(nranks);
  if (nranks == 1) return {};
  if (count < static_cast<std::uint32_t>(pof2)) return reduce_basic_log(me, nranks, p);
  const int rem = nranks - pof2, root = p.root;
  const bool root_sat_out = root < 2 * rem && root % 2 != 0;
  Schedule s;
  int newrank = me - rem;
  if (me < 2 * rem) {
    if (me % 2 != 0) {
      s.round().send_blocking(me - 1, p.bytes);
      newrank = -1;
    } else {
      s.round().recv(me + 1, p.bytes);
      s.round().reduce(p.bytes);
      newrank = me / 2;
    }
  }
  const RsgPieces c = rsg_cut(count, elem, pof2);
  auto real = [&](int nr) {
    if (nr == 0 && root_sat_out) return root;  // the root plays new rank 0 in the gather
    return nr < rem ? nr * 2 : nr + rem;
  };
  int send_idx = 0, last_idx = pof2;
  if (newrank != -1) {
    int recv_idx = 0;
    for (int mask = 1; mask < pof2;) {
      const int newdst = newrank ^ mask;
      const int dst = newdst < rem ? newdst * 2 : newdst + rem;
      std::uint32_t send_b = 0, recv_b = 0;
      if (newrank < newdst) {
        send_idx = recv_idx + pof2 / (mask * 2);
        send_b = c.sum(send_idx, last_idx);
        recv_b = c.sum(recv_idx, send_idx);
      } else {
        recv_idx = send_idx + pof2 / (mask * 2);
        send_b = c.sum(send_idx, recv_idx);
        recv_b = c.sum(recv_idx, last_idx);
      }
      s.round().sendrecv_to(dst, send_b, dst, recv_b);
      s.round().reduce(recv_b);
      send_idx = recv_idx;
      mask <<= 1;
      if (mask < pof2) last_idx = recv_idx + pof2 / mask;
    }
  }
  if (root_sat_out) {
    if (me == root) {
      s.round().recv(0, c.first());
      newrank = 0, send_idx = 0, last_idx = 2;
    } else if (newrank == 0) {
      s.round().send_blocking(root, c.first());
      newrank = -1;
    }
  }
  const int newroot = root_sat_out ? 0 : (root < 2 * rem ? root / 2 : root - rem);
  if (newrank != -1) rsg_gather_to_root(s, c, newrank, newroot, send_idx, last_idx, pof2, real);
  return s;
}

}  // namespace ompisim::coll
