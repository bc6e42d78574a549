// Which sends of the collective schedules are MPI_Send (Op::blocking): the ones Open MPI's coll/base (v5.0.0rc11)
// makes with MCA_PML_CALL(send) or ompi_coll_base_sendrecv (mtl/ofi injects those, protocols/mtl/ofi/mtl_ofi.hpp).
#include "collectives/data_colls.hpp"
#include "collectives/schedule.hpp"
#include "collectives/tuned_colls.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: schedules of Open MPI's coll/base algorithms (v5.0.0rc11) on 8 ranks.
// Expected:      the sends of ompi_coll_base_sendrecv users (allgather recursive doubling, alltoall pairwise) and the
//                non-root sends of the binomial gather (MCA_PML_CALL(send)) are blocking; the binomial bcast's
//                (bcast_intra_generic: isend) are not.
// How validated: the Op's blocking mark.
TEST_CASE("coll schedules mark the sends Open MPI's coll/base makes blocking", "[unit][coll]") {
  coll::AlgoParams p;
  p.bytes = 8;
  p.root = 0;
  auto sends = [](const coll::Schedule& s, bool want) {
    int k = 0, all = 0;
    for (const auto& r : s.rounds)
      for (const auto& op : r.ops)
        if (op.kind == coll::OpKind::Send) ++all, k += op.blocking == want ? 1 : 0;
    return all > 0 && k == all;
  };
  CHECK(sends(coll::allgather_recursive_doubling(3, 8, p), true));
  CHECK(sends(coll::alltoall_pairwise(3, 8, p), true));
  CHECK(sends(coll::gather_binomial(3, 8, p), true));
  CHECK(sends(coll::bcast_binomial(0, 8, p), false));
}
