// pml/ob1 striping one message over InfiniBand (btl/openib) and Myrinet (btl/gm) on lanl-multi-nic, and the stripe
// policies as pure functions of the peer's endpoint record.
#include "tests/test_helpers.hpp"
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"
#include "protocols/pml/ob1/pml_ob1_mca.hpp"
#include "platform/alloc_mem.hpp"

#include <catch2/catch.hpp>
#include <functional>

using namespace ompisim;

namespace {
// btl/`name` over the fixture's network of NIC kind `kind`.
btl::FabricBtl fabric_btl(test::Fixture& f, const char* name, const char* kind, btl::BtlCaps caps,
                          btl::Connection conn) {
  Fabric& fabric = f.world->fabric(btl::FabricBtl::network_of(*f.machine, name, kind));
  return btl::FabricBtl(f.world->contexts(), f.world->cpus(), fabric, name, caps, conn);
}
struct Net {
  btl::FabricBtl ib, gm;
  btl::self::BtlSelf self;
  // `gm_conn`: btl/gm's connection as the component declares it, or another one for a what-if.
  explicit Net(test::Fixture& f, btl::Connection gm_conn = btl::gm::GmMca::kComponent.connection)
      : ib(fabric_btl(f, "openib", "ib-sdr-pcie", btl::openib::OpenibMca{}.caps(),
                      btl::openib::OpenibMca::kComponent.connection)),
        gm(fabric_btl(f, "gm", "myrinet-2000", btl::gm::GmMca{}.caps(), gm_conn)), self(f.world->cpus()) {}
};
constexpr std::uint64_t kHdr = pml::kHdrBytes;
// A contiguous buffer allocated by MPI_Alloc_mem (registered with every BTL's memory pool), or by malloc.
Buffer alloc_mem(std::uint64_t addr) { return ompisim::alloc_mem(Buffer{addr, true}); }
Buffer malloced(std::uint64_t addr, bool contiguous = true) { return Buffer{addr, contiguous}; }
// One message of `bytes` (8 MiB unless given) from rank 0 to rank 1 (tag 3, receive posted after the send), run to
// completion; both requests complete. `registered`: both buffers from MPI_Alloc_mem (else malloc). Returns the size.
std::uint64_t send_one(test::Fixture& f, pml::ob1::Ob1& ob1, bool registered = true, std::uint64_t bytes = 8u << 20) {
  int done = 0;
  ob1.isend(0, 1, 3, bytes, registered ? alloc_mem(1 << 24) : malloced(1 << 24), [&] { ++done; });
  ob1.irecv(1, 0, 3, bytes, registered ? alloc_mem(1 << 26) : malloced(1 << 26), [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  return bytes;
}
}  // namespace

// Configuration: 2 ranks on 2 lanl-multi-nic nodes; pml/ob1 over self, openib and gm (Open MPI 1.1 defaults:
// bandwidth 800 and 250, max RDMA fragment 1 MiB and 128 KiB, latency 0 for both); one 8 MiB send, weighted_rr.
// Expected: bml/r2 puts both BTLs in the eager, send and RDMA arrays with weights 800/1050 and 250/1050; with two RDMA
// BTLs and a registered buffer ob1 sends an RNDV without data (start_rdma) on the first RDMA BTL (openib, sorted by
// bandwidth) and the receiver, its buffer registered with both BTLs, PUTs the whole message in two: openib
// floor(800/1050 x 8 MiB) = 6391320 B, then gm, the last BTL of the array, all the remaining 1997288 B (no
// max_rdma_size cap on this branch). Every byte is delivered once. Fails with the cap of the per-fragment-registration
// branch (gm 883569 B in 9 PUTs) and with an RNDV carrying openib's 12 KiB eager data.
// How validated: by hand from mca_bml_r2_add_procs, mca_pml_ob1_send_request_start_rdma and
// mca_pml_ob1_recv_request_schedule (v1.1.1 pml_ob1_sendreq.c 559-676, pml_ob1_recvreq.c 607-644).
TEST_CASE("pml/ob1 striping: fragments sized from the remaining bytes, every byte once",
          "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(f);
  pml::ob1::StripeConfig v11;
  v11.schedule = pml::ob1::FragPipeline::Schedule::Remaining;  // Open MPI 1.1 (the presets' pml_ob1_frag_schedule)
  pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.gm, &n.ib}, "openmpi", v11);
  const auto& ep = ob1.bml().endpoint(0, 1);
  REQUIRE(ep.send.size() == 2);
  CHECK(ep.eager.size() == 2);
  CHECK(ep.rdma.size() == 2);
  CHECK(ep.send[0].btl == &n.ib);
  CHECK(ep.send[0].weight == Approx(800.0 / 1050));
  const std::uint64_t bytes = send_one(f, ob1);
  const std::uint64_t first = 0;  // the RNDV carries no data
  const std::uint64_t left = bytes - first;
  const std::uint64_t ib_share = static_cast<std::uint64_t>(800.0 / 1050 * static_cast<double>(left));
  const std::uint64_t gm_share = left - ib_share;
  CHECK(ib_share == 6391320);
  CHECK(ob1.frag_bytes(&n.gm) == gm_share);
  CHECK(ob1.frag_bytes(&n.ib) == ib_share);
  CHECK(n.ib.count(btl::FabricStat::Bytes) == ib_share + first);
  CHECK(n.gm.count(btl::FabricStat::Bytes) == gm_share);
  CHECK(n.gm.count(btl::FabricStat::Puts) == 1);
  CHECK(n.ib.count(btl::FabricStat::Puts) == 1);
  CHECK(n.gm.count(btl::FabricStat::Frags) == 2);      // the receiver's PUT control message, the sender's FIN
  CHECK(n.ib.count(btl::FabricStat::Frags) == 1 + 2);  // RNDV, PUT control message (flagged ACK: no ACK sent), FIN
  auto s = ob1.stats();
  CHECK(s.live_requests == 0);
  CHECK(s.counters["ob1_RNDV"] == 1);
  CHECK(s.counters.count("ob1_RGET") == 0);
}

