// Several networks and several node types per machine (machine files: networks / node_types / node_list).
#include "core/errors.hpp"
#include "engine/des_engine.hpp"
#include "platform/tests/machine_fixtures.hpp"
#include "platform/world.hpp"
#include "runner/registries.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

using namespace ompisim;

using platform_test::sourced;
using platform_test::TempMachine;
using platform_test::two_networks;

// Configuration: whatif-cielo-2nic with a second network (LogGP NIC, flat switch, one port per node).
// Expected: two networks in name order with their own NIC kinds; network() refuses to pick one; nic(kind) finds each;
//           parameters take the long form (the short one would be ambiguous between the networks' sections).
// How validated: the Machine API.
TEST_CASE("platform/machine: two networks, each with its NIC kind, topology and ports", "[unit][platform]") {
  TempMachine f("two-networks", two_networks());
  auto m = load_machine(f.path);
  REQUIRE(m->networks().size() == 2);
  CHECK(m->networks()[0].name == "gemini");
  CHECK(m->networks()[1].name == "second");
  CHECK(m->networks()[0].ports_per_node == 2);
  CHECK(m->networks()[1].ports_per_node == 1);
  CHECK(m->networks()[0].topology->kind() == "torus");
  CHECK(m->networks()[1].topology->kind() == "flat");
  CHECK(m->networks()[0].topology->compute_nodes() == 8894);
  CHECK(m->networks()[1].topology->compute_nodes() == 8894);
  CHECK_THROWS_AS(m->network(), std::logic_error);
  CHECK(m->network("second").nic_kind() == "loggp");
  CHECK(m->network_index("second") == 1);
  CHECK(m->network_index("third") == -1);
  CHECK(m->nic("gemini").kind() == "gemini");
  CHECK(m->nic("loggp").kind() == "loggp");
  CHECK_THROWS_AS(m->nic("seastar"), std::logic_error);
  CHECK(m->has_nic_kind("loggp"));
  CHECK_FALSE(m->has_nic_kind("seastar"));
  CHECK(m->nic_kinds() == std::vector<std::string>{"gemini", "loggp"});
  CHECK_FALSE(m->short_names());
  auto names = param_names(m->physical_params());
  CHECK(std::count(names.begin(), names.end(), "networks.gemini.nic.bte_bandwidth") == 1);
  CHECK(std::count(names.begin(), names.end(), "networks.second.nic.L") == 1);
  CHECK(std::count(names.begin(), names.end(), "node_types.compute.memory.dram_copy_bandwidth") == 1);
  CHECK(std::count(names.begin(), names.end(), "nic.bte_bandwidth") == 0);
}

