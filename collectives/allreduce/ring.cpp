// allreduce "ring" ↔ ompi_coll_tuned_allreduce_intra_ring, ompi/mca/coll/tuned/coll_tuned_allreduce.c (v1.3; the
// same rounds in coll_base_allreduce.c ompi_coll_base_allreduce_intra_ring, v2.0–v4.1). coll/tuned v1.3's fixed
// decision picks it for commutative reductions of at least 10000 B with more elements than ranks, up to P x 1 MiB.
//
// The vector is cut into P blocks, "early" ones (the first bytes % P) one byte longer than the "late" ones (Open MPI
// cuts elements, COLL_TUNED_COMPUTE_BLOCKCOUNT; bytes here). Rank r sends to r+1 and receives from r-1 (mod P):
//   - computation phase, steps k = 0 .. P-2: send block (r - k) mod P, receive block (r - k - 1) mod P (and reduce it);
//   - distribution phase (a ring allgather shifted by one), steps k = 0 .. P-2: send block (r + 1 - k) mod P, receive
//     block (r - k) mod P.
// The computation phase as the source orders it (two inbufs, reqs[inbi]): irecv of block r-1 and MPI_Send of block r;
// then for k = 2 .. P-1: irecv of block r-k (PostRecv), ompi_request_wait for block r-k+1 (Wait), ompi_op_reduce of
// it (Reduce) and MPI_Send of it to the right; then the wait for block r+1 and its reduction. So a block's receive is
// posted before the previous block is reduced, and its data may arrive (or its rendezvous proceed) meanwhile. The
// distribution phase is ompi_coll_base_sendrecv per step (irecv, blocking send, wait). P = 1: nothing. Fewer elements than ranks
// (count = bytes / AlgoParams::elem_bytes < P): the source runs recursive doubling instead ("switching to recursive
// doubling"), and so does this generator.
// allreduce "segmented_ring" ↔ ompi_coll_tuned_allreduce_intra_ring_segmented (coll_tuned_allreduce.c, v1.3.0; the
// same rounds in coll_base_allreduce.c ompi_coll_base_allreduce_intra_ring_segmented, v2.0-v5.0), with the segment
// size of AlgoParams::segsize: segcount = COLL_TUNED_COMPUTED_SEGCOUNT(segsize) elements of elem_bytes (count = bytes /
// elem_bytes); with fewer elements than P x segcount the regular ring above. Otherwise num_phases = count / (P x
// segcount), one more when the remainder is at least P and more than half of P x segcount; every block (early and late
// as above, in elements) is cut into num_phases pieces (COLL_TUNED_COMPUTE_BLOCKCOUNT again), and each phase runs the
// computation loop above on its pieces; then the distribution of whole blocks as above. coll/tuned v1.3's fixed
// decision calls it with 1 MiB segments above P x 1 MiB; v5's with segment size 0 (do_this(..., alg, 0, 0)), so
// segcount = count and the regular ring runs.
#include "collectives/data_colls.hpp"

#include <algorithm>

namespace ompisim::coll {

namespace {
std::uint32_t ring_block(std::uint32_t bytes, int nranks, int block) {
  const std::uint32_t late = bytes / static_cast<std::uint32_t>(nranks);
  const int split = static_cast<int>(bytes % static_cast<std::uint32_t>(nranks));
  return block < split ? late + 1 : late;
}
int mod(int a, int n) { return ((a % n) + n) % n; }

// The ring's computation loop (see above) with `piece(b)` the bytes of block b (b taken mod P) that it reduces.
template <class Piece>
void ring_compute(Schedule& s, int me, int nranks, Piece piece) {
  const int right = mod(me + 1, nranks), left = mod(me - 1, nranks);
  s.round().post_recv(left, piece(me - 1)).send_blocking(right, piece(me));
  for (int k = 2; k < nranks; ++k) {
    const int prev = me - k + 1;
    s.round().post_recv(left, piece(me - k)).wait();
    s.round().reduce(piece(prev));  // ompi_op_reduce of the received block into the rank's own
    s.round().send_blocking(right, piece(prev));
  }
  s.round().wait();
  s.round().reduce(piece(me + 1));
}

// The distribution loop (a ring allgather shifted by one) with `block(b)` the bytes of block b (b taken mod P).
template <class Block>
void ring_distribute(Schedule& s, int me, int nranks, Block block) {
  const int right = mod(me + 1, nranks), left = mod(me - 1, nranks);
  for (int k = 0; k < nranks - 1; ++k) s.round().sendrecv_to(right, block(me + 1 - k), left, block(me - k));
}
}  // namespace

Schedule allreduce_ring(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("allreduce/ring", me, nranks);
  Schedule s;
  if (nranks == 1) return s;
  if (params.bytes / std::max<std::uint32_t>(params.elem_bytes, 1) < static_cast<std::uint32_t>(nranks))
    return allreduce_recursive_doubling(me, nranks, params);
  auto block = [&](int b) { return ring_block(params.bytes, nranks, mod(b, nranks)); };
  ring_compute(s, me, nranks, block);
  ring_distribute(s, me, nranks, block);
  return s;
}

Schedule allreduce_ring_segmented(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("allreduce/segmented_ring", me, nranks);
  if (nranks == 1) return {};
  const std::uint64_t e = std::max<std::uint32_t>(params.elem_bytes, 1);
  const std::uint64_t count = params.bytes / e, p = static_cast<std::uint64_t>(nranks);
  const std::uint64_t segcount = detail::segment_bytes(static_cast<std::uint32_t>(count * e), params.segsize,
                                                       static_cast<std::uint32_t>(e)) / e;
  if (segcount == 0 || count < p * segcount) return allreduce_ring(me, nranks, params);
  std::uint64_t phases = count / (p * segcount);
  if (const std::uint64_t rest = count % (p * segcount); rest >= p && rest > p * segcount / 2) ++phases;
  // COLL_TUNED_COMPUTE_BLOCKCOUNT: the first count % n of n pieces one element longer.
  auto piece_of = [](std::uint64_t total, std::uint64_t n, std::uint64_t i) {
    return total / n + (i < total % n ? 1 : 0);
  };
  auto block = [&](int b) { return piece_of(count, p, static_cast<std::uint64_t>(mod(b, nranks))); };
  Schedule s;
  for (std::uint64_t ph = 0; ph < phases; ++ph)
    ring_compute(s, me, nranks, [&](int b) { return static_cast<std::uint32_t>(piece_of(block(b), phases, ph) * e); });
  ring_distribute(s, me, nranks, [&](int b) { return static_cast<std::uint32_t>(block(b) * e); });
  return s;
}

}  // namespace ompisim::coll