// Configuration: as above (Open MPI 1.1 schedule, openib + gm, both buffers registered), one 8 MiB send; then the same
// under the code default schedule (Open MPI 1.3 on). Expected under 1.1: the RNDV goes flagged PIN; the receiver sends
// no ACK (v1.1.1 mca_pml_ob1_recv_request_ack: "no need to ack") and flags its PUTs ACK; the sender completes once both
// PUTs are written and their FINs sent: 5 control messages (RNDV, 2 PUT, 2 FIN) instead of 6, ob1_ACK 0, and the
// send completes when its last FIN is handed to the BTL, before the receive (which needs that FIN). Under 1.3 on the
// model keeps the ACK (ob1_ACK 1). Fails without the change (ob1_ACK 1 under 1.1). How validated: v1.1.1
// pml_ob1_recvreq.c 194-200 and 723-726, pml_ob1_sendreq.c 1035-1049 and 1087-1089.
TEST_CASE("pml/ob1 Open MPI 1.1: over registered buffers the receiver's PUTs carry the ACK",
          "[unit][protocol][ob1][hetero]") {
  for (auto sched : {pml::ob1::FragPipeline::Schedule::Remaining, pml::ob1::FragPipeline::Schedule::WeightedLength}) {
    CAPTURE(pml::ob1::to_string(sched));
    const bool v11 = sched == pml::ob1::FragPipeline::Schedule::Remaining;
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(f);
    pml::ob1::StripeConfig cfg;
    cfg.schedule = sched;
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.gm, &n.ib}, "openmpi", cfg);
    const std::uint64_t bytes = 8u << 20;
    double send_at = -1, recv_at = -1;
    ob1.isend(0, 1, 3, bytes, alloc_mem(1 << 24), [&] { send_at = f.sim.now(); });
    ob1.irecv(1, 0, 3, bytes, alloc_mem(1 << 26), [&] { recv_at = f.sim.now(); });
    f.sim.run();
    REQUIRE(send_at > 0);
    REQUIRE(recv_at > 0);
    auto s = ob1.stats();
    CHECK(s.live_requests == 0);
    CHECK(s.counters["ob1_ACK"] == (v11 ? 0 : 1));
    CHECK(s.counters["ob1_RNDV"] == 1);
    CHECK(s.counters["ob1_FIN"] == s.counters["ob1_PUT"]);
    if (v11) {
      CHECK(s.counters["ob1_PUT"] == 2);
      CHECK(n.ib.count(btl::FabricStat::Frags) + n.gm.count(btl::FabricStat::Frags) == 5);
      CHECK(send_at < recv_at);
    }
  }
}