// Configuration: the two-network machine, 16 ranks on each of 2 nodes mapped by core (ranks 0-3 on NUMA 0, 4-7 on
//                NUMA 1, 8-11 on NUMA 2), DES engine.
// Expected: one fabric per network; routes on each are independent (the torus routes node 0 -> node 300 over links,
//           the flat switch has none); path costs come from each network's NIC kind (LogGP: L and 1/G); the Gemini
//           network's two ports are used by nearest NUMA node (rank 8 -> port 1) while the second network has one
//           port; a 1 MiB transfer on the second network takes bytes * G (its NIC resources), one on the Gemini
//           network bytes over the slower of its host interface and its BTE.
// How validated: World's fabric calls and completion times against closed forms.
TEST_CASE("platform/world: one fabric per network, routed independently, ports per node honoured", "[unit][platform]") {
  TempMachine f("two-networks-world", two_networks());
  auto m = load_machine(f.path);
  Json by_core{{"map_by", "core"}};
  auto run = [&](const std::function<void(World&)>& start) {
    engine::DesEngine sim;
    auto w = std::make_unique<World>(sim, *m, make_placement(*m, 32, 16, {}, "test", by_core));
    w->declare_resources();
    sim.seal();
    start(*w);
    sim.run();
  };
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 32, 16, {}, "test", by_core));
  w.declare_resources();
  sim.seal();
  REQUIRE(w.networks() == 2);
  CHECK(w.fabric(0).network().name == "gemini");
  CHECK(w.fabric(1).network().name == "second");
  // Several networks: the caller names one; a component that does not is refused as bad input (the machine file's).
  CHECK_THROWS_AS(w.fabric().path(0, 300), InputError);
  CHECK_THROWS_WITH(w.fabric(), Catch::Contains("has 2 networks (NIC kinds gemini, loggp)"));
  CHECK_FALSE(w.fabric(0).route(0, 300).empty());
  CHECK(w.fabric(1).route(0, 300).empty());
  PathCost second = w.fabric(1).path(0, 300);
  CHECK(second.latency == Approx(1e-6));
  CHECK(second.bandwidth == Approx(1e9));
  PathCost gemini = w.fabric(0).path(0, 300);
  CHECK(gemini.latency > m->network("gemini").nic_latency());  // router hops on the torus
  CHECK(w.fabric(0).routing().name == "dimension_order");
  CHECK(w.fabric(1).routing().name == "minimal");
  CHECK(w.fabric(0).port_of(0) == 0);
  CHECK(w.fabric(0).port_of(8) == 1);   // NUMA 2: the Gemini NIC on NUMA 2
  CHECK(w.fabric(0).port_of(4) == 0);   // NUMA 1, package 0: the Gemini NIC of its package
  CHECK(w.fabric(1).port_of(8) == 0);   // one port on the second network
  CHECK(w.fabric(1).port_of(15) == 0);

  // Without sharing (DES): each network prices a transfer with its own resources. (Sharing between flows, and its
  // absence between networks and between ports: platform/tests/engine/networks_sharing.cpp, on SimGrid.)
  const double bytes = 1 << 20;
  double second_t = -1, gemini_t = -1;
  run([&](World& x) {
    x.fabric(1).bulk(0, 1, bytes, 0, [&] { second_t = x.sim().now(); }, false, 0, 16);
    x.fabric(0).bulk(0, 1, bytes, 0, [&] { gemini_t = x.sim().now(); }, false, 0, 16);
  });
  CHECK(second_t == Approx(bytes / 1e9));  // the LogGP NIC's resources at 1/G
  const auto& g = m->network("gemini");
  CHECK(gemini_t == Approx(bytes / std::min(g.injection_bandwidth(), g.nic->node_resources()[1].capacity)));
}

