// btl/openib's registration (↔ btl_openib_component.c of Open MPI v1.1): its parameters are btl_openib_mca.hpp; its module is
// the commodity-NIC BTL of protocols/btl/base (FabricBtl) over the machine's ib-sdr-pcie network.
#include "protocols/btl/base/v11_component.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"

namespace ompisim::btl::openib {

void register_component(ComponentRegistry& reg) {
  reg.add(v11_fabric_btl<OpenibMca>(
      "InfiniBand over verbs (mVAPI era): send/receive fragments, RDMA PUT and GET through the HCA",
      "(the paper's mVAPI BTL, named openib here)"));
}

}  // namespace ompisim::btl::openib
