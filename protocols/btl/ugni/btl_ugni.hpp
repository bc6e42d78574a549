// btl/ugni (Gemini paper §IV). Protocols:
//  - short: header + data <= SMSG limit (automatic by job size, or btl_ugni_smsg_limit): the data is copied into a
//    fragment, sent with GNI_SmsgSendWTag (TAG_SEND) into the peer's mailbox (credits), copied out at match;
//  - eager get: SMSG limit < size <= btl_ugni_eager_limit: copied into a registered eager buffer (pool 16, +16, max 64;
//    wait beyond; one pool for sends, one for receives), INIT_GET over SMSG; the receiver takes a buffer from its
//    receive pool, GETs by FMA whatever the size (r26242) and answers RDMA_COMPLETE, which frees the sender's buffer;
//  - long: BTL Get() (pml/ob1 RGET) by FMA or BTE; when the GET cannot be done (size above btl_ugni_get_limit, or a
//    buffer/length not 4-byte aligned) the receiver sends PUT_INIT, the sender PUTs and sends RDMA_COMPLETE: two extra
//    SMSG messages.
//  - atomics (MCA_BTL_FLAGS_ATOMIC_OPS): an FMA AMO executed by the target's Gemini NIC (Cheetah's uGNI BCOL).
// Each send fragment and RDMA operation in flight is a record with an explicit state (ugni_frag.hpp); the steps below
// (on_<event>) move it by its transition table and start the next activity.
// The component's uGNI communication domain (endpoints, mailboxes, credits, registration caches) is its own
// (gemini::Cdm); the NIC (gemini::Gni) is the job's, shared with any other library on it.
#pragma once
#include "core/slab.hpp"
#include "core/statistics.hpp"
#include "models/gemini/gni.hpp"
#include "platform/cpu_timeline.hpp"
#include "mpi/stack.hpp"
#include "protocols/btl/btl.hpp"
#include "protocols/btl/ugni/btl_ugni_mca.hpp"
#include "protocols/btl/ugni/eager_pool.hpp"
#include "protocols/btl/ugni/ugni_frag.hpp"

#include <unordered_map>

