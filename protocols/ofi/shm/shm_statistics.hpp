// ofi/shm's statistics, declared once (core/statistics.hpp): ShmProvider counts them, its registry entry and
// `ompisim describe ofi/shm` list them. Each is reported once counted (absent from a run's counters while zero), and
// added to what the stack's map holds (mpi_truncate_errors is also the cxi provider's under one MTL).
#pragma once
#include "core/statistics.hpp"

#include <array>
#include <cstdint>

namespace ompisim::ofi::shm {

// In kShmStatistics' order; Inject, SingleCopy, Ipc in ShmPath's order (shm_msg.hpp).
enum class ShmStat : std::uint8_t { Inject, SingleCopy, Ipc, Unexpected, Truncate, IpcOpen, IpcCacheHit, Discards };
inline constexpr std::array<StatisticInfo, 8> kShmStatistics{{
    {"shm_inject", "messages", "sends through the shared inject buffer (host buffers up to shm_inject_size)", true},
    {"shm_single_copy", "messages", "sends the receiver copies straight from the sender's memory (CMA/XPMEM)", true},
    {"shm_ipc", "messages", "sends from a device buffer, moved by a GPU copy engine through an IPC handle", true},
    {"shm_unexpected", "messages", "commands that found no posted receive in the owner's queue", true},
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE)", true},
    {"shm_ipc_open", "handles", "IPC handles opened (missing the handle cache)", true},
    {"shm_ipc_cache_hit", "messages", "IPC transfers whose handle was in the cache", true},
    {"shm_discards", "messages", "unexpected messages the owner's queue had discarded (fi_peer discard_tag)", true},
}};

}  // namespace ompisim::ofi::shm
