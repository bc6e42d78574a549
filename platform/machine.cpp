#include "platform/machine.hpp"

#include "core/safe_name.hpp"
#include "platform/machine_json.hpp"
#include "platform/topology/topology_registry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <fmt/format.h>

namespace ompisim {

namespace {

[[noreturn]] void unknown_name(const std::string& file, const std::string& key, const std::string& what,
                               const std::string& name, const std::vector<std::string>& known) {
  std::string hint = did_you_mean(name, known);
  throw InputError(file, key, fmt::format("unknown {} '{}'{} (known: {})", what, name,
                                          hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(known, ", ")));
}

// The optional "arch" record of a node type.
Arch read_arch(const Json& j, const std::string& file, const std::string& path) {
  if (!j.is_object()) throw InputError(file, path, "expected an object {endianness, long_double_bytes, bool_bytes, logical_bytes}");
  ObjectReader a(j, file, path);
  Arch arch;
  std::string e = a.str("endianness");
  if (e == "little") arch.endianness = Arch::Endian::Little;
  else if (e == "big") arch.endianness = Arch::Endian::Big;
  else a.fail("endianness", "expected \"little\" or \"big\", got '" + e + "'");
  auto size = [&](const char* key, std::initializer_list<int> allowed) {
    long long v = a.integer(key, 1, 64);
    for (int x : allowed)
      if (v == x) return static_cast<int>(v);
    a.fail(key, fmt::format("{} bytes is not a size this type has on any modelled architecture (allowed: {})", v,
                            fmt::join(allowed, ", ")));
  };
  arch.long_double_bytes = size("long_double_bytes", {8, 10, 12, 16});
  arch.bool_bytes = size("bool_bytes", {1, 4});
  arch.logical_bytes = size("logical_bytes", {1, 2, 4, 8});
  if (a.has("source")) (void)a.str("source");
  auto cost = [&](const char* key, Sourced& s) {
    if (!a.has(key)) return;
    ObjectReader e = a.object(key);
    e.finish({"value", "source", "range", "range_source", "note"});  // a misspelt key first, not as a missing one
    s.value = e.quantity("value", Dim::Time, 0, 1e-3);
    s.source = e.str("source");
    if (s.source.empty()) e.fail("source", "every parameter needs a 'source' (document, paper or 'estimate: ...')");
    s.set = true;
    load_range(e, ParamRef{ParamInfo{key, Dim::Time, key, 0, 1e-3}, &s}, a.file());
    if (e.has("note")) (void)e.raw("note");  // as on every parameter entry (core/params.cpp): `machine template` writes one
    e.finish();
  };
  cost("convert_cost_per_element", arch.convert_cost_per_element);
  cost("reduce_cost_per_element", arch.reduce_cost_per_element);
  a.finish();
  return arch;
}


std::vector<std::string> keys_of(const Json& obj) {
  std::vector<std::string> out;
  for (auto it = obj.begin(); it != obj.end(); ++it) out.push_back(it.key());
  return out;
}

}  // namespace

const Network& Machine::network(const std::string& net) const {
  int i = network_index(net);
  if (i < 0) throw std::out_of_range("machine '" + name + "' has no network '" + net + "'");
  return networks_[static_cast<std::size_t>(i)];
}
Network& Machine::network(const std::string& net) { return const_cast<Network&>(std::as_const(*this).network(net)); }

int Machine::network_index(const std::string& net) const {
  for (std::size_t i = 0; i < networks_.size(); ++i)
    if (networks_[i].name == net) return static_cast<int>(i);
  return -1;
}

const Network& Machine::network() const {
  if (networks_.size() != 1)
    throw std::logic_error(fmt::format("machine '{}' has {} networks: say which one", name, networks_.size()));
  return networks_[0];
}
Network& Machine::network() { return const_cast<Network&>(std::as_const(*this).network()); }

const NicModel& Machine::nic(const std::string& kind) const {
  const Network* found = nullptr;
  for (auto& n : networks_)
    if (n.nic_kind() == kind) {
      if (found)
        throw std::logic_error(fmt::format("machine '{}' has several networks of NIC kind '{}' ({}, {}): say which one",
                                           name, kind, found->name, n.name));
      found = &n;
    }
  if (!found) throw std::logic_error(fmt::format("machine '{}' has no network of NIC kind '{}'", name, kind));
  return *found->nic;
}
NicModel& Machine::nic(const std::string& kind) { return const_cast<NicModel&>(std::as_const(*this).nic(kind)); }

bool Machine::has_nic_kind(const std::string& kind) const { return network_index_of_kind(kind) >= 0; }

int Machine::network_index_of_kind(const std::string& kind) const {
  for (std::size_t i = 0; i < networks_.size(); ++i)
    if (networks_[i].nic_kind() == kind) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Machine::nic_kinds() const {
  std::vector<std::string> out;
  for (auto& n : networks_) out.push_back(n.nic_kind());
  return out;
}

int Machine::type_index(long long node) const {
  if (node < 0 || node >= nodes)
    throw std::out_of_range(fmt::format("node {} does not exist on {} (0..{})", node, name, nodes - 1));
  if (ranges_.size() == 1) return ranges_[0].type;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), node, [](long long n, const Range& r) { return n < r.end; });
  return it->type;
}

