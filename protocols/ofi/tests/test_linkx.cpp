// LINKx's shared receive queue and shared completion queue, and the CXI provider's overflow recovery
// (slingshot-ex §III.C; fi_cxi(7)).
#include "models/slingshot/nic.hpp"
#include "protocols/ofi/cxi/cxi_provider.hpp"
#include "protocols/ofi/linkx/linkx.hpp"
#include "protocols/ofi/shm/shm_mca.hpp"
#include "protocols/ofi/base/shared_rx_queue.hpp"
#include "core/errors.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace ompisim;
using namespace ompisim::ofi;

namespace {
// A core provider that records what the owner asks of it.
struct RecordingPeer final : SrxPeer {
  std::vector<RxEntry> started, discarded;
  SrxOwner* owner = nullptr;
  int start_tag(RxEntry* e) override {
    started.push_back(*e);
    owner->free_entry(e);
    return 0;
  }
  int start_msg(RxEntry* e) override { return start_tag(e); }
  int discard_tag(RxEntry* e) override {
    discarded.push_back(*e);
    owner->free_entry(e);
    return 0;
  }
  int discard_msg(RxEntry* e) override { return discard_tag(e); }
};

using test::CrusherJob;

// LINKx over the job's cxi and shm providers, configured from crusher's machine file and MCA defaults, with its CQ log
// kept.
struct LinkxOverCrusher {
  const slingshot::CassiniNic& n;
  cxi::CxiProvider cxi;
  shm::ShmProvider shm;
  linkx::Linkx lx;
  static shm::ShmConfig shm_config(const CrusherJob& j, const slingshot::CassiniNic& n) {
    shm::ShmConfig sc;
    sc.overhead = n.software.shm_overhead;
    sc.inject_size = j.mca.get<shm::ShmMca>().shm_inject_size;
    return sc;
  }
  explicit LinkxOverCrusher(CrusherJob& j)
      : n(slingshot::nic(*j.machine)),
        cxi(j.sim, j.world->contexts(), j.world->cpus(), j.world->fabric(),
            cxi::CxiConfig::from(n.p, n.software, j.mca.get<cxi::CxiMca>())),
        shm(j.sim, j.world->contexts(), j.world->cpus(), shm_config(j, n)),
        lx(j.sim, j.world->contexts(), j.world->cpus(), n.software.linkx_overhead, shm, cxi) {
    lx.keep_cq_log = true;
  }
};
}  // namespace

// Configuration: one shared receive queue, two core providers A (index 0) and B (index 1); rank 0 posts one
//                ANY_SOURCE receive; A and B each ask for it (get_tag) for a message of theirs, A first.
// Expected:      A gets the receive (0); B finds nothing (kNoEntry), queues its message as unexpected; a second
//                ANY_SOURCE receive then matches B's message and B's start_tag runs once. Each receive is handed out
//                exactly once.
// How validated: return codes, queue sizes and the peers' recorded calls.
TEST_CASE("ofi/linkx: the ANY_SOURCE race is won by the first provider to ask; exactly-once delivery", "[unit][ofi]") {
  SharedRxQueue q;
  RecordingPeer a, b;
  a.owner = b.owner = &q;
  REQUIRE(q.add_peer(&a) == 0);
  REQUIRE(q.add_peer(&b) == 1);
  CHECK_FALSE(q.post_tag(0, kAnyAddr, 7, 64, Buffer{}, 100));
  RxEntry* ea = nullptr;
  RxEntry* eb = nullptr;
  CHECK(q.get_tag(0, 0, /*addr*/ 1, 7, 8, &ea) == 0);
  CHECK(ea->context == 100);
  CHECK(q.get_tag(0, 1, /*addr*/ 2, 7, 8, &eb) == kNoEntry);
  CHECK(eb != ea);
  CHECK(eb->peer == 1);
  eb->peer_context = 555;
  q.queue_tag(eb);
  q.free_entry(ea);
  CHECK(q.posted_now() == 0);
  CHECK(q.unexpected_now() == 1);
  CHECK(q.post_tag(0, kAnyAddr, 7, 64, Buffer{}, 101));
  REQUIRE(b.started.size() == 1);
  CHECK(a.started.empty());
  CHECK(b.started[0].peer_context == 555);
  CHECK(b.started[0].context == 101);
  CHECK(b.started[0].addr == 2);
  CHECK(q.unexpected_now() == 0);
  CHECK(q.live_entries() == 0);
  CHECK(q.matched_expected == 1);
  CHECK(q.matched_unexpected == 1);
}

