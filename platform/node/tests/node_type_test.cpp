#include "platform/node/tests/node_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using namespace ompisim::platform;
using ompisim::platform::test::magny_cours;
using ompisim::platform::test::magny_cours_json;
using ompisim::platform::test::sourced;

namespace {

using K = ResourceKind;

// Runs `load` and returns the InputError it must throw.
template <class F>
InputError input_error(F&& load) {
  try {
    load();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError thrown");
  throw std::logic_error("unreachable");
}

}  // namespace

// Configuration: Cielo-shaped node (2 packages x 2 NUMA nodes x 4 cores) read from JSON.
// Expected:      16 cores; core c on NUMA node c / 4 and package c / 8; distance classes and cache-line latencies by
//                distance (0.2 / 0.3 / 0.4 us in the fixture).
// How validated: hand-computed tree positions for the first and last core of each NUMA node.
TEST_CASE("platform/node: the tree of a 2x2x4 node", "[unit][platform]") {
  NodeType t = magny_cours();
  REQUIRE(t.cores() == 16);
  REQUIRE(t.numa_count() == 4);
  const int numa_of[16] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
  for (int c = 0; c < 16; ++c) {
    CHECK(t.numa_of(c) == numa_of[c]);
    CHECK(t.package_of(c) == numa_of[c] / 2);
  }
  CHECK(t.distance(0, 3) == Distance::SameNuma);
  CHECK(t.distance(3, 4) == Distance::OtherNuma);
  CHECK(t.distance(7, 8) == Distance::OtherPackage);
  CHECK(t.cache_line_latency(0, 3) == Approx(0.2e-6));
  CHECK(t.cache_line_latency(0, 7) == Approx(0.3e-6));
  CHECK(t.cache_line_latency(0, 15) == Approx(0.4e-6));
  REQUIRE(t.nics().size() == 1);
  CHECK(t.nics()[0].network == "gemini");
  CHECK(t.nics()[0].index == 0);
  CHECK(t.params().size() == 4 + 7 + 2);
}

// Configuration: Cielo-shaped node; core 1 (NUMA 0, package 0) copies host -> host.
// Expected:      within NUMA 0: CoreCopy[1], NumaMemory[0], no link, latency 0. NUMA 0 -> NUMA 1 (same package):
//                the write crosses InterDie[0->1] (index 0*4+1) and NumaMemory[1]. NUMA 0 -> NUMA 2 (package 1): the
//                write crosses InterSocket[p0->p1] (index 0*2+1), never an inter-die link. Reading from NUMA 2 into
//                NUMA 2 from core 1: both directions of the socket link. Capacities are the fixture's rates.
// How validated: resource lists written out by hand from the documented path rule.
TEST_CASE("platform/node: copy paths within a NUMA node, across NUMA nodes, across packages", "[unit][platform]") {
  NodeType t = magny_cours();
  using V = std::vector<ResourceKey>;
  auto h = MemSpace::host;

  V same = t.copy_path(1, h(0), h(0));
  CHECK(same == V{{K::CoreCopy, 1}, {K::NumaMemory, 0}});
  CHECK(t.copy_latency(1, h(0), h(0)) == 0);

  V die = t.copy_path(1, h(0), h(1));
  CHECK(die == V{{K::CoreCopy, 1}, {K::NumaMemory, 0}, {K::InterDie, 1}, {K::NumaMemory, 1}});
  CHECK(t.describe(die[2]) == "numa0->numa1");
  CHECK(t.copy_latency(1, h(0), h(1)) == Approx(50e-9));

  V socket = t.copy_path(1, h(0), h(2));
  CHECK(socket == V{{K::CoreCopy, 1}, {K::NumaMemory, 0}, {K::InterSocket, 1}, {K::NumaMemory, 2}});
  CHECK(t.describe(socket[2]) == "pkg0->pkg1");
  CHECK(t.copy_latency(1, h(0), h(2)) == Approx(100e-9));
  for (auto& k : same) CHECK(k.kind != K::InterSocket);
  for (auto& k : socket) CHECK(k.kind != K::InterDie);

  V remote = t.copy_path(1, h(2), h(2));
  CHECK(remote == V{{K::CoreCopy, 1}, {K::NumaMemory, 2}, {K::InterSocket, 2}, {K::InterSocket, 1}});
  CHECK(t.copy_latency(1, h(2), h(2)) == Approx(200e-9));

  CHECK(t.resource_capacity({K::CoreCopy, 1}) == Approx(4e9));
  CHECK(t.resource_capacity({K::NumaMemory, 2}) == Approx(10e9));
  CHECK(t.resource_capacity({K::InterDie, 1}) == Approx(6e9));
  CHECK(t.resource_capacity({K::InterSocket, 2}) == Approx(5e9));
  CHECK(t.resource_capacity(t.nic_bus(0)) == Approx(9.6e9));
  CHECK_FALSE(t.has_resource({K::InterDie, 2}));  // NUMA 0 -> NUMA 2 are on different packages
  CHECK_THROWS_AS(t.resource_capacity({K::InterDie, 2}), std::out_of_range);
  CHECK_THROWS_AS(t.copy_path(16, h(0), h(0)), std::out_of_range);
}

// Configuration: Cielo-shaped node with two Gemini NICs, on NUMA node 0 and NUMA node 3, plus one NIC of another
//                network on NUMA 1.
// Expected:      a core on NUMA 3 gets the NUMA-3 NIC (index 1); a core on NUMA 0 the NUMA-0 NIC (index 0); a core
//                on NUMA 1 (package 0) the package-0 NIC (NUMA 0); a core on NUMA 2 (package 1) the NUMA-3 NIC;
//                asking for a network without NICs throws.
// How validated: the rule "same NUMA node, else same package, else index 0" applied by hand.
TEST_CASE("platform/node: nearest_nic picks the NIC on the rank's NUMA node", "[unit][platform]") {
  Json j = magny_cours_json();
  j["nics"] = Json::array({Json{{"network", "gemini"}, {"numa", 0}, {"bus", "ht"}},
                           Json{{"network", "eth"}, {"numa", 1}, {"bus", "ht"}},
                           Json{{"network", "gemini"}, {"numa", 3}, {"bus", "ht"}}});
  NodeType t = NodeType::from_json(j, "test.json");
  CHECK(t.nic_count("gemini") == 2);
  CHECK(t.nearest_nic(13, "gemini").numa == 3);
  CHECK(t.nearest_nic(13, "gemini").index == 1);
  CHECK(t.nearest_nic(2, "gemini").numa == 0);
  CHECK(t.nearest_nic(2, "gemini").index == 0);
  CHECK(t.nearest_nic(5, "gemini").numa == 0);
  CHECK(t.nearest_nic(9, "gemini").numa == 3);
  CHECK(t.nearest_nic(9, "eth").numa == 1);  // only one: index 0 from another package
  CHECK(t.nearest_nic(9, "gemini").id == 2);
  CHECK(t.describe(t.nic_bus(2)) == "nic2-bus(ht)");
  CHECK_THROWS_AS(t.nearest_nic(0, "slingshot"), std::invalid_argument);
}

// A small Frontier-like node without GPUs: 1 package, 4 NUMA nodes of 2 cores, bus "if" (36 GB/s, 1 us).
static Json gpu_node_json() {
  Json j = magny_cours_json();
  j["packages"] = 1;
  j["numa_per_package"] = 4;
  j["cores_per_numa"] = 2;
  j["links"].erase("cache_line_other_package");
  j["links"].erase("inter_socket_bandwidth");
  j["links"].erase("inter_socket_latency");
  j["buses"]["if"] = Json{{"bandwidth", sourced("36 GB/s")}, {"latency", sourced("1 us")}};
  return j;
}

// Configuration: a small Frontier-like node (1 package, 4 NUMA nodes of 2 cores, 2 GPUs on NUMA 0 and 1 linked by
//                "if" with 36 GB/s and 1 us, GPU memory 1.6 TB/s, peer 50 GB/s).
// Expected:      host NUMA 1 -> GPU 0 (on NUMA 0): NumaMemory[1], InterDie[1->0], Bus[gpu 0], GpuMemory[0], no
//                CoreCopy; GPU 0 -> GPU 1: GpuMemory and GpuPeer of both; latency = link + bus latencies.
// How validated: path rule written out; capacities from the fixture.
TEST_CASE("platform/node: copy paths with GPU memory", "[unit][platform]") {
  Json j = gpu_node_json();
  j["gpu_models"] = Json{{"gcd", {{"memory_bandwidth", sourced("1.6 TB/s")}, {"peer_bandwidth", sourced("50 GB/s")}}}};
  j["gpus"] = Json::array({Json{{"numa", 0}, {"bus", "if"}, {"model", "gcd"}},
                           Json{{"numa", 1}, {"bus", "if"}, {"model", "gcd"}}});
  NodeType t = NodeType::from_json(j, "test.json");
  using V = std::vector<ResourceKey>;
  V up = t.copy_path(2, MemSpace::host(1), MemSpace::gpu(0));
  CHECK(up == V{{K::NumaMemory, 1}, {K::InterDie, 4 * 1 + 0}, t.gpu_bus(0), {K::GpuMemory, 0}});
  CHECK(t.gpu_bus(0) == ResourceKey{K::Bus, 1});  // after the one NIC
  CHECK(t.copy_latency(2, MemSpace::host(1), MemSpace::gpu(0)) == Approx(50e-9 + 1e-6));
  CHECK(t.resource_capacity(t.gpu_bus(0)) == Approx(36e9));
  V peer = t.copy_path(0, MemSpace::gpu(0), MemSpace::gpu(1));
  CHECK(peer == V{{K::GpuMemory, 0}, {K::GpuPeer, 0}, {K::GpuPeer, 1}, {K::GpuMemory, 1}});
  CHECK(t.resource_capacity({K::GpuMemory, 1}) == Approx(1.6e12));
  CHECK(t.resource_capacity({K::GpuPeer, 1}) == Approx(50e9));
  V down = t.copy_path(0, MemSpace::gpu(1), MemSpace::host(1));
  CHECK(down == V{{K::GpuMemory, 1}, t.gpu_bus(1), {K::NumaMemory, 1}});
}

// Configuration: the GPU fixture above with 3 GPUs and bus type "xgmi" (50 GB/s, 0.2 us per link and direction);
//                GPUs 0 and 1 joined by 4 links, GPUs 1 and 2 by none.
// Expected:      GPU 0 -> GPU 1 crosses GpuLink[0->1] (not the peer ports), capacity 4 x 50 GB/s, one resource per
//                direction (GpuLink[1->0] is another slot), latency the link's; GPU 1 -> GPU 2 has no direct link and
//                keeps the peer ports (GpuPeer of both, the model's 50 GB/s); a link to a missing GPU, a GPU linked to
//                itself, a pair declared twice and an unknown bus are refused naming the key.
// How validated: path rule written out; capacities from the fixture.
TEST_CASE("platform/node: direct GPU-GPU links", "[unit][platform]") {
  Json j = gpu_node_json();
  j["buses"]["xgmi"] = Json{{"bandwidth", sourced("50 GB/s")}, {"latency", sourced("0.2 us")}};
  j["gpu_models"] = Json{{"gcd", {{"memory_bandwidth", sourced("1.6 TB/s")}, {"peer_bandwidth", sourced("50 GB/s")}}}};
  j["gpus"] = Json::array({Json{{"numa", 0}, {"bus", "if"}, {"model", "gcd"}},
                           Json{{"numa", 0}, {"bus", "if"}, {"model", "gcd"}},
                           Json{{"numa", 1}, {"bus", "if"}, {"model", "gcd"}}});
  j["gpu_links"] = Json::array({Json{{"gpus", {0, 1}}, {"links", 4}, {"bus", "xgmi"}}});
  NodeType t = NodeType::from_json(j, "test.json");
  using V = std::vector<ResourceKey>;
  CHECK(t.gpu_link_count(0, 1) == 4);
  CHECK(t.gpu_link_count(1, 0) == 4);
  CHECK(t.gpu_link_count(1, 2) == 0);
  V linked = t.copy_path(0, MemSpace::gpu(0), MemSpace::gpu(1));
  CHECK(linked == V{{K::GpuMemory, 0}, {K::GpuLink, 0 * 3 + 1}, {K::GpuMemory, 1}});
  CHECK(t.copy_path(0, MemSpace::gpu(1), MemSpace::gpu(0)) == V{{K::GpuMemory, 1}, {K::GpuLink, 1 * 3 + 0}, {K::GpuMemory, 0}});
  CHECK(t.resource_capacity({K::GpuLink, 1}) == Approx(200e9));
  CHECK(t.copy_latency(0, MemSpace::gpu(0), MemSpace::gpu(1)) == Approx(0.2e-6));
  CHECK(t.describe({K::GpuLink, 1}) == "gpu0->gpu1(xgmi x4)");
  CHECK(t.has_resource({K::GpuLink, 3}));
  CHECK_FALSE(t.has_resource({K::GpuLink, 1 * 3 + 2}));
  V routed = t.copy_path(0, MemSpace::gpu(1), MemSpace::gpu(2));
  CHECK(routed == V{{K::GpuMemory, 1}, {K::GpuPeer, 1}, {K::GpuPeer, 2}, {K::GpuMemory, 2}});
  CHECK(t.resource_capacity({K::GpuPeer, 2}) == Approx(50e9));

  auto refused = [&](Json links, const std::string& key, const std::string& word) {
    Json k = j;
    k["gpu_links"] = std::move(links);
    InputError e = input_error([&] { NodeType::from_json(k, "test.json"); });
    CHECK(e.file() == "test.json");
    CHECK(e.key() == key);
    CHECK_THAT(e.reason(), Catch::Contains(word));
  };
  refused(Json::array({Json{{"gpus", {0, 3}}, {"links", 1}, {"bus", "xgmi"}}}), "node.gpu_links[0].gpus", "does not exist");
  refused(Json::array({Json{{"gpus", {1, 1}}, {"links", 1}, {"bus", "xgmi"}}}), "node.gpu_links[0].gpus", "different");
  refused(Json::array({Json{{"gpus", {0, 1}}, {"links", 1}, {"bus", "xgmi"}},
                       Json{{"gpus", {1, 0}}, {"links", 2}, {"bus", "xgmi"}}}),
          "node.gpu_links[1].gpus", "twice");
  refused(Json::array({Json{{"gpus", {0, 1}}, {"links", 1}, {"bus", "xgmy"}}}), "node.gpu_links[0].bus", "xgmi");
}

// Configuration: today's host model (HostParams with Cielo's committed values) and the flat node built from it with
//                the documented field mapping (node_copy_bandwidth -> numa_copy_bandwidth, the other copy fields by
//                name, shm_signal_latency -> cache_line_same_numa), 16 cores.
// Expected:      every core's copy path is CoreCopy[c] then NumaMemory[0], with capacities dram_copy_bandwidth and
//                node_copy_bandwidth (today's "n-c-copy" and "n-membus" resources in runner/world.cpp), latency 0;
//                split_copy equals host::split_copy for sizes inside, at and beyond the cache; the uncontended time
//                matches World::copy_time_uncontended's formula.
// How validated: exact equality against the host functions (same arithmetic), several sizes.
TEST_CASE("platform/node: a flat node reproduces the one-memory copy model", "[unit][platform]") {
  // The previous model's parameters (Cielo's committed values) and its copy split (host::split_copy, replaced by
  // NodeType::split_copy): a copy's working set is source + destination; the part that fits the cache runs at the
  // cache rate, the rest streams from DRAM.
  const double cache_bw = 7.47792e9, dram_bw = 3.78019e9, node_bw = 42.7e9, cache = 512 * 1024, signal = 0.366514e-6;
  auto old_split = [&](double bytes) {
    double ws = 2 * bytes, in_cache = ws <= cache ? 1.0 : cache / ws;
    return std::pair<double, double>{in_cache * bytes / cache_bw, (1.0 - in_cache) * bytes};
  };
  MemoryParams m;
  m.numa_copy_bandwidth.value = node_bw;
  m.dram_copy_bandwidth.value = dram_bw;
  m.cache_copy_bandwidth.value = cache_bw;
  m.copy_cache_size.value = cache;
  Sourced sig;
  sig.value = signal;
  NodeType t = NodeType::flat(16, m, sig);
  for (int c = 0; c < 16; ++c) {
    auto path = t.copy_path(c, MemSpace::host(0), MemSpace::host(0));
    REQUIRE(path == std::vector<ResourceKey>{{K::CoreCopy, c}, {K::NumaMemory, 0}});
    CHECK(t.resource_capacity(path[0]) == dram_bw);
    CHECK(t.resource_capacity(path[1]) == node_bw);
    CHECK(t.copy_latency(c, MemSpace::host(0), MemSpace::host(0)) == 0);
  }
  CHECK(t.cache_line_latency(0, 15) == signal);
  for (double bytes : {0.0, 1.0, 4096.0, 262144.0, 262145.0, 1048576.0, 64.0 * 1048576}) {
    auto [cache_time, dram_bytes] = old_split(bytes);
    auto b = t.split_copy(bytes);
    CHECK(b.cache_time == cache_time);
    CHECK(b.dram_bytes == dram_bytes);
  }
}

// Configuration: the Cielo-shaped JSON with one mistake each.
// Expected:      InputError naming the file and the key path, with the reason: no cores; a NIC on NUMA node 4 of 4;
//                an unknown bus (did you mean); a 2-package node without inter_socket_bandwidth; an inter-socket key on
//                a one-package node; a misspelt top-level key (did you mean); a missing source.
// How validated: key() and reason() of the thrown InputError.
TEST_CASE("platform/node: bad node types are input errors naming the key", "[unit][platform]") {
  auto load = [](Json j) { return input_error([&] { NodeType::from_json(j, "cielo.json"); }); };
  Json j = magny_cours_json();

  j["cores_per_numa"] = 0;
  auto e = load(j);
  CHECK(e.file() == "cielo.json");
  CHECK(e.key() == "node.cores_per_numa");
  CHECK_THAT(e.reason(), Catch::Contains("without cores"));

  j = magny_cours_json();
  j["nics"][0]["numa"] = 4;
  e = load(j);
  CHECK(e.key() == "node.nics[0].numa");
  CHECK_THAT(e.reason(), Catch::Contains("NUMA node 4 does not exist"));

  j = magny_cours_json();
  j["nics"][0]["bus"] = "hy";
  e = load(j);
  CHECK(e.key() == "node.nics[0].bus");
  CHECK_THAT(e.reason(), Catch::Contains("did you mean 'ht'"));

  j = magny_cours_json();
  j["links"].erase("inter_socket_bandwidth");
  e = load(j);
  CHECK(e.key() == "node.links.inter_socket_bandwidth");
  CHECK_THAT(e.reason(), Catch::Contains("2 packages"));

  j = magny_cours_json();
  j["packages"] = 1;
  e = load(j);
  CHECK(e.key() == "node.links.cache_line_other_package");
  CHECK_THAT(e.reason(), Catch::Contains("does not apply"));

  j = magny_cours_json();
  j["numa_per_packge"] = 2;
  e = load(j);
  CHECK(e.key() == "node.numa_per_packge");
  CHECK_THAT(e.reason(), Catch::Contains("did you mean 'numa_per_package'"));

  j = magny_cours_json();
  j["memory"]["numa_copy_bandwidth"].erase("source");
  e = load(j);
  CHECK(e.key() == "node.memory.numa_copy_bandwidth.source");
}
