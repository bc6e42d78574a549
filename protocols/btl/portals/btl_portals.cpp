#include "protocols/btl/portals/btl_portals.hpp"

#include "core/errors.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ompisim::btl::portals {

using namespace ompisim::portals;

namespace {
constexpr PtIndex kFragTable = 2;  // btl/portals send table: fragments into receive blocks
constexpr PtIndex kRdmaTable = 3;  // exposed buffers for PtlGet
constexpr std::uint64_t kRecvBlockPtr = 1, kExposedPtr = 2;
}  // namespace

void check_mca(const BtlPortalsMca& mca) {
  // An eager fragment carries up to eager_limit bytes into a receive block that takes at most max_send_size and a
  // header per put (md.max_size, post_block): a larger one would be dropped at the target and never complete.
  const auto eager = static_cast<std::uint64_t>(mca.btl_portals_eager_limit.get()),
             max_send = static_cast<std::uint64_t>(mca.btl_portals_max_send_size.get());
  if (eager > max_send)  // bad input: the run names the file
    throw InputError("", "mca.btl_portals_eager_limit",
                     fmt::format("btl_portals_eager_limit ({} B) exceeds btl_portals_max_send_size ({} B): an eager "
                                 "fragment would not fit the receive blocks, which take fragments up to max_send_size; "
                                 "raise btl_portals_max_send_size, or lower btl_portals_eager_limit",
                                 eager, max_send));
}

BtlPortals::BtlPortals(const Contexts& contexts, CpuTimeline& cpus, seastar::SeaStar& nic, const BtlPortalsMca& mca)
    : cpus_(cpus), mca_(mca), ss_(nic), overhead_(seastar::nic(contexts.machine()).software.btl_portals_overhead) {
  client_ = ss_.open("btl/portals", {kFragTable, kRdmaTable}, [this](int r, const Event& e) { on_event(r, e); },
                     [this](int t, const IncomingResult& in, const PutMessage& m) { on_match(t, in, m); });
  // Open MPI v1.3.4 ompi/mca/btl/portals/btl_portals_component.c: exclusivity 60, eager and rndv_eager 32 KiB,
  // max_send 64 KiB, rdma_pipeline_send_length 64 KiB, rdma_pipeline_frag_size INT_MAX, min_rdma_pipeline_size 0,
  // flags RDMA | RDMA_MATCHED (no SEND flag: bml/r2 puts every BTL that reaches a peer in its send array anyway),
  // bandwidth 1000 Mb/s, latency 0. Sizes from the MCA parameters (btl_portals_eager_limit; btl_portals_max_send_size
  // 32 KiB from configure.params); rndv_eager_limit = eager_limit. PUT is left out: the model has no PUT-based RDMA.
  check_mca(mca);
  caps_.eager_limit = static_cast<std::uint64_t>(mca.btl_portals_eager_limit.get());
  caps_.rndv_eager_limit = caps_.eager_limit;
  caps_.max_send_size = static_cast<std::uint64_t>(mca.btl_portals_max_send_size.get());
  caps_.rdma_pipeline_send_length = 64 * 1024;
  caps_.rdma_pipeline_frag_size = 0x7fffffff;
  caps_.min_rdma_pipeline_size = 0;
  caps_.exclusivity = 60;
  caps_.latency = 0;
  caps_.bandwidth = 1000;
  caps_.flags = kFlags;
}

void BtlPortals::ensure(int rank) {
  if (ready_[rank]) return;
  ready_[rank] = true;
  // 3 receive blocks: the early pml/portals value (hardware-sources.md §4); the btl's own count is not public.
  for (int i = 0; i < 3; ++i) post_block(rank);
}

void BtlPortals::post_block(int rank) {
  Nic& nic = ss_.nic(rank);
  MeId me = nic.me_attach(kFragTable, ProcessId::any(), 0, ~MatchBits{0}, UnlinkOp::Unlink, InsertPos::After);
  Md md;
  md.length = static_cast<std::uint64_t>(mca_.btl_portals_recv_block_size.get());
  md.max_size = std::min<std::uint64_t>(caps_.max_send_size + kHdrSegmentMax, md.length);
  // PTL_MD_OP_PUT | PTL_MD_MAX_SIZE (btl_portals_recv.h, v1.2 to v1.3.4): no PTL_MD_EVENT_START_DISABLE, so every
  // fragment posts PUT_START (the block's pending count) and PUT_END, and progress reads both.
  md.options.op_put = md.options.manage_local = true;
  md.eq = ss_.eq(rank, client_);
  md.user_ptr = kRecvBlockPtr;
  nic.md_attach(me, md, UnlinkOp::Unlink);
}

