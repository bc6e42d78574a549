// btl/gm (Myrinet GM): its parameters as mca_btl_gm_component_open registers them (Open MPI v1.1
// ompi/mca/btl/gm/btl_gm_component.c; built with GM RDMA PUT). No latency is registered (0).
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::gm {

struct GmMca {
  static constexpr const char* kSrc = "Open MPI v1.1 ompi/mca/btl/gm/btl_gm_component.c";
  // GM_HIGH_PRIORITY for PRIORITY eager fragments, GM_LOW_PRIORITY otherwise: Open MPI v1.1 btl_gm.c mca_btl_gm_send.
  static constexpr btl::Connection kConnection = btl::Connection::PriorityChannel;
  Sourced btl_gm_eager_limit{32 * 1024, kSrc};
  Sourced btl_gm_max_send_size{64 * 1024, kSrc};
  Sourced btl_gm_min_rdma_size{512 * 1024, kSrc};
  Sourced btl_gm_max_rdma_size{128 * 1024, kSrc};
  Sourced btl_gm_exclusivity{btl::kExclusivityDefault, kSrc};
  Sourced btl_gm_latency{0, "Open MPI v1.1 btl_gm registers no latency (module default 0)"};
  Sourced btl_gm_bandwidth{250, kSrc};
  Sourced btl_gm_min_send_size{32 * 1024, kSrc + std::string(" (min_send_size 32*1024)")};
  Sourced btl_gm_flags{btl::flag::Put, kSrc + std::string(" (OMPI_MCA_BTL_GM_HAVE_RDMA_PUT)")};

  // The capability record of this component's modules.
  btl::BtlCaps caps() const {
    return btl::v11_caps(btl_gm_eager_limit, btl_gm_max_send_size, btl_gm_min_rdma_size, btl_gm_max_rdma_size, btl_gm_exclusivity,
                         btl_gm_latency, btl_gm_bandwidth, btl_gm_flags,
                         btl_gm_min_send_size);
  }

  template <class V>
  void visit(V&& v) {
    v(btl_gm_eager_limit, {"btl_gm_eager_limit", Dim::Bytes, "eager send limit (first fragment)", 64, 1 << 24});
    v(btl_gm_max_send_size, {"btl_gm_max_send_size", Dim::Bytes, "largest send fragment", 64, 1 << 26});
    v(btl_gm_min_rdma_size, {"btl_gm_min_rdma_size", Dim::Bytes, "smallest message for RDMA", 0, 1LL << 40});
    v(btl_gm_max_rdma_size, {"btl_gm_max_rdma_size", Dim::Bytes, "largest RDMA fragment", 1024, 1LL << 40});
    v(btl_gm_exclusivity, {"btl_gm_exclusivity", Dim::Count, "BTL exclusivity", 0, 1 << 20});
    v(btl_gm_latency, {"btl_gm_latency", Dim::Count, "exported latency ranking (us)", 0, 1e6});
    v(btl_gm_bandwidth, {"btl_gm_bandwidth", Dim::Count, "exported bandwidth (Mb/s): bml/r2 weights", 0, 1e7});
    v(btl_gm_min_send_size, {"btl_gm_min_send_size", Dim::Bytes,
                             "below this many remaining bytes ob1 sends them in one FRAG", 0, 1LL << 40});
    v(btl_gm_flags, {"btl_gm_flags", Dim::Count, "MCA_BTL_FLAGS_* (SEND=1, PUT=2, GET=4)", 0, 65535});
  }
};

}  // namespace ompisim::btl::gm
