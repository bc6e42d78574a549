// pml/ob1 striping one message over InfiniBand (btl/openib) and Myrinet (btl/gm) on lanl-multi-nic, and the stripe
// policies as pure functions of the peer's endpoint record.
#include "tests/test_helpers.hpp"
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
struct Net {
  btl::FabricBtl ib, gm;
  btl::self::BtlSelf self;
  explicit Net(World& w)
      : ib(w, "openib", "ib-sdr-pcie", btl::openib::OpenibMca{}.caps()),
        gm(w, "gm", "myrinet-2000", btl::gm::GmMca{}.caps()), self(w) {}
};
constexpr std::uint64_t kHdr = pml::kHdrBytes;
}  // namespace

// Configuration: 2 ranks on 2 lanl-multi-nic nodes; pml/ob1 over self, openib and gm (Open MPI 1.1 defaults:
// bandwidth 800 and 250, max RDMA fragment 1 MiB and 128 KiB, latency 0 for both); one 8 MiB send, weighted_rr.
// Expected: bml/r2 puts both BTLs in the eager, send and RDMA arrays with weights 800/1050 and 250/1050; with two RDMA
// BTLs ob1 sends an RNDV (first fragment, 12 KiB eager limit of openib: the first eager BTL, sorted by bandwidth) and
// then RDMA PUT fragments: openib gets 800/1050 of the rest, gm 250/1050 (+ rounding to the first), each within its
// own RDMA fragment size, so the fragment counts are ceil(share / frag size). Every byte is delivered once.
// How validated: by hand from mca_bml_r2_add_procs and mca_pml_ob1_calc_weighted_length (v1.1).
TEST_CASE("pml/ob1 striping: fragments per BTL in proportion to bandwidth, every byte once", "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(*f.world);
  pml::ob1::Ob1 ob1(*f.world, 1e-7, {&n.self, &n.gm, &n.ib});
  const auto& ep = ob1.bml().endpoint(0, 1);
  REQUIRE(ep.send.size() == 2);
  CHECK(ep.eager.size() == 2);
  CHECK(ep.rdma.size() == 2);
  CHECK(ep.send[0].btl == &n.ib);
  CHECK(ep.send[0].weight == Approx(800.0 / 1050));
  const std::uint64_t bytes = 8u << 20;
  int done = 0;
  ob1.isend(0, 1, 3, bytes, Buffer{1 << 24, true}, [&] { ++done; });
  ob1.irecv(1, 0, 3, bytes, Buffer{1 << 26, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  const std::uint64_t first = 12 * 1024 - kHdr;
  const std::uint64_t left = bytes - first;
  const auto gm_share = static_cast<std::uint64_t>(static_cast<double>(left) * 250.0 / 1050);
  const std::uint64_t ib_share = left - gm_share;
  CHECK(ob1.frag_bytes(&n.gm) == gm_share);
  CHECK(ob1.frag_bytes(&n.ib) == ib_share);
  CHECK(n.ib.bytes_sent == ib_share + first);
  CHECK(n.gm.bytes_sent == gm_share);
  CHECK(n.gm.frags_sent == (gm_share + (128u << 10) - 1) / (128u << 10));
  CHECK(n.ib.frags_sent == 2 + (ib_share + (1u << 20) - 1) / (1u << 20));  // RNDV, the receiver's ACK, PUT fragments
  auto s = ob1.stats();
  CHECK(s.live_requests == 0);
  CHECK(s.counters["ob1_RNDV"] == 1);
  CHECK(s.counters.count("ob1_RGET") == 0);
}

// Configuration: as above, three messages of 64 KiB on one tag from rank 0, three receives posted before. Expected:
// the first fragments alternate openib, gm, openib (eager array round robin), and the receives complete in posting
// order with all their bytes (MPI ordering holds across BTLs). How validated: the BTLs' byte counters.
TEST_CASE("pml/ob1 striping: eager round robin keeps MPI order", "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(*f.world);
  pml::ob1::Ob1 ob1(*f.world, 1e-7, {&n.self, &n.ib, &n.gm});
  std::vector<int> order;
  for (int i = 0; i < 3; ++i) ob1.irecv(1, 0, 9, 8192, Buffer{std::uint64_t(1) << 30, true}, [&order, i] { order.push_back(i); });
  for (int i = 0; i < 3; ++i) ob1.isend(0, 1, 9, 8192, Buffer{std::uint64_t(i + 1) << 20, true}, [] {});
  f.sim.run();
  CHECK(order == std::vector<int>{0, 1, 2});
  CHECK(n.ib.bytes_sent == 2 * 8192);
  CHECK(n.gm.bytes_sent == 8192);
}

// Configuration: one BTL (openib) for the peer, messages of 100 B, 50000 B and 4 MiB. Expected under both policies:
// the eager message and the two RGET headers on it, both large messages pulled by its GET (one RDMA BTL with GET:
// RGET, no striping). How validated: counters.
TEST_CASE("pml/ob1 striping: a peer with one BTL uses only it", "[unit][protocol][ob1][hetero]") {
  for (auto pol : {pml::ob1::StripePolicy::WeightedRoundRobin, pml::ob1::StripePolicy::StripeAbove}) {
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(*f.world);
    pml::ob1::Ob1 ob1(*f.world, 1e-7, {&n.self, &n.ib}, "t", {pol, 0});
    int done = 0;
    for (std::uint64_t b : {100u, 50000u, 4u << 20}) {
      ob1.isend(0, 1, 1, b, Buffer{1 << 24, true}, [&] { ++done; });
      ob1.irecv(1, 0, 1, b, Buffer{1 << 26, true}, [&] { ++done; });
    }
    f.sim.run();
    CHECK(done == 6);
    CHECK(n.ib.gets == 2);
    CHECK(n.ib.bytes_sent == 100);
    CHECK(ob1.stats().counters["ob1_RGET"] == 2);
  }
}

// Configuration: stripe_above with a 128 KiB threshold on the two-BTL peer. Expected: the first fragment always on
// openib (lower measured latency); a 64 KiB message entirely on openib, pulled by one RGET as if openib were the only
// BTL; an 8 MiB one split by measured bandwidth (968 : 247 MB/s). How validated: split_rest against the NICs' parameters in lanl-multi-nic.json.
TEST_CASE("pml/ob1 stripe_above: one BTL below the threshold, measured-bandwidth split above", "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(*f.world);
  pml::ob1::Ob1 ob1(*f.world, 1e-7, {&n.self, &n.ib, &n.gm}, "t", {pml::ob1::StripePolicy::StripeAbove, 128 * 1024});
  const auto& ep = ob1.bml().endpoint(0, 1);
  std::uint32_t rr = 0;
  for (int i = 0; i < 3; ++i) CHECK(pml::ob1::first_fragment_btl(ep, pml::ob1::StripePolicy::StripeAbove, rr) == &n.ib);
  auto small = pml::ob1::split_rest(ep, pml::ob1::StripePolicy::StripeAbove, 64 * 1024, 128 * 1024);
  CHECK(small == std::vector<std::uint64_t>{64 * 1024, 0});
  auto big = pml::ob1::split_rest(ep, pml::ob1::StripePolicy::StripeAbove, 8u << 20, 128 * 1024);
  CHECK(big[0] + big[1] == (8u << 20));
  CHECK(static_cast<double>(big[1]) / (8u << 20) == Approx(247.0 / (968 + 247)).epsilon(1e-4));
  std::uint32_t rr2 = 0;
  CHECK(pml::ob1::first_fragment_btl(ep, pml::ob1::StripePolicy::WeightedRoundRobin, rr2) == &n.ib);
  CHECK(pml::ob1::first_fragment_btl(ep, pml::ob1::StripePolicy::WeightedRoundRobin, rr2) == &n.gm);
  int done = 0;
  ob1.isend(0, 1, 2, 64 * 1024, Buffer{1 << 24, true}, [&] { ++done; });
  ob1.irecv(1, 0, 2, 64 * 1024, Buffer{1 << 26, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  CHECK(n.gm.frags_sent == 0);
  // Below the threshold the message uses openib alone, with its single-BTL protocol: RGET (openib has GET).
  CHECK(n.ib.gets == 1);
  CHECK(n.ib.bytes_sent == 0);
  CHECK(ob1.stats().counters["ob1_RGET"] == 1);
}
