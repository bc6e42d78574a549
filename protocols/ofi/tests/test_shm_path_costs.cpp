// The shm provider's per-path costs (ShmConfig inject_rate, copy_cost): a closed library's own on-node path priced
// as a black box (Cray MPICH's, protocols/mtl/ofi/README.md); libfabric's shm provider has none.
#include "protocols/ofi/base/shared_rx_queue.hpp"
#include "protocols/ofi/shm/shm_provider.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using namespace ompisim::ofi;

namespace {
// One message from rank 1 to rank 0 on one crusher node, the receive posted first; the time its receive completes.
double recv_done_at(const shm::ShmConfig& sc, std::uint64_t bytes) {
  test::CrusherJob j(2, 2);
  shm::ShmProvider shm(j.sim, j.world->contexts(), j.world->cpus(), sc);
  SharedRxQueue q;
  double at = -1;
  CqOwnerOps ops;
  ops.write = [&](const CqEntry& e) {
    if (e.flags & CqEntry::Recv) at = j.sim.now();
  };
  shm.bind_peer(&q, q.add_peer(&shm), ops);
  q.post_tag(0, 1, 5, bytes, Buffer{}, 1);
  shm.tsend(1, 0, 5, bytes, Buffer{}, 2);
  j.sim.run();
  return at;
}
}  // namespace

// Configuration: crusher, 2 ranks on one node; an inject_size of 4 KiB; one 1 KiB message (inject path) and one
//                64 KiB message (single copy), each alone, with the per-path costs unset (libfabric's shm provider)
//                and set (inject_rate 2 GB/s, copy_cost 0.7 us).
// Expected:      the 1 KiB receive completes later by exactly 1024 B / 2 GB/s (the sender pays it before its copy in),
//                the 64 KiB one by exactly 0.7 us (the receiver pays it before the copy); the inject rate does not
//                touch the single copy, nor the copy cost the inject path.
// How validated: receive completion times on the DES engine.
TEST_CASE("ofi/shm: a library's per-path costs lengthen their own path by their amount", "[unit][ofi]") {
  shm::ShmConfig plain;
  plain.overhead = 0.1e-6;
  plain.inject_size = 4096;
  shm::ShmConfig priced = plain;
  priced.inject_rate = 2e9;
  priced.copy_cost = 0.7e-6;
  const double small0 = recv_done_at(plain, 1024), small1 = recv_done_at(priced, 1024);
  const double big0 = recv_done_at(plain, 65536), big1 = recv_done_at(priced, 65536);
  REQUIRE(small0 > 0);
  REQUIRE(big0 > 0);
  CHECK(small1 - small0 == Approx(1024 / 2e9).epsilon(1e-6));
  CHECK(big1 - big0 == Approx(0.7e-6).epsilon(1e-6));
  shm::ShmConfig only_rate = plain;
  only_rate.inject_rate = 2e9;
  CHECK(recv_done_at(only_rate, 65536) == Approx(big0).epsilon(1e-12));
  shm::ShmConfig only_copy = plain;
  only_copy.copy_cost = 0.7e-6;
  CHECK(recv_done_at(only_copy, 1024) == Approx(small0).epsilon(1e-12));
}

// Configuration: as above, inject_rate 2 GB/s with a ceiling inject_cost_max of 0.3 us; messages of 256 B (below the
//                ceiling: 0.128 us) and 4 KiB (2.048 us uncapped) on the inject path.
// Expected:      the 256 B receive is later than without per-path costs by 256 B / 2 GB/s exactly, the 4 KiB one by
//                the ceiling, 0.3 us, exactly; without the ceiling the 4 KiB one pays the full 2.048 us.
// How validated: receive completion times on the DES engine.
TEST_CASE("ofi/shm: the inject path's per-byte cost stops at its per-message ceiling", "[unit][ofi]") {
  shm::ShmConfig plain;
  plain.overhead = 0.1e-6;
  plain.inject_size = 8191;
  shm::ShmConfig rated = plain;
  rated.inject_rate = 2e9;
  shm::ShmConfig capped = rated;
  capped.inject_cost_max = 0.3e-6;
  const double small0 = recv_done_at(plain, 256), big0 = recv_done_at(plain, 4096);
  CHECK(recv_done_at(capped, 256) - small0 == Approx(256 / 2e9).epsilon(1e-6));
  CHECK(recv_done_at(capped, 4096) - big0 == Approx(0.3e-6).epsilon(1e-6));
  CHECK(recv_done_at(rated, 4096) - big0 == Approx(4096 / 2e9).epsilon(1e-6));
}
