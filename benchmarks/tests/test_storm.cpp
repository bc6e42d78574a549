// The unexpected_storm driver (benchmarks/storm.cpp) over the CXI provider's overflow buffers (protocols/ofi/cxi).
#include "benchmarks/driver.hpp"
#include "models/slingshot/nic.hpp"
#include "protocols/ofi/cxi/cxi_mca.hpp"
#include "runner/scenario.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
struct StormRun {
  Json points;
  StackStats st;
};
// 16 ranks on 2 crusher nodes, openmpi-cxi (pml/cm + mtl/ofi over cxi, hardware matching), a storm of 15 senders x
// 8 messages of 4 KiB to rank 0 (480 KiB); the overflow buffers cut to `oflow_bytes` (one buffer of that size).
StormRun storm(double oflow_bytes) {
  Scenario s = scenario_from_json(
      Json{{"machine", "crusher"}, {"stack", "openmpi-cxi"}, {"ranks", 16}, {"ranks_per_node", 8},
           {"benchmark", {{"name", "unexpected_storm"}, {"sizes", {4096}}, {"messages", 8}}}},
      "storm.json");
  test::Fixture f("crusher", 16, 8);
  auto& cxi = f.mca_.get<ofi::cxi::CxiMca>();
  cxi.fi_cxi_oflow_buf_size.value = oflow_bytes;
  cxi.fi_cxi_oflow_buf_count.value = 1;
  f.stack = make_stack(*f.world, f.mca_, "openmpi-cxi", "storm.json");
  StormRun r;
  r.points = s.driver->run(*f.world, *f.stack, "storm.json");
  r.st = f.stack->stats();
  return r;
}
}  // namespace

// Configuration: the storm above with one overflow buffer of 64 KiB (exhausted: 480 KiB arrive unexpected) and of
//                8 MiB (enough).
// Expected:      in both runs every message is received once (the driver checks each receive; 120 messages, 120
//                receives and 120 sends completed, nothing left posted or unexpected); the small buffer takes the
//                flow-control recovery (cxi_fc_recoveries >= 1, every drop re-sent) and the large one never does;
//                the recovery makes the storm slower to drain at rank 0 (recv_us larger).
// How validated: the driver's points and the stack's counters on the DES engine.
TEST_CASE("unexpected_storm: conservation, and overflow exhaustion takes the recovery path", "[benchmark][storm]") {
  StormRun small = storm(64 * 1024), large = storm(8 * 1024 * 1024);
  for (const StormRun* r : {&small, &large}) {
    REQUIRE(r->points.size() == 1);
    CHECK(r->points[0]["messages"].get<long long>() == 120);
    CHECK(r->st.recvs_completed == 120);
    CHECK(r->st.sends_completed == 120);
    CHECK(r->st.unexpected_now == 0);
    CHECK(r->st.posted_now == 0);
    CHECK(r->st.counters.at("cxi_unexpected") >= 1);
  }
  CHECK(small.st.counters.at("cxi_fc_recoveries") >= 1);
  CHECK(small.st.counters.at("cxi_fc_drops") >= 1);
  CHECK(small.st.counters.at("cxi_fc_resends") == small.st.counters.at("cxi_fc_drops"));
  CHECK(large.st.counters.count("cxi_fc_recoveries") == 0);
  CHECK(small.points[0]["recv_us"].get<double>() > large.points[0]["recv_us"].get<double>());
}

// Configuration: unexpected_storm blocks with bad keys. Expected: the file, the key and the reason.
// How validated: the InputError text.
// Configuration: 3 ranks on 3 cielo nodes, openmpi (pml/ob1 + btl/ugni), two senders x 100 messages of 1 KiB to rank
//                0: above the SMSG limit, so each goes by eager get into rank 0's pool of eager buffers, which grows
//                (registering) while later gets find buffers at once, so fragments arrive out of order.
// Expected:      every message received once (200 sends and receives completed, nothing left posted or unexpected);
//                out-of-order first fragments were copied into PML buffers on arrival (ob1_out_of_order_copy >= 1),
//                as ob1's frags_cant_match list does, and gave their BTL buffers back; a held fragment that kept its
//                buffer left the pool empty for its own predecessor and the run stalled.
// How validated: the driver's point and the stack's counters on the DES engine.
TEST_CASE("unexpected_storm: out-of-order fragments give their eager buffers back (ob1 over ugni)",
          "[benchmark][storm]") {
  Scenario s = scenario_from_json(Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 3}, {"ranks_per_node", 1},
                                       {"benchmark", {{"name", "unexpected_storm"}, {"sizes", {1024}}, {"messages", 100}}}},
                                  "storm.json");
  test::Fixture f("cielo", 3, 1, "openmpi");
  Json points = s.driver->run(*f.world, *f.stack, "storm.json");
  StackStats st = f.stack->stats();
  REQUIRE(points.size() == 1);
  CHECK(points[0]["messages"].get<long long>() == 200);
  CHECK(st.recvs_completed == 200);
  CHECK(st.sends_completed == 200);
  CHECK(st.unexpected_now == 0);
  CHECK(st.posted_now == 0);
  CHECK(st.counters.at("ob1_out_of_order_copy") >= 1);
}

TEST_CASE("unexpected_storm: bad input names file, key and reason", "[benchmark][storm]") {
  auto err = [](Json block, Json ranks = 4) {
    block["name"] = "unexpected_storm";
    try {
      (void)scenario_from_json(Json{{"machine", "crusher"}, {"stack", "openmpi-cxi"}, {"ranks", ranks},
                                    {"benchmark", block}},
                               "storm.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err(Json{{"messages", 0}}), Catch::Contains("storm.json") && Catch::Contains("benchmark.messages"));
  CHECK_THAT(err(Json{{"delay", "5 GB"}}), Catch::Contains("storm.json") && Catch::Contains("benchmark.delay"));
  CHECK_THAT(err(Json::object(), 1), Catch::Contains("storm.json") && Catch::Contains("ranks") &&
                                         Catch::Contains("2 ranks or more"));
}
