// XPMEM attachments (Gemini paper §III.B): a rank maps a peer's memory with xpmem_attach, at least `granularity`
// bytes at a time, and caches the attached regions. Used by btl/vader and by the Cray MPT on-node LMT.
#pragma once
#include <cstdint>
#include <set>
#include <unordered_map>

namespace ompisim::host {

class XpmemAttachCache {
public:
  // Number of regions of [addr, addr+bytes) in `peer` that `rank` had not attached yet (and attaches now).
  std::uint64_t attach(int rank, int peer, std::uint64_t addr, std::uint64_t bytes, std::uint64_t granularity) {
    auto& set = attached_[(static_cast<std::uint64_t>(rank) << 32) | static_cast<std::uint32_t>(peer)];
    std::uint64_t fresh = 0;
    std::uint64_t last = (addr + (bytes ? bytes - 1 : 0)) / granularity;
    for (std::uint64_t r = addr / granularity; r <= last; ++r) fresh += set.insert(r).second;
    attaches += fresh;
    return fresh;
  }
  std::uint64_t attaches = 0;

private:
  std::unordered_map<std::uint64_t, std::set<std::uint64_t>> attached_;  // (rank, peer) -> attached regions
};

}  // namespace ompisim::host
