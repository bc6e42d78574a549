// uGNI on the Gemini NIC. The NIC (Gni, one per job, shared) and one library instance's communication domain (Cdm:
// btl/ugni and the Cray MPT netmod each own one, with their own endpoints):
//  - endpoints created on first contact: INIT -> CONNECTING -> CONNECTED (EpBind + mailbox set-up; the first message
//    to a peer pays endpoint_connect_time and waits in the endpoint's queue meanwhile, unless the peer connected to
//    this rank already: that handshake bound both ends);
//  - SMSG mailboxes with credits per directed connection: a send takes a credit, a sender with no credit waits in the
//    endpoint's queue, the credit returns when the receiver has consumed the message (one wire time later);
//  - FMA (CPU-issued PIO, low start-up) and BTE (DMA engine, post cost, asynchronous, shared flow) RDMA GET/PUT;
//  - FMA AMOs executed by the target NIC without the target CPU;
//  - a registration cache (LRU) per rank and library, bounded by the registrations of the NIC shared among the
//    node's ranks.
// Sources: Gemini paper §II.A and §IV; Cray S-2446 "Using the GNI and DMAPP APIs"; parameters in the machine file.
// LIMITATIONS: one-packet SMSGs (control messages, the smallest eager sends) are timed analytically, each after the
// packets ahead of it on its links (Fabric::packet_wait: FIFO per link, not shared with the flows); AMOs are analytic
// with no bandwidth use; larger SMSGs and RDMA data are flows.
#pragma once
#include "core/errors.hpp"
#include "core/peer_seq.hpp"
#include "core/slab.hpp"
#include "models/gemini/nic.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "platform/nic_services.hpp"

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ompisim::gemini {

enum class EpState : std::uint8_t { Init, Connecting, Connected };
const char* to_string(EpState s);

// One directed connection's sender-side state: plain data plus checked transitions.
struct Endpoint {
  static constexpr std::uint32_t kNoMsg = ~std::uint32_t{0};
  EpState state = EpState::Init;
  std::uint16_t credits = 0;
  // SMSGs posted and not yet delivered, in post order (delivery is FIFO per connection: one that lands before an
  // earlier one waits for it), linked through the owning Cdm's message records as the queue below.
  std::uint32_t fly_head = kNoMsg, fly_tail = kNoMsg;
  // Messages waiting for the connection or for a credit, oldest first: a queue linked through the owning Cdm's
  // message records (8 bytes here, no allocation: a 300,000-rank run holds millions of endpoints, most of which queue
  // their first message while they connect).
  std::uint32_t head = kNoMsg, tail = kNoMsg;
  bool has_pending() const { return head != kNoMsg; }

  void start_connect(std::uint16_t max_credits);  // INIT -> CONNECTING
  void connected();                               // CONNECTING -> CONNECTED
  bool take_credit();                             // CONNECTED only; false when none is left
  void return_credit(std::uint16_t max_credits);  // a credit comes back
};

static_assert(sizeof(void*) != 8 || sizeof(Endpoint) <= 24, "gemini::Endpoint grew: a 300,000-rank run holds millions");

// LRU registration cache (Open MPI's rcache / Cray udreg): a hit costs nothing, a miss costs a registration and may
// evict the least recently used entry when the limit is reached.
class RegCache {
public:
  explicit RegCache(std::size_t limit) : limit_(limit) {}
  bool lookup(std::uint64_t addr, std::uint64_t bytes);  // true on hit (and refreshes the entry)
  void insert(std::uint64_t addr, std::uint64_t bytes);  // after a miss
  std::size_t size() const { return lru_.size(); }
  std::uint64_t evictions() const { return evictions_; }
  std::size_t limit() const { return limit_; }

private:
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return std::hash<std::uint64_t>()(k.first * 1315423911u ^ k.second); }
  };
  std::size_t limit_;
  std::list<Key> lru_;
  std::unordered_map<Key, std::list<Key>::iterator, KeyHash> map_;
  std::uint64_t evictions_ = 0;
};

enum class RdmaOp : std::uint8_t { Get, Put };

// The Gemini NIC of a job's nodes: what the hardware does for any library that opens it (FMA and BTE RDMA, AMOs
// executed by the target NIC, the registration table shared among a node's ranks). One per job
// (platform/nic_services.hpp): btl/ugni and the Cray MPT netmod on the same node use the same NIC.
// Takes the parts of the platform it uses: the engine, where ranks run (node, ranks per node), their CPU timelines
// (issue and completion-queue costs) and the fabric of its network (wire times, BTE flows; its NIC parameters).
class Gni {
public:
  Gni(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric);
  // The job's Gni (in `services`), created with these parts on first use.
  static Gni& of(NicServices& services, Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric) {
    return services.get<Gni>(sim, contexts, cpus, fabric);
  }
  Simulator& sim() const { return sim_; }
  const Contexts& contexts() const { return ctx_; }
  CpuTimeline& cpus() const { return cpus_; }
  Fabric& fabric() const { return fabric_; }
  const GeminiParams& params() const { return g_; }
  // RDMA between initiator and peer: GET moves bytes peer -> initiator, PUT initiator -> peer. BTE when `bte`.
  // `done` runs on the initiator's CPU after its completion queue reports the transfer.
  void rdma(RdmaOp op, bool bte, int initiator, int peer, std::uint64_t bytes, Callback done);
  // An FMA AMO on target's memory, executed by the target's NIC (the target CPU is not involved).
  void amo(int initiator, int target, Callback local_done, Callback at_target);
  // Registrations one rank of rank's node may hold: the NIC's table shared among the node's ranks.
  std::size_t registration_limit(int rank) const;

private:
  Callback nic_span(long long node, const char* row, const char* what, Callback fin);
  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  Fabric& fabric_;
  const GeminiParams& g_;
};

