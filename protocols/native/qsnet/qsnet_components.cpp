// native/mpich_qsnet and native/elan4_qdma: registration as whole-stack components on qsnet machines.
#include "protocols/native/qsnet/elan4_qdma.hpp"
#include "protocols/native/qsnet/mpich_qsnet.hpp"
#include "protocols/register.hpp"

namespace ompisim::native {

void register_mpich_qsnet(ComponentRegistry& reg) {
  reg.add({.framework = "native",
           .name = "mpich_qsnet",
           .description = "MPICH-QsNetII over Tport: matching on the NIC, 32-byte header, NIC-driven rendezvous",
           .nic_kinds = {"qsnet"},
           .source = "MPICH-QsNetII (Quadrics, 2004) over libelan Tport; qsnet-elan4 paper §6.5",
           .params = param_block<MpichQsnetMca>(),
           .make_stack = [](const PlatformParts& parts, const McaParams& mca, const std::string& name)
               -> std::unique_ptr<Stack> {
             return std::make_unique<MpichQsnet>(parts.sim, parts.contexts, parts.cpus, parts.fabric(), mca.get<MpichQsnetMca>(),
                                                 name);
           },
           .statistics = statistic_list(kQsnetStatistics, qsnet::kElan4Statistics),  // its own, then the NIC's
           .check = [](const ComponentCheck& c) { MpichQsnet::check_mca(c.mca.get<MpichQsnetMca>(), c.machine); }});
}

void register_elan4_qdma(ComponentRegistry& reg) {
  reg.add({.framework = "native",
           .name = "elan4_qdma",
           .description = "raw libelan4 QDMA ping-pong (no MPI layer): the QDMA latency of the paper's Fig. 9",
           .nic_kinds = {"qsnet"},
           .source = "libelan4 QDMA (Open MPI's early src/mca/ptl/elan/tests/qsnet_qdma.c); qsnet-elan4 paper §6.3",
           .params = param_block<Elan4QdmaMca>(),
           .make_stack = [](const PlatformParts& parts, const McaParams& mca, const std::string& name)
               -> std::unique_ptr<Stack> {
             return std::make_unique<Elan4Qdma>(parts.sim, parts.contexts, parts.cpus, parts.fabric(), mca.get<Elan4QdmaMca>(),
                                                name);
           },
           .statistics = statistic_list(qsnet::kElan4Statistics),  // the NIC's: the program has none of its own
           .check = check_elan4_qdma});
}

}  // namespace ompisim::native
