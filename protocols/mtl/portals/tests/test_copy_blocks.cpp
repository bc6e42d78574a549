// mtl/portals send copy blocks (Open MPI 1.3 mtl_portals_send_short.c): a send of 1 .. copy_block_len bytes is copied
// into a copy block and complete at once; the block comes back at SEND_END; with no free block the send, and every
// send after it, waits. DES engine, red-storm, pml/cm + mtl/portals, 2 ranks on 2 nodes.
#include "tests/test_helpers.hpp"
#include "protocols/mtl/portals/mtl_portals_mca.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
struct Fix {
  test::Fixture f{"red-storm", 2, 1, ""};
  explicit Fix(long long blocks, long long len = 8192) {
    auto& m = f.mca_.get<mtl::portals::MtlPortalsMca>();
    m.mtl_portals_num_copy_blocks.value = static_cast<double>(blocks);
    m.mtl_portals_copy_block_len.value = static_cast<double>(len);
    f.stack = make_stack(*f.world, f.mca_, "openmpi-cm", "test");
  }
};
}  // namespace

// Configuration: one send of 4 KiB into a pre-posted receive, with 256 copy blocks and with none.
// Expected: with copy blocks the send is complete before the data reaches the receiver (the copy replaces the wait
// for SEND_END) and is counted as a copy-block send; without, it completes at SEND_END; both deliver. The copy costs
// the sender's CPU: the send with a copy block does not complete before the copy's time.
TEST_CASE("mtl/portals: a copy-block send completes at once, a medium one at SEND_END", "[unit][mtl][portals]") {
  auto run = [](long long blocks) {
    Fix x(blocks);
    double sent = -1, recvd = -1;
    x.f.stack->irecv(1, 0, 3, 4096, Buffer{0x20000, true}, [&] { recvd = x.f.sim.now(); });
    x.f.stack->isend(0, 1, 3, 4096, Buffer{0x10000, true}, [&] { sent = x.f.sim.now(); });
    x.f.sim.run();
    auto s = x.f.stack->stats();
    CHECK(s.recvs_completed == 1);
    CHECK(s.live_requests == 0);
    return std::make_tuple(sent, recvd, s.counters["mtl_copy_block_sends"], s.counters["mtl_short_sends"]);
  };
  auto [s_copy, r_copy, n_copy, short_copy] = run(256);
  auto [s_med, r_med, n_med, short_med] = run(0);
  CHECK(n_copy == 1);
  CHECK(n_med == 0);
  CHECK(short_copy == 1);
  CHECK(short_med == 1);
  CHECK(s_copy < r_copy);
  CHECK(s_copy < s_med);
  CHECK(s_copy > 0);
}

// Configuration: 2 copy blocks; rank 0 sends 6 messages of 1 KiB, then one of 16 KiB (medium: no block needed), all
// to pre-posted receives of their exact sizes.
// Expected: 4 of the small sends and the medium one wait (they queue behind the first send that found no block, so
// the medium one cannot overtake); every send completes, no receive is truncated (MPI order held), no request left.
TEST_CASE("mtl/portals: without a free copy block, sends wait in order", "[unit][mtl][portals]") {
  Fix x(2);
  std::vector<std::uint64_t> sizes{1024, 1025, 1026, 1027, 1028, 1029, 16384};
  int sent = 0;
  for (auto b : sizes) x.f.stack->irecv(1, 0, 3, b, Buffer{0x20000, true}, [] {});
  for (auto b : sizes) x.f.stack->isend(0, 1, 3, b, Buffer{0x10000, true}, [&] { ++sent; });
  x.f.sim.run();
  auto s = x.f.stack->stats();
  CHECK(sent == 7);
  CHECK(s.counters["mtl_copy_block_sends"] == 6);
  CHECK(s.counters["mtl_copy_block_waits"] == 5);
  CHECK(s.counters["mpi_truncate_errors"] == 0);
  CHECK(s.recvs_completed == 7);
  CHECK(s.live_requests == 0);
}

// Configuration: a zero-byte send. Expected: counted as a zero send, complete, delivered; no copy block used.
TEST_CASE("mtl/portals: a zero-byte send uses the zero MD and completes at once", "[unit][mtl][portals]") {
  Fix x(256);
  bool sent = false, recvd = false;
  x.f.stack->irecv(1, 0, 3, 0, Buffer{0x20000, true}, [&] { recvd = true; });
  x.f.stack->isend(0, 1, 3, 0, Buffer{0x10000, true}, [&] { sent = true; });
  x.f.sim.run();
  auto s = x.f.stack->stats();
  CHECK(sent);
  CHECK(recvd);
  CHECK(s.counters["mtl_zero_sends"] == 1);
  CHECK(s.counters["mtl_copy_block_sends"] == 0);
}

// Configuration: one send of copy_block_len bytes (8 KiB: copied) and one of copy_block_len + 3 bytes (medium: the
// user-buffer MD) into pre-posted receives, with 256 copy blocks of 8 KiB and of 4 KiB.
// Expected: the medium send pays the uncontended copy of copy_block_len bytes less one Portals call on top of its two
// calls, so the two paths cost the same at the copy-block length and the receive of the 3 bytes more does not
// complete earlier (by more than the 3 bytes' transfer); the time the medium send's sender CPU is busy before its
// put grows with copy_block_len. How validated: receive completion times, 1 ns.
TEST_CASE("mtl/portals: the medium send meets the copy-block send at copy_block_len", "[unit][mtl][portals]") {
  auto recv_time = [](long long len, std::uint64_t bytes) {
    Fix x(256, len);
    double recvd = -1;
    x.f.stack->irecv(1, 0, 3, bytes, Buffer{0x200000, true}, [&] { recvd = x.f.sim.now(); });
    x.f.stack->isend(0, 1, 3, bytes, Buffer{0x10000, true}, [] {});
    x.f.sim.run();
    REQUIRE(recvd > 0);
    return recvd;
  };
  for (long long len : {8192LL, 4096LL}) {
    INFO("copy_block_len " << len);
    const double copied = recv_time(len, static_cast<std::uint64_t>(len));
    const double medium = recv_time(len, static_cast<std::uint64_t>(len) + 3);
    CHECK(medium >= copied - 1e-9);
    CHECK(medium - copied < 0.01e-6);
  }
}
