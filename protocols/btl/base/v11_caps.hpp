// The capability record of an Open MPI v1.1 BTL that registers the common parameter set (eager limit, max send size,
// min/max RDMA size, exclusivity, latency, bandwidth, flags), as btl/openib, btl/gm and btl/tcp of v1.1 do: one
// mapping for all three instead of a copy per component. Each component keeps its own parameter names.
#pragma once
#include "core/params.hpp"
#include "protocols/btl/btl.hpp"

#include <cstdint>

namespace ompisim::btl {

// How many ordered channels a connection of a commodity-NIC BTL has (FabricBtl): one FIFO (btl/tcp: one socket per
// endpoint), or a low-priority FIFO plus a high-priority one for PRIORITY descriptors that fit an eager fragment
// (btl/mvapi and btl/openib: two QPs per endpoint; btl/gm: GM_HIGH_PRIORITY / GM_LOW_PRIORITY). Each component's
// constant kConnection, from its source.
enum class Connection : std::uint8_t { SingleFifo = 1, PriorityChannel = 2 };

inline BtlCaps v11_caps(const Sourced& eager_limit, const Sourced& max_send_size, const Sourced& min_rdma_size,
                        const Sourced& max_rdma_size, const Sourced& exclusivity, const Sourced& latency,
                        const Sourced& bandwidth, const Sourced& flags, const Sourced& min_send_size) {
  BtlCaps c;
  c.min_send_size = static_cast<std::uint64_t>(min_send_size.value);
  c.eager_limit = static_cast<std::uint64_t>(eager_limit.value);
  c.rndv_eager_limit = c.eager_limit;
  c.max_send_size = static_cast<std::uint64_t>(max_send_size.value);
  c.min_rdma_pipeline_size = static_cast<std::uint64_t>(min_rdma_size.value);
  c.rdma_pipeline_frag_size = static_cast<std::uint64_t>(max_rdma_size.value);
  c.rdma_pipeline_send_length = c.eager_limit;
  c.exclusivity = static_cast<std::uint32_t>(exclusivity.value);
  c.latency = static_cast<std::uint32_t>(latency.value);
  c.bandwidth = static_cast<std::uint32_t>(bandwidth.value);
  c.flags = static_cast<std::uint32_t>(flags.value) | flag::Send;
  return c;
}

}  // namespace ompisim::btl
