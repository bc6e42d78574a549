// ofi/linkx's registration: the libfabric LINKx provider over core providers, built by mtl/ofi for a ":linkx" link.
#include "protocols/ofi/linkx/linkx_statistics.hpp"
#include "protocols/register.hpp"

namespace ompisim::ofi::linkx {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "ofi",
           .name = "linkx",
           .description = "libfabric LINKx: shm+cxi under one endpoint, shared CQ and receive queue, software matching",
           .nic_kinds = {"cxi"},
           .source = "libfabric prov/lnx (slingshot-ex paper)",
           .statistics = statistic_list(kLinkxStatistics),
           .part_of = "mtl/ofi"});
}

}  // namespace ompisim::ofi::linkx