BtlPortals::RankState& BtlPortals::rank_state(int rank) {
  auto it = ranks_.find(rank);
  if (it != ranks_.end()) return it->second;
  return ranks_.try_emplace(rank, SendSlots(static_cast<int>(mca_.btl_portals_max_pending_ops.get()),
                                            static_cast<int>(mca_.btl_portals_peer_window.get())))
      .first->second;
}

void BtlPortals::send(const Descriptor& f, Completion local_done) { send_packed(f, std::move(local_done), nullptr); }

// Send fragment: AWAIT_SLOT (when the process has max_pending_ops outstanding, or its peer the window's) or at once PREPARING -> COPYING ->
// CALLING -> AWAIT_COMPLETION -> READING_COMPLETION -> COMPLETE (portals_frag.hpp).
void BtlPortals::send_packed(const Descriptor& f, Completion local_done, Completion packed) {
  ensure(f.src);
  ensure(f.dst);
  const std::uint64_t fid = next_++;
  SendFrag& s = sends_[fid];
  s.d = f;
  s.local_done = std::move(local_done);
  if (!rank_state(f.src).slots.admit(fid, f.dst)) {  // no slot (the process's or the peer's): queue (FIFO)
    counters_.add(PortalsStat::QueuedSends);
    s.state = step(s.state, FragEvent::Queue);
    if (packed) packed();
    return;
  }
  s.state = step(s.state, FragEvent::Start);
  s.packed = std::move(packed);
  transmit(fid);
}

// The fragment buffer (mca_btl_portals_alloc, btl_portals_frag.h): up to the eager limit one of the
// btl_portals_eager_frag_limit pre-pinned eager fragments when one is free, whose MD is bound at its first use and
// kept ("pinned on first use and left pinned for the life of the fragment"), so a later send is one PtlPutRegion;
// otherwise a max-size fragment, bound for this send (PtlMDBind + PtlPutRegion) and unlinked when freed. The buffer is
// taken when the send runs on the CPU (on_prepared), not when it is queued. Copy into the fragment, then PtlMDBind (if
// needed) + PtlPutRegion (with ACK unless btl_portals_needs_ack is 0). The fragment completes when its ACK (or
// SEND_END) is read, not here: the copy only makes the put possible.
void BtlPortals::transmit(std::uint64_t fid) {
  counters_.add(PortalsStat::Frags);
  cpus_.cpu(sends_.at(fid).d.src, overhead_, [this, fid] { on_prepared(fid); }, "mca_btl_portals_send (PtlPut)");
}

void BtlPortals::on_prepared(std::uint64_t fid) {
  SendFrag& s = sends_.at(fid);
  s.state = step(s.state, FragEvent::Prepared);
  RankState& rs = rank_state(s.d.src);
  const bool fits_eager = s.d.wire_bytes() <= caps_.eager_limit;
  s.eager = fits_eager && rs.eager_in_use < static_cast<int>(mca_.btl_portals_eager_frag_limit.get());
  s.bind = true;
  if (s.eager) {
    s.bind = rs.eager_in_use == rs.eager_bound;  // the free eager fragments are bound ones unless all are in use
    if (s.bind) ++rs.eager_bound;
    ++rs.eager_in_use;
  }
  if (s.bind) counters_.add(PortalsStat::MdBinds);
  cpus_.cpu_copy(s.d.src, static_cast<double>(s.d.wire_bytes()), [this, fid] { on_copied(fid); });
}

void BtlPortals::on_copied(std::uint64_t fid) {
  SendFrag& s = sends_.at(fid);
  s.state = step(s.state, FragEvent::Copied);
  // A descriptor that exposes its data segment (ob1's RGET) first attaches the user buffer (PtlMEAttach +
  // PtlMDAttach, mca_btl_portals_prepare_src).
  const bool expose = s.d.flags & desc_flag::ExposeData;
  const int n = (s.bind ? 2 : 1) + (expose ? 2 : 0);
  ss_.calls(s.d.src, n, [this, fid] { on_put(fid); });
}