// Configuration: as above (Open MPI 1.1 schedule, openib + gm, weights 800/1050 and 250/1050), one 8 MiB send between
// malloc'ed buffers, mpi_leave_pinned 0 (1.1's default); then the same with mpi_leave_pinned 1, and with MPI_Alloc_mem
// buffers. Expected (malloc, v1.1.1): no registration covers either buffer (mca_pml_ob1_rdma_btls returns 0), so the
// sender takes start_rndv: an RNDV with openib's first eager bytes (12 KiB - 32 B = 12256 B; openib is the first
// BTL of the eager round robin), flagged CONTIG; the receiver ACKs with rdma offset = bml/r2's btl_rdma_offset, the
// largest btl_min_rdma_size of the RDMA array (openib 1 MiB, gm 512 KiB): 1 MiB. The sender sends [12256, 1 MiB) as
// FRAGs round robin over openib and gm, each weight x the remaining bytes within max_send_size - 32 (65504 B) and
// unbounded by the send pipeline depth (rdma offset < length): 18 FRAGs, openib 9 (567728 B), gm 9 (468592 B). The
// receiver PUTs [1 MiB, 8 MiB) round robin over its RDMA array, each weight x remaining within btl_max_rdma_size
// (openib 1 MiB, gm 128 KiB): openib 1 MiB, gm 128 KiB, alternately, then 93622, 228262, 16983, 41408, 12941 B: 16
// PUTs, openib 8 (6561126 B), gm 8 (778906 B). With mpi_leave_pinned 1 or registered buffers: the registered path of
// the first test (RNDV without data, no ACK, 2 PUTs). Fails without the registration lookup (2 PUTs, no ACK, no FRAG
// for malloc'ed buffers), without the btl_rdma_offset (no FRAG) or without the cap (openib 1 PUT of 5592405 B).
// How validated: by hand from MCA_PML_OB1_SEND_REQUEST_START (pml_ob1_sendreq.h 221-240), mca_pml_ob1_rdma_btls
// (pml_ob1_rdma.c), mca_pml_ob1_recv_request_ack (pml_ob1_recvreq.c 160-240), mca_pml_ob1_send_request_schedule
// (pml_ob1_sendreq.c 787-925) and mca_pml_ob1_recv_request_schedule (pml_ob1_recvreq.c 645-684), v1.1.1; the byte
// sequences with the formulas of those loops.
TEST_CASE("pml/ob1 Open MPI 1.1: malloc'ed buffers take FRAGs up to btl_rdma_offset, then capped PUTs",
          "[unit][protocol][ob1][hetero]") {
  for (int variant = 0; variant < 3; ++variant) {  // malloc; malloc + mpi_leave_pinned 1; MPI_Alloc_mem
    CAPTURE(variant);
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(f);
    pml::ob1::StripeConfig v11;
    v11.schedule = pml::ob1::FragPipeline::Schedule::Remaining;
    v11.leave_pinned = variant == 1;
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.gm, &n.ib}, "openmpi", v11);
    (void)send_one(f, ob1, variant == 2);
    auto s = ob1.stats();
    CHECK(s.live_requests == 0);
    CHECK(s.counters["ob1_RNDV"] == 1);
    CHECK(s.counters["ob1_FIN"] == s.counters["ob1_PUT"]);
    if (variant == 0) {
      const std::uint64_t first = 12288 - kHdr;
      CHECK(first == 12256);
      CHECK(s.counters["ob1_ACK"] == 1);
      CHECK(s.counters["ob1_FRAG"] == 18);
      CHECK(s.counters["ob1_PUT"] == 16);
      CHECK(n.ib.count(btl::FabricStat::Puts) == 8);
      CHECK(n.gm.count(btl::FabricStat::Puts) == 8);
      // Data bytes per BTL: openib the RNDV's, its FRAGs' and its PUTs'; gm its FRAGs' and PUTs'.
      CHECK(n.ib.count(btl::FabricStat::Bytes) == first + 567728 + 6561126);
      CHECK(n.gm.count(btl::FabricStat::Bytes) == 468592 + 778906);
      CHECK(ob1.frag_bytes(&n.ib) == 567728 + 6561126);
      CHECK(ob1.frag_bytes(&n.gm) == 468592 + 778906);
      CHECK(first + 567728 + 468592 == 1u << 20);  // the PUTs start at btl_rdma_offset
    } else {
      CHECK(s.counters.count("ob1_ACK") == 0);
      CHECK(s.counters.count("ob1_FRAG") == 0);
      CHECK(s.counters["ob1_PUT"] == 2);
      CHECK(ob1.frag_bytes(&n.gm) == 1997288);
    }
  }
}

