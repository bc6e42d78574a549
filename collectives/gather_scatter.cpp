#include "collectives/gather_scatter.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule allgather_ring(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("allgather_ring", me, nranks);
  Schedule s;
  int right = (me + 1) % nranks, left = (me - 1 + nranks) % nranks;
  for (int k = 0; k + 1 < nranks; ++k) s.round().sendrecv_to(right, p.bytes, left, p.bytes);  // ompi_coll_base_sendrecv
  return s;
}

Schedule gather_basic_linear(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("gather_basic_linear", me, nranks);
  detail::check_root("gather_basic_linear", p.root, nranks);
  Schedule s;
  if (me != p.root) {
    s.round().send_blocking(p.root, p.bytes);  // MCA_PML_CALL(send(sbuf, ..., root, ...))
    return s;
  }
  for (int r = 0; r < nranks; ++r)
    if (r != p.root) s.round().recv(r, p.bytes);
  return s;
}

Schedule scatter_basic_linear(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("scatter_basic_linear", me, nranks);
  detail::check_root("scatter_basic_linear", p.root, nranks);
  Schedule s;
  if (me != p.root) {
    s.round().recv(p.root, p.bytes);
    return s;
  }
  for (int r = 0; r < nranks; ++r)
    if (r != p.root) s.round().send_blocking(r, p.bytes);  // MCA_PML_CALL(send(ptmp, ..., i, ...))
  return s;
}

void register_gather_scatter(CollRegistry& reg) {
  reg.add({"allgather", "ring", "ring: n-1 rounds, send to the right the block received from the left",
           "ompi/mca/coll/base/coll_base_allgather.c ompi_coll_base_allgather_intra_ring (v2.0-v5.0)", &allgather_ring,
           false});
  reg.add({"gather", "basic_linear", "non-roots send to the root, which receives in rank order",
           "ompi/mca/coll/base/coll_base_gather.c ompi_coll_base_gather_intra_basic_linear (v2.0-v5.0)",
           &gather_basic_linear, false});
  reg.add({"scatter", "basic_linear", "the root sends each rank its block in rank order",
           "ompi/mca/coll/base/coll_base_scatter.c ompi_coll_base_scatter_intra_basic_linear (v2.0-v5.0)",
           &scatter_basic_linear, false});
}

}  // namespace ompisim::coll
