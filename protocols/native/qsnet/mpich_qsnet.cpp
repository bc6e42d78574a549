#include "protocols/native/qsnet/mpich_qsnet.hpp"

namespace ompisim::native {

namespace {
constexpr std::uint32_t kEnvelopeBytes = 32;  // MPICH-QsNetII's header (paper §6.5)
}

MpichQsnet::MpichQsnet(World& w, const MpichQsnetMca& mca, std::string name)
    : w_(w), nic_(w), p_(nic_.params()), overhead_(qsnet::nic(w.machine()).software.mpich_qsnet_overhead),
      eager_limit_(static_cast<std::uint64_t>(mca.mpich_qsnet_eager_limit.value)), name_(std::move(name)) {
  if (eager_limit_ + kEnvelopeBytes > static_cast<std::uint64_t>(p_.qdma_slot_bytes.value))
    throw std::invalid_argument("mpich_qsnet_eager_limit + the 32-byte envelope exceeds one 2 KB packet");
}

StackStats MpichQsnet::stats() const {
  StackStats s = st_;
  s.live_requests = sends_.size() + recvs_.size();
  for (auto& [r, x] : ranks_) s.unexpected_now += x.mq.unexpected_size(), s.posted_now += x.mq.posted_size();
  s.counters["tport_eager"] = eager_;
  s.counters["tport_big"] = big_;
  s.counters["tport_unexpected"] = unexpected_;
  nic_.add_counters(s.counters);
  return s;
}

void MpichQsnet::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer, Completion done) {
  ++st_.sends_posted;
  std::uint64_t sid = next_++;
  sends_[sid] = std::move(done);
  std::uint32_t seq = rs(rank).seq[dst]++;
  Env e{rank, tag, bytes, sid, bytes > eager_limit_};
  (e.big ? big_ : eager_) += 1;
  w_.cpu(rank, overhead_ + p_.cmd_issue_cost, [this, rank, dst, seq, e] {
    auto wire = static_cast<std::uint32_t>(kEnvelopeBytes + (e.big ? 0 : e.bytes));
    double start = nic_.bus(w_.node_of(rank), w_.node_of(dst), nic_.command(w_.node_of(rank)), wire);
    double t_arrive = start + nic_.wire(rank, dst, wire);
    w_.sim().at(t_arrive, [this, dst, seq, e] { arrive(dst, seq, e); });
    if (!e.big)  // the target NIC acknowledges the packet: the send is complete
      w_.sim().at(t_arrive + w_.path(w_.node_of(dst), w_.node_of(rank)).latency, [this, rank, sid = e.sid] {
        w_.cpu(rank, p_.host_event_poll_cost, [this, sid] { complete_request(sends_, sid, st_.sends_completed); });
      });
  });
}

void MpichQsnet::irecv(int rank, int src, int tag, std::uint64_t, Buffer, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t rid = next_++;
  recvs_[rid] = std::move(done);
  // The host looks in its unexpected list, else hands the receive to the NIC's posted list.
  w_.cpu(rank, overhead_ + p_.cmd_issue_cost, [this, rank, src, tag, rid] {
    if (auto e = rs(rank).mq.post(Posted{src, tag, rid})) deliver(rank, rid, *e, true);
  });
}

void MpichQsnet::arrive(int dst, std::uint32_t seq, const Env& e) {
  // Tport on the thread processor: the envelope is compared with the posted receives.
  auto walked = static_cast<double>(rs(dst).mq.posted_size());
  double t = nic_.thread_processor(w_.node_of(dst), p_.thread_proc_cost + walked * p_.thread_proc_match_cost);
  w_.sim().at(t, [this, dst, seq, e] {
    std::vector<Env> unexpected;
    auto m = rs(dst).mq.arrive(seq, e, &unexpected);
    unexpected_ += unexpected.size();
    for (auto& x : m) deliver(dst, x.recv.rid, x.msg, false);
  });
}

void MpichQsnet::deliver(int dst, std::uint64_t rid, const Env& e, bool host_copy) {
  if (!e.big) {
    // The NIC put the data in the user buffer (matched on arrival), or it waits in the host's unexpected buffer.
    double copy = host_copy ? static_cast<double>(e.bytes) : 0.0;
    w_.cpu_copy(dst, copy, [this, dst, rid] { host_done(dst, rid); });
    return;
  }
  // Rendezvous served by the receiver's thread processor: pull the data, then tell the sender's NIC.
  double t = nic_.thread_processor(w_.node_of(dst), p_.thread_proc_cost);
  w_.sim().at(t, [this, dst, rid, e] {
    auto ev = nic_.new_event(1, [this, dst, rid, e] {
      host_done(dst, rid);
      w_.sim().after(nic_.wire(dst, e.src, kEnvelopeBytes), [this, e] {
        w_.cpu(e.src, p_.host_event_poll_cost, [this, sid = e.sid] { complete_request(sends_, sid, st_.sends_completed); });
      });
    });
    nic_.rdma_read(dst, e.src, e.bytes, ev);
  });
}

void MpichQsnet::host_done(int rank, std::uint64_t rid) {
  w_.cpu(rank, p_.host_event_poll_cost + overhead_, [this, rid] { complete_request(recvs_, rid, st_.recvs_completed); });
}

}  // namespace ompisim::native
