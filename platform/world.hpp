// The simulated platform of one job: ranks placed on nodes, each pinned to one core with a CPU that executes software
// costs in order (a rank's protocol handlers never overlap), and the fabric that times wire transfers and moves bulk
// data as shared flows. Knows nothing of MPI: the MPI interface (`Stack`) is mpi/stack.hpp, above this layer.
#pragma once
#include "core/sim.hpp"
#include "platform/buffer.hpp"
#include "platform/machine.hpp"
#include "platform/neighbour_job.hpp"
#include "platform/nic_services.hpp"
#include "platform/node/mapping.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <unordered_map>
#include <vector>

namespace ompisim {

// Where the job's ranks run: the machine nodes it occupies and mpirun's mapping of ranks to nodes and cores
// (platform/node/mapping.hpp: Open MPI v1.8's defaults unless the scenario says "map_by", "bind_to", "rank_by", "cpu_list").
struct Placement {
  long long ranks = 0;
  int ranks_per_node = 1;
  std::vector<long long> nodes;  // machine node id of each node index used
  std::shared_ptr<const platform::RankMap> map;
  // "gpu_list": local rank k uses GPU gpu_list[k] of its node (HIP_VISIBLE_DEVICES / srun --gpu-bind); empty: the GPU
  // nearest its core (NodeType::nearest_gpu).
  std::vector<int> gpu_list;
  long long node_of(long long rank) const {
    return nodes[static_cast<std::size_t>(map->node_index(rank))];
  }
  int core_of(long long rank) const { return map->locate(rank).core; }
  long long node_count() const { return static_cast<long long>(nodes.size()); }
};

class World {
public:
  // `routing`: the route policy of this run (a scenario's "routing"), for every network (the caller checked that it
  // applies to each network's topology kind); null for each network's own.
  World(Simulator& sim, Machine& machine, Placement placement, const topology::RoutePolicyInfo* routing = nullptr);
  Simulator& sim() { return sim_; }
  Machine& machine() { return machine_; }
  const Placement& placement() const { return placement_; }
  long long ranks() const { return placement_.ranks; }
  long long node_of(int rank) const { return placement_.node_of(rank); }
  bool same_node(int a, int b) const { return node_of(a) == node_of(b); }
  int local_ranks(int rank) const;  // ranks sharing rank's node
  // The core a rank runs on: looked up per copy, cache-line hand-off and NIC choice, so kept per rank (4 bytes a rank,
  // 1.2 MB at 300,000 ranks) instead of asking the rank map each time.
  int core_of(int rank) const { return rank_core_[static_cast<std::size_t>(rank)]; }
  // The node type of the node rank runs on (a machine may have several node types).
  const platform::NodeType& node_type(int rank) const { return machine_.node_type(node_of(rank)); }
  // A cache line written by rank `from`'s core becomes visible to rank `to`'s polling core (same node): by the
  // distance between their cores (same NUMA node, other NUMA node, other package).
  double signal_latency(int from, int to) const;

  // Execution contexts. Contexts 0 .. ranks-1 are the ranks' main threads; a progress thread (Open MPI's asynchronous
  // progress, a PTL's progress threads) is another context bound to a core of its rank's node, with its own CPU
  // timeline, so its handlers run while the main thread computes or waits. Every CPU function below takes a context.
  // Contexts that share a core (a progress thread on the core of a rank's main thread or of another progress thread)
  // take turns on it: a context's work starts when the core is free, and when the core last ran another context it
  // first pays os.context_switch_cost (the kernel's switch and the incoming thread's refill of its cache state). A
  // context alone on its core (every rank's main thread without progress threads: ranks never share a core) pays none.
  // Throws std::invalid_argument for a rank or core the job's node does not have.
  int add_progress_thread(int rank, int core);
  std::uint64_t context_switches = 0;  // turns of a shared core from one context to another
  int contexts() const { return static_cast<int>(cpu_free_.size()); }
  int rank_of_context(int ctx) const { return ctx < placement_.ranks ? ctx : ctx_rank_[ctx - placement_.ranks]; }
  int core_of_context(int ctx) const { return ctx < placement_.ranks ? core_of(ctx) : ctx_core_[ctx - placement_.ranks]; }