void BtlPortals::on_put(std::uint64_t fid) {
  SendFrag& s = sends_.at(fid);
  s.state = step(s.state, FragEvent::Put);
  const Descriptor& f = s.d;
  const bool ack = mca_.btl_portals_needs_ack.get() != 0;
  Md md;
  md.length = f.wire_bytes();
  md.threshold = ack ? 2 : 1;  // send (+ ack)
  md.options.event_start_disable = true;
  // v1.3.4 optimized build: "if we are using portals ACK's for completion" SEND_END is disabled
  // (btl_portals_send.c:72-76); the 2007 trunk leaves it on (btl_portals_send.c:64-65 at d109e9a6f4), so its
  // progress reads SEND_END and then the ACK for every fragment (btl_portals_component.c at d109e9a6f4: PtlEQPoll with
  // timeout 0 at :311, SEND_END :455, ACK :473).
  md.options.event_end_disable = ack && mca_.btl_portals_send_end_event.get() == 0;
  md.eq = ss_.eq(f.src, client_);
  md.user_ptr = fid;
  MdId h = ss_.nic(f.src).md_bind(md, UnlinkOp::Unlink);
  Arrival& in = arrivals_[fid];
  in.d = f;
  in.state = step(in.state, ArrivalEvent::Put);
  ss_.put(f.src, h, ack ? AckReq::Ack : AckReq::NoAck, f.dst, kFragTable, 0, fid);
  // The send call returns: with early completion, the MPI request is complete.
  if (Completion packed = std::move(sends_.at(fid).packed)) packed();
}

void BtlPortals::on_completion_event(std::uint64_t fid) {
  SendFrag& s = sends_.at(fid);
  s.state = step(s.state, FragEvent::CompletionEvent);
  cpus_.cpu(s.d.src, ss_.params().eq_poll_cost, [this, fid] { on_completion_read(fid); },
            "mca_btl_portals_component_progress (PtlEQGet)");
}

// The fragment's completion event (ACK, or SEND_END without ACKs) was read: ob1's callback runs, the slot is freed
// and the oldest queued send that fits goes (MCA_BTL_PORTALS_PROGRESS_QUEUED_SENDS; with a peer window, a send to a
// peer whose window is full is passed over).
void BtlPortals::on_completion_read(std::uint64_t fid) {
  auto it = sends_.find(fid);
  it->second.state = step(it->second.state, FragEvent::CompletionRead);
  Completion done = std::move(it->second.local_done);
  const bool eager = it->second.eager;
  const int rank = it->second.d.src, peer = it->second.d.dst;
  sends_.erase(it);
  if (done) done();
  RankState& r = rank_state(rank);
  // ob1's callback frees the descriptor (mca_btl_portals_free): an eager fragment goes back to its list with its MD
  // kept bound; a max-size fragment's MD is unlinked (PtlMDUnlink).
  if (eager) {
    --r.eager_in_use;
  } else {
    counters_.add(PortalsStat::MdUnlinks);
    ss_.calls(rank, 1, [] {});
  }
  if (const auto next = r.slots.release(peer)) {
    SendFrag& n = sends_.at(*next);
    n.state = step(n.state, FragEvent::SlotFree);
    transmit(*next);
  }
}

// A fragment that matched no receive block: every block was full (a block unlinks once its free space is below its
// max_size, and its successor is posted when the host reads the unlink event). Portals drops it; btl/portals has no
// resend, so Open MPI would hang: a run that reaches it is refused with the parameters that decide it.
void BtlPortals::on_match(int target, const IncomingResult& in, const PutMessage& m) {
  if (in.matched || m.portal_index != kFragTable) return;
  const auto it = arrivals_.find(m.hdr_data);
  const std::string from = it == arrivals_.end() ? std::string("a peer") : "rank " + std::to_string(it->second.d.src);
  throw InputError("", "mca.btl_portals_recv_block_size",
                   "rank " + std::to_string(target) + " dropped a fragment of " + std::to_string(m.length) + " B from " +
                       from + ": its 3 receive blocks of " + std::to_string(static_cast<long long>(mca_.btl_portals_recv_block_size.get())) +
                       " B were full (btl/portals resends nothing); raise mca.btl_portals_recv_block_size, or bound the "
                       "fragments in flight per peer with mca.btl_portals_peer_window");
}

// Arrival: IN_FLIGHT -> READING -> COMPLETE.
void BtlPortals::on_put_end(std::uint64_t fid) {
  Arrival& in = arrivals_.at(fid);
  in.state = step(in.state, ArrivalEvent::PutEnd);
  cpus_.cpu(in.d.dst, ss_.params().eq_poll_cost + overhead_, [this, fid] { on_put_end_read(fid); },
            "mca_btl_portals_component_progress (PtlEQGet)");
}

void BtlPortals::on_put_end_read(std::uint64_t fid) {
  auto it = arrivals_.find(fid);
  it->second.state = step(it->second.state, ArrivalEvent::PutEndRead);
  const Descriptor f = it->second.d;
  arrivals_.erase(it);
  deliver_landed(f, MemSpace{});  // in the receiver's own receive block
}

void BtlPortals::prepare_rdma(int, Buffer, std::uint64_t, Completion ready) {
  // Portals needs no registration. The Portals calls are priced where they are made: the sender's PtlMEAttach +
  // PtlMDAttach with the RGET fragment (on_copied), the receiver's PtlMDBind + PtlGet in get().
  ready();
}

