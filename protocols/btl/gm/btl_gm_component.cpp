// btl/gm's registration (↔ btl_gm_component.c of Open MPI v1.1): its parameters are btl_gm_mca.hpp; its module is
// the commodity-NIC BTL of protocols/btl/base (FabricBtl) over the machine's myrinet-2000 network.
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::gm {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "gm",
           .description = "Myrinet GM: send/receive fragments and RDMA PUT through the LANai NIC",
           .nic_kinds = {"myrinet-2000"},
           .source = "Open MPI v1.1 ompi/mca/btl/gm/btl_gm_component.c",
           .params = param_block<GmMca>(),
           .make_btl = [](World& w, const McaParams& m) {
             return std::make_unique<FabricBtl>(w, "gm", "myrinet-2000", m.get<GmMca>().caps(), GmMca::kConnection);
           },
           .btl_flags = GmMca{}.caps().flags,
           .reach = Reach::Network});
}

}  // namespace ompisim::btl::gm
