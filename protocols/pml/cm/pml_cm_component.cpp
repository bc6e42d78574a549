// pml/cm's registration (↔ ompi/mca/pml/cm/pml_cm_component.c): request management over one MTL. Its per-message
// software cost is a measured machine parameter (software.pml_cm_overhead).
#include "protocols/pml/cm/pml_cm.hpp"
#include "protocols/register.hpp"

#include <stdexcept>

namespace ompisim::pml::cm {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "pml",
           .name = "cm",
           .description = "point-to-point over one MTL: matching done by the MTL (Portals on the SeaStar, libfabric)",
           .nic_kinds = {"seastar", "cxi"},
           .source = "Open MPI v1.3.4 ompi/mca/pml/cm",
           .make_pml = [](const PlatformParts& parts, const McaParams&, const PmlModules& m, const std::string& name)
               -> std::unique_ptr<Stack> {
             if (!m.mtl || !m.btls.empty()) throw std::logic_error("pml/cm drives exactly one MTL");
             return std::make_unique<PmlCm>(parts.cpus, parts.machine.software_cost("pml_cm_overhead"), *m.mtl, name);
           }});
}

}  // namespace ompisim::pml::cm
