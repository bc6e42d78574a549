// A machine: its networks, its node types and the list of its nodes, loaded from models/<nic>/machines/<name>.json.
// One parameter set per machine serves every scenario on it. Shape of the file (README.md, "Machine files"):
//
//   "networks":   {"<net>": {"nic": {"kind": "gemini", ...params}, "software": {...}, "topology": {...},
//                            "ports_per_node": N}}          one fabric per network, each with its own NIC kind
//   "node_types": {"<type>": {... node tree (platform/node), optional "arch" record ...}}
//   "node_list":  [{"type": "<type>", "count": N}, ...]     the machine's nodes, in node order
//   "os", "mca_defaults", "machine", "description", "base"
//
// A NIC kind is looked up by name in a NicKindRegistry (filled by models/register.cpp), so nothing here knows any NIC
// family. A machine file may name a "base" machine whose file it extends (deep merge; the child's keys win). Software
// (MCA) defaults in "mca_defaults" are kept as given: the MPI layers above interpret them. A parameter entry may take
// its value from another machine's parameter, {"transferred_from": {"machine", "key", "scale", "scale_source"},
// "source": reason} (resolved when loading, so it follows a refit of the source; machine.cpp, "Transferred parameters").
//
// Parameter names (describe, --set, calibration, provenance): on a machine with one network and one node type, the
// short names of before ("nic.bte_bandwidth", "software.pml_ob1_overhead", "node.memory.dram_copy_bandwidth",
// "os.xpmem_attach_cost"); otherwise the long form, which is also the key path in the file and is always accepted:
// "networks.<net>.nic.<param>", "networks.<net>.software.<param>", "node_types.<type>.<param>".
//
// LIMITATIONS: every node is attached to every network (a network cannot serve a subset of the nodes); a node type that
// lists no NIC has one implicit NIC on each network; the node count of each topology is the machine's node count.
#pragma once
#include "core/params.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/topology.hpp"
#include "platform/node/node_type.hpp"
#include "platform/os_params.hpp"
#include "platform/nic.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ompisim {

// One network of a machine: a NIC kind with its parameters, a topology with its route policy, and the NIC ports each
// node has on it (fabric ports are (node, port index)).
struct Network {
  std::string name;                               // the key under "networks"
  std::unique_ptr<NicModel> nic;
  std::unique_ptr<topology::Topology> topology;
  const topology::RoutePolicyInfo* routing = nullptr;  // topology.routing (default "minimal"); a scenario may override
  Json topology_json;                             // as given, for provenance
  int ports_per_node = 1;

  std::string nic_kind() const { return nic->kind(); }
  double injection_bandwidth() const { return nic->injection_bandwidth(); }
  double nic_latency() const { return nic->nic_latency(); }
  // Sets the topology's link rates from the NIC parameters (after loading, and after --set overrides). Keeps the shape.
  void rebuild_topology() { topology->set_link_params(nic->link_params()); }
};

// A node type's processor architecture, for receiver-makes-right conversion between unlike nodes (optional "arch"
// record of a node type: {"endianness": "little"|"big", "long_double_bytes", "bool_bytes", "logical_bytes"}, and
// optionally the processor's costs per element: "convert_cost_per_element" (the convertor's unpack of one typed
// element from another architecture: endian swap, size change) and "reduce_cost_per_element" (one MPI_SUM element),
// each {"value": "2 ns", "source": ...}). pml/ob1 publishes descriptor() per rank (the paper's Table 1 bitmask).
struct Arch {
  enum class Endian : std::uint8_t { Little, Big };
  Endian endianness = Endian::Little;
  int long_double_bytes = 16, bool_bytes = 1, logical_bytes = 4;
  Sourced convert_cost_per_element{}, reduce_cost_per_element{};  // .set: given by the machine file
  bool operator==(const Arch& o) const {
    return endianness == o.endianness && long_double_bytes == o.long_double_bytes && bool_bytes == o.bool_bytes &&
           logical_bytes == o.logical_bytes;
  }
  // The costs as parameters ("node_types.<type>.arch.convert_cost_per_element", settable with --set like every other
  // physical parameter); Machine::params lists only those the machine file gives.
  template <class V>
  void visit(V&& v) {
    v(convert_cost_per_element, {"convert_cost_per_element", Dim::Time,
                                 "receiver's conversion of one typed element from another architecture", 0, 1e-3});
    v(reduce_cost_per_element, {"reduce_cost_per_element", Dim::Time, "one element of a reduction (MPI_SUM)", 0, 1e-3});
  }
  // The 32-bit architecture descriptor (Graham et al. 2006, Table 1): byte 1 endianness, byte 2 the sizes of bool and
  // LOGICAL, byte 3 the size of long double, byte 4 always 11111111 (the marker that shows the byte order). Two ranks
  // with equal descriptors need no conversion.
  std::uint32_t descriptor() const;
};

