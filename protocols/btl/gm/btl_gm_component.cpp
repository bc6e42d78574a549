// btl/gm's registration (↔ btl_gm_component.c of Open MPI v1.1): its parameters are btl_gm_mca.hpp; its module is
// the commodity-NIC BTL of protocols/btl/base (FabricBtl) over the machine's myrinet-2000 network.
#include "protocols/btl/base/v11_component.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"

namespace ompisim::btl::gm {

void register_component(ComponentRegistry& reg) {
  reg.add(v11_fabric_btl<GmMca>("Myrinet GM: send/receive fragments and RDMA PUT through the LANai NIC"));
}

}  // namespace ompisim::btl::gm