// RDMA GET: CALLING -> IN_FLIGHT -> READING -> COMPLETE.
void BtlPortals::get(int initiator, int peer_rank, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) {
  counters_.add(PortalsStat::RdmaGets);
  const std::uint64_t gid = next_++;
  GetOp& g = gets_[gid];
  g = GetOp{{GetState::Idle, initiator, peer_rank, bytes, std::move(done)}, local};
  g.state = step(g.state, GetEvent::Start);
  // The peer's exposed buffer (its PtlMEAttach + PtlMDAttach were priced when it sent the RGET fragment).
  Nic& pn = ss_.nic(peer_rank);
  MeId me = pn.me_attach(kRdmaTable, seastar::SeaStar::pid(initiator), gid, 0, UnlinkOp::Unlink, InsertPos::After);
  Md exposed;
  exposed.start = remote.addr;
  exposed.length = bytes;
  exposed.threshold = 1;
  exposed.options.op_get = exposed.options.event_start_disable = true;
  exposed.eq = ss_.eq(peer_rank, client_);
  exposed.user_ptr = kExposedPtr;
  pn.md_attach(me, exposed, UnlinkOp::Unlink);
  ss_.calls(initiator, 2, [this, gid] { on_get_posted(gid); });  // PtlMDBind + PtlGet
}

void BtlPortals::on_get_posted(std::uint64_t gid) {
  GetOp& g = gets_.at(gid);
  g.state = step(g.state, GetEvent::Posted);
  Md md;
  md.start = g.local.addr;
  md.length = g.bytes;
  md.threshold = 1;
  md.options.event_start_disable = true;
  md.eq = ss_.eq(g.initiator, client_);
  md.user_ptr = gid;
  MdId h = ss_.nic(g.initiator).md_bind(md, UnlinkOp::Unlink);
  ss_.get(g.initiator, h, g.peer, kRdmaTable, gid);
}

void BtlPortals::on_reply_end(std::uint64_t gid) {
  GetOp& g = gets_.at(gid);
  g.state = step(g.state, GetEvent::ReplyEnd);
  cpus_.cpu(g.initiator, ss_.params().eq_poll_cost, [this, gid] { on_reply_end_read(gid); },
            "mca_btl_portals_component_progress (PtlEQGet)");
}

void BtlPortals::on_reply_end_read(std::uint64_t gid) {
  auto it = gets_.find(gid);
  it->second.state = step(it->second.state, GetEvent::ReplyEndRead);
  Completion d = std::move(it->second.done);
  gets_.erase(it);
  if (d) d();
}

// Progress reads every event of the module's queues (PtlEQGet), each at eq_poll_cost; the events that move a record
// go to its step.
void BtlPortals::on_event(int rank, const Event& e) {
  const double poll = ss_.params().eq_poll_cost;
  const char* what = "mca_btl_portals_component_progress (PtlEQGet)";
  if (e.user_ptr == kRecvBlockPtr) {
    if (e.kind == EventKind::Unlink) {
      ss_.calls(rank, 2, [this, rank] { post_block(rank); });
      return;
    }
    counters_.add(PortalsStat::RecvEvents);
    if (e.kind == EventKind::PutStart) {  // the block's pending count goes up (btl_portals_component.c progress)
      cpus_.cpu(rank, poll, [] {}, what);
      return;
    }
    if (e.kind == EventKind::PutEnd) on_put_end(e.hdr_data);
    return;
  }
  if (e.user_ptr == kExposedPtr) {  // GET_END at the exposing side
    cpus_.cpu(rank, poll, [] {}, what);
    return;
  }
  if (e.kind == EventKind::ReplyEnd) return on_reply_end(e.user_ptr);
  // A send fragment's completion: its ACK (needs_ack) or its SEND_END (no ACKs). user_ptr is the fragment id. A
  // SEND_END read while an ACK is awaited (btl_portals_send_end_event) only costs its poll.
  const EventKind completes = mca_.btl_portals_needs_ack.get() != 0 ? EventKind::Ack : EventKind::SendEnd;
  const bool frag = sends_.count(e.user_ptr) != 0;
  if ((e.kind == EventKind::Ack || e.kind == EventKind::SendEnd) && frag) counters_.add(PortalsStat::SendEvents);
  if (e.kind == completes && frag) return on_completion_event(e.user_ptr);
  cpus_.cpu(rank, poll, [] {}, what);  // UNLINK of a used MD: read and dropped
}

void BtlPortals::add_counters(std::map<std::string, std::uint64_t>& c) const {
  counters_.report(c);
  ss_.add_counters(c);
}

}  // namespace ompisim::btl::portals
