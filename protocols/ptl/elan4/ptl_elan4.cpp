#include "protocols/ptl/elan4/ptl_elan4.hpp"

#include "core/errors.hpp"

#include <fmt/format.h>
#include <stdexcept>
#include <utility>

namespace ompisim::ptl::elan4 {

namespace {
constexpr std::uint32_t kHeaderBytes = 64;      // the match header (paper §6.3)
constexpr std::uint32_t kCompletionBytes = 16;  // a completion-queue entry
}  // namespace

void check_mca(const PtlElan4Mca& mca, const Machine& m) {
  try {
    (void)ProgressPlan::make(static_cast<int>(mca.ptl_elan4_progress.get()),
                             static_cast<int>(mca.ptl_elan4_completion_queue.get()));
  } catch (const std::invalid_argument& e) {
    throw InputError("", "mca.ptl_elan4_completion_queue", e.what());
  }
  const auto slot = static_cast<std::uint64_t>(qsnet::nic(m).p.qdma_slot_bytes.get());
  if (static_cast<std::uint64_t>(mca.ptl_elan4_first_frag_size.get()) + kHeaderBytes > slot)
    throw InputError("", "mca.ptl_elan4_first_frag_size",
                     fmt::format("{} B + the 64-byte header exceeds a QDMA slot (nic.qdma_slot_bytes of machine {}: {} B)",
                                 mca.ptl_elan4_first_frag_size.get(), m.name, slot));
}

PtlElan4::PtlElan4(const PlatformParts& parts, qsnet::Elan4& nic, const PtlElan4Mca& mca)
    : sim_(parts.sim), cpus_(parts.cpus), nic_(nic), p_(nic.params()), sw_(qsnet::nic(parts.machine).software),
      plan_(ProgressPlan::make(static_cast<int>(mca.ptl_elan4_progress.get()),
                               static_cast<int>(mca.ptl_elan4_completion_queue.get()))),
      read_(mca.ptl_elan4_rdma.get() == 0), inline_(mca.ptl_elan4_inline.get() != 0),
      chained_(mca.ptl_elan4_chained.get() != 0), datatype_(mca.ptl_elan4_datatype.get() != 0),
      cq_qdma_(mca.ptl_elan4_cq_qdma.get() != 0),
      first_frag_(static_cast<std::uint64_t>(mca.ptl_elan4_first_frag_size.get())) {
  if (first_frag_ + kHeaderBytes > static_cast<std::uint64_t>(p_.qdma_slot_bytes.get()))
    throw std::invalid_argument("ptl_elan4_first_frag_size + the 64-byte header exceeds a QDMA slot");
  const int threads = plan_.threads();
  if (threads) {
    const Contexts& contexts = parts.contexts;
    thread_ctx_.reserve(static_cast<std::size_t>(contexts.ranks() * threads));
    for (int r = 0; r < contexts.ranks(); ++r) {
      const int cores = contexts.node_type(r).cores();
      for (int t = 0; t < threads; ++t)  // on the node's next core after the rank's (dual Xeon: the other CPU)
        thread_ctx_.push_back(parts.add_progress_thread(r, (contexts.core_of(r) + 1) % cores));
    }
  }
  qdescs_.assign(static_cast<std::size_t>(parts.contexts.ranks()), DescPool(static_cast<int>(mca.ptl_elan4_num_qdescs.get())));
  putget_.assign(static_cast<std::size_t>(parts.contexts.ranks()), DescPool(static_cast<int>(mca.ptl_elan4_num_putget.get())));
  nic_.on_stored = [this](int rank, int q) { on_stored(rank, q); };
}

void PtlElan4::take(std::vector<DescPool>& p, int rank, std::function<void()> work) {
  if (pool(p, rank).take(std::move(work))) counters_.add(PtlStat::DescWaits);
}

double PtlElan4::request_overhead() const { return datatype_ ? sw_.datatype_engine_overhead.get() : 0.0; }

int PtlElan4::context(int rank, int waiter) const {
  if (waiter == 0) return rank;
  return thread_ctx_.at(static_cast<std::size_t>(rank * plan_.threads() + waiter - 1));
}

// Send fragment: AWAIT_QDESC -> COPYING -> ISSUING -> EAGER_SENT(_CQ) / AWAIT_ANSWER -> ... (elan4_frag.hpp).
void PtlElan4::send(int ctx, const MatchHeader& h) {
  const std::uint32_t id = sends_.create(SendState::Idle, ctx, h);
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::Start);
  take(qdescs_, h.src, [this, id] { on_qdesc(id); });
}

