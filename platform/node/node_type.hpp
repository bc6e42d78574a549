// A compute node's type as a tree in hwloc's vocabulary: machine -> packages -> NUMA nodes -> (one L3 cache shared by
// the NUMA node's cores) -> cores, plus the devices hanging off NUMA nodes (NICs, GPUs) through named buses. Regular
// shapes only (every package has the same NUMA nodes, every NUMA node the same cores); cores, NUMA nodes and packages
// are numbered densely in tree order (hwloc logical indices): core c is on NUMA node c / cores_per_numa, NUMA node n on
// package n / numa_per_package.
//
// The type answers what the platform asks of a node: where a core is, how far two cores are, which NIC a core should
// use, and which node-local shared resources a memory copy crosses (`copy_path`). Turning those ResourceKeys into
// shared flow resources is the engine's job; this file knows nothing of the engine, MPI or SimGrid.
//
// Sources: every physical value comes from the machine file with its source (core/params.hpp). README.md in this
// folder lists the JSON keys and the mapping from today's host::HostParams.
//
// LIMITATIONS: regular shapes only (no heterogeneous packages, no offline cores, no SMT hardware threads); one cache
// level per copy (the working set fits in the NUMA node's cache or spills proportionally to DRAM, as host::split_copy);
// a NUMA node's memory controller is one resource in copy bytes (read + write), charged in full on both the source and
// the destination NUMA node of a copy between two NUMA nodes (conservative); all traffic between two packages shares one
// link per direction regardless of which dies it connects (Magny-Cours has several HyperTransport links between the
// dies of two sockets); copies involving GPU memory are done by the GPU's DMA engine, never by the issuing core; all
// GPU pairs with a direct GPU-GPU link (`gpu_links`) copy over it; a pair without one shares the GPUs' peer ports
// (one peer bandwidth per GPU model): multi-hop routing through a third GPU is not modelled.
#pragma once
#include "core/json_input.hpp"
#include "core/params.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ompisim::platform {

// How far apart two cores are (hwloc distance classes of the regular tree).
enum class Distance : std::uint8_t { SameNuma, OtherNuma, OtherPackage };
const char* to_string(Distance d);

// A memory space a buffer lives in: host DRAM of one NUMA node, or the memory of one GPU.
struct MemSpace {
  enum class Kind : std::uint8_t { Host, Gpu };
  Kind kind = Kind::Host;
  int index = 0;  // NUMA node (Host) or GPU index (Gpu)
  static MemSpace host(int numa) { return {Kind::Host, numa}; }
  static MemSpace gpu(int gpu) { return {Kind::Gpu, gpu}; }
  bool operator==(const MemSpace&) const = default;
};

// The node-local shared resources a copy can cross. Indices:
//   CoreCopy[c]      one per core: the rate at which one core streams a copy from/to DRAM
//   NumaMemory[n]    one per NUMA node: its memory controller (copy bytes, read + write)
//   InterDie[a*N+b]  one per ordered pair of NUMA nodes a != b of the same package (N = numa_count()): the on-package
//                    link, one resource PER DIRECTION (HyperTransport and Infinity Fabric links are full duplex)
//   InterSocket[p*P+q] one per ordered pair of packages p != q (P = packages()): the inter-socket link, per direction
//   GpuMemory[g]     one per GPU: its memory bandwidth
//   GpuPeer[g]       one per GPU: its GPU-GPU port for pairs without a direct link (a peer copy crosses both ports)
//   GpuLink[a*G+b]   one per ordered pair of GPUs with a direct link (G = gpus().size()): the link bundle between
//                    them, one resource PER DIRECTION (links x the link bus type's bandwidth)
//   Bus[d]           one per device attachment: NICs first (d = NIC id), then GPUs (d = nics().size() + GPU index);
//                    each device has its own bus instance of its bus type's bandwidth and latency
enum class ResourceKind : std::uint8_t { CoreCopy, NumaMemory, InterDie, InterSocket, GpuMemory, GpuPeer, Bus, GpuLink };
const char* to_string(ResourceKind k);

