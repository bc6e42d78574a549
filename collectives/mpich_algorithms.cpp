// MPICH's own algorithms where their message pattern differs from Open MPI's (MPICH 3.x-4.x src/mpi/coll; Cray MPICH
// derives from MPICH, and native/mpich_cxi uses these through collectives/decision/mpich_*.json):
//  alltoall "mpich_scattered" ↔ MPIR_Alltoall_intra_scattered: batches of MPIR_CVAR_ALLTOALL_THROTTLE (default 32,
//    params.radix carries it) irecvs from (me + ii + i) mod P and isends to (me - ii - i) mod P, i < the batch, each
//    batch waited for (one round per batch; the block to self is a copy, left out).
//  alltoall "mpich_pairwise" ↔ MPIR_Alltoall_intra_pairwise: steps i = 1 .. P-1, partner me ^ i when P is a power of
//    two, else send to (me + i) mod P and receive from (me - i) mod P.
//  bcast "mpich_scatter_rdb_allgather" / "mpich_scatter_ring_allgather" ↔ MPIR_Bcast_intra_scatter_recursive_doubling_
//    allgather / _scatter_ring_allgather (v3.4a2): MPII_Scatter_for_bcast (bcast_utils.c), a binomial scatter of the
//    message cut into P pieces of ss = ceil(nbytes / P) bytes, then a recursive-doubling (P a power of two; MPICH
//    asserts it) or ring allgather of the pieces. MPICH counts bytes, not pieces: when P does not divide nbytes the
//    last pieces are short or empty, a scatter message carries only the bytes that exist (and is not sent when there
//    are none), the recursive doubling exchanges the bytes held (curr_size) and the ring each piece's own size (zero-
//    byte sendrecvs included). 0 bytes or P = 1: nothing.
// Re-read against tag v3.4a2 (the decision file's other choices; MPIDI_OFI_Allgather/Alltoall/Gather/
// Scatter_select in src/mpid/ch4/netmod/ofi/ofi_coll_select.h name them, cut-offs as mpich_default.json):
//  - MPIR_Allgather_intra_recursive_doubling (P a power of two, asserted): exchange curr_cnt = 2^k blocks with
//    rank ^ 2^k, MPIC_Sendrecv: the same as allgather "recursive_doubling" (allgather/tuned_allgathers.cpp).
//  - MPIR_Allgather_intra_brucks: send to rank - 2^k, receive from rank + 2^k, 2^k blocks while 2^k <= P/2, then
//    rem = P - 2^k blocks: the same as "bruck" (min(d, P - d) blocks).
//  - MPIR_Allgather_intra_ring: P-1 sendrecvs of one block, to rank + 1, from rank - 1: the same as "ring".
//  - MPIR_Gather_intra_binomial: rel = (rank - root) mod P; ascending mask: receive (MPIC_Recv, one at a time) from
//    rel | mask the min(mask, P - src) blocks of its subtree, then at the lowest set bit send everything to rel ^ mask
//    (MPIC_Send): the same as gather "binomial" (gather/binomial.cpp).
//  - MPIR_Scatter_intra_binomial: receive the subtree (min(lowbit, P - rel) blocks) from rel - lowbit, then descending
//    mask MPIC_Send to rel + mask of curr_cnt - mask blocks (= min(mask, P - child)): the same as scatter "binomial".
//  - MPIR_Alltoall_intra_brucks: send to rank + 2^k, receive from rank - 2^k the blocks whose index has bit 2^k set
//    (packed by a local copy): the same as alltoall "modified_bruck" (alltoall/bruck.cpp).
//  Only the two scatter-allgather bcasts differed (their byte counts, above); they were fixed here.
// MPICH's binomial bcast (bcast/mpich_binomial.cpp) and its ch4 node-aware bcast (bcast/mpich_smp.cpp) are their own.
#include "collectives/mpich_binomial_tree.hpp"
#include "collectives/tuned_colls.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule alltoall_mpich_scattered(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("alltoall/mpich_scattered", me, nranks);
  const int bblock = std::max(1, p.radix);
  Schedule s;
  for (int ii = 0; ii < nranks; ii += bblock) {
    const int ss = std::min(bblock, nranks - ii);
    bool any = false;
    auto open = [&] {
      if (!any) s.round();
      any = true;
    };
    for (int i = 0; i < ss; ++i) {
      int src = (me + ii + i) % nranks;
      if (src != me) open(), s.recv(src, p.bytes);
    }
    for (int i = 0; i < ss; ++i) {
      int dst = ((me - ii - i) % nranks + nranks) % nranks;
      if (dst != me) open(), s.send(dst, p.bytes);
    }
  }
  return s;
}

