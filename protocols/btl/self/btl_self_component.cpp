// btl/self's registration (↔ opal/mca/btl/self/btl_self_component.c): no MCA parameters of its own in the model.
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::self {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "self",
           .description = "loop-back to the sending rank",
           .nic_kinds = {"gemini", "seastar", "ib-sdr-pcie", "myrinet-2000", "gige"},
           .source = "Open MPI v1.8.8 ompi/mca/btl/self/btl_self_component.c",
           .make_btl = [](const PlatformParts& parts, const McaParams&) {
             return std::make_unique<BtlSelf>(parts.cpus);
           },
           .btl_flags = kFlags,
           .reach = Reach::Self,
           .statistics = statistic_list(kSelfStatistics)});
}

}  // namespace ompisim::btl::self
