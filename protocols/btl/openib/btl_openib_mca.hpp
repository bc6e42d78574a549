// btl/openib as the mVAPI-era InfiniBand BTL of Open MPI 1.1 (btl/mvapi: the paper's "Mellanox MVAPI" runs): its
// parameters, as mca_btl_mvapi_component_register declares them (Open MPI v1.1 ompi/mca/btl/mvapi/
// btl_mvapi_component.c). The component is named openib (the name; in 1.1 the verbs twin btl/openib
// registered the same defaults). Latency: 1.1 registers none (0), so every BTL of equal latency is in the eager array.
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::openib {

struct OpenibMca {
  static constexpr const char* kSrc = "Open MPI v1.1 ompi/mca/btl/mvapi/btl_mvapi_component.c";
  // Two QPs per endpoint, the high-priority one for PRIORITY eager fragments: Open MPI v1.1 btl_mvapi_endpoint.c
  // mca_btl_mvapi_endpoint_post_send (the same in btl_openib_endpoint.c).
  static constexpr btl::Connection kConnection = btl::Connection::PriorityChannel;
  Sourced btl_openib_eager_limit{12 * 1024, kSrc};
  Sourced btl_openib_max_send_size{64 * 1024, kSrc};
  Sourced btl_openib_min_rdma_size{1024 * 1024, kSrc};
  Sourced btl_openib_max_rdma_size{1024 * 1024, kSrc};
  Sourced btl_openib_exclusivity{btl::kExclusivityDefault, kSrc};
  Sourced btl_openib_latency{0, "Open MPI v1.1 btl_mvapi registers no latency (module default 0)"};
  Sourced btl_openib_bandwidth{800, kSrc};
  Sourced btl_openib_min_send_size{32 * 1024, kSrc + std::string(" (min_send_size 32*1024)")};
  Sourced btl_openib_flags{btl::flag::Put | btl::flag::Get, kSrc};

  // The capability record of this component's modules.
  btl::BtlCaps caps() const {
    return btl::v11_caps(btl_openib_eager_limit, btl_openib_max_send_size, btl_openib_min_rdma_size, btl_openib_max_rdma_size, btl_openib_exclusivity,
                         btl_openib_latency, btl_openib_bandwidth, btl_openib_flags,
                         btl_openib_min_send_size);
  }

  template <class V>
  void visit(V&& v) {
    v(btl_openib_eager_limit, {"btl_openib_eager_limit", Dim::Bytes, "eager send limit (first fragment)", 64, 1 << 24});
    v(btl_openib_max_send_size, {"btl_openib_max_send_size", Dim::Bytes, "largest send fragment", 64, 1 << 26});
    v(btl_openib_min_rdma_size, {"btl_openib_min_rdma_size", Dim::Bytes, "smallest message for RDMA", 0, 1LL << 40});
    v(btl_openib_max_rdma_size, {"btl_openib_max_rdma_size", Dim::Bytes, "largest RDMA fragment", 1024, 1LL << 40});
    v(btl_openib_exclusivity, {"btl_openib_exclusivity", Dim::Count, "BTL exclusivity", 0, 1 << 20});
    v(btl_openib_latency, {"btl_openib_latency", Dim::Count, "exported latency ranking (us)", 0, 1e6});
    v(btl_openib_bandwidth, {"btl_openib_bandwidth", Dim::Count, "exported bandwidth (Mb/s): bml/r2 weights", 0, 1e7});
    v(btl_openib_min_send_size, {"btl_openib_min_send_size", Dim::Bytes,
                                 "below this many remaining bytes ob1 sends them in one FRAG", 0, 1LL << 40});
    v(btl_openib_flags, {"btl_openib_flags", Dim::Count, "MCA_BTL_FLAGS_* (SEND=1, PUT=2, GET=4)", 0, 65535});
  }
};

}  // namespace ompisim::btl::openib
