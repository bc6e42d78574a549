// native/mpich_gni's registration: Cray MPT on Gemini as one whole-stack component; its Cray MPT environment
// variables are its parameter block (mpich_gni_mca.hpp).
#include "protocols/native/mpich_gni.hpp"
#include "protocols/register.hpp"

namespace ompisim::native {

void register_mpich_gni(ComponentRegistry& reg) {
  reg.add({.framework = "native",
           .name = "mpich_gni",
           .description = "Cray MPT: MPICH2 CH3/Nemesis with the uGNI netmod (same hardware, different protocol)",
           .nic_kinds = {"gemini"},
           .source = "Pritchard et al., EuroMPI'11; Cray intro_mpi(3)",
           .params = param_block<MpichGniMca>(),
           .make_stack = [](const PlatformParts& parts, const McaParams& m, const std::string&) {
             auto& nic = gemini::Gni::of(parts.nic_services, parts.sim, parts.contexts, parts.cpus, parts.fabric());
             return std::make_unique<MpichGni>(parts.sim, parts.contexts, parts.cpus, parts.copies, nic,
                                               m.get<MpichGniMca>());
           },
           .statistics = statistic_list(kGniProtocolStatistics, kGniCdmStatistics),
           .effective = {{"mpich_gni_max_vshort_msg_size", "0: Table I of the Gemini paper by job size, else as set",
                          [](const McaParams& m, long long ranks) {
                            return static_cast<double>(effective_vshort_limit(m.get<MpichGniMca>(), ranks));
                          }}}});
}

}  // namespace ompisim::native
