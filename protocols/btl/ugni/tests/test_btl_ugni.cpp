// btl/ugni: the eager-get pool, GET -> PUT fallback, eager buffers of RNDV/FRAG fragments.
#include "tests/test_helpers.hpp"
#include "protocols/btl/ugni/btl_ugni_mca.hpp"
#include "protocols/btl/ugni/eager_pool.hpp"
#include "protocols/register.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: pool 16, +16, max 64. Expected: grows to 64, then the 65th request waits until a buffer returns.
TEST_CASE("ugni eager-get pool: growth to 64 and waiting beyond", "[unit][protocol][ugni]") {
  btl::ugni::EagerPool pool(16, 16, 64);
  int grew = 0, got = 0, woke = 0;
  for (int i = 0; i < 64; ++i) {
    auto r = pool.take([] {});
    grew += r == btl::ugni::EagerPool::Result::Grew;
    got += r == btl::ugni::EagerPool::Result::Got;
  }
  CHECK(pool.allocated() == 64);
  CHECK(grew == 3);
  CHECK(got == 61);
  CHECK(pool.take([&woke] { ++woke; }) == btl::ugni::EagerPool::Result::Wait);
  CHECK(pool.waiting() == 1);
  pool.give_back();
  CHECK(woke == 1);
  CHECK(pool.in_use() == 64);
}

// Configuration: btl_ugni_eager_num 100 above btl_ugni_eager_max 64 (increment 16).
// Expected: as Open MPI's free list, the first allocation stops at the maximum: 64 buffers, the 65th request waits.
// How validated: the pool's counts and the 65th take's result.
TEST_CASE("ugni eager-get pool: an initial count above the maximum allocates the maximum", "[unit][protocol][ugni]") {
  btl::ugni::EagerPool pool(100, 16, 64);
  CHECK(pool.allocated() == 64);
  for (int i = 0; i < 64; ++i) CHECK(pool.take([] {}) == btl::ugni::EagerPool::Result::Got);
  CHECK(pool.take([] {}) == btl::ugni::EagerPool::Result::Wait);
  CHECK(pool.allocated() == 64);
}

// Configuration: openmpi on 2 Cielo nodes; a 64 KiB RGET from a 4-byte aligned and from a misaligned buffer.
// Expected: the aligned one is one GET; the misaligned one falls back to PUT with two extra SMSG messages (PUT_INIT,
// RDMA_COMPLETE). How validated: protocol counters of the stack.
TEST_CASE("ugni GET -> PUT fallback on a misaligned buffer costs two SMSG messages", "[protocol][ugni]") {
  auto smsgs = [](std::uint64_t addr) {
    test::Fixture f("cielo", 2, 1, "openmpi");
    int done = 0;
    f.stack->irecv(1, 0, 5, 65536, Buffer{1 << 20, true}, [&] { ++done; });
    f.stack->isend(0, 1, 5, 65536, Buffer{addr, true}, [&] { ++done; });
    f.sim.run();
    REQUIRE(done == 2);
    auto st = f.stack->stats();
    return std::make_pair(st.counters["ugni_smsg"], st.counters["ugni_put_fallbacks"]);
  };
  auto aligned = smsgs(4096), misaligned = smsgs(4097);
  CHECK(aligned.second == 0);
  CHECK(misaligned.second == 1);
  CHECK(misaligned.first == aligned.first + 2);
}

// Configuration: openmpi on 2 Cielo nodes; one 64 KiB message (ob1 RGET: one long GET) with btl_ugni_fma_limit at its
//                default (4095 B) and raised to 1 MiB.
// Expected: the GET is a BTE transfer by default and an FMA one with the raised limit; ugni_bte_transfers says which.
// How validated: the stack's counters.
TEST_CASE("ugni counts the long transfers the BTE moves", "[protocol][ugni]") {
  auto counts = [](long long fma_limit) {
    McaParams mca = machine_mca(*load_machine("cielo"));
    if (fma_limit > 0) mca.get<btl::ugni::UgniMca>().btl_ugni_fma_limit.value = static_cast<double>(fma_limit);
    test::Fixture f("cielo", 2, 1, "openmpi", &mca);
    int done = 0;
    f.stack->irecv(1, 0, 5, 65536, Buffer{1 << 20, true}, [&] { ++done; });
    f.stack->isend(0, 1, 5, 65536, Buffer{4096, true}, [&] { ++done; });
    f.sim.run();
    REQUIRE(done == 2);
    auto st = f.stack->stats();
    return std::make_pair(st.counters["ugni_long_gets"], st.counters["ugni_bte_transfers"]);
  };
  CHECK(counts(0) == std::make_pair(std::uint64_t{1}, std::uint64_t{1}));
  CHECK(counts(1 << 20) == std::make_pair(std::uint64_t{1}, std::uint64_t{0}));
}

