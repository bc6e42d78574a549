#include "protocols/native/qsnet/mpich_qsnet.hpp"

namespace ompisim::native {

namespace {
constexpr std::uint32_t kEnvelopeBytes = 32;  // MPICH-QsNetII's header (paper §6.5)
}

MpichQsnet::MpichQsnet(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric,
                       const MpichQsnetMca& mca, std::string name)
    : sim_(sim), ctx_(contexts), cpus_(cpus), fabric_(fabric), nic_(sim, contexts, fabric), p_(nic_.params()),
      overhead_(qsnet::nic(fabric.network()).software.mpich_qsnet_overhead),
      eager_rate_(qsnet::nic(fabric.network()).software.mpich_qsnet_eager_rate),
      eager_limit_(static_cast<std::uint64_t>(mca.mpich_qsnet_eager_limit.value)), name_(std::move(name)),
      lib_(contexts.ranks()) {
  if (eager_limit_ + kEnvelopeBytes > static_cast<std::uint64_t>(p_.qdma_slot_bytes.value))
    throw std::invalid_argument("mpich_qsnet_eager_limit + the 32-byte envelope exceeds one 2 KB packet");
}

StackStats MpichQsnet::stats() const {
  StackStats s;
  lib_.report(s);
  counters_.report(s.counters);
  nic_.add_counters(s.counters);
  return s;
}

void MpichQsnet::start_send(const mpi::P2P& m, Completion done) {
  const mpi::RequestId sid = lib_.new_send(m, std::move(done)).first;
  const int rank = m.rank, dst = m.peer;
  const std::uint64_t bytes = m.bytes();
  const std::uint32_t ctx = m.comm.context_id;
  std::uint32_t seq = lib_.next_send_seq(rank, ctx, dst);
  Env e{rank, m.tag, ctx, bytes, sid, bytes > eager_limit_};
  counters_.add(e.big ? QsnetStat::Big : QsnetStat::Eager);
  // Tport's inline path: its per-byte cost (a fitted black-box cost, machine file) on the sender's host at post.
  const double inline_bytes = e.big ? 0.0 : static_cast<double>(bytes) / eager_rate_;
  cpus_.cpu(rank, overhead_ + inline_bytes + p_.cmd_issue_cost, [this, rank, dst, seq, e] {
    auto wire = static_cast<std::uint32_t>(kEnvelopeBytes + (e.big ? 0 : e.bytes));
    double start = nic_.bus(ctx_.node_of(rank), ctx_.node_of(dst), nic_.command(ctx_.node_of(rank)), wire);
    double t_arrive = start + nic_.wire(rank, dst, wire);
    sim_.at(t_arrive, [this, dst, seq, e] { arrive(dst, seq, e); });
    if (!e.big)  // the target NIC acknowledges the packet: the send is complete
      sim_.at(t_arrive + fabric_.path(ctx_.node_of(dst), ctx_.node_of(rank)).latency, [this, rank, sid = e.sid] {
        cpus_.cpu(rank, p_.host_event_poll_cost, [this, sid] { lib_.complete_send(sid); }, "MPICH-QsNet send complete");
      });
  }, "MPICH-QsNet isend");
}

void MpichQsnet::start_recv(const mpi::P2P& m, Completion done) {
  const mpi::RequestId rid = lib_.new_recv(m, std::move(done)).first;
  const int rank = m.rank, src = m.peer, tag = m.tag;
  const std::uint32_t ctx = m.comm.context_id;
  // The host looks in its unexpected list, else hands the receive to the NIC's posted list.
  cpus_.cpu(rank, overhead_ + p_.cmd_issue_cost, [this, rank, ctx, src, tag, rid] {
    if (auto e = lib_.post(rank, ctx, mpi::Posted{src, tag, rid})) deliver(rank, rid, *e, true);
  }, "MPICH-QsNet irecv");
}

void MpichQsnet::arrive(int dst, std::uint32_t seq, const Env& e) {
  // Tport on the thread processor: the envelope is compared with the posted receives.
  auto walked = static_cast<double>(lib_.rank(dst).posted_size());
  double t = nic_.thread_processor(ctx_.node_of(dst), p_.thread_proc_cost + walked * p_.thread_proc_match_cost);
  sim_.at(t, [this, dst, seq, e] {
    std::vector<Env> unexpected;
    auto m = lib_.arrive(dst, e.ctx, seq, e, &unexpected);
    counters_.add(QsnetStat::Unexpected, unexpected.size());
    for (auto& x : m) deliver(dst, x.recv.rid, x.msg, false);
  });
}

void MpichQsnet::deliver(int dst, mpi::RequestId rid, const Env& e, bool host_copy) {
  lib_.matched(lib_.recv(rid), e.src, e.tag, e.bytes);
  if (!e.big) {
    // The NIC put the data in the user buffer (matched on arrival), or it waits in the host's unexpected buffer.
    double copy = host_copy ? static_cast<double>(e.bytes) : 0.0;
    cpus_.cpu_copy(dst, copy, [this, dst, rid] { host_done(dst, rid); });
    return;
  }
  // Rendezvous served by the receiver's thread processor: pull the data, then tell the sender's NIC.
  double t = nic_.thread_processor(ctx_.node_of(dst), p_.thread_proc_cost);
  sim_.at(t, [this, dst, rid, e] {
    auto ev = nic_.new_event(1, [this, dst, rid, e] {
      host_done(dst, rid);
      sim_.after(nic_.wire(dst, e.src, kEnvelopeBytes), [this, e] {
        cpus_.cpu(e.src, p_.host_event_poll_cost, [this, sid = e.sid] { lib_.complete_send(sid); }, "MPICH-QsNet send complete");
      });
    });
    nic_.rdma_read(dst, e.src, e.bytes, ev);
  });
}

void MpichQsnet::host_done(int rank, mpi::RequestId rid) {
  cpus_.cpu(rank, p_.host_event_poll_cost + overhead_, [this, rid] { lib_.complete_recv(rid); }, "MPICH-QsNet recv complete");
}

}  // namespace ompisim::native
