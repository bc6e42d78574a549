#include "platform/node/node_type.hpp"

#include "core/enum_names.hpp"

#include <array>
#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::platform {

namespace {
constexpr std::array<const char*, 3> kDistanceNames{"same NUMA node", "other NUMA node", "other package"};
constexpr std::array<const char*, 8> kResourceKindNames{"CoreCopy",  "NumaMemory", "InterDie", "InterSocket",
                                                        "GpuMemory", "GpuPeer",    "Bus",      "GpuLink"};
}  // namespace

const char* to_string(Distance d) { return name_of<Distance::OtherPackage>(d, kDistanceNames); }
const char* to_string(ResourceKind k) { return name_of<ResourceKind::GpuLink>(k, kResourceKindNames); }

NodeType::NodeType(NodeShape shape, MemoryParams memory, LinkParams links)
    : shape_(shape), memory_(std::move(memory)), links_(std::move(links)) {
  if (shape_.packages < 1 || shape_.numa_per_package < 1 || shape_.cores_per_numa < 1)
    throw std::invalid_argument(fmt::format("node shape {} packages x {} NUMA nodes x {} cores has no cores",
                                            shape_.packages, shape_.numa_per_package, shape_.cores_per_numa));
}

void NodeType::add_bus(std::string name, BusParams p) { buses_.push_back({std::move(name), std::move(p)}); }
void NodeType::add_gpu_model(std::string name, GpuParams p) { gpu_models_.push_back({std::move(name), std::move(p)}); }

void NodeType::add_nic(std::string network, int numa, int bus) {
  check_numa(numa);
  if (bus < 0 || bus >= static_cast<int>(buses_.size())) throw std::invalid_argument(fmt::format("no bus {}", bus));
  if (!gpus_.empty()) throw std::invalid_argument("add NICs before GPUs (bus resources number NICs first)");
  Nic n;
  n.id = static_cast<int>(nics_.size());
  n.index = nic_count(network);
  n.network = std::move(network);
  n.numa = numa;
  n.bus = bus;
  nics_.push_back(std::move(n));
}

void NodeType::add_gpu(int numa, int bus, int model) {
  check_numa(numa);
  if (bus < 0 || bus >= static_cast<int>(buses_.size())) throw std::invalid_argument(fmt::format("no bus {}", bus));
  if (model < 0 || model >= static_cast<int>(gpu_models_.size()))
    throw std::invalid_argument(fmt::format("no GPU model {}", model));
  if (!gpu_links_.empty()) throw std::invalid_argument("add GPUs before GPU links (links are indexed by GPU pair)");
  gpus_.push_back({numa, bus, model});
}

void NodeType::add_gpu_link(int a, int b, int links, int bus) {
  int g = static_cast<int>(gpus_.size());
  if (a < 0 || a >= g || b < 0 || b >= g)
    throw std::invalid_argument(fmt::format("GPU link {}-{}: the node has GPUs 0..{}", a, b, g - 1));
  if (a == b) throw std::invalid_argument(fmt::format("GPU link {}-{}: a link joins two different GPUs", a, b));
  if (links < 1) throw std::invalid_argument(fmt::format("GPU link {}-{}: {} links (at least 1)", a, b, links));
  if (bus < 0 || bus >= static_cast<int>(buses_.size())) throw std::invalid_argument(fmt::format("no bus {}", bus));
  if (gpu_links_.empty()) gpu_links_.resize(static_cast<std::size_t>(g * g));
  if (gpu_links_[a * g + b].links > 0)
    throw std::invalid_argument(fmt::format("GPU link {}-{} is declared twice", a, b));
  gpu_links_[a * g + b] = {links, bus};
  gpu_links_[b * g + a] = {links, bus};
}

int NodeType::gpu_link_count(int a, int b) const {
  int g = static_cast<int>(gpus_.size());
  if (gpu_links_.empty() || a < 0 || a >= g || b < 0 || b >= g) return 0;
  return gpu_links_[a * g + b].links;
}