// Configuration: rank 0's queue; receives from sources 1, 2, 3 (tag 4) are posted in that order; a message from
//                2 arrives (it takes the middle receive), then one from 3 and one from 1; the entries are freed, a
//                freed entry is freed again, and a new receive is posted.
// Expected:      each arrival gets the receive of its source (taking one out of the middle keeps the others in
//                order); live_entries counts the entries handed out and not freed; freeing one twice is an error;
//                a new receive reuses a freed entry's storage (the queue holds no entry per message forever).
// How validated: the contexts returned, the counts, the exception, the entry's address.
TEST_CASE("ofi/linkx: the shared receive queue's entries: FIFO after a removal in the middle, reuse, double free",
          "[unit][ofi]") {
  SharedRxQueue q;
  RecordingPeer a;
  a.owner = &q;
  REQUIRE(q.add_peer(&a) == 0);
  for (int src = 1; src <= 3; ++src) CHECK_FALSE(q.post_tag(0, src, 4, 8, Buffer{}, 100 + src));
  CHECK(q.posted_now() == 3);
  CHECK(q.live_entries() == 3);
  RxEntry* e2 = nullptr;
  RxEntry* e3 = nullptr;
  RxEntry* e1 = nullptr;
  REQUIRE(q.get_tag(0, 0, 2, 4, 8, &e2) == 0);
  CHECK(e2->context == 102);
  REQUIRE(q.get_tag(0, 0, 3, 4, 8, &e3) == 0);
  CHECK(e3->context == 103);
  REQUIRE(q.get_tag(0, 0, 1, 4, 8, &e1) == 0);
  CHECK(e1->context == 101);
  CHECK(q.posted_now() == 0);
  CHECK(q.live_entries() == 3);
  q.free_entry(e2);
  CHECK(q.live_entries() == 2);
  CHECK_THROWS_AS(q.free_entry(e2), ProtocolError);
  CHECK_THROWS_AS(q.queue_tag(e2), ProtocolError);
  q.free_entry(e1);
  q.free_entry(e3);
  CHECK(q.live_entries() == 0);
  CHECK_FALSE(q.post_tag(0, 5, 4, 8, Buffer{}, 200));
  RxEntry* e = nullptr;
  REQUIRE(q.get_tag(0, 0, 5, 4, 8, &e) == 0);
  CHECK(e->context == 200);
  CHECK((e == e1 || e == e2 || e == e3));
  q.free_entry(e);
  CHECK(q.live_entries() == 0);
}