// uGNI as one MPI library instance sees it: its communication domain (GNI_CdmCreate per library instance), with its
// endpoints, SMSG mailboxes, credits and registration caches, over the shared Gni. btl/ugni and the Cray MPT netmod
// each own one.
class Cdm {
public:
  // smsg_payload_rate: the rate at which this library's SMSG sends move their bytes into the FMA window (null or 0: the
  // NIC's fma_pio_bandwidth). smsg_library_cost: the library's own CPU work around each SMSG, paid by the sender at the
  // post and by the receiver at the poll, beside the uGNI calls' smsg_cpu_overhead (btl/ugni's btl_ugni_overhead; null
  // for a library whose per-message cost is charged elsewhere). Their values are taken without reading them
  // (Sourced::value); the first SMSG reads them, so a --set of one on a run that sends no SMSG (one node) is reported as
  // changing nothing.
  Cdm(Gni& nic, std::uint16_t max_credits, const Sourced* smsg_payload_rate = nullptr,
      const Sourced* smsg_library_cost = nullptr);
  // SMSG of `bytes` (header + payload) from rank to peer; `sent` on the sender CPU once posted, `deliver` on the
  // receiver's CPU once polled out of the mailbox.
  void smsg_send(int rank, int peer, std::uint64_t bytes, Callback sent, Callback deliver);
  // Gni::rdma, counted for this library.
  void rdma(RdmaOp op, bool bte, int initiator, int peer, std::uint64_t bytes, Callback done);
  void amo(int initiator, int target, Callback local_done, Callback at_target) {
    nic_.amo(initiator, target, std::move(local_done), std::move(at_target));
  }
  // Registration through the rank's cache; `ready` once the buffer is registered.
  void register_buffer(int rank, Buffer b, std::uint64_t bytes, Callback ready);

  Gni& nic() const { return nic_; }
  Endpoint& endpoint(int rank, int peer);
  // Whether `rank`'s endpoint to `peer` exists and is connected (no endpoint is created).
  bool peer_connected(int rank, int peer) const;
  std::size_t endpoints() const { return eps_.size(); }
  std::size_t messages_in_flight() const { return smsgs_.size(); }  // SMSGs queued, or sent and holding a credit
  std::uint64_t smsg_sent = 0, credit_waits = 0, connects = 0, registrations = 0, rdma_gets = 0, rdma_puts = 0;
  std::uint64_t smsg_local_events = 0;  // SMSG acks reaped from the sender's local CQ
  const RegCache* regcache(int rank) const;

private:
  void try_flush(Endpoint& ep);
  void enqueue(Endpoint& ep, std::uint32_t id);
  void transmit(std::uint32_t id);
  // The steps of one SMSG after its post, each an event whose callback names the message by its index in smsgs_.
  void smsg_posted(std::uint32_t id);
  void smsg_landed(std::uint32_t id);  // in the mailbox: delivered now if every earlier SMSG of its connection was
  void smsg_arrived(std::uint32_t id);
  void smsg_polled(std::uint32_t id);
  void smsg_credit_back(std::uint32_t id);
  Gni& nic_;
  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  Fabric& fabric_;
  const GeminiParams& g_;
  std::uint16_t max_credits_;
  double smsg_rate_ = 0;  // SMSG payload rate into the FMA window for this library's sends
  double smsg_lib_ = 0;   // the library's own CPU work per SMSG per side
  double packet_bytes_ = 0;  // an SMSG of at most this many bytes is one packet (GeminiParams::packet_payload_bytes)
  ReadOnUse smsg_params_;  // the parameters of the two, read at the first SMSG
  // Endpoints in creation order (a deque keeps references valid: the callbacks carry an endpoint's address), found
  // through the rank's table of 1 + index by peer: a 300,000-rank barrier opens 3.7 M endpoints, most for one
  // message, and a node-based map of (rank, peer) cost an allocation and two dependent misses per endpoint.
  std::deque<Endpoint> eps_;
  struct Smsg {  // one SMSG from its call to the return of its credit (Endpoint references stay valid: a deque)
    int rank = 0, peer = 0;
    std::uint32_t next = Endpoint::kNoMsg;  // the endpoint's next queued, then next in-flight, message
    Endpoint* ep = nullptr;
    long long na = 0, nb = 0;  // the nodes of rank and peer
    std::uint64_t bytes = 0;
    Callback sent, deliver;
    bool landed = false;  // in the peer's mailbox, waiting for an earlier SMSG to be delivered
  };
  Slab<Smsg> smsgs_;
  std::vector<PeerSeq> ep_index_;
  std::unordered_map<int, RegCache> regcaches_;
};

}  // namespace ompisim::gemini
