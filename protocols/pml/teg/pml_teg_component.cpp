// pml/teg's registration (Open MPI 2004, ompi/mca/pml/teg): the PML over PTL modules. Its PTLs are sub-components
// it builds itself (ptl/elan4 is "part_of" pml/teg): the 2004 PML/PTL pair is not a PML over BTLs or an MTL.
// Its per-message software cost is a measured machine parameter (software.pml_teg_overhead).
#include "protocols/pml/teg/pml_teg.hpp"
#include "protocols/pml/teg/teg_stack.hpp"
#include "protocols/ptl/elan4/ptl_elan4.hpp"
#include "protocols/ptl/elan4/ptl_elan4_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::pml::teg {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "pml",
           .name = "teg",
           .description = "Open MPI 2004's PML over PTLs: host matching, first fragment eager or rendezvous, ptl_matched",
           .nic_kinds = {"qsnet"},
           .source = "Open MPI (2004) ompi/mca/pml/teg; Woodall et al., EuroPVM/MPI 2004; qsnet-elan4 paper §2.2",
           .make_pml = [](const PlatformParts& parts, const McaParams& mca, const PmlModules&, const std::string& name) {
             // The only PTL modelled is ptl/elan4 (the stack object's "ptl" list is checked against the registry).
             return make_teg_stack(parts, mca, {"elan4"}, name);
           },
           .statistics = statistic_list(kTegStatistics)});
}

}  // namespace ompisim::pml::teg

namespace ompisim::ptl::elan4 {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "ptl",
           .name = "elan4",
           .description = "Quadrics Elan4 PTL: QDMA first fragments, RDMA read or write, chained events, progress threads",
           .nic_kinds = {"qsnet"},
           .source = "Open MPI (2004-05) src/mca/ptl/elan; qsnet-elan4 paper §4-5",
           .params = param_block<PtlElan4Mca>(),
           .statistics = statistic_list(kPtlStatistics, qsnet::kElan4Statistics),  // its own, then the NIC's
           .check = [](const ComponentCheck& c) { check_mca(c.mca.get<PtlElan4Mca>(), c.machine); },
           .part_of = "pml/teg"});
}

}  // namespace ompisim::ptl::elan4
