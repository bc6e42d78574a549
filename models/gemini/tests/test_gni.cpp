// models/gemini: uGNI endpoints, SMSG credits and completions, registration caches (gemini::Cdm over the shared Gni).
#include "tests/test_helpers.hpp"
#include "models/gemini/gni.hpp"
#include "models/gemini/nic.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
// The job's Gemini NIC, built from the parts of the fixture's platform it takes.
gemini::Gni& job_gni(test::Fixture& f) {
  auto& w = *f.world;
  return gemini::Gni::of(w.nic_services(), f.sim, w.contexts(), w.cpus(), w.fabric());
}
}  // namespace

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
// Expected: the first send connects the endpoint (one connect); the sends beyond the credits wait for them, each counted
// once in credit_waits (8, then 4 more, not again as credits return); every
// message is delivered exactly once and in order. How validated: counters and the delivery order.
TEST_CASE("ugni SMSG: credit exhaustion and recovery, connection on first send", "[protocol][ugni]") {
  test::Fixture f("cielo", 2, 1);
  gemini::Cdm gni(job_gni(f), 2);
  std::vector<int> got;
  for (int i = 0; i < 10; ++i) gni.smsg_send(0, 1, 64, nullptr, [&got, i] { got.push_back(i); });
  CHECK(gni.endpoint(0, 1).state == gemini::EpState::Connecting);
  f.sim.run();
  REQUIRE(got.size() == 10);
  for (int i = 0; i < 10; ++i) CHECK(got[static_cast<std::size_t>(i)] == i);
  CHECK(gni.connects == 1);
  CHECK(gni.credit_waits == 8);  // the 8 sends beyond the connection's 2 credits, each counted once
  CHECK(gni.endpoint(0, 1).credits == 2);  // all credits came back
  CHECK(gni.endpoints() == 1);             // no state for peers never contacted
  CHECK_FALSE(gni.endpoint(0, 1).has_pending());  // the queue is empty once drained
  CHECK(gni.messages_in_flight() == 0);            // every message record was released with its credit
  // Connected now: 6 more sends, the first two on credits at once, the rest queued behind them; still in order.
  const auto waits = gni.credit_waits;
  for (int i = 10; i < 16; ++i) gni.smsg_send(0, 1, 64, nullptr, [&got, i] { got.push_back(i); });
  CHECK(gni.credit_waits == waits + 4);  // sends 3 to 6 each found no credit (and queue in order)
  CHECK(gni.endpoint(0, 1).has_pending());
  f.sim.run();
  CHECK(gni.credit_waits == waits + 4);  // not again as the credits come back one by one
  REQUIRE(got.size() == 16);
  for (int i = 10; i < 16; ++i) CHECK(got[static_cast<std::size_t>(i)] == i);
  CHECK(gni.connects == 1);
  CHECK_FALSE(gni.endpoint(0, 1).has_pending());
  CHECK(gni.messages_in_flight() == 0);
}

// Configuration: 2 ranks on 2 Cielo nodes: rank 0 sends rank 1 one SMSG (its endpoint connects), then rank 1 answers
// with one; separately, both send their first SMSG at the same time. Expected: the answer pays no connect (the
// handshake bound both ends, as btl/ugni's datagram exchange does): one connect in all, the answer's delivery one
// message time after its post, not endpoint_connect_time later; two first sends at once each connect (neither end is
// bound yet): two connects. Each direction keeps its own endpoint. How validated: counters and times against the
// parameters.
TEST_CASE("ugni SMSG: a connection made one way serves the other", "[protocol][ugni]") {
  test::Fixture f("cielo", 2, 1);
  const auto& g = gemini::nic(*f.machine).p;
  REQUIRE(g.endpoint_connect_time > 0);
  {
    gemini::Cdm gni(job_gni(f), 32);
    gni.smsg_send(0, 1, 8, nullptr, [] {});
    f.sim.run();
    REQUIRE(gni.connects == 1);
    CHECK_FALSE(gni.peer_connected(1, 0));  // rank 1 has no endpoint yet
    const double t0 = f.sim.now();
    double landed = -1;
    gni.smsg_send(1, 0, 8, nullptr, [&] { landed = f.sim.now(); });
    f.sim.run();
    CHECK(gni.connects == 1);
    CHECK(gni.endpoints() == 2);
    CHECK(gni.peer_connected(1, 0));
    CHECK(landed > t0);
    CHECK(landed - t0 < g.endpoint_connect_time);
  }
  {
    gemini::Cdm gni(job_gni(f), 32);
    int got = 0;
    gni.smsg_send(0, 1, 8, nullptr, [&] { ++got; });
    gni.smsg_send(1, 0, 8, nullptr, [&] { ++got; });
    f.sim.run();
    CHECK(got == 2);
    CHECK(gni.connects == 2);
  }
}

