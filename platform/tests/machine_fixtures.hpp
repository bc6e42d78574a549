// Machine files the platform tests write and load: a JSON machine at a temporary path, and the two-network machine
// (whatif-cielo-2nic plus a LogGP network) that the Machine/World tests and the SimGrid sharing test both use.
#pragma once
#include "core/json_input.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace ompisim::platform_test {

// A machine file written to a temporary path named after `stem` and the process (a "base" and other names in it are
// still looked up in models/*/machines/); removed when it goes out of scope.
struct TempMachine {
  std::string path;
  TempMachine(const std::string& stem, const Json& j) {
    path = (std::filesystem::temp_directory_path() / (stem + "-" + std::to_string(getpid()) + ".json")).string();
    std::ofstream(path) << j.dump(2);
  }
  TempMachine(const TempMachine&) = delete;
  TempMachine& operator=(const TempMachine&) = delete;
  ~TempMachine() { std::filesystem::remove(path); }
};

inline Json sourced(const char* value) { return Json{{"value", value}, {"source", "test"}}; }

// whatif-cielo-2nic (a Gemini network with two ports per node: NICs on NUMA nodes 0 and 2) plus a second network
// "second": a LogGP NIC at 1 GB/s on a flat switch, one port per node, its NIC on NUMA node 1.
inline Json two_networks() {
  Json loggp_nic{{"kind", "loggp"},         {"L", sourced("1 us")},           {"o", sourced("0.5 us")},
                 {"g", sourced("0.2 us")},  {"G_bandwidth", sourced("1 GB/s")}, {"O_bandwidth", sourced("100 GB/s")},
                 {"S", sourced("64 KiB")}};
  Json nics = Json::array({Json{{"network", "gemini"}, {"numa", 0}, {"bus", "ht"}},
                           Json{{"network", "gemini"}, {"numa", 2}, {"bus", "ht"}},
                           Json{{"network", "second"}, {"numa", 1}, {"bus", "ht"}}});
  return Json{{"machine", "two-networks"},
              {"base", "whatif-cielo-2nic"},
              {"networks", {{"second", {{"nic", loggp_nic}, {"topology", {{"kind", "flat"}}}, {"ports_per_node", 1}}}}},
              {"node_types", {{"compute", {{"nics", nics}}}}}};
}

}  // namespace ompisim::platform_test
