// Cray MPT's on-node paths (mpich_gni.hpp): CH3's eager-short send (data in the packet header) up to
// MPIDI_EAGER_SHORT_SIZE, the Nemesis eager-contig copy in and out up to MPICH_SMP_SINGLE_COPY_SIZE, the XPMEM single
// copy above it.
#include "models/gemini/nic.hpp"
#include "platform/memory_copies.hpp"
#include "protocols/native/mpich_gni_mca.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
// One message of `bytes` from rank 0 to rank 1 on one Cielo node, its receive posted first: the time the receive
// completes, and the stack's counters.
std::pair<double, std::map<std::string, std::uint64_t>> one_message(std::uint64_t bytes, McaParams* mca = nullptr) {
  test::Fixture f("cielo", 2, 2, "native", mca);
  double t_recv = -1;
  f.stack->irecv(1, 0, 7, bytes, Buffer{1 << 24, true}, [&] { t_recv = f.sim.now(); });
  f.stack->isend(0, 1, 7, bytes, Buffer{4096, true}, [] {});
  f.sim.run();
  REQUIRE(t_recv > 0);
  return {t_recv, f.stack->stats().counters};
}
}  // namespace

// Configuration: one message of 16, 17, 1,024, 8,192 and 16,384 B, receive posted. Expected: 16 B goes by
// eager-short (no eager-contig cost), 17 B pays mpt_shm_eager_cost once more; from 17 B to 1,024 B and 8,192 B the
// eager time grows by the copy in and the copy out (two uncontended copies at the node's copy bandwidth) and nothing
// else; 16,384 B goes by the single copy (shm_lmt) and takes longer than 8,192 B by eager (the curve does not fall
// at MPICH_SMP_SINGLE_COPY_SIZE). How validated: the receive completion times against the machine's parameters, 1e-9 s.
TEST_CASE("mpich_gni: on-node eager costs per message above eager-short and per byte by the copies", "[protocol][mpich][gemini]") {
  auto machine = load_machine("cielo");
  const double eager_cost = gemini::nic(*machine).software.mpt_shm_eager_cost;
  test::Fixture probe("cielo", 2, 2);
  const MemoryCopies& copies = probe.world->copies();
  auto two_copies = [&](double b) { return 2 * copies.copy_time_uncontended(b); };

  auto [t16, c16] = one_message(16);
  auto [t17, c17] = one_message(17);
  auto [t1k, c1k] = one_message(1024);
  auto [t8k, c8k] = one_message(8192);
  auto [t16k, c16k] = one_message(16384);
  CHECK(c16["shm_eager"] == 1);
  CHECK(c8k["shm_eager"] == 1);
  CHECK(c16k["shm_lmt"] == 1);
  CHECK(t17 - t16 == Approx(eager_cost + two_copies(17) - two_copies(16)).margin(1e-9));
  CHECK(t1k - t17 == Approx(two_copies(1024) - two_copies(17)).margin(1e-9));
  CHECK(t8k - t17 == Approx(two_copies(8192) - two_copies(17)).margin(1e-9));
  CHECK(t16k > t8k);

  // The eager-short limit is the component's parameter: at 0 every non-empty message pays the eager-contig cost.
  McaParams mca = machine_mca(*machine);
  mca.get<native::MpichGniMca>().mpich_eager_short_size.value = 0;
  CHECK(one_message(16, &mca).first - t16 == Approx(eager_cost).margin(1e-9));
}

namespace {
// osu_bibw's window on one Cielo node: each of ranks 0 and 1 posts `n` receives of `bytes` from the other, then `n`
// sends to it (one send and one receive buffer per rank, as the benchmark); the time the last request completes.
double bibw_window(int n, std::uint64_t bytes) {
  test::Fixture f("cielo", 2, 2, "native");
  int left = 4 * n;
  double t_end = -1;
  auto done = [&] {
    if (--left == 0) t_end = f.sim.now();
  };
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < n; ++i) f.stack->irecv(r, 1 - r, 7, bytes, Buffer{(1ull << 24) + (r << 22), true}, done);
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < n; ++i) f.stack->isend(r, 1 - r, 7, bytes, Buffer{4096ull + (r << 22), true}, done);
  f.sim.run();
  REQUIRE(left == 0);
  return t_end;
}
}  // namespace

// Configuration: osu_bibw's exchange of a window of 32 and of 64 messages each way between two ranks of one Cielo node,
// at 32 KiB and 256 KiB (above MPICH_SMP_SINGLE_COPY_SIZE: the LMT). Expected: in the steady state each core spends,
// per message it receives and sends, the XPMEM copy out of the peer's buffer (from the cache up to 256 KiB: the
// uncontended copy time), mpt_lmt_cost, and four MPICH calls at mpich_sw_overhead (MPID_Irecv, MPID_Isend, the RTS's
// poll and match, the DONE's completion); so the window of 64 takes 32 such periods more than the window of 32. This
// is the decomposition the claim gemini.intra.bibw.peak_sizes's reason rests on (the per-message part, 5.1 us at the
// committed costs, against a copy of 4.29 us at 32 KiB). How validated: the difference of the two windows' end times
// against the machine's parameters, 1e-9 s; fails if a call, the LMT cost or the copy is dropped or doubled.
TEST_CASE("mpich_gni: on-node LMT in osu_bibw's window: per message a copy, mpt_lmt_cost, four MPICH calls",
          "[protocol][mpich][gemini]") {
  auto machine = load_machine("cielo");
  const auto& sw = gemini::nic(*machine).software;
  test::Fixture probe("cielo", 2, 2);
  const MemoryCopies& copies = probe.world->copies();
  for (std::uint64_t bytes : {32768ull, 262144ull}) {
    const double b = static_cast<double>(bytes);
    const double period =
        copies.copy_time_uncontended(b) + sw.mpt_lmt_cost + b / sw.mpt_lmt_rate + 4 * sw.mpich_sw_overhead;
    CHECK(bibw_window(64, bytes) - bibw_window(32, bytes) == Approx(32 * period).margin(1e-9));
  }
}
