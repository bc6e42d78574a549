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
// allreduce "segmented_ring" (ompi_coll_base_allreduce_intra_ring_segmented, v4.1-v5.0) is registered with this
// generator: coll/tuned's fixed decision calls it with segment size 0 (do_this(..., alg, 0, 0)), so segcount = count
// and its "count < size * segcount" branch runs the regular ring.
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
}  // namespace

Schedule allreduce_ring(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("allreduce/ring", me, nranks);
  Schedule s;
  if (nranks == 1) return s;
  if (params.bytes / std::max<std::uint32_t>(params.elem_bytes, 1) < static_cast<std::uint32_t>(nranks))
    return allreduce_recursive_doubling(me, nranks, params);
  const int right = mod(me + 1, nranks), left = mod(me - 1, nranks);
  auto block = [&](int b) { return ring_block(params.bytes, nranks, mod(b, nranks)); };
  s.round().post_recv(left, block(me - 1)).send_blocking(right, block(me));
  for (int k = 2; k < nranks; ++k) {
    const int prev = me - k + 1;
    s.round().post_recv(left, block(me - k)).wait();
    s.round().reduce(block(prev));  // ompi_op_reduce of the received block into the rank's own
    s.round().send_blocking(right, block(prev));
  }
  s.round().wait();
  s.round().reduce(block(me + 1));
  for (int k = 0; k < nranks - 1; ++k)
    s.round().sendrecv_to(right, ring_block(params.bytes, nranks, mod(me + 1 - k, nranks)), left,
                          ring_block(params.bytes, nranks, mod(me - k, nranks)));
  return s;
}

}  // namespace ompisim::coll