void PtlElan4::on_qdesc(std::uint32_t id) {
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::QdescReady);
  counters_.add(s.h.rendezvous ? PtlStat::Rendezvous : PtlStat::Eager);
  // Copy the inline data into a preallocated 2 KB send buffer, then write the QDMA descriptor.
  cpus_.cpu_copy(s.ctx, static_cast<double>(s.h.inline_bytes), [this, id] { on_copied(id); });
}

void PtlElan4::on_copied(std::uint32_t id) {
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::Copied);
  issue(s.ctx, [this, id] { on_first_issued(id); }, "mca_ptl_elan4_send (QDMA)");
}

void PtlElan4::on_first_issued(std::uint32_t id) {
  SendFrag& s = sends_[id];
  const MatchHeader h = s.h;
  const int rank = h.src, ctx = s.ctx;
  const bool report_qdma = cq_qdma_ && plan_.completion_queue() >= 0;
  s.state = step(s.state, !h.rendezvous ? report_qdma ? SendEvent::IssuedEagerCq : SendEvent::IssuedEager
                                        : SendEvent::IssuedRendezvous);
  const std::uint32_t rid = recvs_.create(RecvState::Idle, h, std::uint64_t{0}, id);
  RecvFrag& r = recvs_[rid];
  r.h.ptl_frag = rid;
  r.state = step(r.state, RecvEvent::Issued);
  s.recv_frag = rid;
  const auto bytes = kHeaderBytes + static_cast<std::uint32_t>(h.inline_bytes);
  const std::uint64_t first = entry_payload(Entry::First, rid);
  // An eager fragment's descriptor is free again once its QDMA completed (mca_ptl_elan_send_desc_done); a rendezvous
  // keeps it until it is answered (on_fin_ack, on_ack). ptl_elan4_cq_qdma on: the QDMA's source event copies a
  // completion QDMA into the completion queue, and an eager send request completes when that entry is handled.
  if (!h.rendezvous) {
    nic_.qdma(rank, h.dst, 0, bytes, first, [this, id] { on_qdma_done(id); });
    if (!report_qdma) pml->send_progress(ctx, rank, h.send_req, h.msg_bytes);  // buffered: complete
    return;
  }
  if (report_qdma)
    nic_.qdma(rank, h.dst, 0, bytes, first, [this, rank] { report(rank, entry_payload(Entry::DescReport, 0)); });
  else
    nic_.qdma(rank, h.dst, 0, bytes, first, [] {});  // the source NIC learns the QDMA completed: nothing to do
}

void PtlElan4::on_qdma_done(std::uint32_t id) {
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::QdmaDone);
  const int rank = s.h.src;
  const bool reported = s.state == SendState::AwaitCqEntry;  // else COMPLETE: the send completed when issued
  if (!reported) sends_.erase(id);
  pool(qdescs_, rank).give_back();
  if (reported) report(rank, entry_payload(Entry::SendDone, id));
}

void PtlElan4::on_cq_entry(int ctx, std::uint32_t id) {  // mca_ptl_elan_send_desc_done: an eager send is complete
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::CqEntry);
  const MatchHeader h = s.h;
  sends_.erase(id);
  pml->send_progress(ctx, h.src, h.send_req, h.msg_bytes);
}

void PtlElan4::on_fin_ack(int ctx, std::uint32_t id) {  // rendezvous acknowledged and data taken
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::FinAckArrived);
  const MatchHeader h = s.h;
  sends_.erase(id);
  pool(qdescs_, h.src).give_back();  // mca_ptl_elan_last_frag_ack
  pml->send_progress(ctx, h.src, h.send_req, h.msg_bytes);
}

// The rendezvous is answered: write the rest into the receive buffer.
void PtlElan4::on_ack(int ctx, std::uint32_t id) {
  SendFrag& s = sends_[id];
  s.state = step(s.state, SendEvent::AckArrived);
  const MatchHeader h = s.h;
  const std::uint32_t recv_frag = s.recv_frag;
  sends_.erase(id);
  pool(qdescs_, h.src).give_back();
  start_rdma(rdmas_.create(RdmaState::Idle, false, ctx, h.src, h, h.send_req, recv_frag));
}

// Receive fragment: IN_FLIGHT -> COMPLETE (eager) or AWAIT_MATCH -> ... (elan4_frag.hpp).
void PtlElan4::on_first(int ctx, std::uint32_t id) {
  RecvFrag& r = recvs_[id];
  const MatchHeader h = r.h;
  r.state = step(r.state, h.rendezvous ? RecvEvent::ArrivedRendezvous : RecvEvent::ArrivedEager);
  if (r.state == RecvState::Complete) recvs_.erase(id);
  pml->match(ctx, h.dst, h);  // a rendezvous comes back in matched() with h.ptl_frag
}