struct ResourceKey {
  ResourceKind kind;
  int index;
  bool operator==(const ResourceKey&) const = default;
};

// Per-NUMA-node memory and per-core copy rates. Names kept from host::HostParams where the meaning is the same.
struct MemoryParams {
  Sourced numa_copy_bandwidth;   // one NUMA node's memory controller, copy throughput shared by the cores using it
  Sourced dram_copy_bandwidth;   // memcpy rate of one core streaming from/to DRAM
  Sourced cache_copy_bandwidth;  // memcpy rate when the working set fits in cache
  Sourced copy_cache_size;       // cache capacity available to one copy's working set (source + destination)

  template <class V>
  void visit(V&& v) {
    v(numa_copy_bandwidth, {"numa_copy_bandwidth", Dim::Rate,
                            "one NUMA node's memory copy throughput, shared by the DRAM part of its copies (a host "
                            "copy's part that fits the cache, copy_cache_size, does not cross it)",
                            1e6, 1e14});
    v(dram_copy_bandwidth, {"dram_copy_bandwidth", Dim::Rate, "memcpy rate of one core from/to DRAM", 1e6, 1e13});
    v(cache_copy_bandwidth, {"cache_copy_bandwidth", Dim::Rate,
                             "memcpy rate of a host copy's part that fits the cache (a GPU copy has none)", 1e6, 1e13});
    v(copy_cache_size, {"copy_cache_size", Dim::Bytes, "cache capacity for one copy's working set", 1024, 1e12});
  }
};

// Links between the parts of the node and cache-line hand-off latencies by distance. The *_other_numa / inter_die_*
// keys are required exactly when a package has more than one NUMA node, the *_other_package / inter_socket_* keys
// exactly when the node has more than one package.
struct LinkParams {
  Sourced cache_line_same_numa;     // a line written by one core becomes visible to a polling core of the same NUMA node
  Sourced cache_line_other_numa;    // ... to a core of another NUMA node of the same package
  Sourced cache_line_other_package; // ... to a core of another package
  Sourced inter_die_bandwidth;      // link between two NUMA nodes of one package, per direction
  Sourced inter_die_latency;
  Sourced inter_socket_bandwidth;   // link between two packages, per direction
  Sourced inter_socket_latency;

  template <class V>
  void visit(V&& v) {
    v(cache_line_same_numa, {"cache_line_same_numa", Dim::Time, "cache-line hand-off, same NUMA node", 0, 1e-3});
    v(cache_line_other_numa, {"cache_line_other_numa", Dim::Time, "cache-line hand-off, other NUMA node", 0, 1e-3});
    v(cache_line_other_package, {"cache_line_other_package", Dim::Time, "cache-line hand-off, other package", 0, 1e-3});
    v(inter_die_bandwidth, {"inter_die_bandwidth", Dim::Rate, "NUMA node to NUMA node link in a package, per direction", 1e6, 1e14});
    v(inter_die_latency, {"inter_die_latency", Dim::Time, "NUMA node to NUMA node link latency", 0, 1e-3});
    v(inter_socket_bandwidth, {"inter_socket_bandwidth", Dim::Rate, "package to package link, per direction", 1e6, 1e14});
    v(inter_socket_latency, {"inter_socket_latency", Dim::Time, "package to package link latency", 0, 1e-3});
  }
};

// A bus type a device attaches through (HyperTransport, PCIe, Infinity Fabric): each device gets its own instance.
struct BusParams {
  Sourced bandwidth;
  Sourced latency;
  template <class V>
  void visit(V&& v) {
    v(bandwidth, {"bandwidth", Dim::Rate, "bus bandwidth between the device and its NUMA node", 1e6, 1e14});
    v(latency, {"latency", Dim::Time, "bus latency between the device and its NUMA node", 0, 1e-3});
  }
};

