// The registry entry of a v1.1 commodity-NIC BTL (btl/gm, btl/openib, btl/tcp), made from its parameter block's
// declaration (V11BtlMca, kComponent): its name, NIC kind, parameters, flags and statistics (FabricBtl's, under its
// name), and a FabricBtl module over the network of that NIC kind with the block's capability record and the
// component's connection.
#pragma once
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/register.hpp"

#include <memory>
#include <string>

namespace ompisim::btl {

// `description`: the one-line summary `ompisim list` shows; `source_note`: what more the entry's source (the
// parameters' file) has to say.
template <class Mca>
ComponentInfo v11_fabric_btl(std::string description, const std::string& source_note = "") {
  const V11Component& c = Mca::kComponent;
  return {.framework = "btl",
          .name = c.name,
          .description = std::move(description),
          .nic_kinds = {c.nic_kind},
          .source = source_note.empty() ? std::string(c.source) : c.source + (" " + source_note),
          .params = param_block<Mca>(),
          .make_btl = [](const PlatformParts& parts, const McaParams& m) -> std::unique_ptr<Btl> {
            const V11Component& k = Mca::kComponent;
            Fabric& fabric = parts.fabric(FabricBtl::network_of(parts.machine, k.name, k.nic_kind));
            return std::make_unique<FabricBtl>(parts.contexts, parts.cpus, fabric, k.name, m.get<Mca>().caps(),
                                               k.connection);
          },
          .btl_flags = Mca{}.caps().flags,
          .reach = Reach::Network,
          .statistics = statistic_list(fabric_btl_statistics(c.name))};
}

}  // namespace ompisim::btl
