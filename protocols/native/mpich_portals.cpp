#include "protocols/native/mpich_portals.hpp"

namespace ompisim::native {

mtl::portals::Protocol cray_mpi_protocol(const MpichPortalsMca& mca) {
  mtl::portals::Protocol p;
  p.name = "cray-portals";
  p.eager_limit = static_cast<std::uint64_t>(mca.mpich_max_short_msg_size.value);
  p.long_rendezvous = true;          // rendezvous by default above the eager limit (paper §3)
  p.eqs_polled = 2;                  // unexpected EQ and "other" EQ polled on every progress call
  p.unexpected_start_events = true;  // two events per unexpected message (Pritchard & Pagel)
  p.blocks = 2;  // the unexpected buffer in two halves, so one serves while the other is re-posted
  p.block_size = static_cast<std::uint64_t>(mca.mpich_unex_buffer_size.value) / 2;
  return p;
}

MpichPortals::MpichPortals(World& w, const MpichPortalsMca& mca, const std::string& name)
    : mtl_(w, cray_mpi_protocol(mca)), pml_(w, w.machine().software_cost("mpich_overhead"), mtl_, name) {}

}  // namespace ompisim::native
