// btl/portals under pml/ob1 (seastar-portals paper §2.1, "OB1 and the Portals BTL"). Portals is used as a plain
// network: ob1 does the MPI matching in the host.
//   send:  the fragment (ob1 header + up to max_send_size of data) is copied into a BTL fragment, then PtlPutRegion
//          with ACK into the peer's receive blocks (catch-all entries, one per block: no NIC matching); a pre-pinned
//          eager fragment (eager_frag_limit of them) is bound once at its first use, a max-size one (when none is
//          free, or above the eager limit) is bound per send (PtlMDBind) and unlinked when freed (PtlMDUnlink);
//          at the target, PUT_START and PUT_END are read, and PUT_END hands the fragment to ob1, which matches it and
//          copies the data out.
//   completion (Open MPI v1.3-era btl_portals_component.c, btl_portals_needs_ack = 1): the PtlPut asks an ACK and
//          the MD has SEND_END disabled; the fragment completes (ob1's callback: an eager send's MPI request) when
//          the sender's progress reads PTL_EVENT_ACK, a round trip after the put, not when the copy is done. Every
//          ACK interrupts the sender's host. With needs_ack = 0: no ACK, completion on SEND_END.
//   flow control: at most btl_portals_max_pending_ops fragments per process are outstanding (sent, not completed);
//          further sends wait in FIFO order (portals_queued_sends) and go when a completion frees a slot. With
//          btl_portals_peer_window W > 0 (no Open MPI parameter: the paper's "rate limiting to ensure message
//          reliability", fitted), at most W of them go to one peer (SendSlots, portals_frag.hpp).
//   RDMA:  ob1's RGET: the sender exposes its buffer (PtlMEAttach + PtlMDAttach, priced with the descriptor that
//          carries desc_flag::ExposeData),
//          the receiver binds its buffer and pulls with PtlGet into it (zero copy), then ob1's FIN.
// Each send fragment, arrival and GET is a record with an explicit state (portals_frag.hpp); the steps below
// (on_<event>) move it by its transition table and start the next activity.
// LIMITATIONS: receive-block space is not accounted per fragment (blocks are large and re-posted when unlinked);
// no PUT-based RDMA.
#pragma once
#include "core/statistics.hpp"
#include "models/seastar/seastar.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/btl/btl.hpp"
#include "protocols/btl/portals/btl_portals_mca.hpp"
#include "protocols/btl/portals/portals_frag.hpp"

#include <array>
#include <deque>
#include <unordered_map>

