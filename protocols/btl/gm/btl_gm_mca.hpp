// btl/gm (Myrinet GM): its parameters as mca_btl_gm_component_open registers them (Open MPI v1.1
// ompi/mca/btl/gm/btl_gm_component.c; built with GM RDMA PUT). No latency is registered (0).
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::gm {

struct GmMca : btl::V11BtlMca<GmMca> {
  // Connection: GM_HIGH_PRIORITY for PRIORITY eager fragments, GM_LOW_PRIORITY otherwise (Open MPI v1.1 btl_gm.c
  // mca_btl_gm_send). Memory pool: the "gm" mpool (v1.1 btl_gm_component.c mca_btl_gm_module_init:
  // mca_mpool_base_module_create).
  static constexpr btl::V11Component kComponent{"gm", "myrinet-2000", "Open MPI v1.1 ompi/mca/btl/gm/btl_gm_component.c",
                                                "gm", btl::Connection::PriorityChannel, true};
  GmMca()
      : V11BtlMca({32 * 1024, 64 * 1024, 512 * 1024, 128 * 1024, btl::kExclusivityDefault, 250, 32 * 1024,
                   btl::flag::Put}) {
    flags.source += " (OMPI_MCA_BTL_GM_HAVE_RDMA_PUT)";
  }
};

}  // namespace ompisim::btl::gm
