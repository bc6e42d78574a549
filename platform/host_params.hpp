// Node-side (host) physical parameters shared by every NIC family: memory copies, caches, cross-core signalling,
// XPMEM. Values come from the machine file with their sources. LIMITATIONS: one cache level (the copy working set
// either fits or spills to DRAM, proportionally); the node's memory system is one shared resource (no NUMA).
#pragma once
#include "core/params.hpp"

namespace ompisim::host {

struct HostParams {
  Sourced cache_copy_bandwidth;   // memcpy rate when the working set fits in cache
  Sourced dram_copy_bandwidth;    // memcpy rate of one core streaming from/to DRAM
  Sourced node_copy_bandwidth;    // aggregate copy throughput of the node's memory system, shared by its cores
  Sourced copy_cache_size;        // cache capacity available to one copy's working set (source + destination)
  Sourced shm_signal_latency;     // a cache line written by one core becomes visible to a polling core
  Sourced xpmem_attach_cost;      // one xpmem_attach (first touch of a 2 MiB-aligned region of a peer)

  template <class V>
  void visit(V&& v) {
    v(cache_copy_bandwidth, {"cache_copy_bandwidth", Dim::Rate, "memcpy rate, working set in cache", 1e6, 1e13});
    v(dram_copy_bandwidth, {"dram_copy_bandwidth", Dim::Rate, "memcpy rate of one core from/to DRAM", 1e6, 1e13});
    v(node_copy_bandwidth, {"node_copy_bandwidth", Dim::Rate, "node memory system copy throughput, shared", 1e6, 1e14});
    v(copy_cache_size, {"copy_cache_size", Dim::Bytes, "cache capacity for one copy's working set", 1024, 1e12});
    v(shm_signal_latency, {"shm_signal_latency", Dim::Time, "cache-line hand-off between two cores", 0, 1e-3});
    v(xpmem_attach_cost, {"xpmem_attach_cost", Dim::Time, "cost of one xpmem_attach", 0, 1e-2});
  }
};

// Time to copy `bytes` split into the part served from cache and the part that streams from DRAM (the latter is a
// shared flow). The working set of a copy is source + destination.
struct CopySplit {
  double cache_time = 0;  // analytic, not shared
  double dram_bytes = 0;  // bytes to move as a flow over the core and node memory resources
};
inline CopySplit split_copy(const HostParams& h, double bytes) {
  CopySplit s;
  double ws = 2 * bytes;
  double in_cache = ws <= h.copy_cache_size ? 1.0 : h.copy_cache_size / ws;
  s.cache_time = in_cache * bytes / h.cache_copy_bandwidth;
  s.dram_bytes = (1.0 - in_cache) * bytes;
  return s;
}

}  // namespace ompisim::host