NodeType NodeType::flat(int cores, const MemoryParams& memory, const Sourced& shm_signal_latency) {
  LinkParams links;
  links.cache_line_same_numa = shm_signal_latency;
  return NodeType({1, 1, cores}, memory, links);
}

ParamList NodeType::params() {
  ParamList out = param_list(memory_, "memory.");
  for (auto& p : param_list(links_, "links."))
    if (p.p->set) out.push_back(p);
  for (auto& b : buses_)
    for (auto& p : param_list(b.params, "buses." + b.name + ".")) out.push_back(p);
  for (auto& g : gpu_models_)
    for (auto& p : param_list(g.params, "gpu_models." + g.name + ".")) out.push_back(p);
  return out;
}

// --- the tree ---

void NodeType::check_core(int core) const {
  if (core < 0 || core >= cores())
    throw std::out_of_range(fmt::format("core {} does not exist (node has {} cores)", core, cores()));
}
void NodeType::check_numa(int numa) const {
  if (numa < 0 || numa >= numa_count())
    throw std::out_of_range(fmt::format("NUMA node {} does not exist (node has {})", numa, numa_count()));
}

Distance NodeType::distance(int a, int b) const {
  check_core(a);
  check_core(b);
  if (numa_of(a) == numa_of(b)) return Distance::SameNuma;
  if (package_of(a) == package_of(b)) return Distance::OtherNuma;
  return Distance::OtherPackage;
}

double NodeType::cache_line_latency(int a, int b) const {
  switch (distance(a, b)) {
    case Distance::SameNuma: return links_.cache_line_same_numa;
    case Distance::OtherNuma: return links_.cache_line_other_numa;
    case Distance::OtherPackage: return links_.cache_line_other_package;
  }
  return 0;
}

int NodeType::nic_count(const std::string& network) const {
  int n = 0;
  for (auto& nic : nics_) n += nic.network == network;
  return n;
}

const Nic& NodeType::nearest_nic(int core, const std::string& network, int ports) const {
  check_core(core);
  const Nic* same_pkg = nullptr;
  const Nic* first = nullptr;
  for (auto& nic : nics_) {
    if (nic.network != network || nic.index >= ports) continue;
    if (nic.numa == numa_of(core)) return nic;
    if (!same_pkg && package_of_numa(nic.numa) == package_of(core)) same_pkg = &nic;
    if (!first) first = &nic;
  }
  if (same_pkg) return *same_pkg;
  if (first) return *first;
  throw std::invalid_argument(fmt::format("the node type has no NIC on network '{}'", network));
}

int NodeType::nearest_gpu(int core) const {
  check_core(core);
  // The GPUs on the core's NUMA node, shared out over its cores in order (the k-th slice of the NUMA node's cores
  // uses its k-th GPU: Frontier's "closest GCD" per L3 cache); else the first GPU of the package; else the first.
  std::vector<int> here;
  for (int g = 0; g < static_cast<int>(gpus_.size()); ++g)
    if (gpus_[g].numa == numa_of(core)) here.push_back(g);
  if (!here.empty()) {
    int k = (core - first_core_of_numa(numa_of(core))) * static_cast<int>(here.size()) / shape_.cores_per_numa;
    return here[static_cast<std::size_t>(k)];
  }
  for (int g = 0; g < static_cast<int>(gpus_.size()); ++g)
    if (package_of_numa(gpus_[g].numa) == package_of(core)) return g;
  return gpus_.empty() ? -1 : 0;
}

// --- copies ---

void NodeType::add_link(int from, int to, std::vector<ResourceKey>& out) const {
  if (from == to) return;
  int pf = package_of_numa(from), pt = package_of_numa(to);
  if (pf == pt) out.push_back({ResourceKind::InterDie, from * numa_count() + to});
  else out.push_back({ResourceKind::InterSocket, pf * packages() + pt});
}

