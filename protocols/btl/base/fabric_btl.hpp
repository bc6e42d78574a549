// A BTL over one network of the machine whose NIC has no processor of its own to model (the commodity NICs of
// models/commodity: InfiniBand HCA, Myrinet 2000, gigabit Ethernet). btl/openib, btl/gm and btl/tcp are this module
// with their own capability record (their MCA parameters) and NIC kind.
//   send:  sender CPU frag_overhead; copy into a BTL buffer for a fragment that is neither in place nor RDMA
//          (desc_flag::Put: a fragment written into the peer's registered buffer); the fragment as a flow over the
//          sender's host interface, the link and the receiver's host interface, after the NIC latency; receiver CPU
//          frag_overhead; the PML's callback. Fragments to one peer on one channel go one after the other (a channel
//          is a FIFO: a QP's send queue, a GM send priority, a TCP socket); fragments to different peers, on
//          different channels and over different BTLs share the host interfaces and links as concurrent flows.
//   channels: a connection has one channel (btl/tcp: one socket per endpoint) or two (Connection::PriorityChannel):
//          btl/mvapi and btl/openib of Open MPI 1.1 open a high- and a low-priority QP per endpoint and post a
//          descriptor flagged MCA_BTL_DES_FLAGS_PRIORITY whose fragment is an eager one (frag->size <= eager limit)
//          on the high-priority QP, everything else (max-size send fragments, RDMA PUT/GET) on the low-priority QP
//          (btl_mvapi_endpoint.c mca_btl_mvapi_endpoint_post_send, btl_mvapi.c put/get on lcl_qp_hndl_lp); btl/gm
//          sends the same descriptors with GM_HIGH_PRIORITY, the rest with GM_LOW_PRIORITY (btl_gm.c
//          mca_btl_gm_send), and GM orders messages only within one priority. So a control message does not wait
//          behind the data fragments queued to the same peer; the two channels share the wire as concurrent flows.
//   get:   a flow pulled by the initiator (after the NIC latency); the initiator's CPU frag_overhead; done.
//   put:   the initiator's CPU frag_overhead; a flow written to the peer on the connection's low-priority channel (in
//          order with the data fragments to that peer: btl_mvapi.c posts RDMA writes on lcl_qp_hndl_lp); the
//          initiator's CPU frag_overhead for the completion; done. Nothing runs on the peer's CPU.
// Reachability: both ranks' nodes have a NIC on the BTL's network (a node type lists its NICs; one that lists none
// has one on every network).
// Each send fragment and RDMA operation in flight is a record with an explicit state (fabric_frag.hpp); the steps
// (on_<event>) move it by its transition table and start the next activity.
// LIMITATIONS: no flow control (tokens/credits), no memory registration cost, no eager RDMA channel, no NACK/retry;
// the receive copy of a send fragment is the PML's (ob1 copies out of the BTL buffer).
#pragma once
#include "core/slab.hpp"
#include "core/statistics.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "protocols/btl/base/fabric_frag.hpp"
#include "protocols/btl/base/v11_caps.hpp"
#include "protocols/btl/btl.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>