// Configuration: 2 ranks on 2 Cielo nodes, one 8-byte SMSG send after the connection is up; a zero-cost CPU step is
// queued on the sender just after the target NIC's acknowledgement is back. Expected: the send raises one local CQ
// event (Open MPI's mca_btl_ugni_progress_local_smsg reaps one per GNI_SmsgSendWTag), and reaping it keeps the
// sender's CPU busy for smsg_cpu_overhead, so the queued step runs that much after the ack. How validated: the
// counter and the step's start time against the parameters.
TEST_CASE("ugni SMSG: the sender reaps one local CQ event per message when the ack returns", "[protocol][ugni]") {
  test::Fixture f("cielo", 2, 1);
  gemini::Cdm gni(job_gni(f), 32);
  const auto& g = gemini::nic(*f.machine).p;
  double posted = -1, step = -1;
  gni.smsg_send(0, 1, 8, nullptr, [] {});
  f.sim.run();  // connection, first message and its ack
  REQUIRE(gni.smsg_local_events == 1);
  const double t0 = f.sim.now();
  gni.smsg_send(0, 1, 8, [&] { posted = f.sim.now(); }, [] {});
  const long long n0 = f.world->contexts().node_of(0), n1 = f.world->contexts().node_of(1);
  const Fabric& fab = f.world->fabric();
  const double ack =
      t0 + g.smsg_cpu_overhead + 8 / g.fma_pio_bandwidth + fab.wire_time(n0, n1, 8) + fab.wire_time(n1, n0, 0);
  f.sim.at(ack + 1e-9, [&] { f.world->cpus().cpu(0, 0, [&] { step = f.sim.now(); }); });
  f.sim.run();
  CHECK(gni.smsg_local_events == 2);
  CHECK(posted == Approx(t0 + g.smsg_cpu_overhead + 8 / g.fma_pio_bandwidth).margin(1e-12));
  CHECK(step == Approx(ack + g.smsg_cpu_overhead).margin(1e-12));
}

// Configuration: 4 ranks, 2 on each of 2 Cielo nodes, on the lmm engine (max-min sharing); 64 KiB FMA GETs (uGNI's
// RDMA without the BTE), first rank 2 from rank 0 alone, then ranks 2 and 3 from ranks 0 and 1 at once. Expected:
// alone, the GET completes after the FMA post, the request's wire(0), the data's wire(bytes) and the CQ poll, as an
// analytic time would give it; together, the two share the nodes' host interfaces (and any link between them), so
// each completes one more bytes / rate later, where an analytic FMA transfer would overlap them in full. How
// validated: completion times against the parameters, and the fabric's count of FMA flows.
TEST_CASE("ugni FMA RDMA: the data shares the host interfaces and links with other transfers", "[protocol][ugni]") {
  test::SharingFixture f("cielo", 4, 2);
  auto& w = *f.world;
  auto& sim = f.sim;
  gemini::Gni& nic = gemini::Gni::of(w.nic_services(), sim, w.contexts(), w.cpus(), w.fabric());
  const auto& g = gemini::nic(*f.machine).p;
  const Fabric& fab = w.fabric();
  const long long n0 = w.contexts().node_of(0), n2 = w.contexts().node_of(2);
  REQUIRE(n0 != n2);
  const double bytes = 65536;
  const PathCost path = fab.path(n0, n2);
  const double alone = g.fma_issue_overhead + fab.wire_time(n2, n0, 0) + fab.wire_time(n0, n2, bytes) +
                       g.smsg_cpu_overhead;
  double t_alone = -1;
  nic.rdma(gemini::RdmaOp::Get, false, 2, 0, 65536, [&] { t_alone = sim.now(); });
  sim.run();
  CHECK(t_alone == Approx(alone).epsilon(1e-9));
  CHECK(fab.pio_flows == 1);
  CHECK(fab.bulk_flows == 0);  // no BTE transfer
  const double t0 = sim.now();
  double t2 = -1, t3 = -1;
  nic.rdma(gemini::RdmaOp::Get, false, 2, 0, 65536, [&] { t2 = sim.now() - t0; });
  nic.rdma(gemini::RdmaOp::Get, false, 3, 1, 65536, [&] { t3 = sim.now() - t0; });
  sim.run();
  CHECK(fab.pio_flows == 3);
  CHECK(t2 == Approx(alone + bytes / path.bandwidth).epsilon(1e-6));
  CHECK(t3 == Approx(alone + bytes / path.bandwidth).epsilon(1e-6));
}