long long Machine::total_cores() const {
  long long total = 0, begin = 0;
  for (auto& r : ranges_) {
    total += (r.end - begin) * types_[static_cast<std::size_t>(r.type)].type.cores();
    begin = r.end;
  }
  return total;
}

ParamList Machine::params(bool long_form) {
  ParamList all;
  auto add = [&all](const ParamRef& r, const std::string& prefix) {
    all.push_back(r);
    all.back().info.name = prefix + r.info.name;
  };
  // Node types first, then os, then the networks (the order of before, which calibration's parameter vector follows).
  for (auto& t : types_) {
    const std::string prefix = long_form ? "node_types." + t.name + "." : "node.";
    for (auto& r : t.type.params()) add(r, prefix);
    if (t.arch)
      for (auto& r : param_list(*t.arch, "arch."))
        if (r.p->set) add(r, prefix);  // only the costs the machine file gives
  }
  for (auto& r : param_list(os, "os.")) all.push_back(r);
  for (auto& n : networks_)
    for (auto& [section, list] : n.nic->sections())
      for (auto& r : list) add(r, (long_form ? "networks." + n.name + "." : std::string()) + section + ".");
  return all;
}

ParamList Machine::physical_params() { return params(!short_names()); }
ParamList Machine::physical_params_long() { return params(true); }

double Machine::software_cost(const std::string& cost) const {
  const std::vector<const Sourced*> copies = software_params(cost);
  for (const Sourced* s : copies) (void)s->get();  // the stack reads each copy
  return copies.front()->value;
}

std::vector<const Sourced*> Machine::software_params(const std::string& cost) const {
  std::vector<const Sourced*> found;
  std::string where;
  for (auto& n : networks_)
    for (auto& [section, list] : n.nic->sections())
      if (section == "software")
        for (auto& r : list)
          if (r.info.name == cost) {
            // Two networks may both give a host-side cost (each network's file is complete); equal values agree.
            if (!found.empty() && found.front()->value != r.p->value)
              throw InputError(file, "networks." + n.name + ".software." + cost,
                               "given by two networks (" + where + ", " + n.name + "): the stack cannot tell which applies");
            if (found.empty()) where = n.name;
            found.push_back(r.p);
          }
  if (found.empty())
    throw InputError(file, (networks_.size() == 1 ? "networks." + networks_[0].name + "." : std::string()) + "software." + cost,
                     "this machine gives no " + cost + " (needed by the stack's components)");
  return found;
}

void Machine::rebuild_topology() {
  for (auto& n : networks_) n.rebuild_topology();
}

