// btl/openib's registration (↔ btl_openib_component.c of Open MPI v1.1): its parameters are btl_openib_mca.hpp; its module is
// the commodity-NIC BTL of protocols/btl/base (FabricBtl) over the machine's ib-sdr-pcie network.
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::openib {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "openib",
           .description = "InfiniBand over verbs (mVAPI era): send/receive fragments, RDMA PUT and GET through the HCA",
           .nic_kinds = {"ib-sdr-pcie"},
           .source = "Open MPI v1.1 ompi/mca/btl/mvapi/btl_mvapi_component.c (the paper's mVAPI BTL, named openib here)",
           .params = param_block<OpenibMca>(),
           .make_btl = [](World& w, const McaParams& m) {
             return std::make_unique<FabricBtl>(w, "openib", "ib-sdr-pcie", m.get<OpenibMca>().caps(), OpenibMca::kConnection);
           },
           .btl_flags = OpenibMca{}.caps().flags,
           .reach = Reach::Network});
}

}  // namespace ompisim::btl::openib
