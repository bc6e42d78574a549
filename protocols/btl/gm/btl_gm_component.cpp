// btl/gm's registration (↔ ompi/mca/btl/gm/btl_gm_component.c, its register function): its
// parameters are btl_gm_mca.hpp; the module is the common BTL over one network (protocols/btl/base/fabric_btl.hpp)
// with this component's capability record, driving the machine's network of NIC kind "myrinet-2000".
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"
#include "protocols/register.hpp"

namespace ompisim::btl::gm {

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "gm",
           .description = "Myrinet 2000 (GM): send/receive and RDMA PUT over the LANai NIC",
           .nic_kinds = {"myrinet-2000"},
           .source = "Open MPI v1.1 ompi/mca/btl/gm/btl_gm_component.c",
           .params = param_block<GmMca>(),
           .make_btl = [](World& w, const McaParams& m) -> std::unique_ptr<Btl> {
             return std::make_unique<FabricBtl>(w, "gm", "myrinet-2000", m.get<GmMca>().caps());
           },
           .btl_flags = flag::Send | flag::Put,
           .reach = Reach::Network});
}

}  // namespace ompisim::btl::gm