// Configuration: Cielo with a second node type "small" (one package, one NUMA node of 4 cores, big-endian arch record)
//                and node_list = 100 compute nodes then 50 small ones.
// Expected: 150 nodes; node_type(n) by position in node_list; total cores; parameters in the long form; a placement
//           on small nodes honours their 4 cores; a job over both types (different shapes) is refused naming "nodes";
//           each type's arch record is read (cielo's little-endian one with its reduction cost, the small type's).
// How validated: the Machine API and make_placement.
TEST_CASE("platform/machine: two node types with counts", "[unit][platform]") {
  Json small{{"packages", 1},
             {"numa_per_package", 1},
             {"cores_per_numa", 4},
             {"source", "test"},
             {"memory",
              {{"numa_copy_bandwidth", sourced("5 GB/s")},
               {"dram_copy_bandwidth", sourced("3 GB/s")},
               {"cache_copy_bandwidth", sourced("6 GB/s")},
               {"copy_cache_size", sourced("1 MiB")}}},
             {"links", {{"cache_line_same_numa", sourced("0.25 us")}}},
             {"arch", {{"endianness", "big"}, {"long_double_bytes", 16}, {"bool_bytes", 4}, {"logical_bytes", 4}}}};
  Json j{{"machine", "two-types"},
         {"base", "cielo"},
         {"node_types", {{"small", small}}},
         {"node_list", Json::array({Json{{"type", "compute"}, {"count", 100}}, Json{{"type", "small"}, {"count", 50}}})}};
  TempMachine f("two-types", j);
  auto m = load_machine(f.path);
  CHECK(m->nodes == 150);
  REQUIRE(m->node_types().size() == 2);
  CHECK(m->node_type(0).cores() == 16);
  CHECK(m->node_type(99).cores() == 16);
  CHECK(m->node_type(100).cores() == 4);
  CHECK(m->node_type(149).cores() == 4);
  CHECK(m->node_type_def(120).name == "small");
  CHECK_THROWS_AS(m->node_type(150), std::out_of_range);
  CHECK(m->total_cores() == 100 * 16 + 50 * 4);
  REQUIRE(m->node_type_def(0).arch.has_value());  // cielo's own record (x86-64, little-endian)
  CHECK(m->node_type_def(0).arch->endianness == Arch::Endian::Little);
  CHECK(m->node_type_def(0).arch->reduce_cost_per_element.set);
  REQUIRE(m->node_type_def(100).arch.has_value());
  CHECK(m->node_type_def(100).arch->endianness == Arch::Endian::Big);
  CHECK(m->node_type_def(100).arch->bool_bytes == 4);
  CHECK(m->network().topology->compute_nodes() == 150);
  auto names = param_names(m->physical_params());
  CHECK(std::count(names.begin(), names.end(), "node_types.small.links.cache_line_same_numa") == 1);
  CHECK(std::count(names.begin(), names.end(), "node_types.compute.links.cache_line_same_numa") == 1);
  CHECK(std::count(names.begin(), names.end(), "networks.gemini.nic.bte_bandwidth") == 1);

  Placement p = make_placement(*m, 8, 4, {100, 101}, "test");
  CHECK(p.map->ranks_on_node(0) == 4);
  CHECK_THROWS_WITH(make_placement(*m, 8, 5, {100, 101}, "test"), Catch::Contains("ranks_per_node"));
  CHECK_THROWS_WITH(make_placement(*m, 8, 4, {99, 100}, "test"),
                    Catch::Contains("key 'nodes'") && Catch::Contains("'compute' and 'small'"));
  engine::DesEngine sim;
  World w(sim, *m, p);
  w.declare_resources();
  CHECK(w.contexts().node_type(0).cores() == 4);
  CHECK(w.contexts().signal_latency(0, 1) == Approx(0.25e-6));
}

// Configuration: Cielo (one network, one node type). Expected: short parameter names as before, and the long form
// of each names the same parameter (its key path in the file). How validated: names and parameter addresses.
TEST_CASE("platform/machine: short names on a one-network machine, long form beside them", "[unit][platform]") {
  auto m = load_machine("cielo");
  CHECK(m->short_names());
  ParamList s = m->physical_params(), l = m->physical_params_long();
  REQUIRE(s.size() == l.size());
  auto find = [](const ParamList& list, const std::string& n) -> const Sourced* {
    for (auto& r : list)
      if (r.info.name == n) return r.p;
    return nullptr;
  };
  const Sourced* bte = find(s, "nic.bte_bandwidth");
  REQUIRE(bte);
  CHECK(find(l, "networks.gemini.nic.bte_bandwidth") == bte);
  CHECK(find(s, "software.pml_ob1_overhead") == find(l, "networks.gemini.software.pml_ob1_overhead"));
  CHECK(find(s, "node.memory.dram_copy_bandwidth") == find(l, "node_types.compute.memory.dram_copy_bandwidth"));
  CHECK(find(s, "os.xpmem_attach_cost") == find(l, "os.xpmem_attach_cost"));
  CHECK(m->network().name == "gemini");
  CHECK(m->software_cost("pml_ob1_overhead") > 0);
}

