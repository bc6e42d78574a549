// Node types shared by the platform/node tests. Values are round test numbers, not machine data (their "source" says
// so); the Cielo shape (2 packages x 2 NUMA nodes x 4 cores, one Gemini NIC on HyperTransport) is README.md's example.
#pragma once
#include "platform/node/node_type.hpp"

#include <string>

namespace ompisim::platform::test {

inline Json sourced(const std::string& value) { return Json{{"value", value}, {"source", "test value"}}; }

inline Json magny_cours_json() {
  return Json{
      {"packages", 2},
      {"numa_per_package", 2},
      {"cores_per_numa", 4},
      {"source", "test: Cielo/Magny-Cours shape"},
      {"memory",
       {{"numa_copy_bandwidth", sourced("10 GB/s")},
        {"dram_copy_bandwidth", sourced("4 GB/s")},
        {"cache_copy_bandwidth", sourced("8 GB/s")},
        {"copy_cache_size", sourced("512 KiB")}}},
      {"links",
       {{"cache_line_same_numa", sourced("0.2 us")},
        {"cache_line_other_numa", sourced("0.3 us")},
        {"cache_line_other_package", sourced("0.4 us")},
        {"inter_die_bandwidth", sourced("6 GB/s")},
        {"inter_die_latency", sourced("50 ns")},
        {"inter_socket_bandwidth", sourced("5 GB/s")},
        {"inter_socket_latency", sourced("100 ns")}}},
      {"buses", {{"ht", {{"bandwidth", sourced("9.6 GB/s")}, {"latency", sourced("120 ns")}}}}},
      {"nics", Json::array({Json{{"network", "gemini"}, {"numa", 0}, {"bus", "ht"}}})},
      {"gpus", Json::array()}};
}

inline NodeType magny_cours() { return NodeType::from_json(magny_cours_json(), "test.json"); }

}  // namespace ompisim::platform::test