// A GPU model (e.g. one MI250X GCD); its link to the host is a bus.
struct GpuParams {
  Sourced memory_bandwidth;
  Sourced peer_bandwidth;
  template <class V>
  void visit(V&& v) {
    v(memory_bandwidth, {"memory_bandwidth", Dim::Rate, "GPU memory bandwidth", 1e6, 1e15});
    v(peer_bandwidth, {"peer_bandwidth", Dim::Rate, "GPU-GPU link bandwidth of one GPU", 1e6, 1e15});
  }
};

struct Bus {
  std::string name;
  BusParams params;
};
struct GpuModel {
  std::string name;
  GpuParams params;
};
struct Nic {
  int id = 0;           // position in NodeType::nics()
  std::string network;  // fabric name, e.g. "gemini", "slingshot"
  int index = 0;        // index among the node's NICs on this network (the fabric port), in file order
  int numa = 0;         // attached NUMA node
  int bus = 0;          // index into NodeType::buses()
};
struct Gpu {
  int numa = 0;
  int bus = 0;    // the link to the host
  int model = 0;  // index into NodeType::gpu_models()
};

// Copy time split of host::split_copy: the cache-resident part is analytic, the DRAM part is a shared flow.
struct CopySplit {
  double cache_time = 0;
  double dram_bytes = 0;
};

struct NodeShape {
  int packages = 1;
  int numa_per_package = 1;
  int cores_per_numa = 1;
};

class NodeType {
public:
  // Reads a "node" section of a machine file (keys: README.md). Every key strictly checked; errors name file and key.
  static NodeType from_json(const Json& node, const std::string& file, const std::string& path = "node");
  // The node of today's model: one package, one NUMA node of `cores` cores, no devices. Feed it today's HostParams:
  // memory = {node_copy_bandwidth -> numa_copy_bandwidth, dram_copy_bandwidth, cache_copy_bandwidth, copy_cache_size},
  // shm_signal_latency -> cache_line_same_numa. Its copy path is CoreCopy[c], NumaMemory[0] with those capacities.
  static NodeType flat(int cores, const MemoryParams& memory, const Sourced& shm_signal_latency);
  // Programmatic construction (tests, generated nodes): bad shapes or device attachments throw std::invalid_argument.
  NodeType(NodeShape shape, MemoryParams memory, LinkParams links);
  void add_bus(std::string name, BusParams p);
  void add_gpu_model(std::string name, GpuParams p);
  void add_nic(std::string network, int numa, int bus);
  void add_gpu(int numa, int bus, int model);
  // A direct link bundle between GPUs a != b: `links` links of bus type `bus` (bandwidth per link and direction).
  // After every GPU; a pair at most once.
  void add_gpu_link(int a, int b, int links, int bus);
  // Links between GPUs a and b (0: no direct link).
  int gpu_link_count(int a, int b) const;

  // --- the tree ---
  const NodeShape& shape() const { return shape_; }
  int packages() const { return shape_.packages; }
  int numa_count() const { return shape_.packages * shape_.numa_per_package; }
  int cores() const { return numa_count() * shape_.cores_per_numa; }
  int cores_per_package() const { return shape_.numa_per_package * shape_.cores_per_numa; }
  int numa_of(int core) const { return core / shape_.cores_per_numa; }
  int package_of(int core) const { return core / cores_per_package(); }
  int package_of_numa(int numa) const { return numa / shape_.numa_per_package; }
  int first_core_of_numa(int numa) const { return numa * shape_.cores_per_numa; }
  int first_core_of_package(int package) const { return package * cores_per_package(); }
  Distance distance(int core_a, int core_b) const;
  double cache_line_latency(int core_a, int core_b) const;