// Configuration: hetero-cpu (two node types with arch records giving both per-element costs); the multi-node-type test
// machine above whose 'small' arch record gives no cost. Expected: each given cost is a physical parameter named by its
// key path ("node_types.opteron.arch.convert_cost_per_element"), set_param (what --set calls) changes the value the
// protocols read through node_type_def(...).arch; a cost the file does not give is not listed.
// How validated: parameter names and the Arch record after set_param.
TEST_CASE("platform/machine: arch costs per element are parameters settable like the others", "[unit][platform][hetero]") {
  auto m = load_machine("hetero-cpu");
  ParamList l = m->physical_params();
  auto names = param_names(l);
  for (const char* n : {"node_types.opteron.arch.convert_cost_per_element", "node_types.opteron.arch.reduce_cost_per_element",
                        "node_types.g5.arch.convert_cost_per_element", "node_types.g5.arch.reduce_cost_per_element"})
    CHECK(std::count(names.begin(), names.end(), n) == 1);
  const double before = m->node_type_def(128).arch->reduce_cost_per_element;
  REQUIRE(set_param(l, "node_types.g5.arch.reduce_cost_per_element", "7 ns", "--set"));
  CHECK(m->node_type_def(128).arch->reduce_cost_per_element.value == Approx(7e-9));
  CHECK(m->node_type_def(0).arch->reduce_cost_per_element.value != Approx(7e-9));
  CHECK(before != Approx(7e-9));
  REQUIRE(set_param(l, "node_types.opteron.arch.convert_cost_per_element", "10 ns", "--set"));
  CHECK(m->node_type_def(0).arch->convert_cost_per_element.value == Approx(10e-9));
  CHECK_THROWS_WITH(set_param(l, "node_types.opteron.arch.convert_cost_per_element", "10 MB/s", "--set"),
                    Catch::Contains("convert_cost_per_element"));
  auto lanl = load_machine("lanl-multi-nic");  // an arch record without costs: nothing listed
  for (auto& n : param_names(lanl->physical_params())) CHECK(n.find(".arch.") == std::string::npos);
}

// Configuration: crusher-dma4 (a Cassini port's DMA engine works on at most max_active_transfers = 4 bulk transfers
//                at once), DES engine (no sharing: a transfer alone takes bytes over its path's slowest resource);
//                six equal transfers from rank 0 (node 0) to rank 8 (node 1) at time 0, then two GETs pulled by
//                node 1 from node 0.
// Expected: the first four pushes end together at T; the fifth and sixth wait for the port and end at 2T, in the
//           order they were asked for. The pulled transfers occupy node 1's port, which is idle: both end at
//           T after they start, while node 0's port is still busy.
// How validated: completion times and order against T, the time of one transfer alone.
TEST_CASE("platform/fabric: a port works on at most max_active_transfers bulk transfers, the rest wait in order",
          "[unit][platform]") {
  auto m = load_machine("crusher-dma4");
  REQUIRE(m->network().nic->max_active_transfers() == 4);
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 16, 8, {}, "test", Json::object()));
  w.declare_resources();
  sim.seal();
  const double bytes = 1 << 20;
  std::vector<std::pair<int, double>> ends;
  for (int i = 0; i < 6; ++i) w.fabric().bulk(0, 1, bytes, 0, [&, i] { ends.emplace_back(i, sim.now()); }, false, 0, 8);
  for (int i = 6; i < 8; ++i) w.fabric().bulk(0, 1, bytes, 0, [&, i] { ends.emplace_back(i, sim.now()); }, true, 0, 8);
  sim.run();
  REQUIRE(ends.size() == 8);
  const double t = ends.front().second;
  REQUIRE(t > 0);
  std::vector<int> order;
  for (auto& [i, at] : ends) {
    order.push_back(i);
    CHECK(at == Approx(i == 4 || i == 5 ? 2 * t : t));
  }
  CHECK(order == std::vector<int>{0, 1, 2, 3, 6, 7, 4, 5});
}