// Configuration: lanl-multi-nic, ob1 over self and openib only (the mVAPI-only runs: one RDMA BTL, with GET), Open
// MPI 1.1 schedule, one 4 MiB send; malloc'ed buffers, then MPI_Alloc_mem ones. Expected: malloc'ed: no RGET (v1.1.1
// sends RNDV even to one BTL with GET when req_rdma_cnt is 0): RNDV with 12256 B, ACK with rdma offset 1 MiB
// (openib's btl_min_rdma_size), FRAGs of [12256, 1 MiB) in 65504 B (16: 15 full and 53760 B), then 3 PUTs of 1 MiB
// (max_rdma_size; one BTL takes the rest, capped); no GET. Registered: one RGET and its GET, no FRAG, no PUT.
// Fails without the registration lookup (RGET for malloc'ed buffers). How validated: by hand from the v1.1.1 code
// named in the test above.
TEST_CASE("pml/ob1 Open MPI 1.1: malloc'ed buffers to one BTL with GET go by RNDV, not RGET",
          "[unit][protocol][ob1][hetero]") {
  for (bool registered : {false, true}) {
    CAPTURE(registered);
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(f);
    pml::ob1::StripeConfig v11;
    v11.schedule = pml::ob1::FragPipeline::Schedule::Remaining;
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.ib}, "openmpi-mvapi", v11);
    const std::uint64_t bytes = send_one(f, ob1, registered, 4u << 20);
    auto s = ob1.stats();
    CHECK(s.live_requests == 0);
    if (!registered) {
      CHECK(s.counters.count("ob1_RGET") == 0);
      CHECK(s.counters["ob1_RNDV"] == 1);
      CHECK(s.counters["ob1_ACK"] == 1);
      CHECK(s.counters["ob1_FRAG"] == 16);
      CHECK((1u << 20) - 12256 == 15u * 65504 + 53760);
      CHECK(s.counters["ob1_PUT"] == 3);
      CHECK(n.ib.count(btl::FabricStat::Puts) == 3);
      CHECK(n.ib.count(btl::FabricStat::Gets) == 0);
      CHECK(n.ib.count(btl::FabricStat::Bytes) == bytes);
      CHECK(ob1.frag_bytes(&n.ib) == bytes - 12256);
    } else {
      CHECK(s.counters["ob1_RGET"] == 1);
      CHECK(n.ib.count(btl::FabricStat::Gets) == 1);
      CHECK(s.counters.count("ob1_FRAG") == 0);
      CHECK(s.counters.count("ob1_PUT") == 0);
    }
  }
}

// Configuration: as above with the code default pml_ob1_frag_schedule (weighted_length: Open MPI 1.3 on). Expected:
// the whole message (the RNDV carries no data: v1.8.8 start_rdma -> start_rndv(size 0, CONTIG|PIN)) split up front by
// calc_weighted_length: gm floor(8 MiB x 250/1050) = 1997287 B in 16 PUT fragments (15 x 128 KiB + 31207 B), openib
// the other 6391321 B in 7 (6 x 1 MiB + 99865 B); every byte once. Removing the selection (the v1.1 loop for every
// stack) gives gm 1997288 B in 1 PUT. How validated: by hand from mca_pml_ob1_calc_weighted_length and
// mca_pml_ob1_recv_request_schedule_once (v1.3.0).
TEST_CASE("pml/ob1 striping: Open MPI 1.3's shares fixed up front", "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(f);
  pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.gm, &n.ib});
  const std::uint64_t bytes = send_one(f, ob1);
  const std::uint64_t first = 0;
  const std::uint64_t gm_share = 1997287, ib_share = bytes - first - gm_share;
  CHECK(ob1.frag_bytes(&n.gm) == gm_share);
  CHECK(ob1.frag_bytes(&n.ib) == ib_share);
  CHECK(n.gm.count(btl::FabricStat::Puts) == 16);
  CHECK(n.ib.count(btl::FabricStat::Puts) == 7);
  CHECK(n.gm.count(btl::FabricStat::Frags) == 2 * 16);     // PUT control messages and FINs
  CHECK(n.ib.count(btl::FabricStat::Frags) == 2 + 2 * 7);  // RNDV, ACK, PUT control messages and FINs
  CHECK(n.ib.count(btl::FabricStat::Bytes) == ib_share + first);
  CHECK(ob1.stats().live_requests == 0);
}

// Configuration: as above, three messages of 64 KiB on one tag from rank 0, three receives posted before. Expected:
// the first fragments alternate openib, gm, openib (eager array round robin), and the receives complete in posting
// order with all their bytes (MPI ordering holds across BTLs). How validated: the BTLs' byte counters.
TEST_CASE("pml/ob1 striping: eager round robin keeps MPI order", "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(f);
  pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.ib, &n.gm});
  std::vector<int> order;
  for (int i = 0; i < 3; ++i) ob1.irecv(1, 0, 9, 8192, Buffer{std::uint64_t(1) << 30, true}, [&order, i] { order.push_back(i); });
  for (int i = 0; i < 3; ++i) ob1.isend(0, 1, 9, 8192, Buffer{std::uint64_t(i + 1) << 20, true}, [] {});
  f.sim.run();
  CHECK(order == std::vector<int>{0, 1, 2});
  CHECK(n.ib.count(btl::FabricStat::Bytes) == 2 * 8192);
  CHECK(n.gm.count(btl::FabricStat::Bytes) == 8192);
}

