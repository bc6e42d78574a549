// A NIC model belongs to the node's port: every protocol component on it shares the one model object of the World
// (platform/nic_services.hpp), so two components on one SeaStar serialize on one firmware timeline, and two libraries
// on one Gemini NIC share its registration table while keeping their own uGNI communication domains.
#include "tests/test_helpers.hpp"
#include "models/gemini/gni.hpp"
#include "models/qsnet/nic.hpp"
#include "models/slingshot/nic.hpp"
#include "models/seastar/seastar.hpp"
#include "protocols/btl/btl.hpp"
#include "protocols/mtl/mtl.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
struct Times {
  double mtl = -1, btl = -1;  // when the last MTL receive and the last BTL fragment completed at their targets
  std::uint64_t puts = 0;     // the World's SeaStar's put counter
};
// Red Storm, 4 ranks, 2 per node: rank 0 sends `n_mtl` 8-byte messages to rank 2 through mtl/portals, rank 1 sends
// `n_btl` 8-byte fragments to rank 3 through btl/portals, all posted at time 0. Ranks 0 and 1 (and 2 and 3) have
// their own cores; what they share is their node's SeaStar.
Times run(int n_mtl, int n_btl) {
  test::Fixture f("red-storm", 4, 2);
  World& w = *f.world;
  REQUIRE(w.contexts().node_of(0) == w.contexts().node_of(1));
  REQUIRE(w.contexts().node_of(2) == w.contexts().node_of(3));
  auto mtl = component_registry().find("mtl", "portals")->make_mtl(w.parts(), f.mca_, "");
  auto btl = component_registry().find("btl", "portals")->make_btl(w.parts(), f.mca_);
  Times t;
  btl->register_tag(btl::kTagPml, [&](const btl::Descriptor& d) {
    t.btl = f.sim.now();
    btl->payload_consumed(d);
  });
  for (int i = 0; i < n_mtl; ++i) {
    mtl->irecv(mpi::P2P{2, 0, i, 8, mpi::kByte, mpi::kCommWorld, Buffer{1 << 20, true}, nullptr},
               [&] { t.mtl = f.sim.now(); });
    mtl->isend(mpi::P2P{0, 2, i, 8, mpi::kByte, mpi::kCommWorld, Buffer{4096, true}, nullptr}, [] {});
  }
  for (int i = 0; i < n_btl; ++i) {
    btl::Descriptor d;
    d.tag = btl::kTagPml;
    d.src = 1, d.dst = 3;
    d.hdr.len = 16;
    d.data = {0, 8, Buffer{8192, true}};
    btl->send(d, [] {});
  }
  f.sim.run();
  const auto& ss = seastar::SeaStar::of(w.nic_services(), w.sim(), w.contexts(), w.cpus(), w.fabric());
  t.puts = ss.count(seastar::SeaStarStat::Puts);
  return t;
}
// Runs scenario `j` under `sets`: every send received once; its points' bandwidths in bytes/s.
std::vector<double> bandwidths(const Json& j, const Overrides& sets = {}) {
  const Json r = run_one(scenario_from_json(j, "s.json"), j["ranks"].get<long long>(), sets);
  CHECK(r["stats"]["sends_completed"] == r["stats"]["recvs_completed"]);
  std::vector<double> bw;
  for (const auto& p : r["points"]) bw.push_back(p["bandwidth_GBps"].get<double>() * 1e9);
  return bw;
}
}  // namespace

