// btl/vader: copy in/out of non-contiguous data.
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: openmpi, 2 ranks on one Cielo node; 64 KiB from a non-contiguous buffer (ob1 RNDV over vader).
// Expected: vader copies the RNDV and FRAG fragments in and out (no single copy for non-contiguous data) and the
// send completes. How validated: vader counters and completions.
TEST_CASE("vader: non-contiguous data is copied in and out, not single-copied", "[protocol][vader]") {
  test::Fixture f("cielo", 2, 2, "openmpi");
  int done = 0;
  f.stack->irecv(1, 0, 5, 65536, Buffer{1 << 20, true}, [&] { ++done; });
  f.stack->isend(0, 1, 5, 65536, Buffer{4096, false}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  auto st = f.stack->stats();
  CHECK(st.counters["ob1_RNDV"] == 1);
  CHECK(st.counters["vader_copy_sends"] > 0);
  CHECK(st.counters["vader_single_copy_sends"] == 0);
  CHECK(st.live_requests == 0);
}