namespace ompisim::btl {

// The statistics of a commodity-NIC BTL, declared once for btl/openib, btl/gm and btl/tcp: each component reports them
// under its own name, <btl>_<statistic> ("gm_frags", "openib_puts"), so that two of them in one stack (the
// heterogeneous paper's openib + gm) count apart. Every one is reported, zero or not.
enum class FabricStat : std::uint8_t {
  Frags, PriorityFrags, LargeFrags, CopiedFrags, Bytes, Puts, Gets, GetBytes, ChannelWaits
};
inline constexpr std::array<StatisticInfo, 9> kFabricBtlStatistics{{
    {"frags", "fragments", "send fragments (descriptors: the PML's control messages and data fragments) sent"},
    {"priority_frags", "fragments", "fragments sent on the high-priority channel (PRIORITY, within the eager limit)"},
    {"large_frags", "fragments", "fragments above the eager limit, header included (a rendezvous's send fragments)"},
    {"copied_frags", "fragments", "fragments copied into a BTL buffer first (the rest go from the user buffer)"},
    {"bytes", "bytes", "data bytes sent by fragments and RDMA writes (headers excluded)"},
    {"puts", "transfers", "RDMA writes into a peer's registered buffer"},
    {"gets", "transfers", "RDMA reads from a peer's buffer"},
    {"get_bytes", "bytes", "bytes pulled by RDMA reads"},
    {"channel_waits", "transfers", "fragments and RDMA writes that waited behind an earlier one on their channel"},
}};
// kFabricBtlStatistics as btl/`btl` declares and reports them: each name prefixed by "<btl>_". The same table (one
// per name, made once and kept for the program's life) for its registry entry and its modules.
const std::array<StatisticInfo, kFabricBtlStatistics.size()>& fabric_btl_statistics(const std::string& btl);

class FabricBtl : public Btl {
public:
  // The network (position in Machine::networks()) of NIC kind `nic_kind` that btl/`name` drives: the first of that
  // kind; std::invalid_argument when the machine has none (the stack check refuses it earlier, naming the file and
  // key).
  static int network_of(const Machine& machine, const std::string& name, const std::string& nic_kind);
  // The parts of the platform it uses: where ranks run (which nodes have a NIC on its network), their CPU timelines
  // (fragment overheads, copies) and the fabric of its network (flows; its NIC parameters).
  FabricBtl(const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric, std::string name, BtlCaps caps,
            Connection conn);
  std::string name() const override { return name_; }
  const BtlCaps& caps() const override { return caps_; }
  bool reaches(const Contexts& contexts, int rank, int peer) const override;
  void send(const Descriptor& d, Completion local_done) override;
  void get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) override;
  void put(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) override;
  void add_counters(std::map<std::string, std::uint64_t>& c) const override { stats_.report(c); }
  std::uint64_t count(FabricStat s) const { return stats_[s]; }
  Connection connection() const { return conn_; }
  // Measured properties of the path (the NIC kind's parameters): what a scheduling policy may weight by.
  double path_latency() const override { return latency_; }
  double path_bandwidth() const override { return bandwidth_; }
  std::size_t frags_in_flight() const { return frags_.size() + rdmas_.size(); }  // send fragments and RDMA operations

private:
  // A channel of a connection (QP, GM port pair at one priority, TCP socket) carries its fragments in order: one
  // fragment on the wire at a time per (sender, receiver, channel); the next one follows right behind it (no second
  // latency). Created while busy only. It queues send fragments and RDMA writes (the records' indices).
  struct Queued {
    bool rdma;  // an RdmaFrag (a put), else a SendFrag
    std::uint32_t id;
  };
  struct Lane {
    bool busy = false;
    std::deque<Queued> queued;
  };
  static std::uint64_t lane_key(int src, int dst) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32) | static_cast<std::uint32_t>(dst);
  }
  // The channel a descriptor goes on: 1 (high priority) for a PRIORITY descriptor that fits an eager fragment on a
  // connection with a priority channel, else 0.
  int channel_of(const Descriptor& d) const;
  // Puts a send fragment or an RDMA write on its channel now (CHANNEL_FREE), or queues it behind the one on the wire
  // (CHANNEL_BUSY).
  void join_channel(int channel, std::uint64_t key, Queued q);
  // The transfer on the wire of (channel, key) has left: the next queued one goes (CHANNEL_FREE), or the lane is freed.
  void next_on_lane(int channel, std::uint64_t key);
  // CHANNEL_FREE: the record's flow starts after `latency` (the NIC's; 0 right behind the previous fragment).
  void on_channel_free(Queued q, double latency);
  // Send fragment steps (fabric_frag.hpp): each applies its event to frags_[id] and starts what the new state needs.
  void on_send_issued(std::uint32_t id);  // the sender's frag_overhead done: COPY_IN, or join the channel
  void on_data_ready(std::uint32_t id);   // copied into a BTL buffer (the user buffer is free), or in place: join
                                          // the channel
  void on_arrived(std::uint32_t id);      // ARRIVED: the next on the channel goes, the receiver's frag_overhead
  void on_received(std::uint32_t id);     // RECEIVED: the PML's callback
  // RDMA operation steps.
  void start_rdma(int initiator, int peer, std::uint64_t bytes, Completion done, fabric::RdmaEvent start,
                  void (FabricBtl::*issued)(std::uint32_t));  // the record, START_*, frag_overhead, then `issued`
  void on_put_issued(std::uint32_t id);  // the initiator's frag_overhead done: join the low-priority channel
  void on_get_issued(std::uint32_t id);  // ISSUED: the pull from the peer
  void on_flow_done(std::uint32_t id);   // FLOW_DONE: the initiator's frag_overhead for the completion
  void on_completed(std::uint32_t id);   // COMPLETED: the PML's completion
  Slab<fabric::SendFrag> frags_;  // send fragments in flight; their continuations carry (this, index)
  Slab<fabric::RdmaFrag> rdmas_;  // RDMA operations in flight
  std::unordered_map<std::uint64_t, Lane> lanes_[2];
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  Fabric& fabric_;
  std::string name_;
  BtlCaps caps_;
  Connection conn_;
  double latency_ = 0, bandwidth_ = 0, overhead_ = 0;
  Statistics<FabricStat, kFabricBtlStatistics.size()> stats_;
};

}  // namespace ompisim::btl