double NodeType::link_latency(int from, int to) const {
  if (from == to) return 0;
  return package_of_numa(from) == package_of_numa(to) ? links_.inter_die_latency : links_.inter_socket_latency;
}

std::vector<ResourceKey> NodeType::copy_path(int core, MemSpace src, MemSpace dst) const {
  check_core(core);
  auto check = [&](MemSpace m) {
    if (m.kind == MemSpace::Kind::Host) check_numa(m.index);
    else if (m.index < 0 || m.index >= static_cast<int>(gpus_.size()))
      throw std::out_of_range(fmt::format("GPU {} does not exist (node has {})", m.index, gpus_.size()));
  };
  check(src);
  check(dst);
  std::vector<ResourceKey> out;
  using K = MemSpace::Kind;
  if (src.kind == K::Host && dst.kind == K::Host) {
    int k = numa_of(core);
    out.push_back({ResourceKind::CoreCopy, core});
    out.push_back({ResourceKind::NumaMemory, src.index});
    add_link(src.index, k, out);  // read: src NUMA node -> the core
    add_link(k, dst.index, out);  // write: the core -> dst NUMA node
    if (dst.index != src.index) out.push_back({ResourceKind::NumaMemory, dst.index});
  } else if (src.kind == K::Host) {  // host -> GPU (the GPU's DMA engine pulls)
    int g = dst.index, gn = gpus_[g].numa;
    out.push_back({ResourceKind::NumaMemory, src.index});
    add_link(src.index, gn, out);
    out.push_back(gpu_bus(g));
    out.push_back({ResourceKind::GpuMemory, g});
  } else if (dst.kind == K::Host) {  // GPU -> host
    int g = src.index, gn = gpus_[g].numa;
    out.push_back({ResourceKind::GpuMemory, g});
    out.push_back(gpu_bus(g));
    add_link(gn, dst.index, out);
    out.push_back({ResourceKind::NumaMemory, dst.index});
  } else {
    out.push_back({ResourceKind::GpuMemory, src.index});
    if (dst.index != src.index) {
      if (gpu_link_count(src.index, dst.index) > 0) {
        out.push_back({ResourceKind::GpuLink, src.index * static_cast<int>(gpus_.size()) + dst.index});
      } else {
        out.push_back({ResourceKind::GpuPeer, src.index});
        out.push_back({ResourceKind::GpuPeer, dst.index});
      }
      out.push_back({ResourceKind::GpuMemory, dst.index});
    }
  }
  return out;
}

double NodeType::copy_latency(int core, MemSpace src, MemSpace dst) const {
  double t = 0;
  for (auto& k : copy_path(core, src, dst)) {
    switch (k.kind) {
      case ResourceKind::InterDie: t += links_.inter_die_latency; break;
      case ResourceKind::InterSocket: t += links_.inter_socket_latency; break;
      case ResourceKind::Bus: {
        int nn = static_cast<int>(nics_.size());
        int bus = k.index < nn ? nics_[k.index].bus : gpus_[k.index - nn].bus;
        t += buses_[bus].params.latency;
        break;
      }
      case ResourceKind::GpuLink: t += buses_[gpu_links_[k.index].bus].params.latency; break;
      default: break;
    }
  }
  return t;
}

int NodeType::resource_slots(ResourceKind kind) const {
  switch (kind) {
    case ResourceKind::CoreCopy: return cores();
    case ResourceKind::NumaMemory: return numa_count();
    case ResourceKind::InterDie: return numa_count() * numa_count();
    case ResourceKind::InterSocket: return packages() * packages();
    case ResourceKind::GpuMemory:
    case ResourceKind::GpuPeer: return static_cast<int>(gpus_.size());
    case ResourceKind::Bus: return static_cast<int>(nics_.size() + gpus_.size());
    case ResourceKind::GpuLink: return static_cast<int>(gpu_links_.size());
  }
  return 0;
}

