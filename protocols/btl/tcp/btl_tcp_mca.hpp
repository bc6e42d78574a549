// btl/tcp: its parameters as mca_btl_tcp_component_open registers them (Open MPI v1.1
// ompi/mca/btl/tcp/btl_tcp_component.c). Its RDMA is emulated over the socket (MCA_BTL_FLAGS_FAKE_RDMA); the model
// drops PUT from its flags so that ob1 sends fragments (the same bytes on the same socket).
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::tcp {

struct TcpMca {
  static constexpr const char* kSrc = "Open MPI v1.1 ompi/mca/btl/tcp/btl_tcp_component.c";
  // One socket per endpoint, fragments in order (PRIORITY only completes at once): Open MPI v1.1
  // btl_tcp_endpoint.c mca_btl_tcp_endpoint_send.
  static constexpr btl::Connection kConnection = btl::Connection::SingleFifo;
  Sourced btl_tcp_eager_limit{64 * 1024, kSrc};
  Sourced btl_tcp_max_send_size{128 * 1024, kSrc};
  Sourced btl_tcp_min_rdma_size{128 * 1024, kSrc};
  Sourced btl_tcp_max_rdma_size{2147483647.0, kSrc};
  Sourced btl_tcp_exclusivity{btl::kExclusivityLow, kSrc};
  Sourced btl_tcp_latency{0, "Open MPI v1.1 btl_tcp registers no latency (module default 0)"};
  Sourced btl_tcp_bandwidth{100, "estimate: v1.1 btl_tcp registers no bandwidth; later versions default to 100"};
  Sourced btl_tcp_min_send_size{64 * 1024, kSrc + std::string(" (min_send_size 64*1024)")};
  Sourced btl_tcp_flags{btl::flag::Send | btl::flag::SendInplace, kSrc + std::string(" (PUT emulated: dropped)")};

  // The capability record of this component's modules.
  btl::BtlCaps caps() const {
    return btl::v11_caps(btl_tcp_eager_limit, btl_tcp_max_send_size, btl_tcp_min_rdma_size, btl_tcp_max_rdma_size, btl_tcp_exclusivity,
                         btl_tcp_latency, btl_tcp_bandwidth, btl_tcp_flags,
                         btl_tcp_min_send_size);
  }

  template <class V>
  void visit(V&& v) {
    v(btl_tcp_eager_limit, {"btl_tcp_eager_limit", Dim::Bytes, "eager send limit (first fragment)", 64, 1 << 24});
    v(btl_tcp_max_send_size, {"btl_tcp_max_send_size", Dim::Bytes, "largest send fragment", 64, 1 << 26});
    v(btl_tcp_min_rdma_size, {"btl_tcp_min_rdma_size", Dim::Bytes, "smallest message for RDMA", 0, 1LL << 40});
    v(btl_tcp_max_rdma_size, {"btl_tcp_max_rdma_size", Dim::Bytes, "largest RDMA fragment", 1024, 1LL << 40});
    v(btl_tcp_exclusivity, {"btl_tcp_exclusivity", Dim::Count, "BTL exclusivity", 0, 1 << 20});
    v(btl_tcp_latency, {"btl_tcp_latency", Dim::Count, "exported latency ranking (us)", 0, 1e6});
    v(btl_tcp_bandwidth, {"btl_tcp_bandwidth", Dim::Count, "exported bandwidth (Mb/s): bml/r2 weights", 0, 1e7});
    v(btl_tcp_min_send_size, {"btl_tcp_min_send_size", Dim::Bytes,
                              "below this many remaining bytes ob1 sends them in one FRAG", 0, 1LL << 40});
    v(btl_tcp_flags, {"btl_tcp_flags", Dim::Count, "MCA_BTL_FLAGS_* (SEND=1, PUT=2, GET=4)", 0, 65535});
  }
};

}  // namespace ompisim::btl::tcp
