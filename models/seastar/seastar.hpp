// The SeaStar NIC running Portals 3.3, in time. The matching semantics are the pure library in models/portals
// (one ptl::portals::Nic per process, created on first use); this class prices what the hardware does with them:
//
//   initiator host            initiator SeaStar             wire             target SeaStar              target host
//   Portals calls (trap) ---> PowerPC: command, DMA set-up -> header ------> PowerPC: walk match list --> interrupt:
//   (caller: calls())         (fw_message_cost, serial)       (hops)        (fw + walked x entry cost)    event posted
//                                                            payload: HT DMA -> links -> HT DMA (shared flow when
//                                                            large), then PUT_END at the target after the interrupt
//   ACK / REPLY: the same path in the other direction, with an interrupt at the initiator.
//
// Every incoming message (put header, get request, ACK, REPLY) interrupts the target host (Catamount generic mode:
// hardware-sources.md §4, "latency dominated by host interrupt processing"); the interrupt takes time from whatever the
// core is doing (CpuTimeline::steal), and the interrupts of one core run one after the other (interrupt()). Locally
// generated initiator events (SEND_END) are written by the firmware without an interrupt. Events are handed to the
// owning stack's handler at the simulated time they are posted; the stack prices its own PtlEQGet calls.
// One SeaStar per job (platform/nic_services.hpp, SeaStar::of): every component on a node's NIC (mtl/portals,
// btl/portals, a native library) shares its firmware timeline and its per-process Portals interface, as Portals
// 3.3's PtlNIInit hands every caller in a process the same interface. A component opens the NIC with the portal table
// indices it uses and gets its own event queue per rank; events and match notifications go to the component that
// owns the event's portal index.
// LIMITATIONS: one firmware resource per node (TX and RX processing serialised); analytic payloads (on one node, and
// up to flow_threshold, 0 B on the committed machines) take turns on the sender's outgoing and the receiver's incoming
// HT (platform/node_buses.hpp) but do not see the flows, nor contend for mesh links; no PowerPC scratch-memory limits; the event queue is only a
// bounded buffer (the handler gets every event); no retransmission or flow control in the NIC; the interrupt is taken
// by the receiving rank's own core (with two ranks on a node, Catamount's virtual-node mode may route every interrupt
// through one core: not modelled).
#pragma once
#include "models/portals/portals.hpp"
#include "models/seastar/nic.hpp"
#include "core/statistics.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "platform/node_buses.hpp"
#include "platform/nic_services.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ompisim::seastar {

namespace ptl = ompisim::portals;

// The SeaStar's statistics, declared once (core/statistics.hpp); always reported. A component that drives the NIC
// reports them with its own and lists this table after its own in its registry entry (btl/portals, mtl/portals,
// native/mpich_portals), so `ompisim describe` shows them.
enum class SeaStarStat : std::uint8_t { Puts, Gets, Acks, Interrupts, Dropped, Truncated, EntriesWalked, Flows };
inline constexpr std::array<StatisticInfo, 8> kSeaStarStatistics{{
    {"seastar_puts", "messages", "PtlPut commands issued"},
    {"seastar_gets", "messages", "PtlGet commands issued"},
    {"seastar_acks", "messages", "ACKs the target sent back for a put that asked for one"},
    {"seastar_interrupts", "interrupts", "host interrupts: one per incoming header, ACK or reply (Catamount generic mode)"},
    {"seastar_dropped", "messages", "incoming puts and gets the target's match list dropped"},
    {"seastar_truncated", "messages", "incoming puts truncated by the memory descriptor they matched"},
    {"seastar_entries_walked", "entries", "match-list entries the target firmware walked"},
    {"seastar_flows", "transfers", "payloads above the flow threshold, moved as shared fabric flows"},
}};

class SeaStar {
public:
  using Handler = std::function<void(int rank, const ptl::Event&)>;
  // Called when the target firmware has matched (or dropped) an incoming put, before its data and events follow:
  // a library that keeps its own unexpected list learns here that a message is on its way into a catch-all buffer.
  using MatchHook = std::function<void(int target, const ptl::IncomingResult&, const ptl::PutMessage&)>;
  // The parts of the platform it uses: the engine, where ranks run, their CPU timelines (Portals calls, interrupts)
  // and the fabric of its network (path costs, payload flows; its NIC parameters).
  SeaStar(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric);
  // The job's SeaStar (in `services`), created with these parts on first use.
  static SeaStar& of(NicServices& services, Simulator& sim, const Contexts& contexts, CpuTimeline& cpus,
                     Fabric& fabric) {
    return services.get<SeaStar>(sim, contexts, cpus, fabric);
  }

