// pml/ob1's registration (↔ ompi/mca/pml/ob1/pml_ob1_component.c): the PML over the BTLs bml/r2 ranks per peer. Its
// per-message software cost is a measured machine parameter (software.pml_ob1_overhead), not an MCA parameter; its
// MCA block (pml_ob1_mca.hpp) chooses how a message is striped over several BTLs to one peer.
#include "protocols/pml/ob1/pml_ob1.hpp"
#include "protocols/pml/ob1/pml_ob1_mca.hpp"
#include "protocols/register.hpp"

#include <stdexcept>

namespace ompisim::pml::ob1 {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "pml",
           .name = "ob1",
           .description = "point-to-point over BTLs (bml/r2 picks them): matching in the host, eager/RNDV/RGET protocols",
           .nic_kinds = {"gemini", "seastar", "ib-sdr-pcie", "myrinet-2000", "gige"},
           .source = "Open MPI v1.8.8 ompi/mca/pml/ob1, ompi/mca/bml/r2 (striping: v1.1 pml_ob1_sendreq.c)",
           .params = param_block<Ob1Mca>(),
           .make_pml = [](const PlatformParts& parts, const McaParams& mca, const PmlModules& m, const std::string& name)
               -> std::unique_ptr<Stack> {
             if (m.btls.empty() || m.mtl) throw std::logic_error("pml/ob1 drives BTLs only (and needs at least one)");
             auto p = std::make_unique<Ob1>(parts.contexts, parts.cpus, parts.machine.software_cost("pml_ob1_overhead"), m.btls,
                                            name, mca.get<Ob1Mca>().config());
             p->set_early_completion(mca.get<Ob1Mca>().pml_ob1_use_early_completion.get() != 0);
             return p;
           },
           .statistics = statistic_list(kOb1Statistics)});
}

}  // namespace ompisim::pml::ob1
