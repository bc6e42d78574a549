// Registry of network topologies (explicit registration, no static constructors), shaped like
// collectives/registry.hpp: an entry is a name ("torus", "fat_tree", "dragonfly", "flat"), a one-line description,
// its source, and a factory that reads the machine file's `topology` object strictly (every bad key is an InputError
// naming the file and the key path "topology.<key>").
#pragma once
#include "core/registry.hpp"
#include "platform/topology/topology.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ompisim::topology {

// Keys of the machine file's `topology` object that belong to its caller (the machine loader), not to the shape:
// factories let them pass without reading them. ("kind", "routing", "source", "note".)
const std::vector<std::string>& caller_shape_keys();
// caller_shape_keys() plus a shape's optional keys, for ObjectReader::finish: an unknown key is then suggested the
// closest of all of them, including optional keys that were absent (e.g. "warp" -> "wrap").
std::vector<std::string> allowed_shape_keys(const std::vector<std::string>& optional_keys);

// `path`: the key path of the shape object in its file ("networks.gemini.topology"), for error messages.
using TopologyFactory = std::unique_ptr<Topology> (*)(const nlohmann::json& shape, const LinkParams& params,
                                                      const std::string& file, const std::string& path);

struct TopologyInfo {
  std::string name;         // the `topology.kind` value
  std::string description;  // one line
  std::string source;       // paper / document the shape follows
  TopologyFactory make = nullptr;
};

class TopologyRegistry : public NamedRegistry<TopologyInfo, &TopologyInfo::make> {};

// Registers torus, fat_tree, dragonfly and flat.
void register_topologies(TopologyRegistry& reg);
// Every topology of the project, registered once.
const TopologyRegistry& topologies();

// Builds the topology `kind` from its shape. An unknown kind is an InputError on "topology.kind" with a did-you-mean
// and the known kinds; a bad shape is the factory's InputError.
std::unique_ptr<Topology> make_topology(const std::string& kind, const nlohmann::json& shape, const LinkParams& params,
                                        const std::string& file, const std::string& path = kShapePath);

}  // namespace ompisim::topology
