#include "platform/machine.hpp"

#include "core/safe_name.hpp"
#include "platform/topology/topology_registry.hpp"

#include <filesystem>
#include <fmt/format.h>

#ifndef OMPISIM_SOURCE_DIR
#define OMPISIM_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace ompisim {

std::string data_dir() {
  if (const char* d = std::getenv("OMPISIM_DATA")) return d;
  return OMPISIM_SOURCE_DIR;
}

std::vector<std::pair<std::string, std::string>> list_machines() {
  std::vector<std::pair<std::string, std::string>> out;
  fs::path models = fs::path(data_dir()) / "models";
  if (!fs::exists(models)) return out;
  for (auto& fam : fs::directory_iterator(models)) {
    fs::path m = fam.path() / "machines";
    if (!fs::is_directory(m)) continue;
    for (auto& f : fs::directory_iterator(m))
      if (f.path().extension() == ".json") out.emplace_back(f.path().stem().string(), f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string machine_file(const std::string& name) {
  if (name.find('/') != std::string::npos || name.ends_with(".json")) return name;
  std::vector<std::string> names;
  for (auto& [n, f] : list_machines()) {
    if (n == name) return f;
    names.push_back(n);
  }
  std::string hint = did_you_mean(name, names);
  throw InputError("", "machine", fmt::format("unknown machine '{}'{} (known: {})", name,
                                              hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(names, ", ")));
}

// JSON merge patch (RFC 7386) of the child over its base: the child's keys win, objects merge key by key except
// parameter entries ({"value": ...}), which are replaced whole, and a null removes the base's key (e.g. the
// inter-socket links of a base node type with two packages, from a child whose node has one).
static void deep_merge(Json& base, const Json& child) {
  for (auto it = child.begin(); it != child.end(); ++it) {
    const Json& v = it.value();
    if (v.is_null()) {
      base.erase(it.key());
    } else if (base.contains(it.key()) && base[it.key()].is_object() && v.is_object() && !v.contains("value")) {
      deep_merge(base[it.key()], v);
    } else {
      base[it.key()] = v;
    }
  }
}

static Json load_with_base(const std::string& file, int depth = 0) {
  Json j = load_json_file(file);
  if (!j.is_object()) throw InputError(file, "", "a machine file must be a JSON object");
  if (j.contains("base")) {
    if (depth > 4 || !j["base"].is_string()) throw InputError(file, "base", "expected a machine name (no cycles)");
    // A base is a machine name from the machine directory, never a path (a machine file may come from anywhere).
    std::string base_name = j["base"].get<std::string>();
    check_safe_name(base_name, file, "base");
    if (base_name.ends_with(".json")) throw InputError(file, "base", "expected a machine name, not a file name");
    Json base = load_with_base(machine_file(base_name), depth + 1);
    base.erase("description");
    deep_merge(base, j);
    base.erase("base");
    return base;
  }
  return j;
}

ParamList Machine::physical_params() {
  ParamList all;
  for (auto& r : node.params()) {
    all.push_back(r);
    all.back().info.name = "node." + r.info.name;
  }
  for (auto& r : param_list(os, "os.")) all.push_back(r);
  for (auto& [section, list] : nic->sections())
    for (auto& r : list) {
      all.push_back(r);
      all.back().info.name = section + "." + r.info.name;
    }
  return all;
}

double Machine::software_cost(const std::string& name) const {
  for (auto& [section, list] : nic->sections())
    if (section == "software")
      for (auto& r : list)
        if (r.info.name == name) return r.p->value;
  throw InputError(file, "software." + name, "this machine gives no " + name + " (needed by the stack's components)");
}

void Machine::rebuild_topology() { topology->set_link_params(nic->link_params()); }

std::unique_ptr<Machine> load_machine(const std::string& name_or_path, const NicKindRegistry& kinds) {
  std::string file = machine_file(name_or_path);
  Json j = load_with_base(file);
  auto m = std::make_unique<Machine>();
  m->file = file;
  ObjectReader r(j, file, "");
  m->name = r.str("machine");
  m->description = r.opt_str("description").value_or("");
  m->node = platform::NodeType::from_json(r.raw("node"), file, "node");
  m->cores_per_node = m->node.cores();
  {
    ObjectReader o = r.object("os");
    auto list = param_list(m->os);
    load_sourced(o, list, true);
  }
  {
    ObjectReader n = r.object("nic");
    std::string kind = n.str("kind");
    const NicKindInfo* info = kinds.find(kind);
    if (!info) {
      std::string hint = did_you_mean(kind, kinds.names());
      n.fail("kind", fmt::format("unknown NIC kind '{}'{} (known: {})", kind,
                                 hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(kinds.names(), ", ")));
    }
    m->nic = info->make();
    for (auto& [section, list] : m->nic->sections()) {
      if (section == "nic") {
        load_sourced(n, list, true);
      } else {
        ObjectReader s = r.object(section);
        load_sourced(s, list, true);
      }
    }
  }
  {
    // The caller's keys of the topology object (kind, cores_per_node, routing, source, note); the registered
    // topology reads its own shape keys and refuses unknown ones.
    m->topology_json = r.raw("topology");
    ObjectReader t = r.object("topology");
    std::string kind = t.str("kind");
    std::string routing = t.opt_str("routing").value_or("minimal");
    if (t.has("source")) (void)t.raw("source");
    if (t.has("note")) (void)t.raw("note");
    m->topology = topology::make_topology(kind, m->topology_json, m->nic->link_params(), file);
    m->routing = &topology::find_route_policy(routing, kind, file, "topology.routing");
    m->nodes = m->topology->compute_nodes();
  }
  if (r.has("mca_defaults")) {
    m->mca_defaults = r.raw("mca_defaults");
    if (!m->mca_defaults.is_object()) r.fail("mca_defaults", "expected an object {name: {value, source}}");
  }
  r.finish({"machine", "description", "topology", "node", "os", "nic", "software", "mca_defaults"});
  return m;
}

}  // namespace ompisim