  // Runs fn on rank's CPU after `cost` seconds of work that starts when the CPU is free (and not before now).
  // `what`: the Open MPI or library function the work models (a string literal), the span's name in a trace.
  void cpu(int rank, double cost, Callback fn, const char* what = nullptr);
  // The rank's CPU copies `bytes` (a memcpy: the CPU is busy until the copy ends, DRAM part shared); then fn.
  // A zero-byte copy on an idle core runs fn before cpu_copy returns: callers must not rely on fn running later.
  // `src`/`dst`: the memories copied from and to (default: the context's own NUMA node). The cache-resident part of
  // a copy is analytic; the DRAM part is a flow over the node resources between the two memories (for a copy between
  // NUMA nodes: the inter-die or inter-socket links, after their latency).
  void cpu_copy(int rank, double bytes, Callback fn, MemSpace src = {}, MemSpace dst = {});
  // The host memory of rank's NUMA node (where its buffers live), for copies from a peer's buffer.
  MemSpace local_memory(int rank) const;
  // The GPU a rank uses (its device buffers live there): Placement::gpu_list, else the GPU nearest its core; -1 when
  // the node has none.
  int gpu_of(int rank) const;
  double cpu_free_at(int rank) const { return cpu_free_[rank]; }
  // An asynchronous interrupt takes `cost` of rank's core now: whatever the core is doing (application work or MPI
  // handlers) ends that much later. Does not wait for the core.
  void steal(int rank, double cost);
  // Application work of `seconds` on rank's core (after the work queued before it), lengthened by the interrupts
  // taken while it runs; MPI handlers queued meanwhile wait for it (no asynchronous progress).
  void compute(int rank, double seconds, Callback done);

  // --- Fabrics: one per network of the machine (its topology and its NIC kind's node-side resources) ---
  // Every fabric function takes a network index (position in Machine::networks()); the default, -1, is the machine's
  // only network (std::logic_error on a machine with several: the caller must say which).
  int networks() const { return static_cast<int>(fabrics_.size()); }
  const Network& network(int net = -1) const { return *fabric(net).net; }
  // The path from node a to node b: NIC latency plus router hops, and the slowest rate on it (NIC or link).
  PathCost path(long long node_a, long long node_b, int net = -1) const;
  // The network links from node a's router to node b's, chosen by the run's route policy (empty on one router).
  topology::Route route(long long node_a, long long node_b, int net = -1) const;
  const topology::RoutePolicyInfo& routing(int net = -1) const { return *fabric(net).routing; }
  // One-way time of a small packet of `bytes` from node a to node b (NIC latency, hops, serialization): analytic.
  double wire_time(long long node_a, long long node_b, double bytes, int net = -1) const;
  // Declares the shared resources to the engine (before seal()): per network, the NIC kind's node-side resources of
  // every port of every node of the placement and every link of the topology; the copy resource of every core hosting
  // a rank and each such node's memory system. Flow paths are not declared: bulk() and copy() build each one when its
  // flow starts. With several networks, resource names carry the network's name ("<net>:n0-ht", "<net>:<link>").
  void declare_resources();
  // Another job's traffic (platform/neighbour_job.hpp), set before declare_resources(): its nodes' NIC resources are
  // declared with the placement's, and each of its transfers is routed by the run's policy (seeing the neighbour's
  // transfers routed before it) and handed to the engine as an endless stream. std::invalid_argument for a node the
  // machine lacks or that runs one of the job's ranks; std::logic_error on an engine that does not share bandwidth.
  void set_neighbour_job(NeighbourJob job);
  std::uint64_t neighbour_streams = 0;
  // Moves bulk data node a -> node b as a shared flow over network `net` (after `latency`), then runs done. `pulled`:
  // the transfer is driven by the receiving node (an RDMA GET), so the receiving node's DMA engine is the one it
  // occupies. `rank_a`/`rank_b` (when known): the ranks at each end; on a network with several ports per node, each
  // end uses the port nearest its rank's NUMA node (NodeType::nearest_nic), else port 0.
  void bulk(long long node_a, long long node_b, double bytes, double latency, Callback done, bool pulled = false,
            int rank_a = -1, int rank_b = -1, int net = -1);
  // The port of network `net` a rank uses: the nearest of the network's ports_per_node NICs of its node (0 when the
  // network has one port per node).
  int port_of(int rank, int net = -1) const;
  // A memory copy of `bytes` by rank's core: cache-resident part analytic, DRAM part a flow over the core and the
  // node's memory system (shared with the other cores of the node).
  void copy(int ctx, double bytes, Callback done, MemSpace src = {}, MemSpace dst = {});
  double copy_time_uncontended(double bytes, int rank = 0) const;  // on rank's node type

  std::uint64_t bytes_copied = 0, bulk_flows = 0;

  // The NIC models of this World (platform/nic_services.hpp), shared by every protocol component on their ports.
  NicServices& nic_services() { return *nic_services_; }

private:
  ResourceId resource(const std::string& name, double capacity);

