// alltoall "modified_bruck" ↔ ompi_coll_base_alltoall_intra_bruck, ompi/mca/coll/base/coll_base_alltoall.c (v2.0-v5.0;
// J. Bruck et al., IEEE TPDS 8(11), 1997, with Open MPI's derived datatypes instead of packing).
//
// Message sequence: for distance d = 1, 2, 4, ... < P (one round each): a sendrecv that sends to (me + d) mod P and
// receives from (me - d) mod P the blocks whose index (after the initial local rotation) has bit d set: #{i in [0, P):
// i & d} blocks of params.bytes each way. The local rotations before and after are memory copies, not messages, and
// are left out. ceil(log2 P) messages per rank. Memory: O(log P).
#include "collectives/tuned_colls.hpp"
#include "collectives/data_colls.hpp"

#include <algorithm>

namespace ompisim::coll {

Schedule alltoall_modified_bruck(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("alltoall/modified_bruck", me, nranks);
  Schedule s;
  for (int d = 1; d < nranks; d <<= 1) {
    // Blocks with bit d set among 0 .. P-1: full periods of 2d contribute d each, plus the tail's part above d.
    long long per = 2LL * d, full = nranks / per, tail = nranks % per;
    long long blocks = full * d + (tail > d ? tail - d : 0);
    auto bytes = static_cast<std::uint32_t>(std::min<long long>(blocks * params.bytes, 0xffffffffLL));
    s.round().sendrecv_to((me + d) % nranks, bytes, (me - d % nranks + nranks) % nranks, bytes);  // ompi_coll_base_sendrecv
  }
  return s;
}

}  // namespace ompisim::coll
