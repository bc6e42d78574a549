// Helpers of the SeaStar tests, which drive the NIC directly (no MPI stack).
#pragma once
#include "models/seastar/seastar.hpp"

#include <cstdint>

namespace ompisim::seastar::test {

// One catch-all match entry on `rank`'s portal `pt` with a locally managed buffer of `length` bytes, its events on
// the client's event queue: every put into `pt` lands there, one after the other.
inline void attach_catch_all(SeaStar& ss, int rank, portals::PtIndex pt, int client, std::uint64_t length) {
  namespace ptl = ompisim::portals;
  ptl::Nic& n = ss.nic(rank);
  ptl::MeId me = n.me_attach(pt, ptl::ProcessId::any(), 0, ~ptl::MatchBits{0}, ptl::UnlinkOp::Retain,
                             ptl::InsertPos::After);
  ptl::Md md;
  md.length = length;
  md.options.op_put = md.options.manage_local = true;
  md.options.event_start_disable = true;
  md.eq = ss.eq(rank, client);
  n.md_attach(me, md, ptl::UnlinkOp::Retain);
}

}  // namespace ompisim::seastar::test
