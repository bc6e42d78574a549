// btl/tcp's registration (↔ ompi/mca/btl/tcp/btl_tcp_component.c, its register function): its
// parameters are btl_tcp_mca.hpp; the module is the common BTL over one network (protocols/btl/base/fabric_btl.hpp)
// with this component's capability record, driving the machine's network of NIC kind "gige".
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/tcp/btl_tcp_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::tcp {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "tcp",
           .description = "TCP sockets over gigabit Ethernet (lowest exclusivity: the last resort)",
           .nic_kinds = {"gige"},
           .source = "Open MPI v1.1 ompi/mca/btl/tcp/btl_tcp_component.c",
           .params = param_block<TcpMca>(),
           .make_btl = [](World& w, const McaParams& m) -> std::unique_ptr<Btl> {
             return std::make_unique<FabricBtl>(w, "tcp", "gige", m.get<TcpMca>().caps());
           },
           .btl_flags = flag::Send | flag::SendInplace,
           .reach = Reach::Network});
}

}  // namespace ompisim::btl::tcp