// Configuration: as above, Open MPI 1.1 (fragment schedule `remaining`), a blocking ping-pong of 16 KiB between
// ranks 0 and 1, 6 round trips, each message sent once the previous one is received. 16 KiB is under btl/gm's eager
// limit (32 KiB) and over btl/openib's (12 KiB): on gm a MATCH with the data, on openib (start_rdma over registered
// buffers) an RNDV without data on the first RDMA BTL and the receiver's two PUTs.
// Expected: each rank draws its first fragment's BTL from its eager round robin towards the peer, and the receiver of
// an RNDV draws from the same counter in mca_pml_ob1_recv_request_ack (v1.1.1 pml_ob1_recvreq.c:174, before the "no
// need to ack" return), so from (0, 0) the round trips run (openib, gm), (gm, openib), (gm, gm) and again: 4 RNDV and
// 8 MATCH in 12 messages, no ACK. Fails without the receiver's draw (each rank alternating on its sends only: (openib,
// openib), (gm, gm), ...: 6 RNDV, 6 MATCH).
// How validated: by hand from MCA_PML_OB1_SEND_REQUEST_START (v1.1.1 pml_ob1_sendreq.h:154-160),
// mca_bml_base_btl_array_get_next (bml.h:167-186) and mca_pml_ob1_recv_request_ack.
TEST_CASE("pml/ob1 striping: a matched RNDV advances the receiver's eager round robin (Open MPI 1.1)",
          "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(f);
  pml::ob1::StripeConfig v11;
  v11.schedule = pml::ob1::FragPipeline::Schedule::Remaining;
  pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.ib, &n.gm}, "openmpi", v11);
  const std::uint64_t k = 16384;
  int trips = 0;
  std::function<void()> round = [&] {
    if (trips == 6) return;
    ob1.irecv(1, 0, 5, k, alloc_mem(std::uint64_t(1) << 26), [&] {
      ob1.irecv(0, 1, 5, k, alloc_mem(std::uint64_t(1) << 27), [&] {
        ++trips;
        round();
      });
      ob1.isend(1, 0, 5, k, alloc_mem(std::uint64_t(1) << 28), [] {});
    });
    ob1.isend(0, 1, 5, k, alloc_mem(std::uint64_t(1) << 24), [] {});
  };
  round();
  f.sim.run();
  REQUIRE(trips == 6);
  auto s = ob1.stats();
  CHECK(s.counters["ob1_RNDV"] == 4);
  CHECK(s.counters["ob1_MATCH"] == 8);
  CHECK(s.counters.count("ob1_ACK") == 0);
  CHECK(n.gm.count(btl::FabricStat::Bytes) >= 8 * k);  // the eager messages' data (and the PUTs' gm shares)
  CHECK(s.live_requests == 0);
}

// Configuration: one BTL (openib) for the peer, messages of 100 B, 50000 B and 4 MiB. Expected under both policies:
// the eager message and the two RGET headers on it, both large messages pulled by its GET (one RDMA BTL with GET:
// RGET, no striping). How validated: counters.
TEST_CASE("pml/ob1 striping: a peer with one BTL uses only it", "[unit][protocol][ob1][hetero]") {
  for (auto pol : {pml::ob1::StripePolicy::WeightedRoundRobin, pml::ob1::StripePolicy::StripeAbove}) {
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(f);
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.ib}, "t", {pol, 0});
    int done = 0;
    for (std::uint64_t b : {100u, 50000u, 4u << 20}) {
      ob1.isend(0, 1, 1, b, Buffer{1 << 24, true}, [&] { ++done; });
      ob1.irecv(1, 0, 1, b, Buffer{1 << 26, true}, [&] { ++done; });
    }
    f.sim.run();
    CHECK(done == 6);
    CHECK(n.ib.count(btl::FabricStat::Gets) == 2);
    CHECK(n.ib.count(btl::FabricStat::Bytes) == 100);
    CHECK(ob1.stats().counters["ob1_RGET"] == 2);
  }
}