void PtlElan4::matched(int ctx, const MatchHeader& h, std::uint64_t recv_req) {
  const auto id = static_cast<std::uint32_t>(h.ptl_frag);
  RecvFrag& r = recvs_[id];
  r.recv_req = recv_req;
  if (read_) {
    r.state = step(r.state, RecvEvent::MatchedRead);
    const std::uint32_t send_frag = r.send_frag;
    recvs_.erase(id);
    start_rdma(rdmas_.create(RdmaState::Idle, true, ctx, h.dst, h, recv_req, send_frag));
    return;
  }
  // RDMA write: acknowledge with the receive buffer's E4_Addr; the sender writes.
  r.state = step(r.state, RecvEvent::MatchedWrite);
  issue(ctx, [this, id] { on_ack_issued(id); }, "mca_ptl_elan4 rdma");
}

void PtlElan4::on_ack_issued(std::uint32_t id) {
  RecvFrag& r = recvs_[id];
  r.state = step(r.state, RecvEvent::AckIssued);
  control(r.h.dst, r.h.src, Entry::Ack, r.send_frag, true);
}

void PtlElan4::on_fin(int ctx, std::uint32_t id) {  // the written data is there
  RecvFrag& r = recvs_[id];
  r.state = step(r.state, RecvEvent::FinArrived);
  const MatchHeader h = r.h;
  const std::uint64_t req = r.recv_req;
  recvs_.erase(id);
  pml->recv_progress(ctx, h.dst, req, h.msg_bytes - h.inline_bytes);
}

// One command written by the PTL (a QDMA descriptor, an RDMA, the write scheme's ACK): the PTL's own overhead and the
// Elan4's command issue on context `ctx`, then fn.
void PtlElan4::issue(int ctx, Callback fn, const char* what) {
  cpus_.cpu(ctx, sw_.ptl_elan4_overhead + p_.cmd_issue_cost, std::move(fn), what);
}

// RDMA operation: AWAIT_PUTGET -> ISSUING -> IN_FLIGHT -> COMPLETE, or ISSUING_CONTROL first (elan4_frag.hpp).
void PtlElan4::start_rdma(std::uint32_t id) {
  RdmaOp& o = rdmas_[id];
  o.state = step(o.state, RdmaEvent::Start);
  take(putget_, o.rank, [this, id] { on_putget(id); });
}

void PtlElan4::on_putget(std::uint32_t id) {
  RdmaOp& o = rdmas_[id];
  o.state = step(o.state, RdmaEvent::PutgetReady);
  issue(o.ctx, [this, id] { on_rdma_issued(id); }, "mca_ptl_elan4_get (RDMA read)");
}

void PtlElan4::on_rdma_issued(std::uint32_t id) {
  RdmaOp& o = rdmas_[id];
  o.state = step(o.state, RdmaEvent::Issued);
  const std::uint64_t rest = o.h.msg_bytes - o.h.inline_bytes;
  const int rank = o.rank, peer = o.read ? o.h.src : o.h.dst;
  const int cq = plan_.completion_queue();
  const std::uint64_t done = entry_payload(Entry::RdmaDone, id);
  Callback host;
  if (cq < 0) host = [this, rank, done] { notice(rank, plan_.waiter_for_event(), done, -1); };
  auto ev = nic_.new_event(1, std::move(host));
  // The chained control message is part of the RDMA's descriptor: the RDMA's completion entry stands for both.
  if (chained_) {
    const Entry k = o.read ? Entry::FinAck : Entry::Fin;
    nic_.chain(ev, [this, rank, peer, k, answers = o.peer_frag] { control(rank, peer, k, answers, false); });
  }
  if (cq >= 0)
    nic_.chain(ev, [this, rank, cq, done] {
      counters_.add(PtlStat::CqEntries);
      nic_.qdma(rank, rank, cq, kCompletionBytes, done);
    });
  if (o.read) nic_.rdma_read(rank, peer, rest, ev);
  else nic_.rdma_write(rank, peer, rest, ev);
}

void PtlElan4::on_rdma_done(int ctx, std::uint32_t id) {
  RdmaOp& o = rdmas_[id];
  o.state = step(o.state, chained_ ? RdmaEvent::DoneChained : RdmaEvent::DoneUnchained);
  counters_.add(PtlStat::RdmaCompletions);
  const RdmaOp done = o;
  if (chained_) rdmas_.erase(id);
  pool(putget_, done.rank).give_back();  // the host saw it: mca_ptl_elan_send_desc_done
  if (chained_) return rdma_progress(ctx, done);
  // Not chained: the host sends the control message itself once it has seen the completion.
  cpus_.cpu(ctx, p_.cmd_issue_cost, [this, ctx, id] { on_control_issued(ctx, id); }, "elan4 command issue");
}

