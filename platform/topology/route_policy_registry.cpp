// See route_policy_registry.hpp.
#include "platform/topology/route_policy_registry.hpp"

#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "platform/topology/dragonfly.hpp"
#include "platform/topology/route_policies.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::topology {

namespace {
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}
}  // namespace

bool RoutePolicyInfo::applies_to(const std::string& kind) const {
  return kinds.empty() || std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::vector<std::string> RoutePolicyRegistry::names_for(const std::string& kind) const {
  std::vector<std::string> out;
  for (const auto& e : entries_)
    if (e.applies_to(kind)) out.push_back(e.name);
  return out;
}

namespace {
// Valiant and UGAL between groups need a third group to route through: on a dragonfly of fewer, `what` (after "on a
// dragonfly of N groups there is"), else "".
std::string with_fewer_than_3_groups(const Topology& t, const char* what) {
  const auto* df = dynamic_cast<const Dragonfly*>(&t);
  if (!df || df->groups() >= 3) return "";
  return fmt::format("on a dragonfly of {} group{} there is {}", df->groups(), df->groups() == 1 ? "" : "s", what);
}
std::string valiant_on(const Topology& t) {
  return with_fewer_than_3_groups(t, "no intermediate group: every route is minimal");
}
std::string ugal_on(const Topology& t) {
  return with_fewer_than_3_groups(t, "no Valiant route between groups: UGAL chooses only among the minimal routes' "
                                     "global links (and, inside a group, between the direct local link and two "
                                     "through an intermediate switch)");
}
}  // namespace

void register_route_policies(RoutePolicyRegistry& reg) {
  reg.add({"dimension_order", "static dimension-order route: X, then Y, then Z, each the shorter way, ties to +",
           {"torus"}, "Alverson, Roweth, Kaplan, The Gemini System Interconnect, HOTI 2010", &default_route_policy,
           true});
  reg.add({"minimal", "the topology's deterministic minimal route (default_route)", {},
           "each topology's header", &default_route_policy, true});
  reg.add({"updown_adaptive", "up to the nearest common ancestor by the least-loaded up link at each level (ties: "
                              "d-mod-k), then the unique down path",
           {"fat_tree"}, "Petrini, Vanneschi, IPPS 1997; Gomez et al., IPDPS 2007 workshops (d-mod-k)",
           &updown_adaptive_route});
  reg.add({"valiant", "through an intermediate group chosen by a hash of the flow key (2 global links); minimal "
                      "within a group",
           {"dragonfly"}, "Kim, Dally, Scott, Abts, ISCA 2008 §4.1; SST merlin topo_dragonfly \"valiant\"",
           &valiant_route, false, &valiant_on});
  reg.add({"ugal", "minimal unless load(valiant) x hops(valiant) < load(minimal) x hops(minimal) (UGAL-L style, "
                   "route load = its most loaded link); inside a group the same rule between the direct local link "
                   "and two local links through an intermediate switch",
           {"dragonfly"},
           "Kim, Dally, Scott, Abts, ISCA 2008 §4.2 (UGAL); SST merlin topo_dragonfly \"ugal\" and "
           "route_adaptive_local (inside a group)",
           &ugal_route, false, &ugal_on});
}

const RoutePolicyRegistry& route_policies() {
  static const RoutePolicyRegistry reg = [] {
    RoutePolicyRegistry r;
    register_route_policies(r);
    return r;
  }();
  return reg;
}

const RoutePolicyInfo& find_route_policy(const std::string& name, const std::string& kind, const std::string& file,
                                         const std::string& key) {
  const auto& reg = route_policies();
  const auto* e = reg.find(name);
  if (e == nullptr) {
    std::string hint = did_you_mean(name, reg.names());
    throw InputError(file, key,
                     "unknown route policy '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                         "; policies for topology kind '" + kind + "': " + join(reg.names_for(kind)));
  }
  if (!e->applies_to(kind))
    throw InputError(file, key,
                     "route policy '" + name + "' does not apply to topology kind '" + kind + "' (it applies to: " +
                         join(e->kinds) + "); policies for '" + kind + "': " + join(reg.names_for(kind)));
  return *e;
}

}  // namespace ompisim::topology
