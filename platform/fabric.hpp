// One network's fabric for a job: its topology and route policy, the NIC kind's node-side resources on every port
// of every node (platform/nic.hpp), and the bulk transfers between nodes as shared flows over them. Answers the
// analytic questions of a message's wire (path cost, route, small-packet time) and moves bulk data; a World holds one
// per network of its machine. A port is (node, port index); a rank uses the port of the NIC nearest its NUMA node.
#pragma once
#include "core/sim.hpp"
#include "core/slab.hpp"
#include "platform/contexts.hpp"
#include "platform/machine.hpp"
#include "platform/neighbour_job.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace ompisim {

class Fabric {
public:
  // `index`: the network's position in Machine::networks(); `routing`: the run's route policy (never null);
  // `prefix`: the resource-name prefix ("" on a machine with one network, "<net>:" otherwise).
  // `flow_seq`: the counter of bulk flows shared by the World's fabrics (each flow's routing key is unique in the run).
  Fabric(Simulator& sim, const Contexts& contexts, int index, const Network& net,
         const topology::RoutePolicyInfo& routing, std::string prefix, std::uint64_t& flow_seq);
  const Network& network() const { return net_; }
  const topology::RoutePolicyInfo& routing() const { return routing_; }
  // The path from node a to node b: NIC latency plus router hops, and the slowest rate on it (NIC or link).
  PathCost path(long long node_a, long long node_b) const;
  // The network links from node a's router to node b's, chosen by the run's route policy (empty on one router).
  topology::Route route(long long node_a, long long node_b) const;
  // One-way time of a small packet of `bytes` from node a to node b (NIC latency, hops, serialization): analytic.
  double wire_time(long long node_a, long long node_b, double bytes) const { return wire_time(path(node_a, node_b), bytes); }
  // The same over a path already looked up (a message that keeps its path: cxi's CxiMsg::to_dst).
  double wire_time(const PathCost& p, double bytes) const { return net_.nic->wire_time(p, bytes); }
  // The port a rank uses: the nearest of the network's ports_per_node NICs of its node (0 when the network has one
  // port per node, or for rank -1).
  int port_of(int rank) const;
  // Declares the NIC kind's node-side resources of every port of every node of the placement and every link of the
  // topology (routes may take any of them); then the neighbour job's streams when `neighbour` is not null.
  void declare(const NeighbourJob* neighbour);
  // Moves bulk data node a -> node b as a shared flow (after `latency`), then runs done. `pulled`: the transfer is
  // driven by the receiving node (an RDMA GET), so the receiving node's DMA engine is the one it occupies.
  // `rank_a`/`rank_b` (when known): the ranks at each end, whose ports the transfer uses (port_of).
  void bulk(long long node_a, long long node_b, double bytes, double latency, Callback done, bool pulled = false,
            int rank_a = -1, int rank_b = -1);
  // Moves data node a -> node b as a shared flow the host CPU drives through the NIC (NicModel::pio_path: no DMA
  // engine, no wait for one), after `latency`, then runs done. Its time alone on its path is wire_time's.
  void pio(long long node_a, long long node_b, double bytes, double latency, Callback done, int rank_a = -1,
           int rank_b = -1);
  // A small packet sent now from node a to node b, timed analytically (wire_time) rather than as a flow: it crosses
  // the source port's injection, each link of its route and the destination port's ejection, each for bytes / its
  // rate, after the packets sent over it before (FIFO per link, in the order they were sent). Returns the wait this
  // adds to wire_time (0 on an idle path), so back-to-back packets go no faster than the slowest link they share.
  // Packets and flows do not see each other's use of a link (the flows' sharing is the engine's). `depart`: the packet
  // leaves its source that long after now (it is still reserved now, in send order).
  double packet_wait(long long node_a, long long node_b, double bytes, int rank_a = -1, int rank_b = -1,
                     double depart = 0);
  // Packet trains (a scenario's "packet_trains", approximate, off by default): from now on, transfers between two
  // nodes (pio and bulk) of at most `max_bytes` are timed analytically instead of as shared flows: the data leaves
  // when the flow would start, less the path's wire latency, crosses the source port, the NIC resources of its path
  // (NicModel::pio_path or bulk_path: a host interface, a DMA engine, each at its capacity), the links of its route
  // and the destination port, each in the first gap at or after its arrival that holds it among the packets and
  // trains reserved there before it (every reservation is kept until it is over, so none overlaps another, in
  // whatever order they were reserved; single packets reserve the same way while trains are on), and ends after its
  // serialization plus those waits: a pio train's as wire_time gives it, a bulk train's at the slowest of its NIC
  // resources and links. Alone on its path a train ends when the flow would. A bulk train waits for a slot of the
  // DMA engine that drives it (NicModel::max_active_transfers: the earliest free of that many, taken in the order
  // the trains are issued, until the train ends); a transfer within a node stays a flow. 0 turns it off.
  void set_packet_trains(double max_bytes) { train_max_ = max_bytes; }
  double packet_train_max() const { return train_max_; }
  std::uint64_t bulk_flows = 0, pio_flows = 0, neighbour_streams = 0;
  std::uint64_t packets_delayed = 0;  // packets that waited for a link (packet_wait > 0)
  std::uint64_t packet_trains = 0;    // transfers timed as packet trains (set_packet_trains)
  // With packet trains on: the transfers between nodes that went as flows all the same (above the size, or a path the
  // NIC kind does not declare), and the largest of them, bytes (trains and flows do not see each other on a link)
  std::uint64_t flows_between_nodes = 0;
  double largest_flow_between_nodes = 0;

private:
  PathCost compute_path(long long node_a, long long node_b) const;
  ResourceId nic_resource(long long node, const std::string& name, int port);
  ResourceId nic_resource_at(long long node, std::size_t k, int port);  // k: index in nic_resources_
  void read_nic_params(std::size_t k);  // marks node resource k's parameters read (a flow crosses it)
  void read_link_params(const topology::Route& r) const;  // marks the parameters of r's link classes read
  // The resources of a bulk flow's path, written into `path` (cleared first).
  // Which of the NIC kind's paths a transfer takes: its DMA engine's (bulk) or the host CPU's (pio).
  enum class Drive : std::uint8_t { Dma, Pio };
  void bulk_resources(Drive d, long long a, long long b, long long initiator, const topology::Route& r, int port_a,
                      int port_b, std::vector<ResourceId>& path);
  void add_route(const topology::Route& r, std::vector<ResourceId>& path);
  topology::Route route_flow(long long a, long long b);
  void declare_neighbour(const NeighbourJob& j);
  // Per (node, port): bulk transfers in progress and those waiting for the port (NicModel::max_active_transfers).
  struct PortQueue {
    std::uint32_t active = 0;
    std::deque<std::uint32_t> waiting;  // indices in transfers_, in arrival order
  };
  // One bulk transfer from bulk() to its completion: its ends, size, the port queue it counts in, its route while it
  // flows, and what runs when it ends. Its events capture (this, index), inside std::function's inline buffer, so a
  // transfer costs no closure allocation.
  struct Transfer {
    long long a = 0, b = 0;
    double bytes = 0;
    bool pulled = false;
    Drive drive = Drive::Dma;
    int pa = 0, pb = 0;
    PortQueue* q = nullptr;
    topology::Route route;
    Callback done;
  };
  // bulk() and pio(): a transfer taking path d after `latency` (a DMA one through its engine's port queue)
  void transfer(Drive d, long long a, long long b, double bytes, double latency, Callback done, bool pulled,
                int rank_a, int rank_b);
  // set_packet_trains: one transfer over path d, driven by `initiator`, timed as a train whose serialization takes
  // `serialize` alone
  void train(Drive d, long long a, long long b, long long initiator, double bytes, double latency, double serialize,
             Callback done, int rank_a, int rank_b);
  const topology::Route& packet_route(long long a, long long b, topology::Route& own);  // own: empty, filled when built
  Callback traced_train(Drive d, long long a, long long b, long long initiator, double bytes, double depart, int rank_a,
                        int rank_b, Callback done);  // the train's done, reporting it to the trace
  bool pio_train_ok() const;
  void count_flow_between_nodes(long long a, long long b, double bytes) {
    if (train_max_ > 0 && a != b && bytes > 0)
      ++flows_between_nodes, largest_flow_between_nodes = std::max(largest_flow_between_nodes, bytes);
  }
  void arrive(std::uint32_t t);  // the latency has elapsed: start now or wait for the port
  void start_flow(std::uint32_t t);
  const topology::Route& flow_route(Transfer& x);  // the route a starting transfer takes
  void end_flow(std::uint32_t t);

