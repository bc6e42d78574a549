// A memory region as the platform sees it: its address (alignment for RDMA, registration caches), whether the data is
// one contiguous block, and the memory space it lives in (host DRAM of a NUMA node, or a GPU's memory).
#pragma once
#include "core/enum_names.hpp"

#include <array>
#include <cstdint>

namespace ompisim {

enum class MemKind : std::uint8_t { Host, Device };
inline constexpr std::array<const char*, 2> kMemKindNames{"host", "device"};
inline const char* to_string(MemKind k) { return name_of<MemKind::Device>(k, kMemKindNames); }

// `index` is the NUMA node (Host) or the GPU (Device) within the node; -1 means "local to the rank that uses it" (the
// rank's own NUMA node, or the GPU the rank is bound to).
struct MemSpace {
  MemKind kind = MemKind::Host;
  int index = -1;
  bool operator==(const MemSpace&) const = default;
};

// A user buffer: its address matters for alignment (uGNI GET needs 4-byte alignment) and registration caches.
struct Buffer {
  std::uint64_t addr = 0;
  bool contiguous = true;
  MemSpace space{};
};

}  // namespace ompisim