void PtlElan4::on_control_issued(int ctx, std::uint32_t id) {
  RdmaOp& o = rdmas_[id];
  o.state = step(o.state, RdmaEvent::ControlIssued);
  const RdmaOp done = o;
  rdmas_.erase(id);
  if (done.read) control(done.rank, done.h.src, Entry::FinAck, done.peer_frag, true);
  else control(done.rank, done.h.dst, Entry::Fin, done.peer_frag, true);
  rdma_progress(ctx, done);
}

void PtlElan4::rdma_progress(int ctx, const RdmaOp& o) {
  if (o.read) pml->recv_progress(ctx, o.rank, o.req, o.h.msg_bytes - o.h.inline_bytes);
  else pml->send_progress(ctx, o.rank, o.req, o.h.msg_bytes);
}

void PtlElan4::report(int rank, std::uint64_t payload) {
  const int cq = plan_.completion_queue();
  // The descriptor's source event fires on the NIC, which then issues the chained QDMA (no host).
  sim_.after(p_.event_fire_cost, [this, rank, cq, payload] {
    counters_.add(PtlStat::CqEntries);
    nic_.qdma(rank, rank, cq, kCompletionBytes, payload);
  });
}

void PtlElan4::control(int from, int to, Entry k, std::uint32_t record, bool by_host) {
  if (k == Entry::Ack) counters_.add(PtlStat::Acks);
  if (k == Entry::Fin) counters_.add(PtlStat::Fins);
  if (k == Entry::FinAck) counters_.add(PtlStat::FinAcks);
  Callback done;
  if (by_host && cq_qdma_ && plan_.completion_queue() >= 0)
    done = [this, from] { report(from, entry_payload(Entry::DescReport, 0)); };
  nic_.qdma(from, to, 0, kHeaderBytes, entry_payload(k, record), std::move(done));
}

void PtlElan4::on_stored(int rank, int q) { notice(rank, plan_.waiter_for_queue(q), 0, q); }

void PtlElan4::notice(int rank, int waiter, std::uint64_t payload, int q) {
  const int ctx = context(rank, waiter);
  const bool blocked = plan_.blocked(sim_.now(), cpus_.cpu_free_at(ctx), p_.event_spin_time, q >= 0);
  // A poll reads every queue event the waiter watches (two with a separate completion queue) before it finds this one.
  double cost = blocked ? p_.host_interrupt_cost : p_.host_event_poll_cost * plan_.queues_polled(waiter);
  counters_.add(blocked ? PtlStat::Interrupts : PtlStat::Polls);
  cpus_.cpu(ctx, cost + sw_.ptl_elan4_overhead, [this, ctx, rank, payload, q] {
    // A queue's oldest slot, freed now; else the RDMA whose host event was seen.
    dispatch(ctx, q >= 0 ? nic_.queue(rank, q).pop().payload : payload);
  }, "mca_ptl_elan4 progress (QDMA)");
}

void PtlElan4::dispatch(int ctx, std::uint64_t payload) {
  const std::uint32_t id = entry_record(payload);
  switch (entry_kind(payload)) {
    case Entry::First: return on_first(ctx, id);
    case Entry::Ack: return on_ack(ctx, id);
    case Entry::FinAck: return on_fin_ack(ctx, id);
    case Entry::Fin: return on_fin(ctx, id);
    case Entry::RdmaDone: return on_rdma_done(ctx, id);
    case Entry::SendDone: return on_cq_entry(ctx, id);
    case Entry::DescReport: return;  // the descriptor returns to its free list
  }
  throw ProtocolError("ptl/elan4 queue entry", "handled", "unknown kind");
}

void PtlElan4::complete_user(int ctx, int rank, std::function<void()> done) {
  if (ctx == rank) {
    if (done) done();
    return;
  }
  counters_.add(PtlStat::Handoffs);  // the progress thread signals the main thread, which wakes in MPI_Wait
  cpus_.cpu(rank, sw_.thread_handoff_cost, std::move(done), "ptl_elan4 thread handoff");
}

void PtlElan4::add_counters(std::map<std::string, std::uint64_t>& c) const {
  auto own = counters_;
  own.set(PtlStat::ContextSwitches, cpus_.context_switches);
  own.report(c);
  nic_.add_counters(c);
}

}  // namespace ompisim::ptl::elan4
