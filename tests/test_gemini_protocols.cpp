#include "models/gemini/gni.hpp"
#include "models/gemini/nic.hpp"
#include "protocols/btl/ugni/eager_pool.hpp"
#include "protocols/pml/ob1/requests.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: one endpoint driven by hand. Expected: INIT -> CONNECTING -> CONNECTED; any other order throws.
TEST_CASE("ugni endpoint: connection states and credits", "[unit][protocol][ugni]") {
  gemini::Endpoint ep;
  CHECK_THROWS_AS(ep.take_credit(), ProtocolError);
  CHECK_THROWS_AS(ep.connected(), ProtocolError);
  ep.start_connect(2);
  CHECK(ep.state == gemini::EpState::Connecting);
  CHECK_THROWS_AS(ep.start_connect(2), ProtocolError);
  ep.connected();
  CHECK(ep.take_credit());
  CHECK(ep.take_credit());
  CHECK_FALSE(ep.take_credit());  // exhausted
  ep.return_credit(2);
  CHECK(ep.take_credit());        // recovered
  ep.return_credit(2);
  ep.return_credit(2);
  CHECK_THROWS_AS(ep.return_credit(2), ProtocolError);  // more credits than the mailbox has
}

// Configuration: 2 ranks on 2 Cielo nodes, uGNI with 2 credits, 10 SMSG sends posted at once.
// Expected: the first send connects the endpoint (one connect); senders wait for credits (credit_waits > 0); every
// message is delivered exactly once and in order. How validated: counters and the delivery order.
TEST_CASE("ugni SMSG: credit exhaustion and recovery, connection on first send", "[protocol][ugni]") {
  test::Fixture f("cielo", 2, 1);
  gemini::Gni gni(*f.world, 2);
  std::vector<int> got;
  for (int i = 0; i < 10; ++i) gni.smsg_send(0, 1, 64, nullptr, [&got, i] { got.push_back(i); });
  CHECK(gni.endpoint(0, 1).state == gemini::EpState::Connecting);
  f.sim.run();
  REQUIRE(got.size() == 10);
  for (int i = 0; i < 10; ++i) CHECK(got[static_cast<std::size_t>(i)] == i);
  CHECK(gni.connects == 1);
  CHECK(gni.credit_waits > 0);
  CHECK(gni.endpoint(0, 1).credits == 2);  // all credits came back
  CHECK(gni.endpoints() == 1);             // no state for peers never contacted
}

// Configuration: 2 ranks on 2 Cielo nodes, one 8-byte SMSG send after the connection is up; a zero-cost CPU step is
// queued on the sender just after the target NIC's acknowledgement is back. Expected: the send raises one local CQ
// event (Open MPI's mca_btl_ugni_progress_local_smsg reaps one per GNI_SmsgSendWTag), and reaping it keeps the
// sender's CPU busy for smsg_cpu_overhead, so the queued step runs that much after the ack. How validated: the
// counter and the step's start time against the parameters.
TEST_CASE("ugni SMSG: the sender reaps one local CQ event per message when the ack returns", "[protocol][ugni]") {
  test::Fixture f("cielo", 2, 1);
  gemini::Gni gni(*f.world, 32);
  const auto& g = gemini::nic(*f.machine).p;
  World& w = *f.world;
  double posted = -1, step = -1;
  gni.smsg_send(0, 1, 8, nullptr, [] {});
  f.sim.run();  // connection, first message and its ack
  REQUIRE(gni.smsg_local_events == 1);
  const double t0 = f.sim.now();
  gni.smsg_send(0, 1, 8, [&] { posted = f.sim.now(); }, [] {});
  const long long n0 = w.node_of(0), n1 = w.node_of(1);
  const double ack = t0 + g.smsg_cpu_overhead + 8 / g.fma_pio_bandwidth + w.wire_time(n0, n1, 8) + w.wire_time(n1, n0, 0);
  f.sim.at(ack + 1e-9, [&] { w.cpu(0, 0, [&] { step = f.sim.now(); }); });
  f.sim.run();
  CHECK(gni.smsg_local_events == 2);
  CHECK(posted == Approx(t0 + g.smsg_cpu_overhead + 8 / g.fma_pio_bandwidth).margin(1e-12));
  CHECK(step == Approx(ack + g.smsg_cpu_overhead).margin(1e-12));
}

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