// Configuration: Cielo (Gemini torus), nodes 0 and 2 (other routers), packets of 64 B sent by packet_wait at one
// simulated time: one alone, then four back to back, then one from node 2 to node 0 (the other direction).
// Expected: a packet on an idle path waits 0 (its time is wire_time's); the k-th of the back-to-back packets waits k x
// 64 B over the slowest rate it crosses (the path's bandwidth), the FIFO of the links and ports they share; the other
// direction's links and ports are free, so its packet waits 0; the counter counts the packets that waited.
// How validated: waits against path(0, 2).bandwidth.
TEST_CASE("platform/fabric: small packets wait for the packets ahead of them on their links", "[unit][platform]") {
  auto m = load_machine("cielo");
  engine::DesEngine sim;
  World w(sim, *m, make_placement(*m, 4, 1, {}, "test", Json::object()));
  w.declare_resources();
  sim.seal();
  Fabric& f = w.fabric();
  const double rate = f.path(0, 2).bandwidth, bytes = 64;
  REQUIRE(f.route(0, 2).size() > 0);
  CHECK(f.packet_wait(0, 2, bytes) == 0);
  sim.after(1.0, [&] {  // long after: the path is idle again
    for (int k = 0; k < 4; ++k) CHECK(f.packet_wait(0, 2, bytes) == Approx(k * bytes / rate).margin(1e-14));
    CHECK(f.packet_wait(2, 0, bytes) == 0);
  });
  sim.run();
  CHECK(f.packets_delayed == 3);
}

// Two ranks on two nodes of `machine`, one a node, on the des engine, resources declared: the fabric the packet-train
// tests drive.
struct TwoNodes {
  std::unique_ptr<Machine> m;
  engine::DesEngine sim;
  World w;
  explicit TwoNodes(const std::string& machine)
      : m(load_machine(machine)), w(sim, *m, make_placement(*m, 2, 1, {}, "test", Json::object())) {
    w.declare_resources();
    sim.seal();
  }
  // The capacity of the NIC's node resource `name` (0 when it has none).
  double capacity(const std::string& name) const {
    for (const auto& r : m->network().nic->node_resources())
      if (r.name == name) return r.capacity;
    return 0;
  }
};

// Configuration: Frontier (Slingshot dragonfly, cxi NIC), 2 ranks on 2 nodes; a 4 KiB DMA transfer (bulk) node 0 ->
// node 1 after 1 us as a flow; then with packet trains up to 4 KiB the same transfer, then two at once, then one of
// 4 KiB + 1 B. Expected: the train alone ends when the flow did (its rate the slowest of the NIC resources of the
// bulk path and the route's links, as the flow's); of the two at once the first ends as if alone and the second one
// serialization at the slowest resource they share later (FIFO on the ports, NIC resources and links); the larger
// transfer is a flow again.
// How validated: end dates, the fabric's train and flow counts.
TEST_CASE("platform/fabric: a bulk packet train alone ends when its flow would", "[unit][platform]") {
  TwoNodes two("frontier");
  engine::DesEngine& sim = two.sim;
  Fabric& f = two.w.fabric();
  const double bytes = 4096, lat = 1e-6;
  double flow = -1;
  f.bulk(0, 1, bytes, lat, [&] { flow = sim.now(); }, false, 0, 1);
  sim.run();
  REQUIRE(f.bulk_flows == 1);
  REQUIRE(flow > lat);
  f.set_packet_trains(bytes);
  double t0 = sim.now(), alone = -1;
  f.bulk(0, 1, bytes, lat, [&] { alone = sim.now() - t0; }, false, 0, 1);
  sim.run();
  CHECK(alone == Approx(flow).epsilon(1e-12));
  CHECK(f.packet_trains == 1);
  CHECK(f.bulk_flows == 1);
  std::vector<double> ends;
  sim.after(1.0, [&] {  // long after: the path is idle again
    t0 = sim.now();
    for (int i = 0; i < 2; ++i) f.bulk(0, 1, bytes, lat, [&] { ends.push_back(sim.now() - t0); }, false, 0, 1);
  });
  sim.run();
  REQUIRE(ends.size() == 2);
  CHECK(ends[0] == Approx(flow).epsilon(1e-9));
  // FIFO through the same ports, NIC resources and links: one serialization at the slowest of them later
  CHECK(ends[1] == Approx(flow + std::max(flow - lat, bytes / f.path(0, 1).bandwidth)).epsilon(1e-9));
  CHECK(f.packet_trains == 3);
  f.bulk(0, 1, bytes + 1, lat, [] {}, false, 0, 1);
  sim.run();
  CHECK(f.bulk_flows == 2);
}

