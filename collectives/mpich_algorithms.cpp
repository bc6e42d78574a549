// MPICH's own algorithms where their message pattern differs from Open MPI's (MPICH 3.x-4.x src/mpi/coll; Cray MPICH
// derives from MPICH, and native/mpich_cxi uses these through collectives/decision/mpich_*.json):
//  alltoall "mpich_scattered" ↔ MPIR_Alltoall_intra_scattered: batches of MPIR_CVAR_ALLTOALL_THROTTLE (default 32,
//    params.radix carries it) irecvs from (me + ii + i) mod P and isends to (me - ii - i) mod P, i < the batch, each
//    batch waited for (one round per batch; the block to self is a copy, left out).
//  alltoall "mpich_pairwise" ↔ MPIR_Alltoall_intra_pairwise: steps i = 1 .. P-1, partner me ^ i when P is a power of
//    two, else send to (me + i) mod P and receive from (me - i) mod P.
//  bcast "mpich_scatter_rdb_allgather" / "mpich_scatter_ring_allgather" ↔ MPIR_Bcast_intra_scatter_recursive_doubling_
//    allgather / _scatter_ring_allgather: a binomial scatter of the message in P chunks of ceil(bytes / P) from the
//    root, then a recursive-doubling (P a power of two) or ring allgather of the chunks.
// Bruck alltoall, recursive-doubling/bruck/ring allgather, binomial gather/scatter: same message pattern as the
// Open MPI generators of the same role (the decision files name those; not re-read against v3.4a2 in session 15).
// MPICH's binomial bcast (bcast/mpich_binomial.cpp) and its ch4 node-aware bcast (bcast/mpich_smp.cpp) are their own.
#include "collectives/tuned_colls.hpp"
#include "collectives/data_colls.hpp"
#include "collectives/tuned_colls.hpp"
#include "collectives/gather_scatter.hpp"

#include <algorithm>

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
    else s.round().send((me + i) % nranks, p.bytes).recv((me - i + nranks) % nranks, p.bytes);
  }
  return s;
}

namespace {
Schedule scatter_then(int me, int nranks, const AlgoParams& p, Schedule (*allgather)(int, int, const AlgoParams&)) {
  AlgoParams chunk = p;
  chunk.bytes = static_cast<std::uint32_t>((static_cast<std::uint64_t>(p.bytes) + nranks - 1) / nranks);
  Schedule s = scatter_binomial(me, nranks, chunk);
  AlgoParams ag = chunk;
  // The allgather runs on ranks relative to the root (MPICH's relative_rank); peers are mapped back.
  int rel = (me - p.root + nranks) % nranks;
  Schedule g = allgather(rel, nranks, ag);
  for (auto& r : g.rounds) {
    for (auto& op : r.ops) op.peer = (op.peer + p.root) % nranks;
    s.rounds.push_back(std::move(r));
  }
  return s;
}
}  // namespace

Schedule bcast_mpich_scatter_rdb_allgather(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("bcast/mpich_scatter_rdb_allgather", me, nranks);
  return scatter_then(me, nranks, p, &allgather_recursive_doubling);
}

Schedule bcast_mpich_scatter_ring_allgather(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("bcast/mpich_scatter_ring_allgather", me, nranks);
  return scatter_then(me, nranks, p, &allgather_ring);
}

}  // namespace ompisim::coll
