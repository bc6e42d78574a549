// btl/portals' registration (↔ ompi/mca/btl/portals/btl_portals_component.c, Open MPI v1.3): its parameters are
// btl_portals_mca.hpp.
#include "protocols/btl/portals/btl_portals.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::portals {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "portals",
           .description = "Portals 3 BTL (SeaStar): every peer, on-node ones included on Catamount",
           .nic_kinds = {"seastar"},
           .source = "Open MPI v1.3.4 ompi/mca/btl/portals/btl_portals_component.c",
           .params = param_block<BtlPortalsMca>(),
           .make_btl = [](const PlatformParts& parts, const McaParams& m) {
             auto& nic =
                 seastar::SeaStar::of(parts.nic_services, parts.sim, parts.contexts, parts.cpus, parts.fabric());
             return std::make_unique<BtlPortals>(parts.contexts, parts.cpus, nic, m.get<BtlPortalsMca>());
           },
           .btl_flags = kFlags,
           .reach = Reach::Network,
           .statistics = statistic_list(kPortalsStatistics, seastar::kSeaStarStatistics),  // its own, then the NIC's
           .check = [](const ComponentCheck& c) { check_mca(c.mca.get<BtlPortalsMca>()); }});
}

}  // namespace ompisim::btl::portals
