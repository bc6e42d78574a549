// Memory handed out by MPI_Alloc_mem. Open MPI v1.1's mca_mpool_base_alloc registers it with every memory pool, and
// a later registration lookup (mpool_find, mca_pml_ob1_rdma_btls) finds it by address. The model gives such memory
// addresses in a range of its own (bit 62 set), above any address a benchmark uses for malloc'ed buffers, so that the
// lookup is an address test.
#pragma once
#include "platform/buffer.hpp"

#include <cstdint>

namespace ompisim {

constexpr std::uint64_t kAllocMemBase = std::uint64_t(1) << 62;

// The same buffer as allocated by MPI_Alloc_mem (`yes`), or unchanged (malloc).
inline Buffer alloc_mem(Buffer b, bool yes = true) {
  if (yes) b.addr |= kAllocMemBase;
  return b;
}
// Whether `b` lies in memory from MPI_Alloc_mem (registered with every memory pool).
inline bool from_alloc_mem(const Buffer& b) { return (b.addr & kAllocMemBase) != 0; }

}  // namespace ompisim