namespace ompisim::btl::ugni {

constexpr std::uint64_t kCtrlBytes = 48;  // INIT_GET / PUT_INIT / RDMA_COMPLETE descriptors
// MCA_BTL_FLAGS_* of btl/ugni: SEND | RDMA | SEND_INPLACE (v1.8.8), and ATOMIC_OPS for the Gemini AMOs of Cheetah's
// uGNI BCOL (v1.8.8 has no btl_atomic_op; v2.0 on sets the flag).
constexpr std::uint32_t kFlags = flag::Send | flag::Rdma | flag::SendInplace | flag::AtomicOps;

// btl/ugni's statistics, declared once (core/statistics.hpp; the registry entry and `ompisim describe btl/ugni` list
// them), always reported but for the eager lists' growths and waits (reported once counted). The first five are its
// uGNI communication domain's and the last the receivers' eager buffers still held, all read at report time
// (snapshot()); the others its protocols', counted on the message path.
inline constexpr std::array<StatisticInfo, 13> kStatistics{{
    {"ugni_smsg", "messages", "SMSG messages sent (GNI_SmsgSendWTag): short sends and INIT_GET/PUT_INIT/RDMA_COMPLETE"},
    {"ugni_smsg_local_events", "events", "SMSG acknowledgements reaped from the sender's local CQ"},
    {"ugni_credit_waits", "sends", "SMSG sends that waited for a mailbox credit"},
    {"ugni_endpoints", "endpoints", "uGNI endpoints connected (on demand: one per rank and peer it sends to; a peer that connected to the rank already binds it without a connect of its own)"},
    {"ugni_registrations", "registrations", "memory registrations (GNI_MemRegister) missing the registration cache"},
    {"ugni_short_sends", "messages", "short protocol: header + data within the SMSG limit"},
    {"ugni_eager_gets", "messages", "eager-get protocol: an eager buffer, INIT_GET, the receiver's GET"},
    {"ugni_long_gets", "transfers", "long GETs (pml/ob1 RGET) by FMA or BTE"},
    {"ugni_put_fallbacks", "transfers", "GETs that could not be done (size, alignment): PUT_INIT, the sender's PUT"},
    {"ugni_bte_transfers", "transfers",
     "long GETs and fallback PUTs above btl_ugni_fma_limit, moved by the BTE (the others and every eager get by FMA)"},
    {"ugni_eager_pool_grows", "growths", "eager-get buffer lists grown by btl_ugni_eager_inc (a registration each)", true},
    {"ugni_eager_buffer_waits", "fragments", "eager-get fragments that waited for a buffer (list at btl_ugni_eager_max)",
     true},
    {"ugni_eager_buffers_held", "buffers", "receivers' eager buffers not yet consumed at the end of the run", false, true},
}};
// In kStatistics' order.
enum class UgniStat : std::uint8_t {
  Smsg, SmsgLocalEvents, CreditWaits, Endpoints, Registrations, ShortSends, EagerGets, LongGets, PutFallbacks,
  BteTransfers, EagerPoolGrows, EagerBufferWaits, EagerBuffersHeld
};

class BtlUgni final : public Btl {
public:
  // The parts of the platform it uses: where ranks run (the job size, on-node peers), their CPU timelines (copies,
  // eager pool growth) and the job's Gni.
  BtlUgni(const Contexts& contexts, CpuTimeline& cpus, gemini::Gni& nic, const UgniMca& mca);
  std::string name() const override { return "ugni"; }
  const BtlCaps& caps() const override { return caps_; }
  // Ranks on other nodes (v1.8.8 mca_btl_ugni_add_procs skips OPAL_PROC_ON_LOCAL_NODE peers: vader serves them).
  bool reaches(const Contexts& contexts, int rank, int peer) const override {
    return contexts.node_of(rank) != contexts.node_of(peer);
  }
  void send(const Descriptor& d, Completion local_done) override;
  void get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) override;
  void prepare_rdma(int rank, Buffer b, std::uint64_t bytes, Completion ready) override;
  void payload_consumed(const Descriptor& d) override;
  void atomic_add(int rank, int target, Completion local_done, Completion at_target) override;
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;
  const gemini::Cdm& cdm() const { return gni_; }
  std::uint64_t smsg_limit() const { return smsg_limit_; }
  enum class Pool { Send, Recv };  // eager_frags_send and eager_frags_recv: two free lists per module
  EagerPool& pool(int rank, Pool which);
  std::uint64_t count(UgniStat s) const { return snapshot()[s]; }
  std::size_t eager_buffers_held() const { return eager_in_use_.size(); }  // receivers' buffers not yet consumed
  std::size_t frags_in_flight() const { return frags_.size() + rdmas_.size(); }  // send fragments and RDMA operations

private:
  CpuTimeline& cpus_;
  const UgniMca& mca_;
  gemini::Cdm gni_;  // this library instance's uGNI communication domain
  BtlCaps caps_;
  std::uint64_t smsg_limit_;
  std::unordered_map<std::int64_t, EagerPool> pools_;    // per (rank, Pool), created on first use
  std::unordered_map<std::uint64_t, int> eager_in_use_;  // Descriptor::rx_buffer -> receiver whose pool buffer holds it
  std::uint64_t next_rx_ = 1;
  Slab<SendFrag> frags_;  // send fragments in flight; their events carry (this, index)
  Slab<RdmaFrag> rdmas_;  // RDMA operations in flight
  // Send fragment steps (ugni_frag.hpp): each applies its event to frags_[id] and starts what the new state needs.
  void take_buffer(int rank, Pool which, std::uint32_t id);  // then on_buffer(id), at once, after growth or later
  void on_buffer(std::uint32_t id);                           // BUFFER_READY (send or receive list)
  void on_copied(std::uint32_t id);                           // COPIED (into the fragment or the eager buffer)
  void on_send_arrived(std::uint32_t id);                     // SEND_ARRIVED (TAG_SEND polled by the receiver)
  void on_init_get(std::uint32_t id);                         // INIT_GET_ARRIVED
  void on_get_done(std::uint32_t id);                         // GET_DONE (the receiver's pull)
  void on_rdma_complete(std::uint32_t id);                    // RDMA_COMPLETE_ARRIVED (frees the sender's buffer)
  // RDMA operation steps.
  void on_put_init(std::uint32_t id);      // PUT_INIT_ARRIVED at the data owner
  void on_rdma_done(std::uint32_t id);     // RDMA_DONE (GET or PUT locally complete)
  void on_put_complete(std::uint32_t id);  // RDMA_COMPLETE_ARRIVED at the initiator after the PUT
  void finish_rdma(std::uint32_t id);
  Statistics<UgniStat, kStatistics.size()> counters_{kStatistics};  // the protocols'; the others set by snapshot()
  // The counters as a run reports them: the protocols' with the domain's and the eager buffers held set now.
  Statistics<UgniStat, kStatistics.size()> snapshot() const;
};

}  // namespace ompisim::btl::ugni
