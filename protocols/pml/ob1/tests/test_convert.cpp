// pml/ob1 receiver-makes-right on hetero-cpu (G5 big-endian and Opteron little-endian nodes on one GigE switch,
// btl/tcp): which receives convert, and what it costs.
#include "tests/test_helpers.hpp"
#include "engine/des_engine.hpp"
#include "runner/stacks.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
struct Run {
  std::uint64_t converted = 0;
  double time = 0;
};
// One message of `count` elements of `type` from rank 0 to rank 1, the ranks on `nodes` (0..127 Opteron, 128.. G5).
Run one_message(std::vector<long long> nodes, const mpi::Datatype& type, std::uint64_t count) {
  auto m = load_machine("hetero-cpu");
  Placement p = make_placement(*m, 2, 1, nodes, "test");
  McaParams mca = machine_mca(*m);
  test::Job job(*m, p);
  job.seal();
  engine::DesEngine& sim = job.sim;
  auto s = make_stack(*job.world, mca, "openmpi", "test");
  int done = 0;
  s->start_recv(mpi::P2P{1, 0, 5, count, type, mpi::kCommWorld, Buffer{1 << 20, true}, nullptr}, [&] { ++done; });
  s->start_send(mpi::P2P{0, 1, 5, count, type, mpi::kCommWorld, Buffer{1 << 24, true}, nullptr}, [&] { ++done; });
  sim.run();
  CHECK(done == 2);
  auto st = s->stats();
  CHECK(st.live_requests == 0);
  Run r;
  r.converted = st.counters.count("ob1_converted_bytes") ? st.counters.at("ob1_converted_bytes") : 0;
  r.time = sim.now();
  return r;
}
}  // namespace

// Configuration: 1 MiB (eager-sized: 4 KiB; and rendezvous-sized: 1 MiB) as MPI_INT and as MPI_BYTE, from a G5 to an
// Opteron and from an Opteron to an Opteron. Expected: only MPI_INT between the G5 and the Opteron is converted, every
// byte of it once; MPI_BYTE and the homogeneous pair convert nothing. The time MPI_INT adds over MPI_BYTE is the
// conversion of what the receiver unpacks after the last byte arrived: the whole 4 KiB eager message; of the 1 MiB
// rendezvous only its last FRAG (btl/tcp's 64 KiB eager limit and 128 KiB max_send_size, v1.1.1: 1 MiB - 64 KiB =
// 7 x 128 KiB + 64 KiB), since ob1 sends the ACK before it unpacks the RNDV's own 64 KiB (pml_ob1_recvreq.c) and the
// other FRAGs convert while the next ones arrive. At 2.5 ns per 4-byte element on the Opteron receiver. The
// architecture descriptors of the two node types differ (Table 1 bitmask).
// How validated: the ob1_converted_bytes counter and the simulated times, by hand from hetero-cpu.json (with the RNDV
// unpacked before its ACK, the 1 MiB difference is the RNDV's and the last FRAG's conversions, 82 us, not 41 us).
TEST_CASE("pml/ob1 receiver makes right: only typed data between unlike architectures", "[unit][protocol][ob1][hetero]") {
  auto m = load_machine("hetero-cpu");
  const Arch& g5 = *m->node_type_def(128).arch;
  const Arch& opt = *m->node_type_def(0).arch;
  CHECK(g5.descriptor() != opt.descriptor());
  CHECK((g5.descriptor() & 0xFF) == 0xFF);
  for (std::uint64_t bytes : {4096ull, 1ull << 20}) {
    INFO(bytes << " bytes");
    Run i = one_message({128, 0}, mpi::kInt, bytes / 4);
    Run b = one_message({128, 0}, mpi::kByte, bytes);
    Run h = one_message({0, 1}, mpi::kInt, bytes / 4);
    CHECK(i.converted == bytes);
    CHECK(b.converted == 0);
    CHECK(h.converted == 0);
    const double per = opt.convert_cost_per_element;
    const std::uint64_t exposed = bytes <= 64 * 1024 ? bytes : (bytes - 64 * 1024) % (128 * 1024);
    const double last = static_cast<double>(exposed / 4) * per;
    CHECK(i.time - b.time >= last * 0.99);
    CHECK(i.time - b.time <= last * 1.05);
  }
}