// Configuration: stripe_above with a 128 KiB threshold on the two-BTL peer. Expected: the first fragment always on
// openib (lower measured latency); a 64 KiB message entirely on openib, pulled by one RGET as if openib were the only
// BTL; an 8 MiB one weighted by measured bandwidth (968 : 247 MB/s). How validated: stripe_weights against the NICs'
// parameters in lanl-multi-nic.json.
TEST_CASE("pml/ob1 stripe_above: one BTL below the threshold, measured-bandwidth split above", "[unit][protocol][ob1][hetero]") {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Net n(f);
  pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.ib, &n.gm}, "t", {pml::ob1::StripePolicy::StripeAbove, 128 * 1024});
  const auto& ep = ob1.bml().endpoint(0, 1);
  std::uint32_t rr = 0;
  for (int i = 0; i < 3; ++i) CHECK(pml::ob1::first_fragment_btl(ep, pml::ob1::StripePolicy::StripeAbove, rr) == &n.ib);
  auto small = pml::ob1::stripe_weights(ep, pml::ob1::StripePolicy::StripeAbove, 64 * 1024, 128 * 1024);
  CHECK(small == std::vector<double>{1.0, 0.0});
  auto big = pml::ob1::stripe_weights(ep, pml::ob1::StripePolicy::StripeAbove, 8u << 20, 128 * 1024);
  CHECK(big[0] + big[1] == Approx(1.0));
  CHECK(big[1] == Approx(247.0 / (968 + 247)).epsilon(1e-4));
  auto wrr = pml::ob1::stripe_weights(ep, pml::ob1::StripePolicy::WeightedRoundRobin, 8u << 20, 128 * 1024);
  CHECK(wrr == std::vector<double>{800.0 / 1050, 250.0 / 1050});
  std::uint32_t rr2 = 0;
  CHECK(pml::ob1::first_fragment_btl(ep, pml::ob1::StripePolicy::WeightedRoundRobin, rr2) == &n.ib);
  CHECK(pml::ob1::first_fragment_btl(ep, pml::ob1::StripePolicy::WeightedRoundRobin, rr2) == &n.gm);
  int done = 0;
  ob1.isend(0, 1, 2, 64 * 1024, Buffer{1 << 24, true}, [&] { ++done; });
  ob1.irecv(1, 0, 2, 64 * 1024, Buffer{1 << 26, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  CHECK(n.gm.count(btl::FabricStat::Frags) == 0);
  // Below the threshold the message uses openib alone, with its single-BTL protocol: RGET (openib has GET).
  CHECK(n.ib.count(btl::FabricStat::Gets) == 1);
  CHECK(n.ib.count(btl::FabricStat::Bytes) == 0);
  CHECK(ob1.stats().counters["ob1_RGET"] == 1);
}

// Configuration: 2 ranks on 2 lanl-multi-nic nodes, pml/ob1 over self and gm only (RNDV, ACK, then RDMA PUT fragments
// of 128 KiB); a swap of 5 MiB as in the ParaView skeleton's first compositing round: rank 0 posts its receive and
// send at 0, rank 1 at 5 ms. T1: the same swap with both sides posted at 0 (the two directions overlap: the time of
// one 5 MiB transfer). Rank 1's ACK releases rank 0's message; rank 0's ACK to rank 1 goes out while rank 0's PUT
// fragments are queued to rank 1. Expected: with btl/gm's connection (the ACK, the receiver's PUT control messages and
// the FINs, PRIORITY eager fragments, on GM_HIGH_PRIORITY beside the data on GM_LOW_PRIORITY) the two directions
// overlap whatever the pipeline depth: the swap ends within 1.25 T1 after 5 ms with Open MPI's depth (4) and with an
// unbounded one. With a single FIFO per connection (a what-if) every control message waits behind the data queued in
// its direction, which is the other message's: each receiver's PUT requests and each sender's FINs wait behind up to
// `depth` fragments of the opposite transfer, and the directions run one after the other, beyond 1.6 T1, with depth 4
// as with an unbounded one (with sender-scheduled PUTs, depth 4 still overlapped). How validated:
// the simulated completion times.
TEST_CASE("pml/ob1 pipeline depth: a late swap partner's transfers overlap", "[unit][protocol][ob1][hetero]") {
  const std::uint64_t bytes = 5u << 20;
  auto run = [&](int depth, double delay, btl::Connection conn) {
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(f, conn);
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.gm}, "t",
                      {pml::ob1::StripePolicy::WeightedRoundRobin, 0, depth, depth});
    double end = 0;
    int done = 0;
    auto fin = [&] { ++done, end = std::max(end, f.sim.now()); };
    ob1.irecv(0, 1, 7, bytes, Buffer{1ull << 30, true}, fin);
    ob1.isend(0, 1, 7, bytes, Buffer{1ull << 26, true}, fin);
    f.sim.at(delay, [&] {
      ob1.irecv(1, 0, 7, bytes, Buffer{1ull << 31, true}, fin);
      ob1.isend(1, 0, 7, bytes, Buffer{1ull << 27, true}, fin);
    });
    f.sim.run();
    CHECK(done == 4);
    // 2 RNDV, 2 ACK, and per direction 40 PUT control messages and 40 FINs (5 MiB in 128 KiB RDMA fragments)
    if (conn == btl::Connection::PriorityChannel) CHECK(n.gm.count(btl::FabricStat::PriorityFrags) == 4 + 2 * 2 * 40);
    return end;
  };
  const auto gm = btl::gm::GmMca::kComponent.connection, fifo = btl::Connection::SingleFifo;
  REQUIRE(gm == btl::Connection::PriorityChannel);
  const double t1 = run(4, 0, gm);
  REQUIRE(t1 > 0.015);  // 5 MiB at Myrinet 2000's ~250 MB/s
  const double bounded = run(4, 5e-3, gm) - 5e-3;
  const double unbounded = run(1 << 20, 5e-3, gm) - 5e-3;
  const double fifo_bounded = run(4, 5e-3, fifo) - 5e-3;
  const double fifo_unbounded = run(1 << 20, 5e-3, fifo) - 5e-3;
  CAPTURE(t1, bounded, unbounded, fifo_bounded, fifo_unbounded);
  CHECK(bounded < 1.25 * t1);
  CHECK(unbounded < 1.25 * t1);
  CHECK(fifo_bounded > 1.6 * t1);
  CHECK(fifo_unbounded > 1.6 * t1);
}

