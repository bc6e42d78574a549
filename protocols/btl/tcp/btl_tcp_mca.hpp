// btl/tcp: its parameters as mca_btl_tcp_component_open registers them (Open MPI v1.1
// ompi/mca/btl/tcp/btl_tcp_component.c). Its RDMA is emulated over the socket (MCA_BTL_FLAGS_FAKE_RDMA); the model
// drops PUT from its flags so that ob1 sends fragments (the same bytes on the same socket).
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::tcp {

struct TcpMca : btl::V11BtlMca<TcpMca> {
  static constexpr const char* kName = "tcp";
  static constexpr const char* kSrc = "Open MPI v1.1 ompi/mca/btl/tcp/btl_tcp_component.c";
  // One socket per endpoint, fragments in order (PRIORITY only completes at once): Open MPI v1.1
  // btl_tcp_endpoint.c mca_btl_tcp_endpoint_send.
  static constexpr btl::Connection kConnection = btl::Connection::SingleFifo;
  TcpMca() : V11BtlMca(kSrc, {64 * 1024, 128 * 1024, 128 * 1024, 2147483647.0, btl::kExclusivityLow, 100, 64 * 1024,
                              btl::flag::Send | btl::flag::SendInplace}) {
    latency.source = "Open MPI v1.1 btl_tcp registers no latency (module default 0)";
    bandwidth.source = "estimate: v1.1 btl_tcp registers no bandwidth; later versions default to 100";
    min_send_size.source += " (min_send_size 64*1024)";
    flags.source += " (PUT emulated: dropped)";
  }
};

}  // namespace ompisim::btl::tcp