  // Bulk flows routed over each link and not finished: what adaptive route policies read.
  struct FlowsPerLink final : topology::LinkLoad {
    std::vector<std::uint32_t> flows;
    double load(topology::LinkId id) const override { return id < flows.size() ? flows[id] : 0.0; }
  };
  static constexpr ResourceId kNoResource = ~ResourceId{0};
  Simulator& sim_;
  const Contexts& ctx_;
  int index_;
  const Network& net_;
  const topology::RoutePolicyInfo& routing_;
  std::string prefix_;
  std::vector<NicResource> nic_resources_;
  // Per entry of nic_resources_: a flow of the run has crossed it and its parameters were marked read (once, so the
  // per-flow cost is one test).
  std::vector<char> nic_read_;
  // The NIC kind's link parameters (NicLinks) and, per link class, whether a route of the run has crossed a link of it
  // and its parameters were marked read; links_unread_ counts the topology's classes not yet crossed (0: no test).
  NicLinks links_;
  mutable std::array<char, topology::kLinkClassCount> link_read_{};
  mutable std::size_t links_unread_ = 0;
  // A path of the NIC kind (bulk_path, pio_path) and its resources as (end, index in nic_resources_), resolved once by
  // declare(); kUnresolved for a name the NIC kind does not declare (nic_resource then names it in its error).
  static constexpr std::size_t kUnresolved = ~std::size_t{0};
  struct ResolvedPath {
    BulkPath named;
    std::vector<std::pair<End, std::size_t>> before, after;
  };
  std::array<ResolvedPath, 2> paths_;  // by Drive
  std::vector<ResourceId> nic_res_;  // [node id x port x NIC resource index], kNoResource until declared
  std::vector<ResourceId> link_res_;  // [link id], kNoResource until declared
  // link_res_[0] when declare() gave the links consecutive resources (link id i is resource first_link_res_ + i, so a
  // route's resources are computed, not read from link_res_); kNoResource otherwise
  ResourceId first_link_res_ = kNoResource;
  FlowsPerLink link_load_;
  int max_active_ = 0;
  std::unordered_map<std::uint64_t, PortQueue> port_queues_;
  Slab<Transfer> transfers_;
  std::vector<ResourceId> path_;  // the path handed to the engine at a flow's start (the engine copies what it keeps)
  std::uint64_t& flow_seq_;
  // path() is a pure function of (a, b) for a run: the last answers are kept in a small direct-mapped table (4,096
  // entries, 160 KiB, allocated on first use), so the per-message wire_time of SMSG and eager sends does not walk the
  // route again. Bounded whatever the rank count.
  struct PathMemo {
    long long a = -1, b = -1;
    PathCost cost;
  };
  mutable std::vector<PathMemo> path_memo_;
  // With a route policy that is a function of the router pair (RoutePolicyInfo::by_router_pair: minimal, dimension
  // order), every bulk flow, and path() where path_memo_ misses, read the route and its cost from a direct-mapped
  // table keyed by the router pair (4,096 entries, 192 KiB and the routes' links, allocated on first use): a node
  // pair's answer is its routers', so the table holds every pair of a block of 64 routers (an alltoall over 256
  // Frontier nodes) where the node pair table holds 1/16 of the pairs; a flow's route is then not built, stored nor
  // counted per link (no policy of the run reads the counts), so a flow costs no route allocation.
  struct RouteMemo {
    topology::RouterId ra = -1, rb = -1;
    PathCost cost;
    topology::Route route;
  };
  const RouteMemo& router_pair(topology::RouterId ra, topology::RouterId rb) const;
  PathCost route_cost(const topology::Route& r) const;
  const bool by_router_pair_;
  mutable std::vector<RouteMemo> route_memo_;
  // packet_wait's per-link and per-port busy time, sized on first use: one per link of the topology and two
  // (injection, ejection) per port of each node slot. Without packet trains, the last busy period (packets reserved
  // back to back from start to end); with them (set_packet_trains), every period reserved and not yet over, in time
  // order (`periods`): a packet or train takes the first gap at or after its arrival that holds it, so none overlaps
  // another, whatever order they were reserved in.
  struct Span {
    double start, end;
  };
  struct Busy {
    double start = 0, end = 0;
    std::vector<Span> periods;  // with packet trains only; those before `head` are over (dropped in chunks)
    std::uint32_t head = 0;
  };
  std::vector<Busy> link_free_, port_free_;
  std::vector<Busy> nic_free_;  // a train's NIC resources: [node x port x NIC resource index], as nic_res_
  // packet_wait, and a train's wait with its path's NIC resources (`nic_path`; null: none) between the ports and links
  double queue_wait(long long a, long long b, double bytes, int rank_a, int rank_b, double depart,
                    const ResolvedPath* nic_path, long long initiator);
  double train_max_ = 0;  // set_packet_trains
  // A bulk train's DMA engine slots (NicModel::max_active_transfers > 0): per (node, port) of the engine that drives
  // it, the date each of its max_active slots is free again, created on the port's first train.
  std::unordered_map<std::uint64_t, std::vector<double>> train_slots_;
  // port_of's answers by rank (kNoPort: not asked yet), sized to the job's ranks on first use (one byte a rank).
  static constexpr std::int8_t kNoPort = -1;
  mutable std::vector<std::int8_t> port_memo_;
};

}  // namespace ompisim