// Configuration: Titan (Gemini), 2 ranks on 2 nodes, packet trains up to 1 MiB; 1 MiB DMA transfers (BTE, bulk) from
// node 0 to node 1, four back to back; then 1 MiB host-driven transfers (FMA, pio) node 0 -> 1 and 1 -> 0 at once, as
// osu_bibw's.
// Expected: the DMA trains leave one after another at the BTE's rate (nic.bte_bandwidth, the path's slowest
// resource): the last ends 3 serializations after the first, so four take no less than the flows would; the two
// directions' FMA trains share each node's host interface, which carries both directions (nic.nic_ht_capacity): the
// later ends no sooner than 2 x 1 MiB over its capacity after they start. How validated: end dates against the NIC
// resources' capacities. Fails when a train's NIC resources have no queue (the BTE and the host interface then
// overlap trains: 6.7 GB/s from a 4.7 GB/s BTE, 13.3 GB/s bidirectional over a 6.8 GB/s host interface).
TEST_CASE("platform/fabric: packet trains queue on the NIC resources of their path", "[unit][platform]") {
  TwoNodes two("titan");
  engine::DesEngine& sim = two.sim;
  Fabric& f = two.w.fabric();
  f.set_packet_trains(1 << 20);
  const double bte = two.capacity("bte"), ht = two.capacity("ht");
  REQUIRE(bte > 0);
  REQUIRE(ht > 0);
  const double bytes = 1 << 20;
  std::vector<double> dma;
  for (int i = 0; i < 4; ++i) f.bulk(0, 1, bytes, 0, [&] { dma.push_back(sim.now()); }, false, 0, 1);
  sim.run();
  REQUIRE(dma.size() == 4);
  CHECK(dma[3] - dma[0] == Approx(3 * bytes / bte).epsilon(1e-9));
  const double t0 = sim.now() + 1.0;
  std::vector<double> both;
  sim.after(1.0, [&] {
    f.pio(0, 1, bytes, 0, [&] { both.push_back(sim.now() - t0); }, 0, 1);
    f.pio(1, 0, bytes, 0, [&] { both.push_back(sim.now() - t0); }, 1, 0);
  });
  sim.run();
  REQUIRE(both.size() == 2);
  CHECK(both[1] >= 2 * bytes / ht * (1 - 1e-9));
  CHECK(f.packet_trains == 6);
}

// Configuration: Titan, two nodes, packet trains up to 1 MiB: a 64 KiB bulk train issued to leave 100 us from now,
// then two more of 64 KiB issued to leave at once, on the same path.
// Expected: the two early trains fit in the gap before the late one, one after the other (the second ends at least
// one serialization after the first), and the late one still ends when it would alone. How validated: completion
// dates against 64 KiB at the BTE's rate. Fails when a train passes in a gap another has already taken.
TEST_CASE("platform/fabric: packet trains taking one gap do not overlap", "[unit][platform]") {
  TwoNodes two("titan");
  engine::DesEngine& sim = two.sim;
  Fabric& f = two.w.fabric();
  f.set_packet_trains(1 << 20);
  const double bte = two.capacity("bte");
  REQUIRE(bte > 0);
  const double bytes = 65536, serialize = bytes / bte;
  double late = 0, b = 0, c = 0;
  f.bulk(0, 1, bytes, 100e-6, [&] { late = sim.now(); }, false, 0, 1);
  f.bulk(0, 1, bytes, 0, [&] { b = sim.now(); }, false, 0, 1);
  f.bulk(0, 1, bytes, 0, [&] { c = sim.now(); }, false, 0, 1);
  sim.run();
  REQUIRE(b > 0);
  CHECK(c - b >= serialize * (1 - 1e-9));
  CHECK(late == Approx(100e-6 + b).epsilon(1e-9));
}

