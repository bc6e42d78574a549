// Plain-data dump of the old models/topology/Torus (links, names, every route and hop count), built in its own
// translation unit (legacy_torus_dump.cpp) because the old and the new headers both declare topology::Torus and
// topology::LinkProps. Used only by the parity test in test_torus_parity.cpp; delete all three files together with
// models/topology/.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::topology_test {

struct LegacyLink {
  int from = -1, to = -1, dim = 0, dir = 0;
  double bandwidth = 0, latency = 0;
  std::uint32_t id = 0;
};

struct LegacyTorusDump {
  int routers = 0;
  long long node_slots = 0;
  std::vector<LegacyLink> links;  // indexed by id
  std::vector<std::string> names;  // indexed by id
  std::vector<std::vector<std::uint32_t>> routes;  // [a * routers + b]
  std::vector<int> hops;                            // [a * routers + b]
  std::vector<int> router_of_node;                  // for every node slot
};

LegacyTorusDump legacy_torus_dump(std::array<int, 3> dims, int nodes_per_router, std::array<double, 3> bandwidth,
                                  double hop_latency, std::array<bool, 3> wrap);

}  // namespace ompisim::topology_test