// Configuration: rank 3's queue; (a) a message (src 1, tag 5) arrives before any receive, then receives for (src 2,
//                tag 5), (src 1, ANY_TAG) are posted; (b) a receive (src 1, tag 6) is posted, then a message (1, 6)
//                arrives; (c) a message whose tag matches no receive stays unexpected.
// Expected:      (a) the first receive does not match and is queued; the second matches the unexpected message and
//                the owning provider's start_tag gets the receive's context and length; (b) get_tag returns the
//                posted receive itself (0) with its buffer; (c) kNoEntry and the message is queued.
// How validated: the entries' fields and the queue sizes.
TEST_CASE("ofi/linkx: unexpected-then-posted and posted-then-arriving workflows", "[unit][ofi]") {
  SharedRxQueue q;
  RecordingPeer p;
  p.owner = &q;
  q.add_peer(&p);
  RxEntry* e = nullptr;
  REQUIRE(q.get_tag(3, 0, 1, 5, 1000, &e) == kNoEntry);
  e->peer_context = 9;
  q.queue_tag(e);
  CHECK_FALSE(q.post_tag(3, 2, 5, 4096, Buffer{0x1000}, 11));  // wrong source: posted
  CHECK(q.posted_now() == 1);
  CHECK(q.post_tag(3, 1, ofi::kAnyTag, 4096, Buffer{0x2000}, 12));
  REQUIRE(p.started.size() == 1);
  CHECK(p.started[0].context == 12);
  CHECK(p.started[0].size == 4096);
  CHECK(p.started[0].msg_size == 1000);
  CHECK(p.started[0].buf.addr == 0x2000);

  CHECK_FALSE(q.post_tag(3, 1, 6, 64, Buffer{0x3000}, 13));
  RxEntry* m = nullptr;
  REQUIRE(q.get_tag(3, 0, 1, 6, 64, &m) == 0);
  CHECK(m->context == 13);
  CHECK(m->buf.addr == 0x3000);
  q.free_entry(m);

  RxEntry* u = nullptr;
  CHECK(q.get_tag(3, 0, 1, 99, 8, &u) == kNoEntry);
  u->peer_context = 1;
  q.queue_tag(u);
  CHECK(q.unexpected_now() == 1);
  CHECK(q.posted_now() == 1);  // the (src 2, tag 5) receive
}

// Configuration: crusher, 2 nodes x 2 ranks (cores 1, 9), LINKx over shm and cxi; rank 0 posts two ANY_SOURCE
//                receives of 8 B; rank 1 (same node: shm) and rank 2 (other node: cxi) each send rank 0 one message
//                at t = 0; rank 1 sends rank 3 (other node) a 1 MiB message (cxi rendezvous) at t = 0.
// Expected:      each receive completes exactly once, the two sources are 1 and 2; the shared CQ holds the
//                completions of both providers (provider indices 0 = shm and 1 = cxi), in completion order (times
//                non-decreasing), one entry per operation (5 operations: 2 sends, 2 receives at rank 0, and the
//                1 MiB send and its receive = 6 entries).
// How validated: the CQ log of the Linkx endpoint and the consumer's callbacks on the DES engine.
TEST_CASE("ofi/linkx: shared CQ gets both providers' completions in order; ANY_SOURCE race delivers once",
          "[unit][ofi]") {
  CrusherJob j(4, 2);
  LinkxOverCrusher s(j);
  linkx::Linkx& lx = s.lx;
  std::vector<CqEntry> got;
  CqOwnerOps consumer;
  consumer.write = [&](const CqEntry& e) { got.push_back(e); };
  lx.set_cq(consumer);
  lx.trecv(0, kAnyAddr, 1, 8, Buffer{}, 10);
  lx.trecv(0, kAnyAddr, 1, 8, Buffer{}, 11);
  lx.tsend(1, 0, 1, 8, Buffer{}, 20);
  lx.tsend(2, 0, 1, 8, Buffer{}, 21);
  lx.trecv(3, 1, 2, 1 << 20, Buffer{}, 12);
  lx.tsend(1, 3, 2, 1 << 20, Buffer{}, 22);
  j.sim.run();
  REQUIRE(got.size() == 6);
  std::multiset<std::uint64_t> contexts;
  for (auto& e : got) contexts.insert(e.context);
  CHECK(contexts == std::multiset<std::uint64_t>{10, 11, 12, 20, 21, 22});
  std::set<int> sources;
  for (auto& e : got)
    if ((e.flags & CqEntry::Recv) && e.rank == 0) sources.insert(e.src);
  CHECK(sources == std::set<int>{1, 2});
  const auto& times = lx.cq_log_times();
  REQUIRE(times.size() == 6);
  CHECK(std::is_sorted(times.begin(), times.end()));
  std::set<int> providers;
  for (auto& e : lx.cq_log()) providers.insert(e.provider);
  CHECK(providers == std::set<int>{0, 1});
  CHECK(lx.srx().live_entries() == 0);
  std::map<std::string, std::uint64_t> c;
  lx.add_counters(c);
  CHECK(c["linkx_via_shm"] == 1);
  CHECK(c["linkx_via_cxi"] == 2);
  CHECK(c["cxi_rendezvous"] == 1);
}