// Configuration: as run() above: 8 MTL messages alone, 8 BTL fragments alone, then both together. Expected: alone,
// each finishes at its own time; together, the two components' puts queue on the one firmware timeline of each node
// (the sending node's PowerPC processes every command, the receiving node's matches every header), so commands of one
// wait behind the other's: neither finishes earlier than alone, and their total delay is at least one firmware
// message cost (measured: 0.49 us for the MTL and 0.29 us for the BTL, fw_message_cost 0.5 us); the World's
// SeaStar counts the puts of both. If each component held its own SeaStar (two firmware timelines per node) nothing else would be shared
// between them (own cores, analytic wire for 8-byte messages) and both times would equal the times alone.
// How validated: simulated completion times and the shared counter.
TEST_CASE("nic sharing: mtl/portals and btl/portals on one SeaStar serialize on one firmware timeline", "[protocol][nic]") {
  const Times mtl_alone = run(8, 0), btl_alone = run(0, 8), both = run(8, 8);
  REQUIRE(mtl_alone.mtl > 0);
  REQUIRE(btl_alone.btl > 0);
  REQUIRE(both.mtl > 0);
  REQUIRE(both.btl > 0);
  test::Fixture f("red-storm", 4, 2);
  const double fw = seastar::nic(*f.machine).p.fw_message_cost;
  INFO("mtl alone " << mtl_alone.mtl << " together " << both.mtl << "; btl alone " << btl_alone.btl << " together "
                    << both.btl << "; fw " << fw);
  CHECK(both.mtl >= mtl_alone.mtl);
  CHECK(both.btl >= btl_alone.btl);
  CHECK((both.mtl - mtl_alone.mtl) + (both.btl - btl_alone.btl) >= fw * (1 - 1e-9));
  CHECK(both.puts == mtl_alone.puts + btl_alone.puts);
}

// Configuration: mtl/portals and btl/portals built in one World, then a second mtl/portals. Expected: the two first
// components hold the World's SeaStar (the same object); the second MTL, which would use the same portal table
// entries as the first on the shared interface, is refused. How validated: object identity and std::logic_error.
TEST_CASE("nic sharing: one SeaStar per World, portal table entries claimed once", "[unit][nic]") {
  test::Fixture f("red-storm", 2, 1);
  World& w = *f.world;
  CHECK(w.nic_services().find<seastar::SeaStar>() == nullptr);
  auto mtl = component_registry().find("mtl", "portals")->make_mtl(w.parts(), f.mca_, "");
  seastar::SeaStar* ss = w.nic_services().find<seastar::SeaStar>();
  REQUIRE(ss != nullptr);
  auto btl = component_registry().find("btl", "portals")->make_btl(w.parts(), f.mca_);
  CHECK(w.nic_services().find<seastar::SeaStar>() == ss);
  CHECK(&seastar::SeaStar::of(w.nic_services(), w.sim(), w.contexts(), w.cpus(), w.fabric()) == ss);
  CHECK(w.nic_services().size() == 1);
  CHECK_THROWS_AS(component_registry().find("mtl", "portals")->make_mtl(w.parts(), f.mca_, ""), std::logic_error);
}

// Configuration: Cielo, 2 ranks on two nodes; btl/ugni and the Cray MPT netmod (native/mpich_gni) in one World, each
// with its own uGNI communication domain. Expected: both use the World's one Gemini NIC (gemini::Gni::of), while
// endpoints stay per library: a send through one library connects only its own endpoint. How validated: identity
// and endpoint counts.
TEST_CASE("nic sharing: two uGNI libraries share the Gemini NIC, not their endpoints", "[unit][nic]") {
  test::Fixture f("cielo", 2, 1);
  World& w = *f.world;
  auto gni = [&w]() -> gemini::Gni& {
    return gemini::Gni::of(w.nic_services(), w.sim(), w.contexts(), w.cpus(), w.fabric());
  };
  gemini::Cdm a(gni(), 32), b(gni(), 32);
  CHECK(&a.nic() == &b.nic());
  CHECK(w.nic_services().size() == 1);
  a.smsg_send(0, 1, 8, nullptr, [] {});
  f.sim.run();
  CHECK(a.endpoints() == 1);
  CHECK(b.endpoints() == 0);
  CHECK(a.nic().registration_limit(0) == b.nic().registration_limit(0));
}

