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
  static constexpr const char* kName = "openib";
  static constexpr const char* kSrc = "Open MPI v1.1 ompi/mca/btl/mvapi/btl_mvapi_component.c";
  // Two QPs per endpoint, the high-priority one for PRIORITY eager fragments: Open MPI v1.1 btl_mvapi_endpoint.c
  // mca_btl_mvapi_endpoint_post_send (the same in btl_openib_endpoint.c).
  static constexpr btl::Connection kConnection = btl::Connection::PriorityChannel;
  OpenibMca() : V11BtlMca(kSrc, {12 * 1024, 64 * 1024, 1024 * 1024, 1024 * 1024, btl::kExclusivityDefault, 800,
                                 32 * 1024, btl::flag::Put | btl::flag::Get}) {
    latency.source = "Open MPI v1.1 btl_mvapi registers no latency (module default 0)";
    min_send_size.source += " (min_send_size 32*1024)";
  }
};

}  // namespace ompisim::btl::openib