namespace {

// The "node_types" object: each a node tree with an optional "arch" record.
std::vector<NodeTypeDef> read_node_types(const Json& types, ObjectReader& r, const std::string& file) {
  std::vector<NodeTypeDef> out;
  if (!types.is_object() || types.empty())
    r.fail("node_types", "expected an object {\"<type>\": {packages, numa_per_package, cores_per_numa, ...}} with one "
                         "type at least");
  for (auto it = types.begin(); it != types.end(); ++it) {
    std::string path = "node_types." + it.key();
    check_safe_name(it.key(), file, path);
    if (!it.value().is_object()) throw InputError(file, path, "expected an object (a node type)");
    Json tree = it.value();
    std::optional<Arch> arch;
    if (tree.contains("arch")) {
      arch = read_arch(tree["arch"], file, path + ".arch");
      tree.erase("arch");
    }
    out.push_back({it.key(), platform::NodeType::from_json(tree, file, path), arch});
  }
  return out;
}

// One network of "networks": its NIC kind with its parameter sections, its topology holding the machine's `nodes`,
// its route policy and its ports per node.
Network read_network(const std::string& key, const Json& value, long long nodes, const NicKindRegistry& kinds,
                     const std::string& file) {
  const std::string base = "networks." + key;
  check_safe_name(key, file, base);
  if (!value.is_object()) throw InputError(file, base, "expected an object {nic, software, topology, ports_per_node}");
  ObjectReader nr(value, file, base);
  Network net;
  net.name = key;
  if (!nr.has("nic")) nr.fail("nic", "a network needs a NIC: {\"kind\": \"<NIC kind>\", parameters...}");
  {
    ObjectReader n = nr.object("nic");
    std::string kind = n.str("kind");
    const NicKindInfo* info = kinds.find(kind);
    if (!info) unknown_name(file, n.key_path("kind"), "NIC kind", kind, kinds.names());
    net.nic = info->make();
    for (auto& [section, list] : net.nic->sections()) {
      if (section == "nic") {
        load_sourced(n, list, true);
      } else {
        ObjectReader s = nr.object(section);
        load_sourced(s, list, true);
      }
    }
  }
  {
    // The caller's keys of the topology object (kind, routing, source, note); the registered topology reads its own
    // shape keys and refuses unknown ones. Its node count is the machine's (node_list), never its own.
    const std::string tpath = base + ".topology";
    net.topology_json = nr.raw("topology");
    if (!net.topology_json.is_object()) throw InputError(file, tpath, "expected an object {kind, ...shape}");
    if (net.topology_json.contains("compute_nodes"))
      throw InputError(file, tpath + ".compute_nodes", "the node count is node_list's (the sum of its counts), not "
                                                       "the topology's: remove this key");
    ObjectReader t(net.topology_json, file, tpath);
    std::string kind = t.str("kind");
    std::string routing = t.opt_str("routing").value_or("minimal");
    Json shape = net.topology_json;
    shape["compute_nodes"] = nodes;
    try {
      net.topology = topology::make_topology(kind, shape, net.nic->link_params(), file, tpath);
      net.nic->attach(*net.topology);
    } catch (const InputError& e) {
      if (e.key() == tpath + ".compute_nodes") {
        // the topology's reason repeats "<n> nodes do not fit: " before its shape
        std::string why = e.reason();
        if (const std::string head = fmt::format("{} nodes do not fit: ", nodes); why.starts_with(head))
          why = why.substr(head.size());
        throw InputError(file, "node_list", fmt::format("{} nodes do not fit network '{}': {}", nodes, net.name, why));
      }
      throw;
    }
    net.routing = &topology::find_route_policy(routing, kind, file, tpath + ".routing");
  }
  net.ports_per_node = static_cast<int>(nr.integer("ports_per_node", 1, 64));
  nr.finish();
  return net;
}

}  // namespace

