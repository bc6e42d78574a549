// model/loggp's registration: the LogGOPS reference stack as a whole stack (no MCA parameters).
#include "protocols/loggp/loggp_stack.hpp"
#include "protocols/register.hpp"

namespace ompisim::loggp {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "model",
           .name = "loggp",
           .description = "LogGOPS reference stack (closed-form checks)",
           .nic_kinds = {"loggp"},
           .source = "Hoefler et al., LogGOPSim (HPDC 2010)",
           .make_stack = [](const PlatformParts& parts, const McaParams&, const std::string&) {
             return std::make_unique<LogGPStack>(parts.sim, parts.contexts, parts.cpus, parts.fabric());
           },
           .statistics = statistic_list(kLogGPStatistics)});
}

}  // namespace ompisim::loggp