// Configuration: LRU limit 2. Expected: the least recently used registration is evicted.
TEST_CASE("registration cache: LRU eviction", "[unit][protocol][ugni]") {
  gemini::RegCache c(2);
  CHECK_FALSE(c.lookup(1, 10));
  c.insert(1, 10);
  c.insert(2, 10);
  CHECK(c.lookup(1, 10));  // 1 is now most recent
  c.insert(3, 10);         // evicts 2
  CHECK(c.evictions() == 1);
  CHECK(c.lookup(1, 10));
  CHECK_FALSE(c.lookup(2, 10));
  CHECK(c.lookup(3, 10));
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

// Table-driven transitions of ob1 send requests. Expected: legal sequences end COMPLETE; illegal ones throw.
TEST_CASE("ob1 send request transitions", "[unit][protocol][ob1]") {
  btl::BtlCaps caps;
  caps.eager_limit = 4096, caps.rndv_eager_limit = 4096, caps.max_send_size = 4096, caps.flags = btl::flag::Get;
  struct Row { std::uint64_t bytes; bool contiguous; pml::Hdr hdr; std::vector<pml::ob1::SendEvent> events; };
  using E = pml::ob1::SendEvent;
  std::vector<Row> rows{{100, true, pml::Hdr::Match, {E::BtlDone}},
                        {65536, true, pml::Hdr::Rget, {E::Fin}},
                        {65536, true, pml::Hdr::Rget, {E::Ack, E::FragsDone}},  // RGET fell back to RNDV
                        {65536, false, pml::Hdr::Rndv, {E::Ack, E::FragsDone}}};
  for (auto& row : rows) {
    pml::ob1::SendRequest r;
    r.bytes = row.bytes;
    r.buf.contiguous = row.contiguous;
    CHECK(pml::ob1::start(r, caps) == row.hdr);
    CHECK_THROWS_AS(pml::ob1::start(r, caps), ProtocolError);
    for (auto e : row.events) pml::ob1::on_event(r, e);
    CHECK(r.state == pml::ob1::SendState::Complete);
    CHECK_THROWS_AS(pml::ob1::on_event(r, E::Fin), ProtocolError);
  }
  pml::ob1::SendRequest r;
  r.bytes = 100;
  pml::ob1::start(r, caps);
  CHECK_THROWS_AS(pml::ob1::on_event(r, E::Fin), ProtocolError);  // FIN is never the answer to MATCH
}

// Configuration: each stack, 4 ranks (2 per node), every rank sends 40 messages of mixed sizes (eager, eager-get,
// RGET) to every other rank; half the receives are posted late (unexpected). Expected: message conservation — every
// send completes, every receive completes exactly once, no request or queue entry left, and per-pair order kept.
TEST_CASE("message conservation and MPI order for openmpi and native", "[protocol][ob1]") {
  for (std::string stack : {"openmpi", "native"}) {
    test::Fixture f("cielo", 4, 2, stack);
    std::vector<std::uint64_t> sizes{0, 1, 200, 3000, 6000, 20000, 200000};
    std::map<std::pair<int, int>, std::vector<int>> order;
    int sends = 0, recvs = 0, n = 0;
    for (int s = 0; s < 4; ++s)
      for (int d = 0; d < 4; ++d) {
        if (s == d) continue;
        for (int i = 0; i < 40; ++i) {
          std::uint64_t b = sizes[static_cast<std::size_t>(i) % sizes.size()];
          int tag = 10 + i % static_cast<int>(sizes.size());  // one size per tag, so a receive fits its message
          f.stack->isend(s, d, tag, b, Buffer{static_cast<std::uint64_t>(s) << 30, true}, [&] { ++sends; });
          auto post = [&, s, d, i, b, tag] {
            f.stack->irecv(d, s, tag, b, Buffer{static_cast<std::uint64_t>(d) << 31, true}, [&, s, d, i] {
              ++recvs;
              order[{s, d}].push_back(i);
            });
          };
          if (i % 2) f.sim.at(50e-6, post);  // late: unexpected
          else post();
          ++n;
        }
      }
    f.sim.run();
    INFO(stack);
    CHECK(sends == n);
    CHECK(recvs == n);
    auto st = f.stack->stats();
    CHECK(st.live_requests == 0);
    CHECK(st.unexpected_now == 0);
    CHECK(st.posted_now == 0);
    CHECK(st.sends_completed == st.sends_posted);
    CHECK(st.recvs_completed == st.recvs_posted);
    std::size_t total = 0;
    for (auto& [k, v] : order) total += v.size();
    CHECK(total == static_cast<std::size_t>(n));
  }
}

// Configuration: openmpi on 2 Cielo nodes, SMSG limit 1 KiB; 12 messages of 200 KB from non-contiguous send buffers
// (ob1 RNDV, then FRAGs of 8 KiB through ugni's eager-get path: 300 fragments, far beyond the pool maximum of 64).
// Expected: every message completes and every receiver eager buffer goes back to its pool (each fragment's buffer is
// released when ob1 has copied it out, not once per send request). How validated: completions and the held-buffer
// counter.
TEST_CASE("ugni eager-get buffers of RNDV/FRAG fragments return to the pool", "[protocol][ugni][ob1]") {
  McaParams mca = machine_mca(*load_machine("cielo"));
  mca.btl_ugni.btl_ugni_smsg_limit.value = 1024;
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
  CHECK(st.counters["ugni_eager_buffers_held"] == 0);
  CHECK(st.live_requests == 0);
}

// Configuration: openmpi on 2 Cielo nodes; a 64 KiB message from a contiguous buffer (the sender chooses RGET) into a
// non-contiguous receive buffer. Expected: the receiver cannot GET into it and answers ACK; the sender pipelines
// FRAGs (RGET -> RNDV fallback, mca_pml_ob1_recv_request_progress_rget); no RDMA GET is issued; both complete.
TEST_CASE("ob1 RGET falls back to RNDV when the receive buffer is not contiguous", "[protocol][ob1]") {
  test::Fixture f("cielo", 2, 1, "openmpi");
  int done = 0;
  f.stack->irecv(1, 0, 5, 65536, Buffer{1 << 20, false}, [&] { ++done; });
  f.stack->isend(0, 1, 5, 65536, Buffer{4096, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  auto st = f.stack->stats();
  CHECK(st.counters["ob1_RGET"] == 1);
  CHECK(st.counters["ob1_rget_fallbacks"] == 1);
  CHECK(st.counters["ob1_ACK"] == 1);
  CHECK(st.counters["ob1_FRAG"] == (65536 + 8160 - 1) / 8160);  // fragments of the 8 KiB eager limit minus the header
  CHECK(st.counters["ugni_long_gets"] == 0);
  CHECK(st.live_requests == 0);
}

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
