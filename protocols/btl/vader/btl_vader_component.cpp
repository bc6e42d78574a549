// btl/vader's registration (↔ opal/mca/btl/vader/btl_vader_component.c, mca_btl_vader_component_register): its
// parameters are btl_vader_mca.hpp.
#include "protocols/btl/vader/btl_vader.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::vader {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "vader",
           .description = "on-node shared memory: fast boxes, copy in/out, XPMEM single copy, cache-line atomics",
           .nic_kinds = {"gemini"},
           .source = "Open MPI v1.8.8 ompi/mca/btl/vader/btl_vader_component.c",
           .params = param_block<VaderMca>(),
           .make_btl = [](const PlatformParts& parts, const McaParams& m) {
             return std::make_unique<BtlVader>(parts.sim, parts.contexts, parts.cpus, m.get<VaderMca>());
           },
           .btl_flags = kFlags,
           .reach = Reach::Node,
           .statistics = statistic_list(kVaderStatistics)});
}

}  // namespace ompisim::btl::vader