bool NodeType::has_resource(ResourceKey key) const {
  if (key.index < 0 || key.index >= resource_slots(key.kind)) return false;
  if (key.kind == ResourceKind::InterDie) {
    int a = key.index / numa_count(), b = key.index % numa_count();
    return a != b && package_of_numa(a) == package_of_numa(b);
  }
  if (key.kind == ResourceKind::InterSocket) return key.index / packages() != key.index % packages();
  if (key.kind == ResourceKind::GpuLink) return gpu_links_[key.index].links > 0;
  return true;
}

double NodeType::resource_capacity(ResourceKey key) const {
  const double bandwidth = resource_param(key).value;
  return key.kind == ResourceKind::GpuLink ? gpu_links_[key.index].links * bandwidth : bandwidth;
}

const Sourced& NodeType::resource_param(ResourceKey key) const {
  if (!has_resource(key))
    throw std::out_of_range(fmt::format("node has no resource {}[{}]", to_string(key.kind), key.index));
  const int nn = static_cast<int>(nics_.size());
  switch (key.kind) {
    case ResourceKind::CoreCopy: return memory_.dram_copy_bandwidth;
    case ResourceKind::NumaMemory: return memory_.numa_copy_bandwidth;
    case ResourceKind::InterDie: return links_.inter_die_bandwidth;
    case ResourceKind::InterSocket: return links_.inter_socket_bandwidth;
    case ResourceKind::GpuMemory: return gpu_models_[gpus_[key.index].model].params.memory_bandwidth;
    case ResourceKind::GpuPeer: return gpu_models_[gpus_[key.index].model].params.peer_bandwidth;
    case ResourceKind::Bus:
      return buses_[key.index < nn ? nics_[key.index].bus : gpus_[key.index - nn].bus].params.bandwidth;
    case ResourceKind::GpuLink: return buses_[gpu_links_[key.index].bus].params.bandwidth;
  }
  throw std::logic_error("NodeType::resource_param: unknown resource kind");
}

std::string NodeType::describe(ResourceKey key) const {
  int nn = static_cast<int>(nics_.size());
  switch (key.kind) {
    case ResourceKind::CoreCopy: return fmt::format("core{}-copy", key.index);
    case ResourceKind::NumaMemory: return fmt::format("numa{}-mem", key.index);
    case ResourceKind::InterDie:
      return fmt::format("numa{}->numa{}", key.index / numa_count(), key.index % numa_count());
    case ResourceKind::InterSocket: return fmt::format("pkg{}->pkg{}", key.index / packages(), key.index % packages());
    case ResourceKind::GpuMemory: return fmt::format("gpu{}-mem", key.index);
    case ResourceKind::GpuPeer: return fmt::format("gpu{}-peer", key.index);
    case ResourceKind::Bus:
      if (key.index < nn) return fmt::format("nic{}-bus({})", key.index, buses_[nics_[key.index].bus].name);
      return fmt::format("gpu{}-bus({})", key.index - nn, buses_[gpus_[key.index - nn].bus].name);
    case ResourceKind::GpuLink: {
      int g = static_cast<int>(gpus_.size());
      const GpuLinkBundle& l = gpu_links_[key.index];
      return fmt::format("gpu{}->gpu{}({} x{})", key.index / g, key.index % g, buses_[l.bus].name, l.links);
    }
  }
  return "?";
}

CopySplit NodeType::split_copy(double bytes) const {
  CopySplit s;
  double ws = 2 * bytes;
  double in_cache = ws <= memory_.copy_cache_size ? 1.0 : memory_.copy_cache_size / ws;
  s.cache_time = in_cache * bytes / memory_.cache_copy_bandwidth;
  s.dram_bytes = (1.0 - in_cache) * bytes;
  return s;
}

}  // namespace ompisim::platform