// Configuration: crusher, 2 ranks on 2 nodes, the CXI provider alone (hardware matching) with its overflow buffers cut
//                to 4 KiB (fi_cxi_oflow_buf_size x count); rank 0 sends 20 eager messages of 1 KiB (tags 0..19) to
//                rank 1, which posts no receive until t = 1 ms, then posts the 20 receives in tag order.
// Expected:      the first 4 messages fit the overflow buffers; the 5th is dropped and flow-control recovery starts
//                (counter cxi_fc_recoveries >= 1, cxi_fc_drops >= 1, every drop sent again); all 20 receives complete
//                exactly once, receive i with tag i (MPI order kept across the drops), and all 20 sends complete.
// How validated: the CQ entries on the DES engine and the provider's counters.
TEST_CASE("ofi/cxi: overflow-buffer exhaustion recovers without loss or reordering", "[unit][ofi]") {
  CrusherJob j(2, 1);
  const auto& n = slingshot::nic(*j.machine);
  auto cfg = cxi::CxiConfig::from(n.p, n.software, j.mca.get<cxi::CxiMca>());
  cfg.oflow_bytes = 4096;
  cxi::CxiProvider cxi(j.sim, j.world->contexts(), j.world->cpus(), j.world->fabric(), cfg);
  std::vector<CqEntry> recvs, sends;
  CqOwnerOps ops;
  ops.write = [&](const CqEntry& e) { ((e.flags & CqEntry::Recv) ? recvs : sends).push_back(e); };
  cxi.set_cq(ops);
  for (int t = 0; t < 20; ++t) cxi.tsend(0, 1, t, 1024, Buffer{}, 100 + static_cast<std::uint64_t>(t));
  j.sim.at(1e-3, [&] {
    for (int t = 0; t < 20; ++t) cxi.trecv(1, 0, t, 1024, Buffer{}, 200 + static_cast<std::uint64_t>(t));
  });
  j.sim.run();
  std::map<std::string, std::uint64_t> c;
  cxi.add_counters(c);
  CHECK(c["cxi_fc_recoveries"] >= 1);
  CHECK(c["cxi_fc_drops"] >= 1);
  CHECK(c["cxi_fc_resends"] == c["cxi_fc_drops"]);
  REQUIRE(recvs.size() == 20);
  REQUIRE(sends.size() == 20);
  std::set<std::uint64_t> rc;
  for (auto& e : recvs) {
    CHECK(e.tag == static_cast<int>(e.context - 200));
    rc.insert(e.context);
  }
  CHECK(rc.size() == 20);
  CHECK(cxi.unexpected_now() == 0);
  CHECK(cxi.posted_now() == 0);
}