namespace ompisim::btl::portals {

namespace ptl = ompisim::portals;

// MCA_BTL_FLAGS_* of btl/portals (see the capability record in btl_portals.cpp).
constexpr std::uint32_t kFlags = flag::Send | flag::Get | flag::RdmaMatched;

// btl/portals' statistics, declared once (add_counters reports all of them; the registry entry and
// `ompisim describe btl/portals` list them).
enum class PortalsStat : std::uint8_t { Frags, QueuedSends, RdmaGets, MdBinds, MdUnlinks, RecvEvents, SendEvents };
inline constexpr std::array<StatisticInfo, 7> kPortalsStatistics{{
    {"btl_portals_frags", "fragments", "fragments put (PtlPutRegion)"},
    {"btl_portals_queued_sends", "sends", "sends that waited for an outstanding-fragment slot (FIFO order)"},
    {"btl_portals_rdma_gets", "transfers", "RDMA GETs (pml/ob1 RGET): PtlMDBind + PtlGet by the receiver"},
    {"btl_portals_md_binds", "calls", "PtlMDBind of send fragments (eager ones stay bound and are reused)"},
    {"btl_portals_md_unlinks", "calls", "PtlMDUnlink of max-size send fragments when freed"},
    {"btl_portals_recv_events", "events", "events of the receive blocks handled (PUT_START, PUT_END)"},
    {"btl_portals_send_events", "events", "events of send fragments handled (SEND_END, ACK)"},
}};

// Refuses MCA values it cannot run (an eager limit above btl_portals_max_send_size), before anything is simulated
// (ComponentInfo::check) and again when the BTL is built: InputError with an empty file (the run names it).
void check_mca(const BtlPortalsMca& mca);

class BtlPortals final : public Btl {
public:
  // The parts of the platform it uses: where ranks run (the machine's btl_portals_overhead), their CPU timelines
  // (overheads, copies, event-queue polls) and the job's SeaStar.
  BtlPortals(const Contexts& contexts, CpuTimeline& cpus, seastar::SeaStar& nic, const BtlPortalsMca& mca);
  std::string name() const override { return "portals"; }
  const BtlCaps& caps() const override { return caps_; }
  // Every rank, on the node or not (Catamount has no shared-memory BTL); btl/self's higher exclusivity takes oneself.
  bool reaches(const Contexts&, int, int) const override { return true; }
  void send(const Descriptor& d, Completion local_done) override;
  // ob1's start_copy with early completion: `packed` runs once the fragment is put (PtlPutRegion returned: the end of
  // mca_btl_portals_send on the sender's CPU), or at once when the send waits for a slot (the data is already in the
  // fragment: the Open MPI send call queues it and returns); `local_done` on the ACK as for send().
  void send_packed(const Descriptor& d, Completion local_done, Completion packed) override;
  void get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) override;
  void prepare_rdma(int rank, Buffer b, std::uint64_t bytes, Completion ready) override;
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;
  std::uint64_t count(PortalsStat s) const { return counters_[s]; }
  // Send fragments, arrivals and GETs in flight.
  std::size_t records_in_flight() const { return sends_.size() + arrivals_.size() + gets_.size(); }

private:
  struct RankState {  // one process's btl/portals module: its send slots and queued sends, its eager fragments
    explicit RankState(SendSlots s) : slots(std::move(s)) {}
    SendSlots slots;       // outstanding fragments (process-wide and per peer); AWAIT_SLOT fragments, oldest first
    int eager_in_use = 0;  // pre-pinned eager fragments in flight (sent, not completed)
    int eager_bound = 0;   // eager fragments whose MD has been bound (on first use, kept for the fragment's life)
  };
  RankState& rank_state(int rank);  // created on the process's first send
  void ensure(int rank);
  void post_block(int rank);
  void on_event(int rank, const ptl::Event& e);
  void on_match(int target, const ptl::IncomingResult& in, const ptl::PutMessage& m);
  // The steps of the records (portals_frag.hpp): each applies its event to its record and starts what the new state
  // needs.
  void transmit(std::uint64_t fid);             // the send call on the CPU (PREPARING)
  void on_prepared(std::uint64_t fid);          // PREPARED: the fragment buffer chosen, copy the data in
  void on_copied(std::uint64_t fid);            // COPIED: the Portals calls
  void on_put(std::uint64_t fid);               // PUT: PtlPutRegion made, the fragment goes
  void on_completion_event(std::uint64_t fid);  // COMPLETION_EVENT: its ACK (or SEND_END) posted
  void on_completion_read(std::uint64_t fid);   // COMPLETION_READ: ob1's callback, the slot freed
  void on_put_end(std::uint64_t fid);           // PUT_END posted at the target
  void on_put_end_read(std::uint64_t fid);      // PUT_END_READ: the fragment goes to ob1
  void on_get_posted(std::uint64_t gid);        // POSTED: PtlMDBind + PtlGet made
  void on_reply_end(std::uint64_t gid);         // REPLY_END posted at the initiator
  void on_reply_end_read(std::uint64_t gid);    // REPLY_END_READ: ob1's completion

  CpuTimeline& cpus_;
  const BtlPortalsMca& mca_;
  seastar::SeaStar& ss_;  // the node's NIC, shared with every other component on it
  int client_ = -1;       // this BTL's client id on the SeaStar (its event queues)
  BtlCaps caps_;
  double overhead_;
  std::unordered_map<int, bool> ready_;
  std::unordered_map<int, RankState> ranks_;  // per sending process, created on its first send
  std::unordered_map<std::uint64_t, SendFrag> sends_;    // by fragment id (MD user_ptr): from the send to completion
  std::unordered_map<std::uint64_t, Arrival> arrivals_;  // by fragment id (hdr_data): from the put to ob1
  std::unordered_map<std::uint64_t, GetOp> gets_;        // by get id (user_ptr, match bits)
  std::uint64_t next_ = 16;
  Statistics<PortalsStat, kPortalsStatistics.size()> counters_{kPortalsStatistics};
};

}  // namespace ompisim::btl::portals
