// See topology_registry.hpp.
#include "platform/topology/topology_registry.hpp"

#include "core/json_input.hpp"
#include "platform/topology/dragonfly.hpp"
#include "platform/topology/fat_tree.hpp"
#include "platform/topology/flat.hpp"
#include "platform/topology/torus.hpp"

#include <stdexcept>

namespace ompisim::topology {

const std::vector<std::string>& caller_shape_keys() {
  static const std::vector<std::string> keys{"kind", "routing", "source", "note"};
  return keys;
}

std::vector<std::string> allowed_shape_keys(const std::vector<std::string>& optional_keys) {
  std::vector<std::string> keys = caller_shape_keys();
  keys.insert(keys.end(), optional_keys.begin(), optional_keys.end());
  return keys;
}

void register_topologies(TopologyRegistry& reg) {
  reg.add({"torus", "3-D torus or mesh of routers, static dimension-order routing (X, Y, Z, shorter way, ties to +)",
           "Alverson, Roweth, Kaplan, The Gemini System Interconnect, HOTI 2010", &Torus::from_shape});
  reg.add({"fat_tree", "k-ary n-tree: n levels of k^(n-1) switches, k nodes per leaf; up to a nearest common ancestor, "
                       "then down (d-mod-k up ports by default)",
           "Petrini, Vanneschi, k-ary n-trees, IPPS 1997; Quadrics QsNetII is a 4-ary n-tree (Beecroft et al., IEEE "
           "Micro 2005)",
           &FatTree::from_shape});
  reg.add({"dragonfly", "groups of all-to-all routers joined by global links (consecutive arrangement); minimal "
                        "routes local-global-local",
           "Kim, Dally, Scott, Abts, Technology-Driven, Highly-Scalable Dragonfly Topology, ISCA 2008", &Dragonfly::from_shape});
  reg.add({"flat", "one crossbar switch holding every node: no router-to-router links (contention only at the NICs)",
           "LogGP reference machine (Alexandrov et al., SPAA 1995): the network is a latency and a gap",
           &Flat::from_shape});
}

const TopologyRegistry& topologies() {
  static const TopologyRegistry reg = [] {
    TopologyRegistry r;
    register_topologies(r);
    return r;
  }();
  return reg;
}

std::unique_ptr<Topology> make_topology(const std::string& kind, const nlohmann::json& shape, const LinkParams& params,
                                        const std::string& file, const std::string& path) {
  const auto& reg = topologies();
  if (const auto* e = reg.find(kind)) return e->make(shape, params, file, path);
  auto names = reg.names();
  std::string hint = did_you_mean(kind, names);
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw InputError(file, path + ".kind",
                   "unknown topology kind '" + kind + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                       "; known: " + known);
}

}  // namespace ompisim::topology
