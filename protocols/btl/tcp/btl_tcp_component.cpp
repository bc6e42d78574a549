// btl/tcp's registration (↔ btl_tcp_component.c of Open MPI v1.1): its parameters are btl_tcp_mca.hpp; its module is
// the commodity-NIC BTL of protocols/btl/base (FabricBtl) over the machine's gige network.
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/tcp/btl_tcp_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::tcp {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "tcp",
           .description = "TCP sockets over Ethernet: send/receive fragments (its emulated RDMA is not used)",
           .nic_kinds = {"gige"},
           .source = "Open MPI v1.1 ompi/mca/btl/tcp/btl_tcp_component.c",
           .params = param_block<TcpMca>(),
           .make_btl = [](World& w, const McaParams& m) {
             return std::make_unique<FabricBtl>(w, "tcp", "gige", m.get<TcpMca>().caps(), TcpMca::kConnection);
           },
           .btl_flags = TcpMca{}.caps().flags,
           .reach = Reach::Network});
}

}  // namespace ompisim::btl::tcp
