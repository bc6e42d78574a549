// ofi/cxi's registration: a libfabric provider, built by mtl/ofi when the stack's provider link names it.
#include "protocols/ofi/cxi/cxi_mca.hpp"
#include "protocols/ofi/cxi/cxi_statistics.hpp"
#include "protocols/register.hpp"

namespace ompisim::ofi::cxi {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "ofi",
           .name = "cxi",
           .description = "libfabric CXI provider (Cassini): hardware (or, FI_CXI_RX_MATCH_MODE=software, host) matching alone, software matching under LINKx",
           .nic_kinds = {"cxi"},
           .source = "libfabric prov/cxi (slingshot-ex paper; hardware-sources.md §2)",
           .params = param_block<CxiMca>(),
           .statistics = statistic_list(kCxiStatistics),
           .effective = {{"fi_cxi_rdzv_eager_size",
                          "as set, at most fi_cxi_rdzv_threshold (prov/cxi/src/cxip_info.c lowers a larger value to it)",
                          [](const McaParams& m, long long) {
                            return static_cast<double>(effective_rdzv_eager_size(m.get<CxiMca>()));
                          }}},
           .part_of = "mtl/ofi"});
}

}  // namespace ompisim::ofi::cxi
