// allgather "recursive_doubling", "bruck" and "neighbor" ↔ ompi/mca/coll/base/coll_base_allgather.c (v2.0-v5.0):
// ompi_coll_base_allgather_intra_recursivedoubling, _intra_bruck and _intra_neighborexchange.
//
//  recursive_doubling (P a power of two; Open MPI falls back to bruck otherwise, and so does this generator): round k
//    exchanges 2^k blocks with me ^ 2^k. log2 P messages per rank.
//  bruck: for distance d = 1, 2, 4, ... < P: send to (me - d) mod P, receive from (me + d) mod P, min(d, P - d) blocks
//    each way (the final local rotation is a copy, left out). ceil(log2 P) messages per rank.
//  neighbor (P even; Open MPI falls back to ring for odd P, and so does this generator): even ranks pair first with
//    me + 1, odd ranks with me - 1, one block; then P/2 - 1 rounds of two blocks, alternating between the two
//    neighbours (neighbor[i % 2]: for an even rank me + 1 then me - 1, for an odd one me - 1 then me + 1).
#include "collectives/tuned_colls.hpp"
#include "collectives/gather_scatter.hpp"

#include <algorithm>

namespace ompisim::coll {

namespace {
std::uint32_t blocks_bytes(long long blocks, std::uint32_t bytes) {
  return static_cast<std::uint32_t>(std::min<long long>(blocks * bytes, 0xffffffffLL));
}
}  // namespace

Schedule allgather_bruck(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("allgather/bruck", me, nranks);
  Schedule s;
  for (int d = 1; d < nranks; d <<= 1) {
    std::uint32_t b = blocks_bytes(std::min(d, nranks - d), p.bytes);
    s.round().sendrecv_to((me - d + nranks) % nranks, b, (me + d) % nranks, b);  // ompi_coll_base_sendrecv
  }
  return s;
}

Schedule allgather_recursive_doubling(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("allgather/recursive_doubling", me, nranks);
  if ((nranks & (nranks - 1)) != 0) return allgather_bruck(me, nranks, p);
  Schedule s;
  for (int d = 1; d < nranks; d <<= 1) s.round().sendrecv(me ^ d, blocks_bytes(d, p.bytes));
  return s;
}

Schedule allgather_neighbor(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("allgather/neighbor", me, nranks);
  if (nranks % 2 != 0) return allgather_ring(me, nranks, p);
  Schedule s;
  const bool even = me % 2 == 0;
  const int nb[2] = {even ? (me + 1) % nranks : (me - 1 + nranks) % nranks,
                     even ? (me - 1 + nranks) % nranks : (me + 1) % nranks};
  s.round().sendrecv(nb[0], p.bytes);
  for (int i = 1; i < nranks / 2; ++i) s.round().sendrecv(nb[i % 2], blocks_bytes(2, p.bytes));
  return s;
}

}  // namespace ompisim::coll
