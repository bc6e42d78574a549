// Cray MPT's medium-message eager path (E1) on Gemini: between the vshort (SMSG) limit and MPICH_GNI_MAX_EAGER_MSG_SIZE
// the data goes through the sender's 32 KiB DMA buffers and a receiver GET, not a rendezvous (mpich_gni.hpp).
#include "protocols/native/mpich_gni_mca.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
// 2 ranks on 2 Cielo nodes, Cray MPT with the vshort limit at 1,024 B (what auto gives a job of 256-1,023 ranks).
McaParams mpt_mca(double eager_max, double num_bufs = 64) {
  McaParams mca = machine_mca(*load_machine("cielo"));
  auto& m = mca.get<native::MpichGniMca>();
  m.mpich_gni_max_vshort_msg_size.value = 1024;
  m.mpich_gni_max_eager_msg_size.value = eager_max;
  m.mpich_gni_num_bufs.value = num_bufs;
  return mca;
}
}  // namespace

// Configuration: one 4,000-byte message (above the vshort limit, below the 8,192-byte eager limit), receive posted.
// Expected: the E1 path: one E1 send, no rendezvous, the receiver's one GET, two SMSG messages (descriptor, buffer
// free) and the send complete before the receive (the sender's request ends with its copy). With the eager limit at 0
// (no E1) the same message is a rendezvous (RTS, receiver GET, DONE) whose send completes after the receive's GET.
// How validated: the stack's counters and the completion times.
TEST_CASE("mpich_gni: a medium message takes the E1 eager path below MPICH_GNI_MAX_EAGER_MSG_SIZE", "[protocol][mpich][gemini]") {
  for (double eager : {8192.0, 0.0}) {
    McaParams mca = mpt_mca(eager);
    test::Fixture f("cielo", 2, 1, "native", &mca);
    double t_send = -1, t_recv = -1;
    f.stack->irecv(1, 0, 7, 4000, Buffer{1 << 20, true}, [&] { t_recv = f.sim.now(); });
    f.stack->isend(0, 1, 7, 4000, Buffer{4096, true}, [&] { t_send = f.sim.now(); });
    f.sim.run();
    INFO("eager limit " << eager);
    REQUIRE(t_send > 0);
    REQUIRE(t_recv > 0);
    auto st = f.stack->stats();
    CHECK(st.counters["rdma_get"] == 1);
    CHECK(st.counters["smsg"] == 2);
    CHECK(st.live_requests == 0);
    if (eager > 0) {
      CHECK(st.counters["e1_eager"] == 1);
      CHECK(st.counters["rndv_get"] == 0);
      CHECK(t_send < t_recv);
    } else {
      CHECK(st.counters["e1_eager"] == 0);
      CHECK(st.counters["rndv_get"] == 1);
      CHECK(t_send > t_recv);
    }
  }
}

// Configuration: 2 DMA buffers (MPICH_GNI_NUM_BUFS 2), rank 0 sends 10 messages of 4,000 B at once to rank 1, whose
// receives are posted late (unexpected), and one 9,000-byte message (above the eager limit: rendezvous). Expected:
// 8 E1 sends wait for a buffer (the first 2 do not), every send and receive completes once, in MPI order, no
// request or queue entry left; the 9,000-byte one is the only rendezvous. How validated: counters, the
// arrival order and the stack's request statistics.
TEST_CASE("mpich_gni: E1 sends wait in order for a free DMA buffer", "[protocol][mpich][gemini][conservation]") {
  McaParams mca = mpt_mca(8192, 2);
  test::Fixture f("cielo", 2, 1, "native", &mca);
  int sends = 0;
  std::vector<int> order;
  const int n = 10;
  for (int i = 0; i < n; ++i) f.stack->isend(0, 1, 3, 4000, Buffer{4096, true}, [&] { ++sends; });
  f.stack->isend(0, 1, 3, 9000, Buffer{4096, true}, [&] { ++sends; });
  f.sim.at(200e-6, [&] {
    for (int i = 0; i <= n; ++i)
      f.stack->irecv(1, 0, 3, i < n ? 4000 : 9000, Buffer{1 << 20, true}, [&order, i] { order.push_back(i); });
  });
  f.sim.run();
  CHECK(sends == n + 1);
  std::vector<int> expected;
  for (int i = 0; i <= n; ++i) expected.push_back(i);
  CHECK(order == expected);
  auto st = f.stack->stats();
  CHECK(st.counters["e1_eager"] == n);
  CHECK(st.counters["e1_buffer_waits"] == n - 2);
  CHECK(st.counters["rndv_get"] == 1);
  CHECK(st.live_requests == 0);
  CHECK(st.unexpected_now == 0);
  CHECK(st.posted_now == 0);
}

// Configuration: 2 Cielo nodes with the machine's MCA defaults (2 ranks: vshort limit 8,192 B, so an 8,192-byte
// message plus its 48-byte header goes by E1); two messages of 8,192 B (E1) and, in a fresh run, two of 8,196 B (just
// above MPICH_GNI_MAX_EAGER_MSG_SIZE: rendezvous), each receive posted first; the second of each is timed (the first
// connects and registers). Expected: the two paths meet at the
// switch size (set_switch_costs): the rendezvous' receive completes no earlier than E1's and within 5 % of it.
// Without the rendezvous' per-message cost it completed about 2 us earlier. How validated: the receives'
// completion times and the path counters.
TEST_CASE("mpich_gni: E1 and the rendezvous meet at MPICH_GNI_MAX_EAGER_MSG_SIZE", "[protocol][mpich][gemini]") {
  McaParams mca = machine_mca(*load_machine("cielo"));
  auto one = [&mca](std::uint64_t bytes, const char* path) {
    test::Fixture f("cielo", 2, 1, "native", &mca);
    double t_recv = -1;
    // The first message connects the endpoint and fills the registration caches (as OSU's warm-up does).
    f.stack->irecv(1, 0, 7, bytes, Buffer{1 << 20, true}, [] {});
    f.stack->isend(0, 1, 7, bytes, Buffer{4096, true}, [] {});
    f.sim.run();
    const double t0 = f.sim.now() + 1e-3;
    f.sim.at(t0, [&] {
      f.stack->irecv(1, 0, 7, bytes, Buffer{1 << 20, true}, [&] { t_recv = f.sim.now(); });
      f.stack->isend(0, 1, 7, bytes, Buffer{4096, true}, [] {});
    });
    f.sim.run();
    CHECK(f.stack->stats().counters[path] == 2);
    return t_recv - t0;
  };
  const double e1 = one(8192, "e1_eager"), rndv = one(8196, "rndv_get");
  INFO("E1 " << e1 * 1e6 << " us, rendezvous " << rndv * 1e6 << " us");
  CHECK(rndv >= e1);
  CHECK(rndv <= 1.05 * e1);
}
