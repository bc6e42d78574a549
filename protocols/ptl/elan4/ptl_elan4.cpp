#include "protocols/ptl/elan4/ptl_elan4.hpp"

#include <stdexcept>

namespace ompisim::ptl::elan4 {

namespace {
constexpr std::uint32_t kHeaderBytes = 64;      // the match header (paper §6.3)
constexpr std::uint32_t kCompletionBytes = 16;  // a completion-queue entry
}  // namespace

PtlElan4::PtlElan4(const PlatformParts& parts, qsnet::Elan4& nic, const PtlElan4Mca& mca)
    : sim_(parts.sim), cpus_(parts.cpus), nic_(nic), p_(nic.params()), sw_(qsnet::nic(parts.machine).software),
      plan_(ProgressPlan::make(static_cast<int>(mca.ptl_elan4_progress.value),
                               static_cast<int>(mca.ptl_elan4_completion_queue.value))),
      read_(mca.ptl_elan4_rdma.value == 0), inline_(mca.ptl_elan4_inline.value != 0),
      chained_(mca.ptl_elan4_chained.value != 0), datatype_(mca.ptl_elan4_datatype.value != 0),
      cq_qdma_(mca.ptl_elan4_cq_qdma.value != 0),
      first_frag_(static_cast<std::uint64_t>(mca.ptl_elan4_first_frag_size.value)) {
  if (first_frag_ + kHeaderBytes > static_cast<std::uint64_t>(p_.qdma_slot_bytes.value))
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
  qdescs_.assign(static_cast<std::size_t>(parts.contexts.ranks()), DescPool(static_cast<int>(mca.ptl_elan4_num_qdescs.value)));
  putget_.assign(static_cast<std::size_t>(parts.contexts.ranks()), DescPool(static_cast<int>(mca.ptl_elan4_num_putget.value)));
  nic_.on_stored = [this](int rank, int q) { on_stored(rank, q); };
}

void PtlElan4::take(std::vector<DescPool>& pool, int rank, std::function<void()> work) {
  if (pool.at(static_cast<std::size_t>(rank)).take(std::move(work))) counters_.add(PtlStat::DescWaits);
}

double PtlElan4::request_overhead() const { return datatype_ ? sw_.datatype_engine_overhead.value : 0.0; }

int PtlElan4::context(int rank, int waiter) const {
  if (waiter == 0) return rank;
  return thread_ctx_.at(static_cast<std::size_t>(rank * plan_.threads() + waiter - 1));
}

std::uint64_t PtlElan4::put_item(Item it) {
  std::uint64_t id = next_item_++;
  items_.emplace(id, std::move(it));
  return id;
}

void PtlElan4::send(int ctx, const MatchHeader& h) {
  take(qdescs_, h.src, [this, ctx, h] { start_first(ctx, h); });
}

void PtlElan4::start_first(int ctx, const MatchHeader& h) {
  counters_.add(h.rendezvous ? PtlStat::Rendezvous : PtlStat::Eager);
  std::uint64_t id = put_item({Kind::First, h, 0});
  const int rank = h.src;
  // Copy the inline data into a preallocated 2 KB send buffer, write the QDMA descriptor.
  cpus_.cpu_copy(ctx, static_cast<double>(h.inline_bytes), [this, ctx, h, id, rank] {
    cpus_.cpu(ctx, sw_.ptl_elan4_overhead + p_.cmd_issue_cost, [this, ctx, h, id, rank] {
      const auto bytes = kHeaderBytes + static_cast<std::uint32_t>(h.inline_bytes);
      // An eager fragment's descriptor is free again once its QDMA completed (mca_ptl_elan_send_desc_done); a
      // rendezvous keeps it until it is answered (handle: FIN_ACK, ACK).
      auto free_desc = [this, rank, eager = !h.rendezvous](Callback then) -> Callback {
        return [this, rank, eager, then = std::move(then)] {
          if (eager) qdescs_[static_cast<std::size_t>(rank)].give_back();
          if (then) then();
        };
      };
      if (cq_qdma_ && plan_.completion_queue() >= 0) {
        // ptl_elan4_cq_qdma on: the QDMA's source event copies a completion QDMA into the completion queue; the send
        // request progresses when that entry is handled (mca_ptl_elan_send_desc_done): an eager send completes then.
        nic_.qdma(rank, h.dst, 0, bytes, id, free_desc(report_completion(rank, put_item({Kind::SendDone, h, 0}))));
        return;
      }
      nic_.qdma(rank, h.dst, 0, bytes, id, free_desc({}));
      if (!h.rendezvous) pml->send_progress(ctx, rank, h.send_req, h.msg_bytes);  // buffered: complete
    }, "mca_ptl_elan4_send (QDMA)");
  });
}

Callback PtlElan4::report_completion(int rank, std::uint64_t item) {
  const int cq = plan_.completion_queue();
  return [this, rank, cq, item] {
    // The descriptor's source event fires on the NIC, which then issues the chained QDMA (no host).
    sim_.after(p_.event_fire_cost, [this, rank, cq, item] {
      counters_.add(PtlStat::CqEntries);
      nic_.qdma(rank, rank, cq, kCompletionBytes, item);
    });
  };
}

void PtlElan4::control(int from, int to, Kind k, const MatchHeader& h, std::uint64_t req, bool by_host) {
  if (k == Kind::Ack) counters_.add(PtlStat::Acks);
  if (k == Kind::Fin) counters_.add(PtlStat::Fins);
  if (k == Kind::FinAck) counters_.add(PtlStat::FinAcks);
  Callback done;
  if (by_host && cq_qdma_ && plan_.completion_queue() >= 0) done = report_completion(from, put_item({Kind::CtrlDone, h, 0}));
  nic_.qdma(from, to, 0, kHeaderBytes, put_item({k, h, req}), std::move(done));
}

void PtlElan4::matched(int ctx, const MatchHeader& h, std::uint64_t recv_req) {
  const int rank = h.dst;
  if (read_) {
    take(putget_, rank, [this, ctx, rank, h, recv_req] { start_rdma(ctx, rank, h, recv_req, true); });
    return;
  }
  // RDMA write: acknowledge with the receive buffer's E4_Addr; the sender writes.
  cpus_.cpu(ctx, sw_.ptl_elan4_overhead + p_.cmd_issue_cost,
         [this, rank, h, recv_req] { control(rank, h.src, Kind::Ack, h, recv_req); }, "mca_ptl_elan4 rdma");
}

void PtlElan4::start_rdma(int ctx, int rank, const MatchHeader& h, std::uint64_t req, bool read) {
  // req: the receive request (read, at the receiver) or the receive request named by the ACK (write, at the sender).
  cpus_.cpu(ctx, sw_.ptl_elan4_overhead + p_.cmd_issue_cost, [this, rank, h, req, read] {
    const std::uint64_t rest = h.msg_bytes - h.inline_bytes;
    const int peer = read ? h.src : h.dst;
    const int cq = plan_.completion_queue();
    // What the initiator learns when the RDMA is done: its own request to progress.
    Item done{Kind::RdmaDone, h, read ? req : h.send_req};
    std::uint64_t done_id = put_item(done);
    Callback host;
    if (cq < 0) host = [this, rank, done_id] { notice(rank, plan_.waiter_for_event(), done_id, -1); };
    auto ev = nic_.new_event(1, std::move(host));
    // The chained control message is part of the RDMA's descriptor: the RDMA's completion entry stands for both.
    if (chained_) {
      if (read) nic_.chain(ev, [this, rank, peer, h] { control(rank, peer, Kind::FinAck, h, h.send_req, false); });
      else nic_.chain(ev, [this, rank, peer, h, req] { control(rank, peer, Kind::Fin, h, req, false); });
    }
    if (cq >= 0)
      nic_.chain(ev, [this, rank, cq, done_id] {
        counters_.add(PtlStat::CqEntries);
        nic_.qdma(rank, rank, cq, kCompletionBytes, done_id);
      });
    if (read) nic_.rdma_read(rank, peer, rest, ev);
    else nic_.rdma_write(rank, peer, rest, ev);
  }, "mca_ptl_elan4_get (RDMA read)");
}

void PtlElan4::on_stored(int rank, int q) { notice(rank, plan_.waiter_for_queue(q), 0, q); }

void PtlElan4::notice(int rank, int waiter, std::uint64_t item, int q) {
  const int ctx = context(rank, waiter);
  const bool blocked = plan_.blocked(sim_.now(), cpus_.cpu_free_at(ctx), p_.event_spin_time, q >= 0);
  // A poll reads every queue event the waiter watches (two with a separate completion queue) before it finds this one.
  double cost = blocked ? p_.host_interrupt_cost : p_.host_event_poll_cost * plan_.queues_polled(waiter);
  counters_.add(blocked ? PtlStat::Interrupts : PtlStat::Polls);
  cpus_.cpu(ctx, cost + sw_.ptl_elan4_overhead, [this, ctx, rank, item, q] {
    std::uint64_t id = item;
    if (q >= 0) id = nic_.queue(rank, q).pop().payload;  // the oldest slot of that queue, freed now
    auto it = items_.find(id);
    if (it == items_.end()) throw std::logic_error("ptl/elan4: unknown fragment");
    Item x = std::move(it->second);
    items_.erase(it);
    handle(ctx, rank, std::move(x));
  }, "mca_ptl_elan4 progress (QDMA)");
}

void PtlElan4::handle(int ctx, int rank, Item it) {
  switch (it.kind) {
    case Kind::First:
      pml->match(ctx, rank, it.h);
      return;
    case Kind::Ack:  // at the sender (write scheme): the rendezvous is answered; write the rest into the receive buffer
      qdescs_[static_cast<std::size_t>(rank)].give_back();
      take(putget_, rank, [this, ctx, rank, it] { start_rdma(ctx, rank, it.h, it.req, false); });
      return;
    case Kind::Fin:  // at the receiver (write scheme): the data is there
      pml->recv_progress(ctx, rank, it.req, it.h.msg_bytes - it.h.inline_bytes);
      return;
    case Kind::FinAck:  // at the sender (read scheme): rendezvous acknowledged and data taken
      qdescs_[static_cast<std::size_t>(rank)].give_back();  // mca_ptl_elan_last_frag_ack
      pml->send_progress(ctx, rank, it.req, it.h.msg_bytes);
      return;
    case Kind::RdmaDone:
      rdma_done(ctx, rank, it);
      return;
    case Kind::SendDone:  // mca_ptl_elan_send_desc_done: the fragment's bytes are sent (an eager send is complete)
      if (!it.h.rendezvous) pml->send_progress(ctx, rank, it.h.send_req, it.h.msg_bytes);
      return;
    case Kind::CtrlDone:  // the control message's descriptor returns to its free list
      return;
  }
}

void PtlElan4::rdma_done(int ctx, int rank, const Item& it) {
  counters_.add(PtlStat::RdmaCompletions);
  putget_[static_cast<std::size_t>(rank)].give_back();  // the host saw it: mca_ptl_elan_send_desc_done
  const bool at_receiver = rank == it.h.dst;  // read: the receiver initiated; write: the sender did
  auto progress = [this, ctx, rank, it, at_receiver] {
    if (at_receiver) pml->recv_progress(ctx, rank, it.req, it.h.msg_bytes - it.h.inline_bytes);
    else pml->send_progress(ctx, rank, it.req, it.h.msg_bytes);
  };
  if (chained_) {
    progress();
    return;
  }
  // Not chained: the host sends the control message itself once it has seen the completion.
  cpus_.cpu(ctx, p_.cmd_issue_cost, [this, rank, it, at_receiver, progress] {
    if (at_receiver) control(rank, it.h.src, Kind::FinAck, it.h, it.h.send_req);
    else control(rank, it.h.dst, Kind::Fin, it.h, it.req);
    progress();
  }, "elan4 command issue");
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
