// btl/tcp: its parameters as mca_btl_tcp_component_open registers them (Open MPI v1.1
// ompi/mca/btl/tcp/btl_tcp_component.c). Its RDMA is emulated over the socket (MCA_BTL_FLAGS_FAKE_RDMA); the model
// drops PUT from its flags so that ob1 sends fragments (the same bytes on the same socket).
#pragma once
#include "core/params.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::tcp {

struct TcpMca : btl::V11BtlMca<TcpMca> {
  // Connection: one socket per endpoint, fragments in order (PRIORITY only completes at once; Open MPI v1.1
  // btl_tcp_endpoint.c mca_btl_tcp_endpoint_send).
  // No memory pool (v1.1 btl_tcp creates none; its RDMA is dropped here anyway).
  static constexpr btl::V11Component kComponent{"tcp", "gige", "Open MPI v1.1 ompi/mca/btl/tcp/btl_tcp_component.c",
                                                "tcp", btl::Connection::SingleFifo, false};
  TcpMca()
      : V11BtlMca({64 * 1024, 128 * 1024, 128 * 1024, 2147483647.0, btl::kExclusivityLow, 100, 64 * 1024,
                   btl::flag::Send | btl::flag::SendInplace}) {
    bandwidth.source = "estimate: v1.1 btl_tcp registers no bandwidth; later versions default to 100";
    flags.source += " (PUT emulated: dropped)";
  }
};

}  // namespace ompisim::btl::tcp
