// ofi/linkx's statistics, declared once (core/statistics.hpp): Linkx counts them (the matches from its shared receive
// queue at report time), its registry entry and `ompisim describe ofi/linkx` list them. Always reported; the core
// providers' own counters follow them in a run (ofi/shm, ofi/cxi).
#pragma once
#include "core/statistics.hpp"

#include <array>
#include <cstdint>

namespace ompisim::ofi::linkx {

enum class LinkxStat : std::uint8_t { ViaShm, ViaCxi, CqWrites, MatchedExpected, MatchedUnexpected };
inline constexpr std::array<StatisticInfo, 5> kLinkxStatistics{{
    {"linkx_via_shm", "messages", "sends (fi_tsend, fi_tinject) given to the shm provider: a peer on the same node"},
    {"linkx_via_cxi", "messages", "sends given to the cxi provider: a peer on another node"},
    {"linkx_cq_writes", "entries", "completions the core providers wrote into the shared CQ"},
    {"linkx_matched_expected", "messages", "arriving messages that found a posted receive in the shared receive queue"},
    {"linkx_matched_unexpected", "messages", "receives posted that found a queued unexpected message"},
}};

}  // namespace ompisim::ofi::linkx
