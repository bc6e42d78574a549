// A node type read from a machine file's "node_types" entry (NodeType::from_json): its shape, memory and link costs,
// buses, GPU models, NICs, GPUs and GPU links, each key checked and named in errors. See node_type.hpp.
#include "platform/node/node_type.hpp"

#include "core/limits.hpp"

#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ompisim::platform {

namespace {

int read_count(ObjectReader& r, const std::string& key, const char* what) {
  long long n = r.integer(key, 0, 1 << 20);
  if (n == 0)
    r.fail(key, fmt::format("a node type needs at least one {} (a node type without cores cannot host ranks)", what));
  return static_cast<int>(n);
}

// Reads {"<name>": {<Sourced params>}, ...} into (name, params) pairs, in file order.
template <class P>
std::vector<std::pair<std::string, P>> read_named(ObjectReader& r, const std::string& key) {
  std::vector<std::pair<std::string, P>> out;
  if (!r.has(key)) return out;
  const Json& j = r.raw(key);
  ObjectReader section(j, r.file(), r.key_path(key));
  for (auto it = j.begin(); it != j.end(); ++it) {
    ObjectReader entry = section.object(it.key());
    P p;
    auto list = param_list(p);
    load_sourced(entry, list, true);
    out.emplace_back(it.key(), std::move(p));
  }
  section.finish();
  return out;
}

template <class T>
int find_name(ObjectReader& r, const std::string& key, const std::vector<T>& items, const char* what) {
  std::string name = r.str(key);
  std::vector<std::string> names;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == name) return static_cast<int>(i);
    names.push_back(items[i].name);
  }
  std::string hint = did_you_mean(name, names);
  r.fail(key, fmt::format("no {} named '{}' in this node type{}", what, name,
                          hint.empty() ? std::string(names.empty() ? " (none declared)" : "")
                                       : " (did you mean '" + hint + "'?)"));
}

// The objects of a JSON list, each with its key path "path[i]".
std::vector<ObjectReader> list_entries(ObjectReader& r, const std::string& key) {
  std::vector<ObjectReader> out;
  if (!r.has(key)) return out;
  const Json& j = r.raw(key);
  if (!j.is_array()) r.fail(key, fmt::format("expected a list of objects, got {}", j.dump()));
  for (size_t i = 0; i < j.size(); ++i)
    out.emplace_back(j[i], r.file(), r.key_path(key) + "[" + std::to_string(i) + "]");
  return out;
}

int read_numa(ObjectReader& e, const NodeType& t) {
  long long n = e.integer("numa", 0, 1 << 20);
  if (n >= t.numa_count())
    e.fail("numa", fmt::format("NUMA node {} does not exist: the node type has {} NUMA nodes (0..{})", n,
                               t.numa_count(), t.numa_count() - 1));
  return static_cast<int>(n);
}

}  // namespace