  Simulator& sim_;
  Machine& machine_;
  Placement placement_;
  struct CpuTask {
    bool is_copy;
    double amount;  // seconds of work, or bytes to copy
    Callback fn;
    MemSpace src{}, dst{};
    const char* what = nullptr;
  };
  void drain(int rank);
  void extend_compute(int rank, double end, double stolen_before, Callback done);
  // Bulk flows routed over each link and not finished: what adaptive route policies read.
  struct FlowsPerLink final : topology::LinkLoad {
    std::vector<std::uint32_t> flows;
    double load(topology::LinkId id) const override { return id < flows.size() ? flows[id] : 0.0; }
  };
  // One network's fabric: its route policy, the NIC kind's node-side resources per (node, port), its links.
  struct Fabric {
    const Network* net = nullptr;
    const topology::RoutePolicyInfo* routing = nullptr;
    std::string prefix;  // resource-name prefix: "" on a machine with one network, "<net>:" otherwise
    std::vector<NicResource> nic_resources;
    BulkPath bulk_path;
    std::vector<ResourceId> nic_res;  // [node id x port x NIC resource index], kNoResource until declared
    std::unordered_map<std::uint32_t, ResourceId> link_res;
    FlowsPerLink link_load;
    // Per (node, port): bulk transfers in progress and those waiting for the port (NicModel::max_active_transfers).
    struct PortQueue {
      std::uint32_t active = 0;
      std::deque<Callback> waiting;
    };
    int max_active = 0;
    std::unordered_map<std::uint64_t, PortQueue> port_queues;
  };
  const Fabric& fabric(int net) const {
    if (net < 0) {
      if (fabrics_.size() != 1) throw_several_networks();
      return fabrics_[0];
    }
    return fabrics_.at(static_cast<std::size_t>(net));
  }
  Fabric& fabric(int net) { return const_cast<Fabric&>(std::as_const(*this).fabric(net)); }
  [[noreturn]] void throw_several_networks() const;
  void add_route(Fabric& f, const topology::Route& r, std::vector<ResourceId>& path);
  std::vector<Fabric> fabrics_;
  std::unique_ptr<NeighbourJob> neighbour_;
  void declare_neighbour(Fabric& f);
  topology::Route route_flow(Fabric& f, long long a, long long b);
  // path() is a pure function of (a, b, net) for a run: the last answers are kept in a small direct-mapped table
  // (4,096 entries, 160 KiB, allocated on first use), so the per-message wire_time of SMSG and eager sends does not
  // walk the route again. Bounded whatever the rank count.
  struct PathMemo {
    long long a = -1, b = -1;
    int net = 0;
    PathCost cost;
  };
  mutable std::vector<PathMemo> path_memo_;
  PathCost compute_path(long long node_a, long long node_b, int net) const;
  std::uint64_t flow_seq_ = 0;
  std::vector<int> rank_core_;  // core of each rank (Placement::core_of, computed once)
  std::vector<int> ctx_rank_, ctx_core_;  // progress threads (contexts from ranks on): their rank and core
  // Cores shared by several contexts: when each is free and which context ran last. ctx_shared_: per context, the
  // index of its shared core or -1 (empty while no progress thread exists: per-rank state only when threads are used).
  struct SharedCore {
    double free = 0;
    int last = -1;
  };
  std::vector<SharedCore> shared_cores_;
  std::vector<int> ctx_shared_;
  std::unordered_map<std::uint64_t, int> shared_core_index_;  // (node, core) -> shared_cores_
  std::unordered_map<std::uint64_t, int> rank_at_core_;        // (node, core) -> rank, built on the first thread
  SharedCore* shared_core(int ctx) {
    return ctx_shared_.empty() || ctx_shared_[static_cast<std::size_t>(ctx)] < 0
               ? nullptr
               : &shared_cores_[static_cast<std::size_t>(ctx_shared_[static_cast<std::size_t>(ctx)])];
  }
  // When ctx's next work may start on its shared core (not before `ready`), the switch included; marks ctx as the
  // core's last context. The caller sets the core's `free` to the work's end.
  double core_start(int ctx, SharedCore& c, double ready);
  std::vector<double> stolen_;  // interrupt time taken per context (allocated on first steal)
  std::vector<double> cpu_free_;
  std::vector<std::uint8_t> copying_;                        // the CPU is inside an open-ended copy
  std::unordered_map<int, std::vector<CpuTask>> waiting_;   // work queued behind that copy, in order
  ResourceId nic_resource(Fabric& f, long long node, const std::string& name, int port);
  std::vector<ResourceId> bulk_resources(Fabric& f, long long a, long long b, long long initiator,
                                         const topology::Route& r, int port_a, int port_b);
  static constexpr ResourceId kNoResource = ~ResourceId{0};
  std::unordered_map<long long, ResourceId> node_res_;  // node-local copy resources by node_key
  static long long node_key(long long node, platform::ResourceKey k);
  ResourceId node_resource(long long node, platform::ResourceKey k) const;
  platform::MemSpace node_space(int ctx, MemSpace m) const;  // "local" resolved to the context's NUMA node
  bool is_local(int ctx, MemSpace src, MemSpace dst) const;  // both in the context's own NUMA node
  std::vector<ResourceId> core_res_;  // per execution context: the copy resource of the core it is bound to
  const platform::NodeType& ctx_type(int ctx) const { return node_type(rank_of_context(ctx)); }
  std::unique_ptr<NicServices> nic_services_ = std::make_unique<NicServices>();  // last: destroyed first
};

// Placement from a scenario: block over the machine's node order, or over an explicit node list.
// `mapping`: the scenario object holding the optional "map_by", "bind_to", "rank_by" and "cpu_list" keys (read, not finished).
Placement make_placement(const Machine& m, long long ranks, int ranks_per_node, const std::vector<long long>& nodes,
                         const std::string& file, const Json& mapping = Json::object());

}  // namespace ompisim