// Configuration: lanl-multi-nic, the heterogeneous paper's "openmpi" preset (Open MPI 1.1.1 pre-release, striping over
// openib and gm), one 8 MiB send over ob1 configured from the run's MCA set; once with the preset's version defaults in
// it (as `ompisim run` does), once with the machine's alone (ob1's code default). Expected: the preset sets
// pml_ob1_frag_schedule 1 (remaining) with a v1.1 source, and gm carries 1997288 B in one PUT (the v1.1 loop over a
// registered buffer); without it the code default (weighted_length, v1.3 on) gives gm 1997287 B in 16; the Gemini and SeaStar presets keep the code default
// (pml_ob1_frag_schedule absent from their version defaults). Fails when the preset's selection is removed.
// How validated: the byte counts of the two hand-derived cases above.
TEST_CASE("pml/ob1 striping: the Open MPI 1.1 preset selects the 1.1 fragment schedule", "[unit][protocol][ob1][hetero]") {
  const std::vector<std::string> kinds = load_machine("lanl-multi-nic")->nic_kinds();
  const StackInfo* v11 = stack_preset(resolve_stack(Json("openmpi"), kinds, "lanl-multi-nic", "test"), kinds);
  REQUIRE(v11 != nullptr);
  CHECK(v11->mca.at("pml_ob1_frag_schedule").at("value") == "remaining");
  auto gm_bytes = [&](bool preset) {
    auto m = load_machine("lanl-multi-nic");
    McaParams mca = preset ? machine_mca(*m, &v11->mca) : machine_mca(*m);
    const auto want = preset ? pml::ob1::FragPipeline::Schedule::Remaining
                             : pml::ob1::FragPipeline::Schedule::WeightedLength;
    CHECK(mca.get<pml::ob1::Ob1Mca>().config().schedule == want);
    test::Fixture f("lanl-multi-nic", 2, 1);
    Net n(f);
    // The Ob1 the component builds (pml_ob1_component.cpp: Ob1(..., mca.get<Ob1Mca>().config())).
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.gm, &n.ib}, "openmpi", mca.get<pml::ob1::Ob1Mca>().config());
    (void)send_one(f, ob1);
    return std::pair{ob1.frag_bytes(&n.gm), n.gm.count(btl::FabricStat::Puts)};
  };
  CHECK(gm_bytes(true) == std::pair<std::uint64_t, std::uint64_t>{1997288, 1});
  CHECK(gm_bytes(false) == std::pair<std::uint64_t, std::uint64_t>{1997287, 16});
  for (auto [name, kind] : {std::pair<const char*, const char*>{"openmpi", "gemini"}, {"openmpi-ob1", "seastar"}}) {
    const StackInfo* p = stack_preset(resolve_stack(Json(name), kind, "m", "test"), {kind});
    REQUIRE(p != nullptr);
    CHECK_FALSE(p->mca.contains("pml_ob1_frag_schedule"));
  }
}