// Configuration: the CXI protocol choice with the crusher defaults (inject 192 B, threshold 2048 B, get_min 2049 B).
// Expected:      192 B inline, 193 B eager, 4097 B eager (threshold + get_min), 4098 B rendezvous with 2048 B eager
//                part; a GPU buffer is never inlined; overflow space is given back only in the epoch it was taken.
// How validated: direct calls.
TEST_CASE("ofi/cxi: protocol choice and overflow accounting", "[unit][ofi]") {
  cxi::ProtocolLimits l;
  CHECK(cxi::choose(192, l) == cxi::SendProtocol::Inject);
  CHECK(cxi::choose(193, l) == cxi::SendProtocol::Eager);
  CHECK(cxi::choose(4097, l) == cxi::SendProtocol::Eager);
  CHECK(cxi::choose(4098, l) == cxi::SendProtocol::Rendezvous);
  CHECK(cxi::eager_bytes(cxi::SendProtocol::Rendezvous, 1 << 20, l) == 2048);
  CHECK(cxi::choose(8, l, false) == cxi::SendProtocol::Eager);
  cxi::OverflowBuffers ob(4096);
  CHECK(ob.take(4000));
  CHECK_FALSE(ob.take(100));
  auto e0 = ob.epoch();
  ob.onload();
  CHECK(ob.used() == 0);
  CHECK(ob.take(1000));
  ob.release(4000, e0);  // taken before the onload: already in host memory
  CHECK(ob.used() == 1000);
  ob.release(1000, ob.epoch());
  CHECK(ob.used() == 0);
}

namespace {
// One CXI provider alone on a 2-node crusher job with its matching mode forced: rank 1 posts receives of tags 0 (1 KiB)
// and 1 (1 MiB) at t = 0; rank 0 sends tag 0, tag 1 at t = 0, and tag 2 (1 KiB, unexpected) whose receive rank 1 posts
// at t = 1 ms. Returns the completion time of the tag-0 receive, and the counters.
struct MatchRun {
  double t_expected = -1;
  std::size_t recvs = 0, sends = 0;
  std::set<std::uint64_t> contexts;
  std::map<std::string, std::uint64_t> c;
};
MatchRun match_run(bool software) {
  CrusherJob j(2, 1);
  const auto& n = slingshot::nic(*j.machine);
  auto cfg = cxi::CxiConfig::from(n.p, n.software, j.mca.get<cxi::CxiMca>());
  cfg.software_matching = software;
  cxi::CxiProvider cxi(j.sim, j.world->contexts(), j.world->cpus(), j.world->fabric(), cfg);
  MatchRun r;
  CqOwnerOps ops;
  ops.write = [&](const CqEntry& e) {
    if (e.flags & CqEntry::Recv) {
      ++r.recvs;
      r.contexts.insert(e.context);
      if (e.context == 10) r.t_expected = j.sim.now();
    } else {
      ++r.sends;
    }
  };
  cxi.set_cq(ops);
  cxi.trecv(1, 0, 0, 1024, Buffer{}, 10);
  cxi.trecv(1, 0, 1, 1 << 20, Buffer{}, 11);
  cxi.tsend(0, 1, 0, 1024, Buffer{}, 20);
  cxi.tsend(0, 1, 1, 1 << 20, Buffer{}, 21);
  cxi.tsend(0, 1, 2, 1024, Buffer{}, 22);
  j.sim.at(1e-3, [&] { cxi.trecv(1, 0, 2, 1024, Buffer{}, 12); });
  j.sim.run();
  cxi.add_counters(r.c);
  CHECK(cxi.hardware_matching() == !software);
  CHECK(cxi.posted_now() == 0);
  CHECK(cxi.unexpected_now() == 0);
  return r;
}
}  // namespace

