// A machine: topology, node shape and the physical parameter set of its NIC family, loaded from
// models/<family>/machines/<name>.json. One parameter set per machine serves every scenario on it.
// A machine file may name a "base" machine whose file it extends (deep merge; the child's keys win).
#pragma once
#include "core/params.hpp"
#include "models/gemini/gemini_params.hpp"
#include "models/host/host_params.hpp"
#include "models/loggp/loggp_params.hpp"
#include "models/seastar/seastar_params.hpp"
#include "models/topology/torus.hpp"
#include "protocols/base/mca_params.hpp"

#include <memory>
#include <string>

namespace ompisim {

struct Machine {
  std::string name, file, family, description;
  long long nodes = 0;        // compute nodes, in the machine's node order
  int cores_per_node = 0;
  std::unique_ptr<topology::Torus> torus;  // null for flat (loggp) machines
  host::HostParams host;
  gemini::GeminiParams gemini;
  gemini::SoftwareParams software;
  loggp::LogGPParams loggp;
  seastar::SeaStarParams seastar;
  seastar::SoftwareParams seastar_software;
  McaParams mca;                // machine defaults (software), before scenario overrides
  Json topology_json;           // as given, for provenance

  ParamList physical_params();  // every physical parameter of the family, prefixed by section ("nic.router_hop_latency")
  ParamList mca_params() { return param_list(mca); }
  long long router_of(long long node) const { return torus ? torus->router_of_node(node) : node; }
  // Rebuilds the torus links from the NIC parameters (after loading, and after --set overrides). Keeps dims and wrap.
  void rebuild_topology();
  // Family-independent view of the network interface, for the fabric model in runtime/world.
  double injection_bandwidth() const;  // host interface rate of one node's NIC
  double nic_latency() const;          // NIC to NIC for a small packet, excluding router hops
};

std::string data_dir();  // the project root holding models/, scenarios/, validation/
// All machine names found under models/*/machines/.
std::vector<std::pair<std::string, std::string>> list_machines();  // {name, file}
std::string machine_file(const std::string& name);                 // InputError when unknown (with did-you-mean)
std::unique_ptr<Machine> load_machine(const std::string& name_or_path);

}  // namespace ompisim
