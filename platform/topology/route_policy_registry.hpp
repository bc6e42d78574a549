// Registry of route policies (explicit registration, no static constructors), shaped like
// collectives/registry.hpp: name, one-line description, the topology kinds it applies to (empty = every kind), its
// source, and the routing function (route_policies.hpp).
#pragma once
#include "core/registry.hpp"
#include "platform/topology/topology.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::topology {

// load may be null (no traffic information); flow_key identifies the flow for deterministic "random" choices.
using RouteFn = Route (*)(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t flow_key);

struct RoutePolicyInfo {
  std::string name;                // "dimension_order", "minimal", "updown_adaptive", "valiant", "ugal"
  std::string description;         // one line
  std::vector<std::string> kinds;  // topology kinds it applies to; empty = every kind
  std::string source;
  RouteFn route = nullptr;
  // The route is a function of the router pair alone (the policy reads neither the link loads nor the flow key), so a
  // caller may keep it per router pair and need not count flows per link for it.
  bool by_router_pair = false;
  // What the policy does on topology `t` where it is not what its name promises (Valiant on a dragonfly of 2 groups
  // has no intermediate group: every route is minimal), "" where it is; null: never.
  std::string (*on_topology)(const Topology& t) = nullptr;
  bool applies_to(const std::string& kind) const;
};

class RoutePolicyRegistry : public NamedRegistry<RoutePolicyInfo, &RoutePolicyInfo::route> {
public:
  std::vector<std::string> names_for(const std::string& kind) const;  // policies that apply to `kind`
};

// Registers dimension_order, minimal, updown_adaptive, valiant, ugal.
void register_route_policies(RoutePolicyRegistry& reg);
const RoutePolicyRegistry& route_policies();

// The policy `name` for a topology of kind `kind`. InputError(file, key, ...) for an unknown name (did-you-mean and
// the policies of that kind) or a policy that does not apply to the kind (naming the kinds it applies to).
const RoutePolicyInfo& find_route_policy(const std::string& name, const std::string& kind, const std::string& file,
                                         const std::string& key);

}  // namespace ompisim::topology