// Configuration: crusher (no bound on a port's DMA transfers) and the what-if crusher-dma4 (4 at once per port), two
// nodes, packet trains up to 1 MiB: 8 bulk trains of 1 KiB from rank 0 to rank 1, issued at one date.
// Expected: each train's time is mostly the wire latency, so without a bound the 5th ends a few serializations after
// the 1st; with 4 slots it leaves only when the 1st has ended (the earliest free slot), so it ends at least a wire
// latency after it (the 8th after the 4th likewise). How validated: completion dates against Fabric::wire_time.
// Fails when a train ignores max_active_transfers.
TEST_CASE("platform/fabric: a bulk packet train waits for a slot of its DMA engine", "[unit][platform]") {
  double wire = 0;
  auto ends = [&wire](const char* machine) {
    TwoNodes two(machine);
    engine::DesEngine& sim = two.sim;
    Fabric& f = two.w.fabric();
    f.set_packet_trains(1 << 20);
    wire = f.wire_time(0, 1, 0);
    std::vector<double> end;
    for (int i = 0; i < 8; ++i) f.bulk(0, 1, 1024, 2e-6, [&] { end.push_back(sim.now()); }, false, 0, 1);
    sim.run();
    CHECK(f.packet_trains == 8);
    CHECK(f.bulk_flows == 0);
    return end;
  };
  const auto free = ends("crusher"), bound = ends("crusher-dma4");
  REQUIRE(free.size() == 8);
  REQUIRE(bound.size() == 8);
  REQUIRE(wire > 0);
  CHECK(bound[0] == Approx(free[0]).epsilon(1e-12));
  CHECK(free[4] < free[0] + wire);
  CHECK(bound[4] >= (bound[0] + wire) * (1 - 1e-12));
  CHECK(bound[7] >= (bound[3] + wire) * (1 - 1e-12));
}

// Configuration: machine files on Frontier's base: one sets the dragonfly's groups (128) without a source, one with its
// own source, one changes only the topology's note.
// Expected: the first topology's source names the key it set and the file, then Frontier's source (which no longer
// describes 128 groups); the second keeps its own source as given; the third keeps Frontier's source unchanged (a note
// is no shape). The shape is the child's in the first two.
// How validated: the network's topology_json as describe and the result's provenance print it. Fails when the merge
// keeps the base's source for a shape the child changed.
TEST_CASE("platform/machine: a base's topology source does not cover a shape the child changed", "[unit][platform]") {
  const std::string frontier = load_machine("frontier")->networks()[0].topology_json["source"].get<std::string>();
  TempMachine bare("bigger-df", Json{{"base", "frontier"}, {"machine", "bigger-df"},
                                     {"networks", {{"cxi", {{"topology", {{"groups", 128}}}}}}}});
  auto m = load_machine(bare.path);
  const Json& t = m->networks()[0].topology_json;
  CHECK(t["groups"] == 128);
  CHECK(t["source"].get<std::string>() ==
        "groups set by " + bare.path + " (no source given); the base's source: " + frontier);
  TempMachine own("bigger-df-sourced",
                  Json{{"base", "frontier"}, {"machine", "bigger-df-sourced"},
                       {"networks", {{"cxi", {{"topology", {{"groups", 128}, {"source", "what-if: 128 groups"}}}}}}}});
  CHECK(load_machine(own.path)->networks()[0].topology_json["source"] == "what-if: 128 groups");
  TempMachine note("df-note", Json{{"base", "frontier"}, {"machine", "df-note"},
                                   {"networks", {{"cxi", {{"topology", {{"note", "a note of mine"}}}}}}}});
  CHECK(load_machine(note.path)->networks()[0].topology_json["source"] == frontier);
}
