// ofi/cxi's statistics, declared once (core/statistics.hpp): CxiProvider counts them, its registry entry and
// `ompisim describe ofi/cxi` list them. Each is reported once counted (absent from a run's counters while zero), and
// added to what the stack's map holds (mpi_truncate_errors is also the shm provider's under one MTL).
#pragma once
#include "core/statistics.hpp"

#include <array>
#include <cstdint>

namespace ompisim::ofi::cxi {

// In kCxiStatistics' order; Inject, Eager, Rendezvous in SendProtocol's order (cxi_protocol.hpp).
enum class CxiStat : std::uint8_t {
  Inject, Eager, Rendezvous, Loopback, Unexpected, HostMatched, Truncate, RdzvGets, FcDrops, FcRecoveries, FcResends,
  Discards, PeerRecvRequests
};
inline constexpr std::array<StatisticInfo, 13> kCxiStatistics{{
    {"cxi_inject", "messages", "sends by the inject protocol (fi_tsend within the inject size, and fi_tinject)", true},
    {"cxi_eager", "messages", "sends by the eager protocol (payload with the header)", true},
    {"cxi_rendezvous", "messages", "sends by the rendezvous protocol (the target pulls the payload)", true},
    {"cxi_loopback", "messages", "sends between two ranks of one node (out through the NIC and back)", true},
    {"cxi_unexpected", "messages", "headers that found no posted receive (overflow buffers, or the host's list)", true},
    {"cxi_host_matched", "messages", "headers matched by the host (FI_CXI_RX_MATCH_MODE=software, the provider alone)",
     true},
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE)", true},
    {"cxi_rdzv_gets", "transfers", "rendezvous Gets issued by the target", true},
    {"cxi_fc_drops", "messages", "headers dropped with the overflow buffers exhausted", true},
    {"cxi_fc_recoveries", "recoveries", "flow-control recoveries (onload, re-post of the overflow buffers)", true},
    {"cxi_fc_resends", "messages", "dropped messages sent again after a recovery", true},
    {"cxi_discards", "messages", "unexpected messages the owner's queue had discarded (fi_peer discard_tag)",
     true},
    {"cxi_peer_recv_requests", "receives", "receive requests set up at the match as a peer of an owner's queue "
     "(LINKx: cxip_recv_req_init at get_tag or start_tag)", true},
}};

}  // namespace ompisim::ofi::cxi
