// A machine: node shape, topology (platform/topology registry) and the physical parameter set of its NIC kind, loaded from
// models/<nic>/machines/<name>.json. One parameter set per machine serves every scenario on it. The NIC kind is named
// in the file ("nic": {"kind": "gemini", ...}) and looked up in a NicKindRegistry (filled by models/register.cpp), so
// nothing here knows any NIC family. A machine file may name a "base" machine whose file it extends (deep merge; the
// child's keys win). Software (MCA) defaults in "mca_defaults" are kept as given: the MPI layers above interpret them.
#pragma once
#include "core/params.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/topology.hpp"
#include "platform/node/node_type.hpp"
#include "platform/os_params.hpp"
#include "platform/nic.hpp"

#include <memory>
#include <string>

namespace ompisim {

struct Machine {
  std::string name, file, description;
  long long nodes = 0;        // compute nodes, in the machine's node order
  int cores_per_node = 0;    // node.cores()
  std::unique_ptr<topology::Topology> topology;
  const topology::RoutePolicyInfo* routing = nullptr;  // topology.routing (default "minimal"); a scenario may override
  platform::NodeType node{platform::NodeShape{}, {}, {}};  // "node": packages, NUMA nodes, cores, memory, links, devices
  OsParams os;
  std::unique_ptr<NicModel> nic;
  Json topology_json;           // as given, for provenance
  Json mca_defaults = Json::object();  // "mca_defaults" as given ({name: {value, source}}), read by the MPI layers

  std::string nic_kind() const { return nic->kind(); }
  // A per-message software cost of an MPI component measured on this machine (the "software" section, e.g.
  // "pml_ob1_overhead"); InputError naming the machine file and software.<name> when the machine has none.
  double software_cost(const std::string& name) const;
  ParamList physical_params();  // "node.*", "os.*", then every section of the NIC kind ("nic.router_hop_latency", ...)
  // Sets the topology's link rates from the NIC parameters (after loading, and after --set overrides). Keeps the shape.
  void rebuild_topology();
  double injection_bandwidth() const { return nic->injection_bandwidth(); }
  double nic_latency() const { return nic->nic_latency(); }
};

std::string data_dir();  // the project root holding models/, scenarios/, validation/
// All machine names found under models/*/machines/.
std::vector<std::pair<std::string, std::string>> list_machines();  // {name, file}
std::string machine_file(const std::string& name);                 // InputError when unknown (with did-you-mean)
std::unique_ptr<Machine> load_machine(const std::string& name_or_path, const NicKindRegistry& kinds);

}  // namespace ompisim