// Configuration: osu_mbw_mr on Red Storm's native stack, 8 ranks one per node on nodes 0-7 (the 4 pairs, i and i + 4,
// all cross the link between nodes 3 and 4), at 8 KiB, 16 KiB, 16 KiB + 1 B and 64 KiB; and osu_bw between two
// nodes at the same sizes.
// Expected: the pairs' aggregate never passes the fastest link's payload rate (payloads between nodes are flows that
// share the links; an analytic payload up to 16 KiB used to pass it, 7.23 GB/s at 16 KiB); osu_bw does not fall from
// 16 KiB to 16 KiB + 1 B (no switch of timing model at a size). Every message is received.
// How validated: the points' bandwidth against the topology's link rates (red-storm.json).
TEST_CASE("seastar: messages between nodes share the links they cross", "[runner][seastar]") {
  auto m = load_machine("red-storm");
  const auto& t = *m->networks().at(0).topology;
  double link = 0;
  for (std::size_t id = 0; id < t.link_count(); ++id) link = std::max(link, t.link_bandwidth(static_cast<topology::LinkId>(id)));
  auto points = [](const std::string& bench, int ranks, const Json& nodes) {
    Json j{{"machine", "red-storm"}, {"stack", "native"}, {"ranks", ranks}, {"ranks_per_node", 1},
           {"benchmark", {{"name", bench}, {"sizes", {8192, 16384, 16385, 65536}}, {"iterations", 20}, {"skip", 2}}}};
    if (!nodes.is_null()) j["nodes"] = nodes;
    return bandwidths(j);
  };
  for (double b : points("osu_mbw_mr", 8, Json{0, 1, 2, 3, 4, 5, 6, 7})) CHECK(b <= link * (1 + 1e-9));
  const auto bw = points("osu_bw", 2, Json());
  REQUIRE(bw.size() == 4);
  CHECK(bw[2] >= bw[1] * (1 - 1e-6));
}

// Configuration: osu-elan4 (Elan4 on PCI-X: 1.064 GB/s x 0.857 of payload; Elite-4 links 1.3 GB/s x 0.9 a direction),
// openmpi-elan4's osu_bw at 64 KiB and 1 MiB, window 64: (a) one rank per node; (b) the same with PCI-X at
// 2.128 GB/s (what-if, twice the link's payload rate); (c) two ranks on one node (a NIC loopback); (d) whatif-qsnet-64
// with ranks on nodes 0 and 63 (several switch hops) and the links at 0.5 GB/s; (e) 1, 8 and 16 KiB (QDMAs and RDMAs
// up to flow_threshold, timed analytically) with the links at 0.5 GB/s and with PCI-X at 4 GB/s. Expected: (a) at most
// the PCI-X payload rate; (b) at most the node link's payload rate (1.17 GB/s: the node's link is a resource of every payload, not only
// the links between switches); (c) at most half the PCI-X rate (a loopback is read over the half-duplex bus and written
// back over it); (d) and (e) at most the link's payload rate (0.45 GB/s; 1.17 GB/s): an analytic payload holds the
// source node's link out and the destination node's link in as it holds the buses (it passed them: 0.848 GB/s at
// 16 KiB over 0.5 GB/s links, 2.707 GB/s with PCI-X at 4 GB/s). Every send received once in each.
// How validated: simulated bandwidth against the machine file's rates (derived from the parameters, not read back).
TEST_CASE("qsnet: a payload is bound by its node's link and PCI-X bus, twice the bus on one node", "[runner][qsnet]") {
  auto bandwidth = [](const std::string& machine, long long per_node, const Json& nodes, const Overrides& sets) {
    Json j{{"machine", machine}, {"stack", "openmpi-elan4"}, {"ranks", 2}, {"ranks_per_node", per_node},
           {"benchmark", {{"name", "osu_bw"}, {"sizes", {65536, 1048576}}}}};
    if (!nodes.is_null()) j["nodes"] = nodes;
    const auto bw = bandwidths(j, sets);
    REQUIRE(bw.size() == 2);
    return bw;
  };
  // (e) sizes up to flow_threshold (16 KiB: QDMAs and analytic RDMAs) under the same what-ifs as (b) and (d)
  auto small = [](const Overrides& sets) {
    Json j{{"machine", "osu-elan4"}, {"stack", "openmpi-elan4"}, {"ranks", 2}, {"ranks_per_node", 1},
           {"benchmark", {{"name", "osu_bw"}, {"sizes", {1024, 8192, 16384}}}}};
    return bandwidths(j, sets);
  };
  auto m = load_machine("osu-elan4");
  const auto& q = qsnet::nic(*m).p;
  const double pcix = q.pcix_bandwidth.value * q.pcix_efficiency.value;
  const double link = q.link_bandwidth.value * q.link_efficiency.value;
  REQUIRE(pcix < link);  // the paper's nodes: PCI-X is the slower
  REQUIRE(2 * pcix > link);
  const auto a = bandwidth("osu-elan4", 1, Json(), {});
  CHECK(a[1] <= pcix * (1 + 1e-9));
  CHECK(a[1] >= 0.95 * pcix);
  const auto b = bandwidth("osu-elan4", 1, Json(), {{"nic.pcix_bandwidth", "2.128 GB/s"}});
  CHECK(b[1] <= link * (1 + 1e-9));
  CHECK(b[1] >= 0.95 * link);
  const auto c = bandwidth("osu-elan4", 2, Json(), {});
  CHECK(c[1] <= pcix / 2 * (1 + 1e-9));
  CHECK(c[1] >= 0.95 * pcix / 2);
  const auto d = bandwidth("whatif-qsnet-64", 1, Json{0, 63}, {{"nic.link_bandwidth", "0.5 GB/s"}});
  CHECK(d[0] <= 0.5e9 * q.link_efficiency.value * (1 + 1e-9));
  CHECK(d[1] <= 0.5e9 * q.link_efficiency.value * (1 + 1e-9));
  CHECK(d[1] >= 0.95 * 0.5e9 * q.link_efficiency.value);
  for (double v : small({{"nic.link_bandwidth", "0.5 GB/s"}})) CHECK(v <= 0.5e9 * q.link_efficiency.value * (1 + 1e-9));
  for (double v : small({{"nic.pcix_bandwidth", "4 GB/s"}})) CHECK(v <= link * (1 + 1e-9));
}

