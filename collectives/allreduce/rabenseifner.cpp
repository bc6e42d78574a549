// allreduce "rabenseifner" ↔ ompi_coll_base_allreduce_intra_redscat_allgather, ompi/mca/coll/base/coll_base_allreduce.c
// (v4.1-v5.0; coll/tuned's enum string "rabenseifner", algorithm 6 of its allreduce decision): Rabenseifner's
// reduce-scatter by recursive vector halving and distance doubling, then an allgather by recursive vector doubling
// and distance halving. Read from a copy of the v5 file (BullSequana/OpenMPI5 at c3318e2f).
//
// Message sequence. Let pof2 be the largest power of two <= P, rem = P - pof2, and the vector n = params.bytes
// (the generator counts in bytes: Open MPI halves element counts; with 4-byte elements the halves are the same
// whenever n / pof2 is a multiple of 4, as for 1 MiB over up to 65,536 ranks).
//   - Fold (ranks < 2*rem): an even rank sendrecvs with rank+1 (sends the right half n - n/2, receives the left n/2),
//     then receives the reduced right half from rank+1 (MCA_PML_CALL(recv)); the odd rank sendrecvs (sends the left
//     half, receives the right), then MPI_Sends the reduced right half to rank-1 and sits out. Open MPI keeps the even
//     rank (MPICH keeps the odd one and folds with one whole-vector message). New ranks: even r < 2*rem -> r/2,
//     r >= 2*rem -> r - rem; new rank m maps back to 2m (m < rem) or m + rem.
//   - Reduce-scatter, mask = 1, 2, .., pof2/2, partner newrank ^ mask: the window w (first n) halves; the lower rank
//     of the pair keeps the left floor(w/2) and sends the right w - floor(w/2), the higher sends the left floor(w/2)
//     and keeps the right; one ompi_coll_base_sendrecv per step.
//   - Allgather, mask = pof2/2 .. 1: the same partners in reverse order, each sending what it kept at that step and
//     receiving what it sent.
//   - Unfold: an even rank < 2*rem MPI_Sends the whole result to rank+1, which receives it.
// Fewer elements than pof2 (count = n / AlgoParams::elem_bytes < pof2, 0 included): Open MPI runs
// ompi_coll_base_allreduce_intra_basic_linear instead (the same file, v4.1-v5.0: "switching to basic linear
// allreduce"): ompi_coll_base_reduce_intra_basic_linear to rank 0 (every other rank sends its vector; rank 0 receives
// from P-1, then from P-2 down to 1, one blocking receive at a time), then ompi_coll_base_bcast_intra_basic_linear
// from rank 0 (an isend to every other rank at once, then wait_all; the others receive).
// Each ompi_op_reduce is a Reduce round after the receive it reduces: the fold's half (the odd rank its right half,
// the even rank its left), every reduce-scatter step's kept part, the basic linear reduce's P-1 vectors at rank 0.
// P = 1: nothing.
#include "collectives/data_colls.hpp"
#include "collectives/reduce/reduce.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace ompisim::coll {

namespace {
// ompi_coll_base_allreduce_intra_basic_linear: reduce to 0, then broadcast from 0, both basic linear.
Schedule allreduce_basic_linear(int me, int nranks, std::uint32_t n) {
  AlgoParams q;
  q.bytes = n;
  q.root = 0;
  Schedule s = reduce_linear(me, nranks, q);  // ompi_coll_base_reduce_intra_basic_linear to rank 0
  for (Round& r : detail::root_isends_to_all(me, nranks, 0, n).rounds) s.rounds.push_back(std::move(r));
  return s;
}
}  // namespace

Schedule allreduce_rabenseifner(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("allreduce/rabenseifner", me, nranks);
  Schedule s;
  if (nranks == 1) return s;
  const std::uint32_t n = params.bytes;
  const int pof2 = detail::floor_pow2(nranks);
  if (n / std::max<std::uint32_t>(params.elem_bytes, 1) < static_cast<std::uint32_t>(pof2))
    return allreduce_basic_linear(me, nranks, n);
  const int rem = nranks - pof2;
  int vrank = me - rem;
  if (me < 2 * rem) {
    const std::uint32_t lhalf = n / 2, rhalf = n - lhalf;
    if (me % 2 != 0) {
      s.round().sendrecv_to(me - 1, lhalf, me - 1, rhalf);
      s.round().reduce(rhalf);
      s.round().send_blocking(me - 1, rhalf);
      s.round().recv(me - 1, n);
      return s;
    }
    s.round().sendrecv_to(me + 1, rhalf, me + 1, lhalf);
    s.round().reduce(lhalf);
    s.round().recv(me + 1, rhalf);
    vrank = me / 2;
  }
  auto real = [&](int v) { return v < rem ? v * 2 : v + rem; };
  std::vector<detail::HalvingStep> steps;
  std::uint32_t w = n;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int dest = real(vrank ^ mask);
    const std::uint32_t left = w / 2, right = w - left;
    const std::uint32_t sent = me < dest ? right : left, kept = me < dest ? left : right;
    s.round().sendrecv_to(dest, sent, dest, kept);
    s.round().reduce(kept);
    steps.push_back({dest, sent, kept});
    w = kept;
  }
  detail::allgather_mirroring(s, steps);
  if (me < 2 * rem) s.round().send_blocking(me + 1, n);
  return s;
}

}  // namespace ompisim::coll
