// native/mpich_portals' registration: Cray MPI on the SeaStar as one whole-stack component; its Cray MPT environment
// variables are its parameter block (mpich_portals_mca.hpp).
#include "protocols/native/mpich_portals.hpp"
#include "protocols/register.hpp"

namespace ompisim::native {

void register_mpich_portals(ComponentRegistry& reg) {
  reg.add({.framework = "native",
           .name = "mpich_portals",
           .description = "Cray MPI (XT MPT, MPICH2 over Portals): eager up to MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above",
           .nic_kinds = {"seastar"},
           .source = "Pritchard & Pagel, How to Use MPI on the Cray XT; seastar-portals paper §2.2",
           .params = param_block<MpichPortalsMca>(),
           .make_stack = [](const PlatformParts& parts, const McaParams& m, const std::string& name) {
             auto& nic =
                 seastar::SeaStar::of(parts.nic_services, parts.sim, parts.contexts, parts.cpus, parts.fabric());
             return std::make_unique<MpichPortals>(parts.contexts, parts.cpus, parts.copies, nic, m.get<MpichPortalsMca>(),
                                                   name);
           },
           // its counters: those of the Portals MTL model it reuses (with Cray MPI's protocol), under Cray MPI's
           // names, and the SeaStar's
           .statistics = statistic_list(kCrayMpiStatistics, seastar::kSeaStarStatistics),
           .check = [](const ComponentCheck& c) {
             mtl::portals::check_protocol(cray_mpi_protocol(c.mca.get<MpichPortalsMca>()), c.ranks);
           }});
}

}  // namespace ompisim::native