  // A component opens the NIC: it claims `portals` (portal table indices) and receives the events of those indices
  // (`handler`) and the match notifications of puts into them (`on_match`, optional). Returns the client id for
  // eq(). Throws std::logic_error when an index is claimed already (two components on one portal table entry).
  int open(const std::string& component, const std::vector<ptl::PtIndex>& portals, Handler handler,
           MatchHook on_match = nullptr);
  ptl::Nic& nic(int rank);                       // the rank's Portals interface (created on first use)
  static ptl::ProcessId pid(int rank) { return {static_cast<std::uint32_t>(rank), 0}; }
  static int rank_of(ptl::ProcessId p) { return static_cast<int>(p.nid); }
  const SeaStarParams& params() const { return p_; }
  ptl::EqId eq(int rank, int client);            // the client's event queue on rank (allocated on first use)
  // When rank's firmware (its node's PowerPC) is next free: the one timeline every component on the node shares.
  double firmware_free_at(int rank) const;

  // Host cost of `n` Portals calls on rank's CPU, then `then` (still on the CPU).
  void calls(int rank, int n, Callback then);
  // PtlPut of a whole MD (state change now; timing as above). The header goes first and the payload moves only after
  // the target's firmware has matched it; the initiator's events (SEND_END) reach the handler when that transfer has
  // completed (header flight, remote match, payload moved to the target); target events, ACK and drops follow.
  void put(int rank, ptl::MdId md, ptl::AckReq ack, int target, ptl::PtIndex pt, ptl::MatchBits bits,
           std::uint64_t hdr_data);
  // PtlGet into a whole local MD from target's matching entry.
  void get(int rank, ptl::MdId md, int target, ptl::PtIndex pt, ptl::MatchBits bits);

  // The NIC's counters ("seastar_puts", ...) into a stack's statistics.
  void add_counters(std::map<std::string, std::uint64_t>& c) const;

  std::uint64_t count(SeaStarStat s) const { return counters_[s]; }

private:
  double firmware(long long node, double cost);  // serial PowerPC: returns the time its work ends
  // Payload streamed behind the header (the path's latency is already in the header's time): on one node, or up to
  // flow_threshold, it holds the sender's outgoing and the receiver's incoming HT for its serialization time (first
  // come, first served); above it, it is a flow that the sending node's transmit DMA engine starts when the payloads
  // commanded before it have left (tx_next), and that shares the HT and the links with every other flow.
  void move(long long a, long long b, const PathCost& path, double bytes, Callback done);
  void tx_next(long long a);
  void interrupt(int rank, Callback then);
  void dispatch(int rank, const std::vector<ptl::Event>& ev);

  // One put or get in flight, from the initiator's command to the target's handler; its steps below, in order.
  struct Transfer {
    int rank = 0, target = 0;  // initiator and target
    long long a = 0, b = 0;    // their nodes
    PathCost path;
    ptl::PutMessage put;                 // put: the header
    ptl::GetMessage get;                 // get: the request
    std::vector<ptl::Event> local;       // put: the initiator's SEND_END, dispatched when the payload has landed
    ptl::IncomingResult in;              // the target's match (events, ACK or REPLY, dropped or not)
    double bytes = 0;                    // payload moved
  };
  using TransferPtr = std::shared_ptr<Transfer>;
  // put: header at the target's firmware -> matched -> payload landed (SEND_END) -> target's interrupt (PUT_END, ACK).
  void put_header_arrived(const TransferPtr& t);
  void put_matched(const TransferPtr& t);
  void put_landed(const TransferPtr& t);
  void put_target_handled(const TransferPtr& t);
  // get: request at the target's firmware -> matched -> target's interrupt (reply set-up) -> reply streamed
  // (GET_END at the target) -> REPLY at the initiator.
  void get_request_arrived(const TransferPtr& t);
  void get_matched(const TransferPtr& t);
  void get_target_handled(const TransferPtr& t);
  void get_streamed(const TransferPtr& t);
  // An ACK or REPLY that has crossed the wire: the initiator's firmware, then its interrupt, then its events.
  enum class Response { Ack, Reply };
  void response_at_initiator(int rank, long long node, const ptl::ResponseMessage& m, Response kind);

  struct Client {
    std::string component;
    Handler handler;
    MatchHook on_match;
  };
  int owner(ptl::PtIndex pt) const;  // the client that claimed pt

  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  Fabric& fabric_;
  const SeaStarParams& p_;
  std::vector<Client> clients_;
  std::vector<int> portal_owner_;                   // by portal index: client id, -1 when unclaimed
  std::unordered_map<int, ptl::Nic> nics_;
  std::unordered_map<std::uint64_t, ptl::EqId> eqs_;  // (rank, client) -> event queue
  std::unordered_map<long long, double> fw_free_;
  NodeBuses buses_{"HT", NodeBuses::Duplex::Full};  // analytic payloads: the sender's HT out, the receiver's in
  // A node's transmit DMA engine: one payload flow at a time, the others waiting in command order.
  struct Outgoing {
    long long b;
    double bytes;
    Callback done;
  };
  struct TxEngine {
    bool busy = false;
    std::deque<Outgoing> waiting;
  };
  std::unordered_map<long long, TxEngine> tx_;
  std::unordered_map<int, double> irq_free_;  // by rank: when its core's last interrupt handler ends
  Statistics<SeaStarStat, kSeaStarStatistics.size()> counters_{kSeaStarStatistics};
};

}  // namespace ompisim::seastar
