// mtl/ofi's registration (↔ ompi/mca/mtl/ofi/mtl_ofi_component.c, Open MPI v5.0): the MTL over the libfabric provider
// link the stack selects ("ofi": "cxi" or "shm+cxi:linkx", as opal_common_ofi_provider_include does); the providers
// (ofi/cxi, ofi/shm, ofi/linkx) are its sub-components. Costs are the machine's (software section); its MCA block
// (mtl_ofi_mca.hpp) is which sends use fi_tinject.
#include "protocols/mtl/ofi/mtl_ofi.hpp"
#include "protocols/mtl/ofi/mtl_ofi_mca.hpp"
#include "protocols/mtl/ofi/ofi_stacks.hpp"
#include "protocols/register.hpp"

namespace ompisim::mtl::ofi {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "mtl",
           .name = "ofi",
           .description = "libfabric MTL (Open MPI v5.0): fi_tsend/fi_trecv on the provider named by stack.ofi",
           .nic_kinds = {"cxi"},
           .source = "Open MPI v5.0 ompi/mca/mtl/ofi",
           .params = param_block<MtlOfiMca>(),
           .make_mtl = [](const PlatformParts& parts, const McaParams& m, const std::string& provider) {
             return make_ofi_mtl({parts.sim, parts.contexts, parts.cpus, parts.fabric()}, m, provider);
           },
           .statistics = statistic_list(kMtlOfiStatistics),
           .check = check_ofi_input});
}

}  // namespace ompisim::mtl::ofi
