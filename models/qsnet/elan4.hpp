// The Elan4 NIC in time (libelan4's operations as the paper uses them, §3.1, §4.2-4.3):
//
//   QDMA  host writes a descriptor (caller's CPU: cmd_issue_cost) -> source NIC command processor (nic_cmd_cost,
//         serial per NIC) -> network (nic_latency + switch hops + bytes at the slower of PCI-X DMA and link) -> the
//         destination NIC writes the next free slot of the target queue and sets its host event (on_stored). A full
//         queue refuses the message and the source NIC retries after qdma_retry_delay (no drop, no host).
//   RDMA  write: the initiator's NIC translates (mmu_translation_cost) and pushes the data; its event completes when
//         the last packet is acknowledged. read: a request crosses to the remote NIC, which translates and pushes the
//         data back; the initiator's event completes when the data has landed. Payloads above flow_threshold are
//         shared flows over both nodes' PCI-X bus (one resource per node for both directions) and the fat-tree links.
//   Events with counts and chaining (elan_event.hpp): when an event fires, its chained operations start after
//         event_fire_cost on the NIC, without the host; its host callback runs at the same time (host word set).
//   Thread processor: a serial engine per NIC (used by Tport matching, protocols/native/mpich_qsnet).
//
// Host-side waiting (polling, interrupts, progress threads) is the protocol's business (protocols/ptl/elan4): this
// class only says when a queue slot or an event's host word is written.
// LIMITATIONS: analytic messages (QDMA, RDMA up to flow_threshold) take turns on both nodes' PCI-X buses and on the
// source node's link out and the destination node's link in (first come, first served), but do not see the flows
// above flow_threshold, nor contend for the links between switches; the command
// processor is one serial resource for every descriptor of a NIC; no NIC MMU misses (a fixed translation cost per
// descriptor); QDMA retries are periodic, not back-off; no hardware broadcast (no documented cost: README.md).
#pragma once
#include "core/statistics.hpp"
#include "models/qsnet/elan_event.hpp"
#include "models/qsnet/nic.hpp"
#include "models/qsnet/qdma_queue.hpp"
#include "platform/contexts.hpp"
#include "platform/fabric.hpp"
#include "platform/node_buses.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>

namespace ompisim::qsnet {

struct QdmaMsg {
  int src = -1;
  std::uint32_t bytes = 0;
  std::uint64_t payload = 0;  // the user's handle (the PTL keeps its fragment headers by this id)
};

// The Elan4's statistics, declared once (core/statistics.hpp); always reported. A component that drives the NIC
// reports them with its own and lists this table after its own in its registry entry (ptl/elan4, native/mpich_qsnet,
// native/elan4_qdma), so `ompisim describe` shows them.
enum class Elan4Stat : std::uint8_t { Qdmas, QdmaRetries, RdmaWrites, RdmaReads, EventsFired, ChainedOps, RdmaFlows };
inline constexpr std::array<StatisticInfo, 7> kElan4Statistics{{
    {"elan4_qdmas", "messages", "QDMAs started (a message into a remote queue slot)"},
    {"elan4_qdma_retries", "messages", "QDMAs refused by a full queue and resent after the retry interval"},
    {"elan4_rdma_writes", "transfers", "RDMA writes started (push to the peer)"},
    {"elan4_rdma_reads", "transfers", "RDMA reads started (pull from the peer)"},
    {"elan4_events_fired", "events", "Elan events whose count reached zero"},
    {"elan4_chained_ops", "operations", "operations chained to an event, started when it fired"},
    {"elan4_rdma_flows", "transfers", "RDMA payloads above the flow threshold, moved as shared fabric flows"},
}};

class Elan4 {
public:
  using EventId = std::uint64_t;
  // The parts of the platform it uses: the engine, where ranks run, and the fabric of its network (wire times, path
  // costs, flows above flow_threshold; its NIC parameters). Host CPU costs are the protocol's.
  Elan4(Simulator& sim, const Contexts& contexts, Fabric& fabric);
  const Elan4Params& params() const { return p_; }
  Simulator& sim() const { return sim_; }
  const Contexts& contexts() const { return ctx_; }

  // Queue q of a rank (created on first use: qdma_slots slots of qdma_slot_bytes).
  QdmaQueue<QdmaMsg>& queue(int rank, int q);
  // Runs (at NIC time) when a message has been stored into (rank, q) and the queue's host event is set.
  std::function<void(int rank, int q)> on_stored;

  // A QDMA of `bytes` (header included, at most one slot) from rank src into dst's queue q, started by src's NIC
  // now. `acked` (optional) runs at the source when the destination has stored it.
  void qdma(int src, int dst, int q, std::uint32_t bytes, std::uint64_t payload, Callback acked = {});

  // A one-shot event with `count`; `host` (optional) runs when it fires (its host word is set then).
  EventId new_event(int count, Callback host = {});
  // An operation the NIC starts when the event fires (after event_fire_cost), in chaining order.
  void chain(EventId ev, Callback op);
  // A completion reaches the event (NIC time).
  void complete(EventId ev);

  // RDMA of `bytes` between rank and peer, initiated by rank's NIC: write pushes rank -> peer, read pulls peer -> rank.
  // The initiator's event `ev` completes when done (write: acknowledged; read: landed).
  void rdma_write(int rank, int peer, std::uint64_t bytes, EventId ev);
  void rdma_read(int rank, int peer, std::uint64_t bytes, EventId ev);

  // The NIC's thread processor on `node`: `cost` of work starting when it is free and not before now; returns the end.
  double thread_processor(long long node, double cost);

  // When an analytic payload may start on nodes a and b (not before `ready`): both PCI-X buses are held for its
  // serialization time (flows above flow_threshold share the pcix resources in the engine instead).
  double bus(long long a, long long b, double ready, double bytes);
  // The NIC's command processor takes one descriptor now (serial per NIC): returns when it is started.
  double command(long long node);
  // One-way time of a packet of `bytes` from rank src's NIC to dst's (a loopback on one node).
  double wire(int src, int dst, std::uint32_t bytes) const;

  void add_counters(std::map<std::string, std::uint64_t>& c) const;
  std::uint64_t count(Elan4Stat s) const { return counters_[s]; }

private:
  void try_store(int src, int dst, int q, std::uint32_t bytes, std::uint64_t payload, Callback acked);
  // Data of `bytes` from node a to b, starting now: analytic or a shared flow; `done` when the last byte landed.
  void move(int rank_a, int rank_b, std::uint64_t bytes, bool pulled, Callback done);
  // rdma_write's data has landed at `peer`: the acknowledgement back to `rank`, then the event.
  void on_written(int rank, int peer, EventId ev);
  // rdma_read's request has reached `peer`'s NIC: its DMA engine translates and pushes the data back to `rank`.
  void on_read_request(int rank, int peer, std::uint64_t bytes, EventId ev);

  Simulator& sim_;
  const Contexts& ctx_;
  Fabric& fabric_;
  const Elan4Params& p_;
  std::unordered_map<std::uint64_t, QdmaQueue<QdmaMsg>> queues_;  // key: rank * 4 + q
  std::unordered_map<EventId, std::pair<ElanEvent, Callback>> events_;
  std::unordered_map<long long, double> cmd_free_, tproc_free_;
  NodeBuses buses_{"PCI-X bus", NodeBuses::Duplex::Half};
  NodeBuses links_{"Elite-4 link", NodeBuses::Duplex::Full};  // each node's own link to its switch, per direction
  EventId next_event_ = 1;
  Statistics<Elan4Stat, kElan4Statistics.size()> counters_{kElan4Statistics};
};

}  // namespace ompisim::qsnet