// Configuration: crusher, native stack, osu_bw between two ranks of one node (cores 1 and 9: GCDs 4 and 5, joined by
// 4 xGMI links) on device buffers at 64 KiB and 256 KiB (sizes whose copy fits the CPU's copy cache), with the xGMI
// links at 1 GB/s, then with the GCDs' memory at 10 GB/s, then with the CPU's cache copy rate at 100 GB/s.
// Expected: the GPU IPC copy is bounded by the GPU links (4 GB/s) and by the GPU memory (10 GB/s) at every size, and
// the CPU's cache copy rate changes nothing (a GPU copy has no part in the CPU's cache). Before, a copy's cached part
// was CPU time at cache_copy_bandwidth: 18.1 GB/s at 256 KiB over 4 GB/s of links.
// How validated: simulated bandwidth against the --set rates.
TEST_CASE("crusher: an on-node GPU copy is bounded by the GPU links and memories at every size", "[runner][slingshot]") {
  auto bandwidth = [](const Overrides& sets) {
    Json j{{"machine", "crusher"}, {"stack", "native"}, {"ranks", 2}, {"ranks_per_node", 2}, {"map_by", "core"},
           {"cpu_list", {1, 9}},
           {"benchmark", {{"name", "osu_bw"}, {"buffer", "device"}, {"sizes", {65536, 262144}}, {"iterations", 10},
                          {"skip", 2}}}};
    const auto bw = bandwidths(j, sets);
    REQUIRE(bw.size() == 2);
    return bw;
  };
  for (double b : bandwidth({{"node.buses.xgmi.bandwidth", "1 GB/s"}})) CHECK(b <= 4e9 * (1 + 1e-9));
  for (double b : bandwidth({{"node.gpu_models.mi250x_gcd.memory_bandwidth", "10 GB/s"}})) CHECK(b <= 10e9 * (1 + 1e-9));
  const auto nominal = bandwidth({});
  const auto cache = bandwidth({{"node.memory.cache_copy_bandwidth", "100 GB/s"}});
  CHECK(cache[0] == Approx(nominal[0]).epsilon(1e-9));
  CHECK(cache[1] == Approx(nominal[1]).epsilon(1e-9));
}

