// The SeaStar's HyperTransport as payloads between nodes see it: each is a flow (red-storm's flow_threshold is 0 B) over
// the sender's outgoing HT, the links and the receiver's incoming HT, and the sender's transmit DMA engine starts one
// after the other (SeaStar::tx_next). DES engine, red-storm, one rank per node, the SeaStar driven directly (no MPI
// stack): puts of 16 KiB into a catch-all entry.
#include "models/seastar/nic.hpp"
#include "models/seastar/seastar.hpp"
#include "models/seastar/tests/seastar_test_helpers.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ompisim;
namespace ptl = ompisim::portals;

namespace {
constexpr ptl::PtIndex kStreamPortal = 5;

struct Streams {
  test::Fixture f{"red-storm", 4, 1};
  seastar::SeaStar& ss = seastar::SeaStar::of(f.world->nic_services(), f.sim, f.world->contexts(),
                                                   f.world->cpus(), f.world->fabric());
  std::vector<std::pair<int, double>> send_ends;  // (rank, time)
  int client = -1;
  double bytes = 0;
  Streams() {
    client = ss.open("test", {kStreamPortal}, [this](int r, const ptl::Event& e) {
      if (e.kind == ptl::EventKind::SendEnd) send_ends.emplace_back(r, f.sim.now());
    });
    bytes = 16384;
    for (int r : {1, 2}) seastar::test::attach_catch_all(ss, r, kStreamPortal, client, 1 << 22);
  }
  void put(int from, int to) {
    ptl::Md md;
    md.length = static_cast<std::uint64_t>(bytes);
    md.options.event_start_disable = true;
    md.eq = ss.eq(from, client);
    ptl::MdId h = ss.nic(from).md_bind(md, ptl::UnlinkOp::Unlink);
    ss.put(from, h, ptl::AckReq::NoAck, to, kStreamPortal, 0, 0);
  }
  std::vector<double> ends(int rank) const {
    std::vector<double> out;
    for (auto& [r, t] : send_ends)
      if (r == rank) out.push_back(t);
    return out;
  }
  double serial() const {  // one payload's serialization time on the path from rank 1's node to rank 2's
    const Contexts& c = f.world->contexts();
    return bytes / f.world->fabric().path(c.node_of(1), c.node_of(2)).bandwidth;
  }
};
}  // namespace

// Configuration: rank 1 puts 6 payloads of 16 KiB to rank 2 at t = 0. Expected: their SEND_END events (the payload
// has landed) are one serialization time apart (16 KiB at the HT's 2.0 GB/s, 8.19 us), where the firmware alone spaces
// the commands 0.5 us apart: the transmit engine streams one payload at a time, at the HT's rate, never above it.
TEST_CASE("seastar: the payloads a node streams take turns on its transmit engine", "[unit][seastar]") {
  Streams s;
  for (int k = 0; k < 6; ++k) s.put(1, 2);
  s.f.sim.run();
  auto e = s.ends(1);
  REQUIRE(e.size() == 6);
  REQUIRE(s.serial() > 2 * s.ss.params().fw_message_cost);  // the HT, not the firmware, sets the pace
  for (std::size_t k = 1; k < e.size(); ++k) CHECK(e[k] - e[k - 1] == Approx(s.serial()).margin(1e-12));
  const double rate = 5 * s.bytes / (e.back() - e.front());
  CHECK(rate <= s.ss.params().ht_bandwidth * (1 + 1e-9));
}

// Configuration: ranks 1 and 2 each put 3 payloads of 16 KiB to the other at t = 0. Expected: on both ranks
// the SEND_END events are one serialization time apart, as in a one-way stream: the HT is full duplex (the machine's
// ht-tx and ht-rx resources), so what a node receives does not hold up what it sends (a bus shared by both
// directions would space them two serialization times apart).
TEST_CASE("seastar: a node's HT sends and receives at once", "[unit][seastar]") {
  Streams s;
  for (int k = 0; k < 3; ++k) {
    s.put(1, 2);
    s.put(2, 1);
  }
  s.f.sim.run();
  for (int r : {1, 2}) {
    auto e = s.ends(r);
    INFO("rank " << r);
    REQUIRE(e.size() == 3);
    for (std::size_t k = 1; k < e.size(); ++k) CHECK(e[k] - e[k - 1] == Approx(s.serial()).margin(1e-12));
  }
}