// Configuration: 4 ranks on 4 lanl-multi-nic nodes, ob1 over self, openib and gm (both RDMA: the rest of a rendezvous
// by the receiver's PUT pipeline), under each fragment schedule; every rank sends every other rank (and itself) 0 B,
// 1000 B, 40 KiB, 300 KiB and 2 MiB + 7 B on one tag; the receives of odd ranks are posted 2 ms late (the RNDVs wait
// unexpected); one extra 1 MiB message goes into a non-contiguous receive buffer (the receiver takes it by copy: ACK
// with the rdma offset at the end, FRAGs, no PUT). Expected: every request completes once; no request, queue entry or
// PUT pipeline left; one FIN per PUT control message and one RDMA write per PUT; the PUT-written and FRAG bytes add
// up to every byte of the 12 inter-node rendezvous of each size above the eager limits (their RNDVs carry no data:
// start_rdma) and the 1 MiB one; no truncation. How validated: counters and completion counts.
TEST_CASE("pml/ob1 RDMA PUT pipeline: conservation", "[unit][protocol][ob1][hetero]") {
  using S = pml::ob1::FragPipeline::Schedule;
  for (auto [sched, registered] : {std::pair{S::Remaining, true}, std::pair{S::WeightedLength, true},
                                   std::pair{S::Remaining, false}}) {
    CAPTURE(pml::ob1::to_string(sched), registered);
    auto buf = [registered](std::uint64_t a, bool contiguous = true) {
      return ompisim::alloc_mem(Buffer{a, contiguous}, registered);
    };
    test::Fixture f("lanl-multi-nic", 4, 1);
    Net n(f);
    pml::ob1::StripeConfig cfg;
    cfg.schedule = sched;
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&n.self, &n.ib, &n.gm}, "t", cfg);
    const std::vector<std::uint64_t> sizes{0, 1000, 40 << 10, 300 << 10, (2u << 20) + 7};
    int done = 0, want = 0;
    std::uint64_t addr = 1;
    for (int src = 0; src < 4; ++src)
      for (int dst = 0; dst < 4; ++dst)
        for (std::uint64_t b : sizes) {
          ob1.isend(src, dst, 4, b, buf((addr++) << 24), [&] { ++done; });
          const Buffer rb = buf((addr++) << 24);
          if (dst % 2) f.sim.at(2e-3, [&ob1, &done, dst, src, b, rb] { ob1.irecv(dst, src, 4, b, rb, [&] { ++done; }); });
          else ob1.irecv(dst, src, 4, b, rb, [&] { ++done; });
          want += 2;
        }
    ob1.isend(0, 1, 9, 1 << 20, buf((addr++) << 24), [&] { ++done; });
    ob1.irecv(1, 0, 9, 1 << 20, buf((addr++) << 24, false), [&] { ++done; });
    want += 2;
    f.sim.run();
    CHECK(done == want);
    auto s = ob1.stats();
    CHECK(s.live_requests == 0);
    CHECK(s.unexpected_now == 0);
    CHECK(s.posted_now == 0);
    CHECK(s.counters["mpi_truncate_errors"] == 0);
    CHECK(s.counters["ob1_PUT"] > 0);
    CHECK(s.counters["ob1_put_fins"] == s.counters["ob1_PUT"]);
    CHECK(n.ib.count(btl::FabricStat::Puts) + n.gm.count(btl::FabricStat::Puts) == s.counters["ob1_PUT"]);
    CHECK(s.counters["ob1_FRAG"] > 0);  // the non-contiguous receive's rest
    CHECK(s.counters["ob1_FIN"] == s.counters["ob1_PUT"] + s.counters["ob1_RGET"]);
    // FRAG + PUT bytes over both BTLs (self sends are RGETs over btl/self: btl/self has no memory pool).
    std::uint64_t rest = 0;
    for (const btl::Btl* b : {static_cast<const btl::Btl*>(&n.ib), static_cast<const btl::Btl*>(&n.gm)})
      rest += ob1.frag_bytes(b);
    const std::uint64_t all = 12u * ((2u << 20) + 7u + (300u << 10) + (40u << 10)) + (1u << 20);
    if (registered) {
      CHECK(rest == all);
    } else {
      // Malloc'ed buffers (Open MPI 1.1): every RNDV carries its eager BTL's first bytes (openib 12 KiB, gm 32 KiB,
      // less the header), the rest goes by FRAG and, from btl_rdma_offset (1 MiB) on, by PUT: only the 12 messages
      // of 2 MiB + 7 B reach it.
      CHECK(s.counters["ob1_RNDV"] == 12 * 3 + 1);
      CHECK(s.counters["ob1_ACK"] == 12 * 3 + 1);
      CHECK(rest < all);
      CHECK(all - rest >= 37u * (12288 - kHdr));
      CHECK(all - rest <= 37u * (32768 - kHdr));
    }
  }
}
