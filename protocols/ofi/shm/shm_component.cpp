// ofi/shm's registration: a libfabric provider, built by mtl/ofi when the stack's provider link names it.
#include "protocols/ofi/shm/shm_mca.hpp"
#include "protocols/ofi/shm/shm_statistics.hpp"
#include "protocols/register.hpp"

namespace ompisim::ofi::shm {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "ofi",
           .name = "shm",
           .description = "libfabric shm provider: inject copies, CMA/XPMEM single copy, GPU IPC with a handle cache",
           .nic_kinds = {"cxi"},
           .source = "libfabric prov/shm (slingshot-ex paper)",
           .params = param_block<ShmMca>(),
           .statistics = statistic_list(kShmStatistics),
           .part_of = "mtl/ofi"});
}

}  // namespace ompisim::ofi::shm