std::unique_ptr<Machine> load_machine(const std::string& name_or_path, const NicKindRegistry& kinds) {
  const std::string path = machine_file(name_or_path);
  // Messages name the file relative to the project (or as the user gave it), never this machine's absolute path.
  const std::string file = repo_relative(path);
  Json j;
  try {
    j = load_machine_json(path, file);
  } catch (const InputError& e) {
    throw InputError(repo_relative(e.file()), e.key(), e.reason());
  }
  auto m = std::make_unique<Machine>();
  m->file = path;
  ObjectReader r(j, file, "");
  m->name = r.str("machine");
  // Results record it and reruns (compare --against, validate --machine-file) look it up: a name, never a path.
  check_safe_name(m->name, file, "machine");
  m->description = r.opt_str("description").value_or("");

  const Json& types = r.raw("node_types");
  m->types_ = read_node_types(types, r, file);
  std::vector<std::string> type_names = keys_of(types);

  // The node list: the machine's nodes, in node order, as runs of one type.
  {
    const Json& list = r.raw("node_list");
    if (!list.is_array() || list.empty())
      r.fail("node_list", "expected a non-empty list [{\"type\": \"<node type>\", \"count\": N}, ...]");
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string path = fmt::format("node_list[{}]", i);
      if (!list[i].is_object()) throw InputError(file, path, "expected an object {\"type\", \"count\"}");
      ObjectReader e(list[i], file, path);
      std::string type = e.str("type");
      auto t = std::find(type_names.begin(), type_names.end(), type);
      if (t == type_names.end()) unknown_name(file, path + ".type", "node type", type, type_names);
      long long count = e.integer("count", 1, 1LL << 40);
      if (e.has("source")) (void)e.str("source");
      e.finish();
      if (m->nodes + count > (1LL << 40)) e.fail("count", "more than 2^40 nodes in all");
      m->nodes += count;
      m->ranges_.push_back({m->nodes, static_cast<int>(t - type_names.begin())});
    }
  }

  {
    ObjectReader o = r.object("os");
    auto list = param_list(m->os);
    load_sourced(o, list, true);
  }

  // Networks: each a NIC kind with its parameter sections, a topology holding the machine's nodes, and ports per node.
  const Json& nets = r.raw("networks");
  if (!nets.is_object() || nets.empty())
    r.fail("networks", "expected an object {\"<network>\": {nic, software, topology, ports_per_node}} with one "
                       "network at least");
  for (auto it = nets.begin(); it != nets.end(); ++it)
    m->networks_.push_back(read_network(it.key(), it.value(), m->nodes, kinds, file));
  std::vector<std::string> net_names = keys_of(nets);

  // Every NIC a node type lists names a network of the machine; every node can attach the ports of every network (a
  // type that lists no NIC has one implicit NIC on each network).
  for (auto& t : m->types_)
    for (std::size_t i = 0; i < t.type.nics().size(); ++i)
      if (m->network_index(t.type.nics()[i].network) < 0)
        unknown_name(file, fmt::format("node_types.{}.nics[{}].network", t.name, i), "network",
                     t.type.nics()[i].network, net_names);
  for (auto& net : m->networks_)
    for (auto& range : m->ranges_) {
      const NodeTypeDef& t = m->types_[static_cast<std::size_t>(range.type)];
      int can = t.type.nics().empty() ? 1 : t.type.nic_count(net.name);
      if (net.ports_per_node > can)
        throw InputError(file, "networks." + net.name + ".ports_per_node",
                         fmt::format("{} ports per node, but node type '{}' has {} NIC(s) on network '{}' (node_types.{}"
                                     ".nics; a type that lists none has one)",
                                     net.ports_per_node, t.name, can, net.name, t.name));
    }

  if (r.has("mca_defaults")) {
    m->mca_defaults = r.raw("mca_defaults");
    if (!m->mca_defaults.is_object()) r.fail("mca_defaults", "expected an object {name: {value, source}}");
  }
  r.finish({"machine", "description", "networks", "node_types", "node_list", "os", "mca_defaults"});
  return m;
}

std::uint32_t Arch::descriptor() const {
  auto code = [](int bytes) -> std::uint32_t { return bytes <= 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3; };
  const std::uint32_t b1 = endianness == Endian::Big ? 0x04u : 0x00u;                      // bits 3-4: 01 = big
  const std::uint32_t b2 = (code(bool_bytes) << 2) | code(logical_bytes);                    // bool, LOGICAL sizes
  const std::uint32_t b3 = long_double_bytes == 8 ? 0 : long_double_bytes == 12 ? 1 : long_double_bytes == 16 ? 2 : 3;
  return (b1 << 24) | (b2 << 16) | (b3 << 8) | 0xFFu;
}

}  // namespace ompisim