struct NodeTypeDef {
  std::string name;  // the key under "node_types"
  platform::NodeType type;
  std::optional<Arch> arch;
};

class Machine {
public:
  std::string name, file, description;
  long long nodes = 0;  // every node of node_list, in node order
  OsParams os;
  Json mca_defaults = Json::object();  // "mca_defaults" as given ({name: {value, source}}), read by the MPI layers

  // --- networks ---
  const std::vector<Network>& networks() const { return networks_; }
  std::vector<Network>& networks() { return networks_; }
  // The network of that name; std::out_of_range naming it when the machine has none.
  const Network& network(const std::string& net) const;
  Network& network(const std::string& net);
  int network_index(const std::string& net) const;  // -1 when none
  // The machine's only network; std::logic_error when it has several (the caller must say which).
  const Network& network() const;
  Network& network();
  // The NIC model of the network of that kind; std::logic_error when no network, or more than one, has that kind.
  const NicModel& nic(const std::string& kind) const;
  NicModel& nic(const std::string& kind);
  bool has_nic_kind(const std::string& kind) const;
  int network_index_of_kind(const std::string& kind) const;  // the first network with that NIC kind; -1 when none
  std::vector<std::string> nic_kinds() const;  // one per network, in network order (duplicates kept)

  // --- nodes ---
  const std::vector<NodeTypeDef>& node_types() const { return types_; }
  const platform::NodeType& node_type(long long node) const { return types_[type_index(node)].type; }
  const NodeTypeDef& node_type_def(long long node) const { return types_[type_index(node)]; }
  int type_index(long long node) const;  // std::out_of_range for a node the machine lacks
  long long total_cores() const;

  // A per-message software cost of an MPI component measured on this machine (a network's "software" section, e.g.
  // "pml_ob1_overhead"); InputError naming the machine file and the key when no network gives it, or when several do.
  double software_cost(const std::string& name) const;
  // The same cost's parameter, every copy (one per network that gives it, equal values), none of them read: for a
  // component that takes the value (Sourced::value) when it is built and reads the copies on the path that uses it,
  // so a --set of it on a run that never takes that path is reported as changing nothing.
  std::vector<const Sourced*> software_params(const std::string& name) const;
  // Every physical parameter: "os.*", then per network its NIC kind's sections, then per node type its tree. Named as
  // in the header comment: short names on a machine with one network and one node type, else the long form.
  ParamList physical_params();
  // The same parameters, always in the long form (the key path in the file: "networks.gemini.nic.bte_bandwidth").
  ParamList physical_params_long();
  bool short_names() const { return networks_.size() == 1 && types_.size() == 1; }
  void rebuild_topology();  // every network's

private:
  friend std::unique_ptr<Machine> load_machine(const std::string&, const NicKindRegistry&);
  ParamList params(bool long_form);
  std::vector<Network> networks_;
  std::vector<NodeTypeDef> types_;
  struct Range {
    long long end;  // one past the last node of the entry
    int type;
  };
  std::vector<Range> ranges_;  // node_list, cumulative
};

// The data root holding models/, scenarios/, validation/: $OMPISIM_DATA, else <the program's prefix>/share/ompisim
// (installed files, or in a build tree a link to the source tree), else the current folder.
std::string data_dir();
// OMPISIM_DATA, when set, names a folder: InputError otherwise (a misspelled folder would read as data with nothing
// in it: empty lists, "unknown machine"). The tool checks it before any command.
void check_data_dir();
// `path` relative to data_dir() when it lies inside it (for messages and provenance), else as given.
std::string repo_relative(const std::string& path);
// All machine names found under models/*/machines/.
std::vector<std::pair<std::string, std::string>> list_machines();  // {name, file}
std::string machine_file(const std::string& name);                 // InputError when unknown (with did-you-mean)
// The file of the machine named `name` under models/*/machines/, "" when none; `names` gets every machine's name.
// InputError (key "machine") when two family folders each have a file of that name.
std::string find_machine_file(const std::string& name, std::vector<std::string>* names = nullptr);
// The known machine names for an error message, or, when the data folder holds none, where they were looked for.
std::string known_machines_text(const std::vector<std::string>& names);
std::unique_ptr<Machine> load_machine(const std::string& name_or_path, const NicKindRegistry& kinds);

}  // namespace ompisim