// Configuration: the CXI provider alone (openmpi-cxi, Cray MPICH), FI_CXI_RX_MATCH_MODE hardware vs software (the
//                ofi/cxi's fi_cxi_rx_match_mode, set by crusher-swmatch's mca_defaults), the run of match_run above.
// Expected:      both modes deliver all three messages exactly once (3 receive and 3 send completions, contexts
//                10, 11, 12); software matching counts every arriving header as host-matched (3) and none in hardware
//                mode; the expected 1 KiB message completes later with software matching (the host reads the event
//                and copies the payload out of a request buffer instead of the NIC writing it in place).
// How validated: the CQ entries and counters on the DES engine; the crusher machine file says hardware, and
//                crusher-swmatch software.
TEST_CASE("ofi/cxi: hardware vs software tag matching of the provider alone", "[unit][ofi]") {
  MatchRun hw = match_run(false), sw = match_run(true);
  for (const MatchRun* r : {&hw, &sw}) {
    CHECK(r->recvs == 3);
    CHECK(r->sends == 3);
    CHECK(r->contexts == std::set<std::uint64_t>{10, 11, 12});
    CHECK(r->c.at("cxi_rdzv_gets") == 1);
  }
  CHECK(hw.c["cxi_host_matched"] == 0);
  CHECK(sw.c["cxi_host_matched"] == 3);
  CHECK(hw.c["cxi_unexpected"] == 1);
  CHECK(sw.c["cxi_unexpected"] == 1);
  REQUIRE(hw.t_expected > 0);
  CHECK(sw.t_expected > hw.t_expected);

  auto crusher = load_machine("crusher");
  auto swm = load_machine("crusher-swmatch");
  CHECK_FALSE(cxi::CxiConfig::from(slingshot::nic(*crusher).p, slingshot::nic(*crusher).software,
                                    machine_mca(*crusher).get<cxi::CxiMca>())
                  .software_matching);
  CHECK(cxi::CxiConfig::from(slingshot::nic(*swm).p, slingshot::nic(*swm).software, machine_mca(*swm).get<cxi::CxiMca>())
            .software_matching);
}

// Configuration: crusher, 2 ranks on 2 nodes (cores 1), LINKx over shm and cxi; rank 1 posts an 8 B receive (context
//                10) long before rank 0 sends it (posted, then arriving); then rank 0 sends tag 2 before rank 1 posts
//                its receive (context 11: arriving, then posted). Same on one node (ranks 0 and 1 of a 2-rank node).
// Expected:      each receive reaches the consumer software.linkx_overhead after the core provider wrote it into the
//                shared CQ (lnx_get_tag + lnx_peer_cq_write, read back through LINKx's util CQ, on the target's CPU);
//                a send's completion reaches it at once. Off the node the cxi peer sets up one receive request per
//                matched receive (cxip_recv_req_init, expected and unexpected alike: cxi_peer_recv_requests == 2);
//                on the node it sets up none.
// How validated: the LINKx CQ log times against the consumer's times on the DES engine; the counters.
TEST_CASE("ofi/linkx: a received message pays LINKx's arrival work; the cxi peer sets up its receive request",
          "[unit][ofi]") {
  for (const int rpn : {1, 2}) {
    CrusherJob j(2, rpn);
    LinkxOverCrusher s(j);
    const auto& n = s.n;
    linkx::Linkx& lx = s.lx;
    std::map<std::uint64_t, double> got;  // context -> time the consumer saw it
    CqOwnerOps consumer;
    consumer.write = [&](const CqEntry& e) { got[e.context] = j.sim.now(); };
    lx.set_cq(consumer);
    lx.trecv(1, 0, 1, 8, Buffer{}, 10);
    j.sim.after(10e-6, [&] { lx.tsend(0, 1, 1, 8, Buffer{}, 20); });
    j.sim.after(20e-6, [&] { lx.tsend(0, 1, 2, 8, Buffer{}, 21); });
    j.sim.after(40e-6, [&] { lx.trecv(1, 0, 2, 8, Buffer{}, 11); });
    j.sim.run();
    REQUIRE(got.size() == 4);
    const double lo = n.software.linkx_overhead.value;
    for (std::size_t k = 0; k < lx.cq_log().size(); ++k) {
      const CqEntry& e = lx.cq_log()[k];
      const double waited = got.at(e.context) - lx.cq_log_times()[k];
      INFO("rpn " << rpn << ", context " << e.context);
      CHECK(waited == Approx((e.flags & CqEntry::Recv) ? lo : 0.0).margin(1e-12));
    }
    std::map<std::string, std::uint64_t> c;
    lx.add_counters(c);
    CHECK(c["linkx_matched_expected"] == 1);
    CHECK(c["linkx_matched_unexpected"] == 1);
    CHECK(c["cxi_peer_recv_requests"] == (rpn == 1 ? 2u : 0u));
  }
}
