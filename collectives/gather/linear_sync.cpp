// gather "linear_sync" ↔ ompi_coll_base_gather_intra_linear_sync, ompi/mca/coll/base/coll_base_gather.c (v4.1-v5.0),
// as coll/tuned's fixed decision calls it: ompi_coll_tuned_gather_intra_do_this(..., alg, 0, 0), first segment size
// 0, which COLL_BASE_COMPUTED_SEGCOUNT leaves at the whole block (a size below one element changes nothing): the first
// segment is the block, the second has no bytes.
// Message sequence: a non-root rank receives the root's zero-byte sync message, then sends its block and then the
// (empty) second segment, both with blocking sends. The root, for each other rank in rank order: posts the receive of
// the block, sends that rank the zero-byte sync message (blocking), posts the receive of the second segment and waits
// for the block; then it waits for all the second segments. LIMITATION: a schedule's round waits for all its
// operations, so the second segments' zero-byte receives are posted in the root's last round, at its wait_all, not
// each with its sync message (they arrive before it and are matched as unexpected).
#include "collectives/tuned_colls.hpp"

namespace ompisim::coll {

Schedule gather_linear_sync(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("gather/linear_sync", me, nranks);
  detail::check_root("gather/linear_sync", params.root, nranks);
  Schedule s;
  if (nranks == 1) return s;
  if (me != params.root) {
    s.round().recv(params.root, 0);
    s.round().send_blocking(params.root, params.bytes);
    s.round().send_blocking(params.root, 0);
    return s;
  }
  for (int r = 0; r < nranks; ++r)
    if (r != me) s.round().recv(r, params.bytes).send_blocking(r, 0);
  s.round();
  for (int r = 0; r < nranks; ++r)
    if (r != me) s.recv(r, 0);
  return s;
}

}  // namespace ompisim::coll
