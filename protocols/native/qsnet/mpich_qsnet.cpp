#include "protocols/native/qsnet/mpich_qsnet.hpp"

#include "core/errors.hpp"
#include "protocols/base/send_record.hpp"

#include <fmt/format.h>

namespace ompisim::native {

namespace {
constexpr std::uint32_t kEnvelopeBytes = 32;  // MPICH-QsNetII's header (paper §6.5)
}

MpichQsnet::MpichQsnet(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric,
                       const MpichQsnetMca& mca, std::string name)
    : sim_(sim), ctx_(contexts), cpus_(cpus), fabric_(fabric), nic_(sim, contexts, fabric), p_(nic_.params()),
      overhead_(qsnet::nic(fabric.network()).software.mpich_qsnet_overhead),
      eager_rate_(qsnet::nic(fabric.network()).software.mpich_qsnet_eager_rate),
      eager_limit_(static_cast<std::uint64_t>(mca.mpich_qsnet_eager_limit.get())), name_(std::move(name)),
      lib_(contexts.ranks()) {
  check_mca(mca, contexts.machine());
}

void MpichQsnet::check_mca(const MpichQsnetMca& mca, const Machine& m) {
  const auto eager = static_cast<std::uint64_t>(mca.mpich_qsnet_eager_limit.get()),
             slot = static_cast<std::uint64_t>(qsnet::nic(m).p.qdma_slot_bytes.get());
  if (eager + kEnvelopeBytes > slot)  // bad input: the run names the file
    throw InputError("", "mca.mpich_qsnet_eager_limit",
                     fmt::format("{} B + the 32-byte envelope exceeds one packet (the NIC's qdma_slot_bytes: {} B)",
                                 eager, slot));
}

StackStats MpichQsnet::stats() const {
  StackStats s;
  lib_.report(s);
  counters_.report(s.counters);
  nic_.add_counters(s.counters);
  return s;
}

void MpichQsnet::start_send(const mpi::P2P& p, Completion done) {
  const std::uint32_t id = base::open_send_record(lib_, msgs_, p, std::move(done), QsnetEvent::Post);
  QsnetMsg& m = msgs_[id];
  m.big = m.bytes > eager_limit_;
  counters_.add(m.big ? QsnetStat::Big : QsnetStat::Eager);
  // Tport's inline path: its per-byte cost (a fitted black-box cost, machine file) on the sender's host at post.
  const double inline_bytes = m.big ? 0.0 : static_cast<double>(m.bytes) / eager_rate_;
  cpus_.cpu(m.src, overhead_ + inline_bytes + p_.cmd_issue_cost, [this, id] { on_posted(id); }, "MPICH-QsNet isend");
}

// The envelope (with the inline data, or alone for the rendezvous) crosses the PCI-X bus and the wire.
void MpichQsnet::on_posted(std::uint32_t id) {
  QsnetMsg& m = msgs_[id];
  m.state = step(m.state, m.big ? QsnetEvent::SendRndv : QsnetEvent::SendInline);
  const long long from = ctx_.node_of(m.src), to = ctx_.node_of(m.dst);
  auto wire = static_cast<std::uint32_t>(kEnvelopeBytes + (m.big ? 0 : m.bytes));
  double start = nic_.bus(from, to, nic_.command(from), wire);
  double t_arrive = start + nic_.wire(m.src, m.dst, wire);
  sim_.at(t_arrive, [this, id] { on_arrived(id); });
  if (!m.big)  // the target NIC acknowledges the packet: the send is complete
    sim_.at(t_arrive + fabric_.path(to, from).latency, [this, sid = m.sid] { host_send_done(sid); });
}

void MpichQsnet::start_recv(const mpi::P2P& p, Completion done) {
  const mpi::RequestId rid = lib_.new_recv(p, std::move(done)).first;
  cpus_.cpu(p.rank, overhead_ + p_.cmd_issue_cost, [this, rid] { on_recv_posted(rid); }, "MPICH-QsNet irecv");
}

// The host looks in its unexpected list, else hands the receive to the NIC's posted list.
void MpichQsnet::on_recv_posted(std::uint64_t rid) {
  const mpi::Request& r = lib_.recv(rid);
  if (auto m = lib_.post(r.rank, r.ctx, mpi::Posted{r.peer, r.tag, rid})) on_matched(m->id, rid, true);
}

// Tport on the thread processor: the envelope is compared with the posted receives.
void MpichQsnet::on_arrived(std::uint32_t id) {
  QsnetMsg& m = msgs_[id];
  m.state = step(m.state, QsnetEvent::Arrived);
  auto walked = static_cast<double>(lib_.rank(m.dst).posted_size());
  double t = nic_.thread_processor(ctx_.node_of(m.dst), p_.thread_proc_cost + walked * p_.thread_proc_match_cost);
  sim_.at(t, [this, id] { on_thread_done(id); });
}

// The thread processor done: the walk hands the envelope to Tport's lists (QUEUED), or the rendezvous's data is
// pulled with RDMA reads (PULLING).
void MpichQsnet::on_thread_done(std::uint32_t id) {
  QsnetMsg& m = msgs_[id];
  m.state = step(m.state, QsnetEvent::ThreadDone);
  if (m.state == QsnetState::Pulling) {
    auto ev = nic_.new_event(1, [this, id] { on_read_done(id); });
    nic_.rdma_read(m.dst, m.src, m.bytes, ev);
    return;
  }
  std::vector<Msg> unexpected;
  auto out = lib_.arrive(m.dst, m.ctx, m.seq, Msg{m.src, m.tag, id}, &unexpected);
  counters_.add(QsnetStat::Unexpected, unexpected.size());
  for (auto& x : out) on_matched(x.msg.id, x.recv.rid, false);
}

// The matched message's data reaches the receive buffer (inline: already there, or in the host's unexpected buffer;
// rendezvous: served by the receiver's thread processor).
void MpichQsnet::on_matched(std::uint32_t id, std::uint64_t rid, bool host_copy) {
  QsnetMsg& m = msgs_[id];
  m.rid = rid;
  lib_.matched(lib_.recv(rid), m.src, m.tag, m.bytes);
  if (!m.big) {
    m.state = step(m.state, QsnetEvent::MatchedInline);
    double copy = host_copy ? static_cast<double>(m.bytes) : 0.0;
    cpus_.cpu_copy(m.dst, copy, [this, id] { on_copied(id); });
    return;
  }
  m.state = step(m.state, QsnetEvent::MatchedRndv);
  double t = nic_.thread_processor(ctx_.node_of(m.dst), p_.thread_proc_cost);
  sim_.at(t, [this, id] { on_thread_done(id); });
}

void MpichQsnet::on_copied(std::uint32_t id) {
  QsnetMsg& m = msgs_[id];
  m.state = step(m.state, QsnetEvent::Copied);
  const int dst = m.dst;
  const std::uint64_t rid = m.rid;
  msgs_.erase(id);
  host_recv_done(dst, rid);
}

// The data is in the receive buffer: the receive completes and the thread processor tells the sender's NIC.
void MpichQsnet::on_read_done(std::uint32_t id) {
  QsnetMsg& m = msgs_[id];
  m.state = step(m.state, QsnetEvent::ReadDone);
  host_recv_done(m.dst, m.rid);
  sim_.after(nic_.wire(m.dst, m.src, kEnvelopeBytes), [this, id] { on_done(id); });
}

void MpichQsnet::on_done(std::uint32_t id) {
  QsnetMsg& m = msgs_[id];
  m.state = step(m.state, QsnetEvent::DoneArrived);
  const std::uint64_t sid = m.sid;
  msgs_.erase(id);
  host_send_done(sid);
}

void MpichQsnet::host_recv_done(int rank, mpi::RequestId rid) {
  cpus_.cpu(rank, p_.host_event_poll_cost + overhead_, [this, rid] { lib_.complete_recv(rid); },
            "MPICH-QsNet recv complete");
}

void MpichQsnet::host_send_done(mpi::RequestId sid) {
  cpus_.cpu(lib_.send(sid).rank, p_.host_event_poll_cost, [this, sid] { lib_.complete_send(sid); },
            "MPICH-QsNet send complete");
}

}  // namespace ompisim::native
