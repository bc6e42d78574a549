// btl/openib as the mVAPI-era InfiniBand BTL of Open MPI 1.1 (btl/mvapi: the paper's "Mellanox MVAPI" runs): its
// parameters, as mca_btl_mvapi_component_register declares them (Open MPI v1.1 ompi/mca/btl/mvapi/
// btl_mvapi_component.c). The component is named openib (in 1.1 the verbs twin btl/openib registered the same
// defaults). Latency: 1.1 registers none (0), so every BTL of equal latency is in the eager array.
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::openib {

struct OpenibMca : btl::V11BtlMca<OpenibMca> {
  // Connection: two QPs per endpoint, the high-priority one for PRIORITY eager fragments (Open MPI v1.1
  // btl_mvapi_endpoint.c mca_btl_mvapi_endpoint_post_send; the same in btl_openib_endpoint.c). Memory pool: the
  // "mvapi" mpool (v1.1 btl_mvapi_component.c mca_btl_mvapi_component_init: mca_mpool_base_module_create).
  static constexpr btl::V11Component kComponent{
      "openib", "ib-sdr-pcie", "Open MPI v1.1 ompi/mca/btl/mvapi/btl_mvapi_component.c", "mvapi",
      btl::Connection::PriorityChannel, true};
  OpenibMca()
      : V11BtlMca({12 * 1024, 64 * 1024, 1024 * 1024, 1024 * 1024, btl::kExclusivityDefault, 800, 32 * 1024,
                   btl::flag::Put | btl::flag::Get}) {}
};

}  // namespace ompisim::btl::openib