NodeType NodeType::from_json(const Json& node, const std::string& file, const std::string& path) {
  ObjectReader r(node, file, path);
  NodeShape s;
  s.packages = read_count(r, "packages", "package");
  s.numa_per_package = read_count(r, "numa_per_package", "NUMA node per package");
  s.cores_per_numa = read_count(r, "cores_per_numa", "core per NUMA node");
  const long long numa = static_cast<long long>(s.packages) * s.numa_per_package;
  if (numa > limits::kMaxNumaPerNode)
    r.fail(s.packages > limits::kMaxNumaPerNode ? "packages" : "numa_per_package", fmt::format("{} packages x {} NUMA nodes per package = {} NUMA nodes per node, above the "
                                           "limit of {} (core/limits.hpp)", s.packages, s.numa_per_package, numa,
                                           limits::kMaxNumaPerNode));
  if (numa * s.cores_per_numa > limits::kMaxCoresPerNode)
    r.fail("cores_per_numa", fmt::format("{} NUMA nodes x {} cores per NUMA node = {} cores per node, above the limit "
                                         "of {} (core/limits.hpp)", numa, s.cores_per_numa, numa * s.cores_per_numa,
                                         limits::kMaxCoresPerNode));
  (void)r.opt_str("source");

  MemoryParams memory;
  {
    ObjectReader m = r.object("memory");
    auto list = param_list(memory);
    load_sourced(m, list, true);
  }
  LinkParams links;
  {
    ObjectReader l = r.object("links");
    auto list = param_list(links);
    load_sourced(l, list, false);
    // Which link keys a shape needs: exactly those of the distances it has.
    auto need = [&](const Sourced& p, const std::string& key, bool required, const std::string& why) {
      if (required && !p.set) l.fail_missing(key, "parameter", " (" + why + ")", param_names(list));
      if (!required && p.set) l.fail(key, "does not apply (" + why + ")");
    };
    bool multi_numa = s.numa_per_package > 1, multi_pkg = s.packages > 1;
    std::string numa_why = fmt::format("the node type has {} NUMA nodes per package", s.numa_per_package);
    std::string pkg_why = fmt::format("the node type has {} package{}", s.packages, s.packages > 1 ? "s" : "");
    need(links.cache_line_same_numa, "cache_line_same_numa", true, "every node type");
    need(links.cache_line_other_numa, "cache_line_other_numa", multi_numa, numa_why);
    need(links.inter_die_bandwidth, "inter_die_bandwidth", multi_numa, numa_why);
    need(links.inter_die_latency, "inter_die_latency", multi_numa, numa_why);
    need(links.cache_line_other_package, "cache_line_other_package", multi_pkg, pkg_why);
    need(links.inter_socket_bandwidth, "inter_socket_bandwidth", multi_pkg, pkg_why);
    need(links.inter_socket_latency, "inter_socket_latency", multi_pkg, pkg_why);
  }
  NodeType t(s, memory, links);
  for (auto& [name, p] : read_named<BusParams>(r, "buses")) t.add_bus(name, p);
  for (auto& [name, p] : read_named<GpuParams>(r, "gpu_models")) t.add_gpu_model(name, p);
  // bounded before they are read (the links between GPUs are kept per ordered pair)
  for (auto [key, most] : {std::pair{"nics", limits::kMaxNicsPerNode}, std::pair{"gpus", limits::kMaxGpusPerNode}})
    if (r.has(key) && r.raw(key).is_array() && static_cast<long long>(r.raw(key).size()) > most)
      r.fail(key, fmt::format("{} entries, above the limit of {} per node type (core/limits.hpp)", r.raw(key).size(),
                              most));
  for (auto& e : list_entries(r, "nics")) {
    std::string network = e.str("network");
    int numa = read_numa(e, t);
    int bus = find_name(e, "bus", t.buses_, "bus");
    e.finish();
    t.add_nic(network, numa, bus);
  }
  for (auto& e : list_entries(r, "gpus")) {
    int numa = read_numa(e, t);
    int bus = find_name(e, "bus", t.buses_, "bus");
    int model = find_name(e, "model", t.gpu_models_, "GPU model");
    e.finish();
    t.add_gpu(numa, bus, model);
  }
  for (auto& e : list_entries(r, "gpu_links")) {
    std::vector<long long> pair = e.int_list("gpus", 0, 1 << 20);
    int g = static_cast<int>(t.gpus_.size());
    if (pair.size() != 2) e.fail("gpus", fmt::format("a GPU link joins two GPUs, got {}", pair.size()));
    for (long long x : pair)
      if (x >= g) e.fail("gpus", fmt::format("GPU {} does not exist: the node type has {} GPUs", x, g));
    if (pair[0] == pair[1]) e.fail("gpus", "a GPU link joins two different GPUs");
    if (t.gpu_link_count(static_cast<int>(pair[0]), static_cast<int>(pair[1])) > 0)
      e.fail("gpus", fmt::format("the link between GPUs {} and {} is declared twice", pair[0], pair[1]));
    int links = static_cast<int>(e.integer("links", 1, 64));
    int bus = find_name(e, "bus", t.buses_, "bus");
    (void)e.opt_str("source");
    e.finish();
    t.add_gpu_link(static_cast<int>(pair[0]), static_cast<int>(pair[1]), links, bus);
  }
  r.finish();
  return t;
}

}  // namespace ompisim::platform
