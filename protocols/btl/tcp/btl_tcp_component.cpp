// btl/tcp's registration (↔ btl_tcp_component.c of Open MPI v1.1): its parameters are btl_tcp_mca.hpp; its module is
// the commodity-NIC BTL of protocols/btl/base (FabricBtl) over the machine's gige network.
#include "protocols/btl/base/v11_component.hpp"
#include "protocols/btl/tcp/btl_tcp_mca.hpp"

namespace ompisim::btl::tcp {

void register_component(ComponentRegistry& reg) {
  reg.add(v11_fabric_btl<TcpMca>("TCP sockets over Ethernet: send/receive fragments (its emulated RDMA is not used)"));
}

}  // namespace ompisim::btl::tcp
