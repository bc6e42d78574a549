// btl/openib's registration (↔ ompi/mca/btl/mvapi/btl_mvapi_component.c, its register function): its
// parameters are btl_openib_mca.hpp; the module is the common BTL over one network (protocols/btl/base/fabric_btl.hpp)
// with this component's capability record, driving the machine's network of NIC kind "ib-sdr-pcie".
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::openib {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "openib",
           .description = "InfiniBand HCA on PCIe (mVAPI era): send/receive and RDMA PUT/GET over the HCA",
           .nic_kinds = {"ib-sdr-pcie"},
           .source = "Open MPI v1.1 ompi/mca/btl/mvapi/btl_mvapi_component.c (registered here as openib)",
           .params = param_block<OpenibMca>(),
           .make_btl = [](World& w, const McaParams& m) -> std::unique_ptr<Btl> {
             return std::make_unique<FabricBtl>(w, "openib", "ib-sdr-pcie", m.get<OpenibMca>().caps());
           },
           .btl_flags = flag::Send | flag::Put | flag::Get,
           .reach = Reach::Network});
}

}  // namespace ompisim::btl::openib