// Configuration: openmpi on 2 Cielo nodes, SMSG limit 1 KiB; 12 messages of 200 KB from non-contiguous send buffers
// (ob1 RNDV, then FRAGs of 8 KiB through ugni's eager-get path: 300 fragments, far beyond the pool maximum of 64).
// Expected: every message completes and every receiver eager buffer goes back to its pool (each fragment's buffer is
// released when ob1 has copied it out, not once per send request); the send and receive lists each grow three times
// (16 to 64 by 16) and later fragments wait for a buffer. How validated: completions, the growth, wait and held-buffer
// counters.
TEST_CASE("ugni eager-get buffers of RNDV/FRAG fragments return to the pool", "[protocol][ugni][ob1]") {
  McaParams mca = machine_mca(*load_machine("cielo"));
  mca.get<btl::ugni::UgniMca>().btl_ugni_smsg_limit.value = 1024;
  test::Fixture f("cielo", 2, 1, "openmpi", &mca);
  int done = 0;
  const int n = 12;
  for (int i = 0; i < n; ++i) {
    f.stack->irecv(1, 0, 5, 200000, Buffer{1 << 20, true}, [&] { ++done; });
    f.stack->isend(0, 1, 5, 200000, Buffer{4096, false}, [&] { ++done; });
  }
  f.sim.run();
  CHECK(done == 2 * n);
  auto st = f.stack->stats();
  CHECK(st.counters["ob1_RNDV"] == n);
  CHECK(st.counters["ugni_eager_gets"] > 64);
  // the send and receive lists grew from 16 to 64 by 16 (3 growths each), then fragments waited for a buffer
  CHECK(st.counters["ugni_eager_pool_grows"] == 6);
  CHECK(st.counters["ugni_eager_buffer_waits"] > 0);
  CHECK(st.counters["ugni_eager_buffers_held"] == 0);
  CHECK(st.live_requests == 0);
}

// Configuration: openmpi on 2 Cielo nodes at the default (automatic) SMSG limit, 1024 B at 2 ranks; both ranks post 64
// receives and send 64 messages of 4 KiB to each other at once (osu_bibw's window), every one an eager get. Expected:
// all 256 requests complete, with 128 eager gets: each rank's sends hold up to 64 buffers of its send list while the
// peer's sends hold up to 64 of its receive list (r26242 btl_ugni_add_procs.c: eager_frags_send and eager_frags_recv,
// each up to eager_max 64); one shared list of 64 per rank deadlocks here. How validated: completions and counters.
TEST_CASE("ugni eager gets in both directions at once: one send and one receive list per rank", "[protocol][ugni]") {
  test::Fixture f("cielo", 2, 1, "openmpi");
  int done = 0;
  const int window = 64;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < window; ++i)
      f.stack->irecv(r, 1 - r, 7, 4096, Buffer{(1u << 20) + 4096u * i, true}, [&] { ++done; });
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < window; ++i) f.stack->isend(r, 1 - r, 7, 4096, Buffer{4096, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 4 * window);
  auto st = f.stack->stats();
  CHECK(st.counters["ugni_eager_gets"] == 2 * window);
  CHECK(st.counters["ugni_eager_buffers_held"] == 0);
  CHECK(st.live_requests == 0);
}

// Configuration: openmpi on 2 Cielo nodes, one 64 KiB message (short SMSG control messages and one RGET); native
// (Cray MPT) the same. Expected: every counter btl/ugni and native/mpich_gni report is one their registry entries
// declare (name, unit, description), and btl/ugni reports every declared one. How validated: the stacks' counter
// maps against ComponentInfo::statistics.
TEST_CASE("ugni and mpich_gni report only their declared statistics", "[protocol][ugni][mpich]") {
  for (const char* stack : {"openmpi", "native"}) {
    test::Fixture f("cielo", 2, 1, stack);
    int done = 0;
    f.stack->irecv(1, 0, 5, 65536, Buffer{1 << 20, true}, [&] { ++done; });
    f.stack->isend(0, 1, 5, 65536, Buffer{4096, true}, [&] { ++done; });
    f.sim.run();
    REQUIRE(done == 2);
    const bool ompi = std::string(stack) == "openmpi";
    const ComponentInfo* c = component_registry().find(ompi ? "btl" : "native", ompi ? "ugni" : "mpich_gni");
    REQUIRE(c);
    REQUIRE(!c->statistics.empty());
    auto declared = [&](const std::string& k) {
      for (auto& s : c->statistics)
        if (k == s.name && *s.unit && *s.description) return true;
      return false;
    };
    auto counters = f.stack->stats().counters;
    for (auto& [k, v] : counters)
      if (!ompi || k.rfind("ugni_", 0) == 0) CHECK(declared(k));
    if (ompi)
      for (auto& s : c->statistics) CHECK(counters.count(s.name) == (s.when_counted ? 0 : 1));  // none counted here
    if (!ompi) CHECK(counters.at("rndv_get") == 1);
  }
}
