// mtl/portals' registration (↔ ompi/mca/mtl/portals/mtl_portals_component.c, Open MPI v1.3): its parameters are
// mtl_portals_mca.hpp.
#include "protocols/mtl/portals/mtl_portals.hpp"
#include "protocols/register.hpp"

namespace ompisim::mtl::portals {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "mtl",
           .name = "portals",
           .description = "Portals 3 MTL (SeaStar): matching by Portals, short/long protocol",
           .nic_kinds = {"seastar"},
           .source = "Open MPI v1.3.4 ompi/mca/mtl/portals/mtl_portals_component.c",
           .params = param_block<MtlPortalsMca>(),
           .make_mtl = [](const PlatformParts& parts, const McaParams& m, const std::string&) {
             auto& nic =
                 seastar::SeaStar::of(parts.nic_services, parts.sim, parts.contexts, parts.cpus, parts.fabric());
             return std::make_unique<MtlPortals>(parts.contexts, parts.cpus, parts.copies, nic,
                                                 open_mpi_protocol(m.get<MtlPortalsMca>()));
           },
           .statistics = statistic_list(kMtlPortalsStatistics, seastar::kSeaStarStatistics),
           .check = [](const ComponentCheck& c) { check_protocol(open_mpi_protocol(c.mca.get<MtlPortalsMca>()), c.ranks); }});
}

}  // namespace ompisim::mtl::portals
