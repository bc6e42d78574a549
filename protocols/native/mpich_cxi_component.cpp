// native/mpich_cxi's registration: Cray MPICH over libfabric CXI as one whole-stack component
// (protocols/mtl/ofi/ofi_stacks.hpp); its costs are the machine's software section, its fi_tinject choice its MCA
// block (protocols/mtl/ofi/mtl_ofi_mca.hpp, MpichOfiMca).
#include "protocols/mtl/ofi/mtl_ofi.hpp"
#include "protocols/mtl/ofi/mtl_ofi_mca.hpp"
#include "protocols/mtl/ofi/ofi_stacks.hpp"
#include "protocols/ofi/cxi/cxi_statistics.hpp"
#include "protocols/register.hpp"

namespace ompisim::native {

void register_mpich_cxi(ComponentRegistry& reg) {
  reg.add({.framework = "native",
           .name = "mpich_cxi",
           .description = "Cray MPICH over libfabric CXI (hardware matching) with its own shared-memory path (XPMEM/CMA, GPU IPC)",
           .nic_kinds = {"cxi"},
           .source = "Cray MPICH (CH4) over libfabric CXI (slingshot-ex paper; hardware-sources.md §2)",
           .params = param_block<mtl::ofi::MpichOfiMca>(),
           // Cray MPICH's off-node path is libfabric's CXI provider: FI_CXI_* apply to it as to Open MPI's mtl/ofi
           // (its on-node path is its own: MPICH_SMP_SINGLE_COPY_SIZE, not the shm provider's inject size)
           .make_stack = [](const PlatformParts& parts, const McaParams& m, const std::string& name) {
             return mtl::ofi::make_mpich_cxi_stack({parts.sim, parts.contexts, parts.cpus, parts.fabric()}, m, name);
           },
           // its counters: its request table's and its shared-memory path's, counted by the models it reuses
           // (mtl/ofi's, the shm provider's) under Cray MPICH's names, then the CXI provider's
           .statistics = statistic_list(mtl::ofi::kMpichRequestStatistics, mtl::ofi::kMpichShmStatistics,
                                        ofi::cxi::kCxiStatistics),
           .reads = {"ofi/cxi"}});
}

}  // namespace ompisim::native