// Configuration: crusher, openmpi-cxi osu_bw of 1 MiB between node 0 and node 128 (the other dragonfly group), with
// the global links at 5 GB/s, then the local links (nic.link_bandwidth) at 5 GB/s with the global ones as they are.
// Expected: the first bounded by the global link's payload rate (5 GB/s x packet_payload_efficiency), the second by
// the NIC's link at the same rate: each class of link has its own rate.
// How validated: simulated bandwidth against the --set rates and the machine file's payload efficiency.
TEST_CASE("crusher: a global link's rate is its own", "[runner][slingshot]") {
  auto m = load_machine("crusher");
  const double eff = slingshot::nic(*m).p.packet_payload_efficiency.value;
  auto bandwidth = [](const Overrides& sets) {
    Json j{{"machine", "crusher"}, {"stack", "openmpi-cxi"}, {"ranks", 2}, {"ranks_per_node", 1}, {"nodes", {0, 128}},
           {"benchmark", {{"name", "osu_bw"}, {"sizes", {1048576}}, {"iterations", 10}, {"skip", 2}}}};
    return bandwidths(j, sets).at(0);
  };
  const double nominal = bandwidth({});
  const double global = bandwidth({{"nic.global_link_bandwidth", "5 GB/s"}});
  CHECK(global <= 5e9 * eff * (1 + 1e-9));
  CHECK(global >= 0.9 * 5e9 * eff);
  CHECK(nominal > 2 * global);
  CHECK(bandwidth({{"nic.link_bandwidth", "5 GB/s"}}) <= 5e9 * eff * (1 + 1e-9));
}

// Configuration: Cielo, two ranks on one node on cores 0 and 4 (two dies of a package), osu_bw, Open MPI (vader) and
//                Cray MPT (native); node.links.inter_die_bandwidth set far below every other rate.
// Expected:      an eager message's data cross the inter-die link once (copied into a fast box or a cell in the
//                sender's memory, copied out by the receiver), so vader's 128-byte fast-box messages (beyond the line
//                of the header's poll) and MPT's 8 KiB cells are bound by the link; a 1-byte fast-box message's data
//                share the line its header's poll brought over, and its rate does not move.
// How validated: simulated bandwidth against the --set rate.
TEST_CASE("cielo: on-node eager data between dies cross the inter-die link", "[runner][gemini]") {
  auto bandwidth = [](const std::string& stack, long long bytes, const Overrides& sets) {
    Json j{{"machine", "cielo"}, {"stack", stack}, {"ranks", 2}, {"ranks_per_node", 2}, {"cpu_list", {0, 4}},
           {"benchmark", {{"name", "osu_bw"}, {"sizes", {bytes}}, {"iterations", 20}, {"skip", 2}}}};
    return bandwidths(j, sets).at(0);
  };
  const Overrides slow{{"node.links.inter_die_bandwidth", "0.01 GB/s"}};
  for (auto [stack, bytes] : {std::pair{"openmpi", 128LL}, std::pair{"native", 8192LL}}) {
    CAPTURE(stack, bytes);
    const double nominal = bandwidth(stack, bytes, {}), crossed = bandwidth(stack, bytes, slow);
    CHECK(crossed <= 0.01e9 * (1 + 1e-9));
    CHECK(nominal > 10 * crossed);
  }
  CHECK(bandwidth("openmpi", 1, slow) == Approx(bandwidth("openmpi", 1, {})).epsilon(1e-9));
}

// Configuration: Cielo, 16 ranks on one node, barrier_loop cheetah-atomic (radix 4) and cheetah-hierarchical, the
//                Gemini's AMO latency (nic.amo_latency) at its value and at 5 us.
// Expected:      the atomic barrier (the uGNI BCOL over all processes) posts every atomic to the NIC, to the node's
//                own ranks too, so its latency follows nic.amo_latency (at least two tree levels of 5 us); the
//                hierarchical one keeps the node's ranks on shared-memory atomics and does not move (one node).
// How validated: simulated latency against the --set value.
TEST_CASE("cielo: the atomic barrier's atomics go through the Gemini NIC to the node's ranks too", "[runner][gemini]") {
  auto latency = [](const std::string& algorithm, const Overrides& sets) {
    Json j{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", 16}, {"ranks_per_node", 16},
           {"benchmark", {{"name", "barrier_loop"}, {"algorithm", algorithm}, {"radix", 4}, {"iterations", 10},
                          {"skip", 2}}}};
    const Json r = run_one(scenario_from_json(j, "s.json"), 16, sets);
    return r["points"].at(0)["latency_us"].get<double>();
  };
  const Overrides slow{{"nic.amo_latency", "5 us"}};
  CHECK(latency("cheetah-atomic", slow) >= 2 * 5.0);
  CHECK(latency("cheetah-atomic", slow) > latency("cheetah-atomic", {}) + 5.0);
  CHECK(latency("cheetah-hierarchical", slow) == Approx(latency("cheetah-hierarchical", {})).epsilon(1e-12));
}