// Configuration: as the test before, with packet trains up to 64 KiB (Fabric::set_packet_trains): a 64 KiB FMA GET
// alone, then two at once from the same nodes (ranks 2 and 3 from ranks 0 and 1), then one of 64 KiB + 1 B.
// Expected: alone, the train ends when the flow did (the same analytic time); together, the first train reserved the
// host interfaces and links ends as if alone and the second one bytes / rate after it (FIFO, where the two flows
// shared the rate and both ended at that later date); no flow is made until a transfer exceeds the limit, which is a
// flow again. How validated: completion times against the parameters, the fabric's train and flow counts.
TEST_CASE("ugni FMA RDMA: packet trains end as a lone flow would, and queue FIFO behind each other", "[protocol][ugni]") {
  test::SharingFixture f("cielo", 4, 2);
  auto& w = *f.world;
  auto& sim = f.sim;
  w.fabric().set_packet_trains(65536);
  gemini::Gni& nic = gemini::Gni::of(w.nic_services(), sim, w.contexts(), w.cpus(), w.fabric());
  const auto& g = gemini::nic(*f.machine).p;
  const Fabric& fab = w.fabric();
  const long long n0 = w.contexts().node_of(0), n2 = w.contexts().node_of(2);
  REQUIRE(n0 != n2);
  const double bytes = 65536;
  const PathCost path = fab.path(n0, n2);
  const double alone = g.fma_issue_overhead + fab.wire_time(n2, n0, 0) + fab.wire_time(n0, n2, bytes) +
                       g.smsg_cpu_overhead;
  double t_alone = -1;
  nic.rdma(gemini::RdmaOp::Get, false, 2, 0, 65536, [&] { t_alone = sim.now(); });
  sim.run();
  CHECK(t_alone == Approx(alone).epsilon(1e-12));
  CHECK(fab.packet_trains == 1);
  CHECK(fab.pio_flows == 0);
  const double t0 = sim.now();
  double t2 = -1, t3 = -1;
  nic.rdma(gemini::RdmaOp::Get, false, 2, 0, 65536, [&] { t2 = sim.now() - t0; });
  nic.rdma(gemini::RdmaOp::Get, false, 3, 1, 65536, [&] { t3 = sim.now() - t0; });
  sim.run();
  CHECK(fab.packet_trains == 3);
  CHECK(fab.pio_flows == 0);
  CHECK(t2 == Approx(alone).epsilon(1e-12));
  CHECK(t3 == Approx(alone + bytes / path.bandwidth).epsilon(1e-9));
  nic.rdma(gemini::RdmaOp::Get, false, 2, 0, 65537, [] {});
  sim.run();
  CHECK(fab.packet_trains == 3);
  CHECK(fab.pio_flows == 1);
}

// Configuration: 4 ranks, 2 on each of 2 Cielo nodes, lmm engine. Rank 0 sends a 4 KiB SMSG to rank 2 and at once an
// 8 B one on the same connection; then ranks 0 and 1 send a 4 KiB SMSG each, to ranks 2 and 3, at the same time.
// Expected: the 8 B message is one packet (packet_payload_bytes: no flow) and lands first, but the connection
// delivers in post order, so it is delivered after the 4 KiB one; the two 4 KiB SMSGs of different ranks share the
// nodes' host interfaces (and any link), each landing one 4 KiB / rate later than a lone one. How validated: the
// delivery order, the fabric's flow count, the delivery times against the parameters.
TEST_CASE("ugni SMSG: a message over one packet is a shared flow, delivered in post order", "[protocol][ugni]") {
  test::SharingFixture f("cielo", 4, 2);
  auto& w = *f.world;
  gemini::Cdm gni(gemini::Gni::of(w.nic_services(), f.sim, w.contexts(), w.cpus(), w.fabric()), 32);
  const auto& g = gemini::nic(*f.machine).p;
  REQUIRE(g.packet_payload_bytes.value == 64);
  for (int r : {0, 1}) gni.smsg_send(r, r + 2, 8, nullptr, [] {});
  f.sim.run();  // both connections up
  CHECK(w.fabric().pio_flows == 0);  // one packet each: no flow
  std::vector<int> order;
  gni.smsg_send(0, 2, 4096, nullptr, [&] { order.push_back(4096); });
  gni.smsg_send(0, 2, 8, nullptr, [&] { order.push_back(8); });
  f.sim.run();
  REQUIRE(order.size() == 2);
  CHECK(order[0] == 4096);  // the 8 B one landed first and waited for it
  CHECK(order[1] == 8);
  CHECK(w.fabric().pio_flows == 1);
  const long long n0 = w.contexts().node_of(0), n2 = w.contexts().node_of(2);
  REQUIRE(n0 != n2);
  const PathCost path = w.fabric().path(n0, n2);
  const double post = g.smsg_cpu_overhead + 4096 / g.fma_pio_bandwidth, poll = g.smsg_cpu_overhead;
  const double alone = post + w.fabric().wire_time(n0, n2, 4096) + poll;
  const double t0 = f.sim.now();
  double d2 = -1, d3 = -1;
  gni.smsg_send(0, 2, 4096, nullptr, [&] { d2 = f.sim.now() - t0; });
  gni.smsg_send(1, 3, 4096, nullptr, [&] { d3 = f.sim.now() - t0; });
  f.sim.run();
  CHECK(w.fabric().pio_flows == 3);
  CHECK(d2 == Approx(alone + 4096 / path.bandwidth).epsilon(1e-6));
  CHECK(d3 == Approx(alone + 4096 / path.bandwidth).epsilon(1e-6));
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