  // --- devices ---
  const std::vector<Bus>& buses() const { return buses_; }
  const std::vector<GpuModel>& gpu_models() const { return gpu_models_; }
  const std::vector<Nic>& nics() const { return nics_; }
  const std::vector<Gpu>& gpus() const { return gpus_; }
  int nic_count(const std::string& network) const;
  // The NIC of `network` on the core's NUMA node, else one on the core's package, else the network's first NIC
  // (lowest index on each level), among the network's first `ports` NICs (the ports the machine's network uses).
  // Throws std::invalid_argument when the node has no NIC on that network.
  const Nic& nearest_nic(int core, const std::string& network, int ports = std::numeric_limits<int>::max()) const;
  // The GPU a rank on `core` uses by default: the k-th GPU of the core's NUMA node for the k-th equal slice of its
  // cores (Frontier: the GCD nearest each L3), else the package's first GPU, else GPU 0; -1 when the node has none.
  int nearest_gpu(int core) const;
  ResourceKey nic_bus(int nic_id) const { return {ResourceKind::Bus, nic_id}; }
  ResourceKey gpu_bus(int gpu) const { return {ResourceKind::Bus, static_cast<int>(nics_.size()) + gpu}; }

  // --- copies ---
  const MemoryParams& memory() const { return memory_; }
  const LinkParams& links() const { return links_; }
  // The shared resources a copy of `src` to `dst` issued by `core` crosses, as a set (each resource once); listed with
  // CoreCopy first, then in the direction the data moves. Host to host: the core copies (CoreCopy[core]), reading src
  // over the link from src's NUMA node to the core's and writing dst over the link from the core's NUMA node to dst's.
  // With a GPU on either side the GPU's DMA engine copies (no CoreCopy): host memory, links to the GPU's NUMA node,
  // the GPU's bus, GPU memory; GPU to GPU: GpuMemory of both and GpuLink[a->b] when they have a direct link, else
  // GpuPeer of both (one GpuMemory for a copy within one GPU).
  std::vector<ResourceKey> copy_path(int core, MemSpace src, MemSpace dst) const;
  // Latency paid once before the flow: the sum of the latencies of the links and buses on the path (0 within a NUMA
  // node, as in today's model).
  double copy_latency(int core, MemSpace src, MemSpace dst) const;
  // Capacity in bytes/s of one resource (std::out_of_range for a key the node does not have), from its parameter's
  // value without reading it (Sourced::value): declaring a resource reads nothing.
  double resource_capacity(ResourceKey key) const;
  // The parameter a resource's capacity is computed from (a GPU link bundle: its bus's bandwidth, times its link
  // count): the one a flow crossing the resource reads (MemoryCopies::copy), so a --set of it on a run whose copies
  // cross no such resource is reported as changing nothing.
  const Sourced& resource_param(ResourceKey key) const;
  // Number of index slots of a kind (InterDie and InterSocket are indexed by ordered pair: some slots are unused).
  int resource_slots(ResourceKind kind) const;
  bool has_resource(ResourceKey key) const;
  // "core3-copy", "numa1-mem", "numa0->numa1", "pkg0->pkg1", "gpu2-mem", "gpu2-peer", "gpu4->gpu5(xgmi x4)",
  // "nic0-bus(ht)", "gpu1-bus(pcie)"
  std::string describe(ResourceKey key) const;
  // The cache-resident part of a copy of `bytes` (analytic) and the part that streams from DRAM (a flow).
  CopySplit split_copy(double bytes) const;

  // Every Sourced parameter with its key path ("memory.numa_copy_bandwidth", "buses.ht.bandwidth", ...), for
  // describe/--set/provenance.
  ParamList params();

private:
  void check_core(int core) const;
  void check_numa(int numa) const;
  void add_link(int from_numa, int to_numa, std::vector<ResourceKey>& out) const;
  double link_latency(int from_numa, int to_numa) const;
  NodeShape shape_;
  MemoryParams memory_;
  LinkParams links_;
  std::vector<Bus> buses_;
  std::vector<GpuModel> gpu_models_;
  std::vector<Nic> nics_;
  std::vector<Gpu> gpus_;
  struct GpuLinkBundle {
    int links = 0;
    int bus = 0;
  };
  std::vector<GpuLinkBundle> gpu_links_;  // G*G by ordered pair, filled by add_gpu_link (empty without links)
};

}  // namespace ompisim::platform