Schedule alltoall_mpich_pairwise(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("alltoall/mpich_pairwise", me, nranks);
  const bool pof2 = (nranks & (nranks - 1)) == 0;
  Schedule s;
  for (int i = 1; i < nranks; ++i) {
    if (pof2) s.round().sendrecv(me ^ i, p.bytes);
    else s.round().sendrecv_to((me + i) % nranks, p.bytes, (me - i + nranks) % nranks, p.bytes);  // MPIC_Sendrecv
  }
  return s;
}

namespace {
// MPICH's byte bookkeeping of the scatter-allgather bcasts: the message is cut into P pieces of ss = ceil(nbytes / P)
// bytes, piece k (k a relative rank) at offset k * ss; the last pieces are short or empty when P does not divide
// nbytes. Bytes of the pieces [lo, lo + n) that exist.
struct Pieces {
  long long nbytes, ss;
  std::uint32_t in(long long lo, long long n) const {
    return static_cast<std::uint32_t>(std::clamp(std::min(nbytes, (lo + n) * ss) - lo * ss, 0LL, nbytes));
  }
};

// MPII_Scatter_for_bcast (bcast_utils.c): the binomial tree over rel = (me - root) mod P; a rank receives from
// rel - lowbit(rel) the bytes of its subtree's pieces (MPIC_Recv, skipped when nbytes - rel * ss <= 0), then sends
// each child rel + m (m = lowbit / 2, ..., 1; the root: from the largest power of two < P) the bytes of the child's
// pieces (MPIC_Send, skipped when there are none). One round per operation.
void scatter_for_bcast(Schedule& s, int me, int nranks, int root, const Pieces& pc) {
  const int rel = (me - root + nranks) % nranks;
  auto real = [&](int r) { return (r + root) % nranks; };
  detail::mpich_binomial_tree(
      rel, nranks,
      [&](int m) {
        if (pc.nbytes - rel * pc.ss > 0) s.round().recv(real(rel - m), pc.in(rel, m));
      },
      [&](int m) {
        if (std::uint32_t b = pc.in(rel + m, m); b > 0) s.round().send_blocking(real(rel + m), b);
      });
}

Pieces pieces_of(int nranks, std::uint32_t bytes) {
  return {static_cast<long long>(bytes), (static_cast<long long>(bytes) + nranks - 1) / nranks};
}
}  // namespace

Schedule bcast_mpich_scatter_rdb_allgather(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("bcast/mpich_scatter_rdb_allgather", me, nranks);
  detail::check_root("bcast/mpich_scatter_rdb_allgather", p.root, nranks);
  Schedule s;
  if (nranks == 1 || p.bytes == 0) return s;
  if ((nranks & (nranks - 1)) != 0)
    throw std::invalid_argument("bcast/mpich_scatter_rdb_allgather: P = " + std::to_string(nranks) +
                                " is not a power of two (MPICH v3.4a2 asserts MPL_is_pof2(comm_size); its "
                                "non-power-of-two branch is marked experimental and never selected)");
  const Pieces pc = pieces_of(nranks, p.bytes);
  scatter_for_bcast(s, me, nranks, p.root, pc);
  // Recursive doubling on relative ranks: step i exchanges with rel ^ 2^i the pieces of the two 2^i-aligned subtrees
  // (MPIC_Sendrecv of curr_size = the bytes held, against the partner's; zero-byte messages are still exchanged).
  const int rel = (me - p.root + nranks) % nranks;
  for (int mask = 1; mask < nranks; mask <<= 1) {
    const int dst = rel ^ mask;
    const int mine = rel & ~(mask - 1), theirs = dst & ~(mask - 1);
    s.round().sendrecv_to((dst + p.root) % nranks, pc.in(mine, mask), (dst + p.root) % nranks, pc.in(theirs, mask));
  }
  return s;
}

Schedule bcast_mpich_scatter_ring_allgather(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("bcast/mpich_scatter_ring_allgather", me, nranks);
  detail::check_root("bcast/mpich_scatter_ring_allgather", p.root, nranks);
  Schedule s;
  if (nranks == 1 || p.bytes == 0) return s;
  const Pieces pc = pieces_of(nranks, p.bytes);
  scatter_for_bcast(s, me, nranks, p.root, pc);
  // Ring on the communicator's ranks: step i = 1 .. P-1 sends to me + 1 the piece of rank me - i + 1 and receives
  // from me - 1 the piece of rank me - i (each piece min(ss, nbytes - rel * ss) bytes, possibly 0).
  const int right = (me + 1) % nranks, left = (me - 1 + nranks) % nranks;
  auto piece = [&](int r) { return pc.in((r - p.root + nranks) % nranks, 1); };
  for (int i = 1; i < nranks; ++i) {
    const int j = ((me - i + 1) % nranks + nranks) % nranks, jnext = ((me - i) % nranks + nranks) % nranks;
    s.round().sendrecv_to(right, piece(j), left, piece(jnext));
  }
  return s;
}

}  // namespace ompisim::coll
