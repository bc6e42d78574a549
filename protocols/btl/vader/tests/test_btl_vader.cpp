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

// Configuration: openmpi, 2 ranks on one Cielo node, default MCA parameters; one contiguous 16 KiB message, then one
// of 64 KiB. Expected: with vader's XPMEM eager limit (32 KiB, v1.8.8 btl_vader_component.c) the 16 KiB message is an
// ob1 MATCH sent by single copy, not an RGET; the 64 KiB one is an RGET. (With the 4 KiB limit of a vader without
// XPMEM, the 16 KiB message would be an RGET.) How validated: ob1 and vader counters.
TEST_CASE("vader: with XPMEM the eager limit is 32 KiB (16 KiB single-copy MATCH, 64 KiB RGET)", "[protocol][vader]") {
  test::Fixture f("cielo", 2, 2, "openmpi");
  int done = 0;
  f.stack->irecv(1, 0, 5, 16384, Buffer{1 << 20, true}, [&] { ++done; });
  f.stack->isend(0, 1, 5, 16384, Buffer{4096, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  auto st = f.stack->stats();
  CHECK(st.counters["ob1_RGET"] == 0);
  CHECK(st.counters["vader_single_copy_sends"] == 1);
  f.stack->irecv(1, 0, 6, 65536, Buffer{1 << 22, true}, [&] { ++done; });
  f.stack->isend(0, 1, 6, 65536, Buffer{1 << 24, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 4);
  st = f.stack->stats();
  CHECK(st.counters["ob1_RGET"] == 1);
  CHECK(st.live_requests == 0);
}
