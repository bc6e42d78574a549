#include "protocols/native/mpich_gni.hpp"
#include "protocols/base/send_record.hpp"

namespace ompisim::native {

constexpr std::uint64_t kHdr = 48;  // MPICH packet header + GNI tag

MpichGni::MpichGni(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies,
                   gemini::Gni& nic, const MpichGniMca& mca)
    : sim_(sim), ctx_(contexts), cpus_(cpus), copies_(copies), mca_(mca),
      sp_(gemini::nic(nic.fabric().network()).software),
      gni_(nic, static_cast<std::uint16_t>(mca.mpich_gni_smsg_credits.get()), &sp_.mpt_smsg_rate),
      sw_(sp_.mpich_sw_overhead), lib_(contexts.ranks()) {
  vshort_ = effective_vshort_limit(mca, contexts.ranks());
}

// The rendezvous' per-message cost, computed at the first rendezvous that needs it: the costs it is derived from are
// read then, so a job without an inter-node rendezvous (one node) leaves them unread (a --set of one is reported as
// changing nothing).
double MpichGni::rndv_meet_cost() {
  if (!switch_costs_set_) {
    switch_costs_set_ = true;
    set_switch_costs();
  }
  return rndv_meet_cost_;
}

// Between nodes, E1 and the rendezvous meet at S = MPICH_GNI_MAX_EAGER_MSG_SIZE (README, "Per-path costs"): Cray's
// default switches where the rendezvous becomes the cheaper path, so the rendezvous' per-message cost, which the
// paper's data leave open (one size, 4 MB), is the one that makes the two equal there. When E1 carries S (vshort limit
// below S + hdr) the two share the SMSG descriptor, the GET and the match; E1 adds a copy in, a copy out and, on the
// receiver before the match, the SMSG that frees the sender's DMA buffer; the rendezvous adds its per-byte costs; the
// per-message cost is the difference.
void MpichGni::set_switch_costs() {
  const auto eager = static_cast<std::uint64_t>(mca_.mpich_gni_max_eager_msg_size.get());
  if (eager + kHdr > vshort_) {
    const double s = static_cast<double>(eager);
    const double rndv = s / sp_.mpt_rndv_send_rate + s / sp_.mpt_rndv_recv_rate;
    const double buffer_back = gni_.nic().params().smsg_cpu_overhead + kHdr / sp_.mpt_smsg_rate;
    rndv_meet_cost_ = std::max(0.0, 2 * copies_.copy_time_uncontended(s) + buffer_back - rndv);
  }
}

StackStats MpichGni::stats() const {
  StackStats s;
  lib_.report(s);
  s.amos = amos_;
  counters_.report(s.counters);
  Statistics<GniCdmStat, kGniCdmStatistics.size()> cdm{kGniCdmStatistics};
  cdm.set(GniCdmStat::Smsg, gni_.smsg_sent);
  cdm.set(GniCdmStat::SmsgLocalEvents, gni_.smsg_local_events);
  cdm.set(GniCdmStat::RdmaGet, gni_.rdma_gets);
  cdm.set(GniCdmStat::RdmaPut, gni_.rdma_puts);
  cdm.set(GniCdmStat::Endpoints, gni_.endpoints());
  cdm.report(s.counters);
  return s;
}

void MpichGni::amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia) {
  ++amos_;
  gni_.amo(rank, target, std::move(local_done), std::move(at_target));
}

void MpichGni::start_send(const mpi::P2P& p, Completion done) {
  const std::uint32_t id = base::open_send_record(lib_, msgs_, p, std::move(done), MsgEvent::Post);
  GniMsg& m = msgs_[id];
  m.sbuf = p.buffer();
  cpus_.cpu(m.src, sw_ + send_path_cost(m.src, m.dst, m.bytes), [this, id] { on_posted(id); }, "MPID_Isend (MPT)");
}

// The send's path (mpich_gni.hpp): on the node copy-in or LMT; between nodes SMSG eager, E1 or the rendezvous.
void MpichGni::on_posted(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  if (same_node(m.src, m.dst)) {
    if (shm_eager(m.bytes)) {
      counters_.add(GniStat::ShmEager);
      m.state = step(m.state, MsgEvent::StartShmEager);
      cpus_.cpu_copy(m.src, static_cast<double>(m.bytes), [this, id] { on_copied(id); });
    } else {
      counters_.add(GniStat::ShmLmt);
      m.eager = false;
      m.state = step(m.state, MsgEvent::StartLmt);
      sim_.after(ctx_.signal_latency(m.src, m.dst), [this, id] { on_arrived(id); });
    }
    return;
  }
  if (m.bytes + kHdr <= vshort_) {
    counters_.add(GniStat::SmsgEager);
    m.state = step(m.state, MsgEvent::StartSmsg);
    gni_.smsg_send(m.src, m.dst, m.bytes + kHdr, [this, sid = m.sid] { finish_send(sid); },
                   [this, id] { on_arrived(id); });
    return;
  }
  if (!rendezvous(m.bytes)) {
    m.state = step(m.state, MsgEvent::StartE1);
    e1_send(id);
    return;
  }
  counters_.add(GniStat::RndvGet);
  m.eager = false;
  m.state = step(m.state, MsgEvent::StartRndv);
  gni_.register_buffer(m.src, m.sbuf, m.bytes, [this, id] { on_registered(id); });
}

void MpichGni::on_registered(std::uint32_t id) {  // the RTS goes out
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::Registered);
  gni_.smsg_send(m.src, m.dst, kHdr, nullptr, [this, id] { on_arrived(id); });
}

void MpichGni::on_copied(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::Copied);
  switch (m.state) {
    case MsgState::InFlight:  // in the shared cell: signal the receiver; the send is complete
      sim_.after(ctx_.signal_latency(m.src, m.dst), [this, id] { on_arrived(id); });
      finish_send(m.sid);
      return;
    case MsgState::E1DescSent:  // the user buffer is free once copied into the DMA buffer
      finish_send(m.sid);
      gni_.smsg_send(m.src, m.dst, kHdr, nullptr, [this, id] { on_e1_desc(id); });
      return;
    case MsgState::LmtDoneSent:  // XPMEM copy done: DONE to the sender
      finish_recv(m.rid);
      sim_.after(ctx_.signal_latency(m.dst, m.src), [this, id] { on_done(id); });
      return;
    default: {  // COMPLETE: eager data copied out
      const std::uint64_t rid = m.rid;
      msgs_.erase(id);
      finish_recv(rid);
    }
  }
}

void MpichGni::on_arrived(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::Arrived);
  cpus_.cpu(m.dst, sw_, [this, id] { on_cpu_done(id); }, "MPID_nem_gni_poll (match)");
}

void MpichGni::on_cpu_done(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::CpuDone);
  switch (m.state) {
    case MsgState::Queued: match(id); return;
    case MsgState::LmtCopying:  // from src's buffer, on its NUMA node
      cpus_.cpu_copy(m.dst, static_cast<double>(m.bytes), [this, id] { on_copied(id); }, ctx_.local_memory(m.src));
      return;
    default:  // RECV_REGISTERING
      gni_.register_buffer(m.dst, m.rbuf, m.bytes, [this, id] { on_recv_registered(id); });
  }
}

// Where a received eager message's data are for the receiver's copy out: on the node, in a shared-memory cell taken
// from the sender's own free queue (MPICH nemesis, from which MPT's on-node path derives: mpid_nem_inline.h dequeues
// from MPID_nem_mem_region.my_freeQ), so in the sender's memory; between nodes, in the receiver's mailbox or DMA buffer.
MemSpace MpichGni::eager_data(const GniMsg& m) const {
  return same_node(m.src, m.dst) ? ctx_.local_memory(m.src) : MemSpace{};
}

void MpichGni::match(std::uint32_t id) {
  const GniMsg& m = msgs_[id];
  const int dst = m.dst;
  std::vector<Msg> unexpected;
  auto out = lib_.arrive(dst, m.ctx, m.seq, Msg{m.src, m.tag, id}, &unexpected);
  for (auto& x : out) on_matched(x.msg.id, x.recv.rid);
  // Unexpected eager data (this message, or held ones it released) is copied out of the mailbox on arrival.
  for (auto& u : unexpected) {
    const GniMsg& held = msgs_[u.id];
    if (held.eager && held.bytes > 0) cpus_.cpu_copy(dst, static_cast<double>(held.bytes), [] {}, eager_data(held));
  }
}

void MpichGni::start_recv(const mpi::P2P& p, Completion done) {
  const mpi::RequestId rid = lib_.new_recv(p, std::move(done)).first;
  cpus_.cpu(p.rank, sw_, [this, rid] { on_recv_posted(rid); }, "MPID_Irecv (MPT)");
}

// The receive's CPU cost paid: into the posted queue, or matched at once with a message already queued.
void MpichGni::on_recv_posted(std::uint64_t rid) {
  const mpi::Request& r = lib_.recv(rid);
  auto m = lib_.post(r.rank, r.ctx, mpi::Posted{r.peer, r.tag, rid});
  if (m) on_matched(m->id, rid);
}

void MpichGni::on_matched(std::uint32_t id, std::uint64_t rid) {
  GniMsg& m = msgs_[id];
  m.rid = rid;
  lib_.matched(lib_.recv(rid), m.src, m.tag, m.bytes);
  if (m.eager) {
    m.state = step(m.state, MsgEvent::MatchedEager);
    cpus_.cpu_copy(m.dst, static_cast<double>(m.bytes), [this, id] { on_copied(id); }, eager_data(m));
    return;
  }
  if (same_node(m.src, m.dst)) {
    // LMT: XPMEM single copy by the receiver (attach once per 2 MiB region, cached), then DONE.
    m.state = step(m.state, MsgEvent::MatchedLmt);
    auto gran = static_cast<std::uint64_t>(mca_.mpich_smp_xpmem_attach_granularity.get());
    double attach = static_cast<double>(xpmem_.attach(m.dst, m.src, m.sbuf.addr, m.bytes, gran)) *
                    ctx_.machine().os.xpmem_attach_cost;
    const double path = sp_.mpt_lmt_cost + static_cast<double>(m.bytes) / sp_.mpt_lmt_rate;
    cpus_.cpu(m.dst, attach + path, [this, id] { on_cpu_done(id); }, "MPID_nem_gni XPMEM attach");
    return;
  }
  m.state = step(m.state, MsgEvent::MatchedRndv);
  m.rbuf = lib_.recv(rid).buf;
  const double path = rndv_meet_cost() + static_cast<double>(m.bytes) / sp_.mpt_rndv_recv_rate;
  cpus_.cpu(m.dst, path, [this, id] { on_cpu_done(id); }, "MPID_nem_gni rendezvous receive (MPT)");
}

// The receiver pulls with a GET, which needs 4-byte alignment; otherwise CTS and the sender PUTs.
void MpichGni::on_recv_registered(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  if (m.rbuf.addr % 4 == 0 && m.sbuf.addr % 4 == 0 && m.bytes % 4 == 0) {
    m.state = step(m.state, MsgEvent::StartGet);
    gni_.rdma(gemini::RdmaOp::Get, use_bte(m.bytes), m.dst, m.src, m.bytes, [this, id] { on_get_done(id); });
    return;
  }
  counters_.add(GniStat::RndvPutFallback);
  m.state = step(m.state, MsgEvent::StartPutFallback);
  gni_.smsg_send(m.dst, m.src, kHdr, nullptr, [this, id] { on_cts(id); });
}

void MpichGni::on_get_done(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::GetDone);
  if (m.state == MsgState::InFlight) {  // E1: the DMA buffer is free again; the data goes to the match
    gni_.smsg_send(m.dst, m.src, kHdr, nullptr, [this, rank = m.src] { e1_buffer_back(rank); });
    on_arrived(id);
    return;
  }
  finish_recv(m.rid);  // GET_DONE_SENT
  gni_.smsg_send(m.dst, m.src, kHdr, nullptr, [this, id] { on_done(id); });
}

void MpichGni::on_cts(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::CtsArrived);
  gni_.rdma(gemini::RdmaOp::Put, use_bte(m.bytes), m.src, m.dst, m.bytes, [this, id] { on_put_done(id); });
}

void MpichGni::on_put_done(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::PutDone);
  finish_send(m.sid);
  gni_.smsg_send(m.src, m.dst, kHdr, nullptr, [this, id] { on_done(id); });
}

// DONE completes the side that is still waiting: the sender after an LMT copy or a GET, the receiver after a PUT.
void MpichGni::on_done(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  const MsgState from = m.state;
  m.state = step(m.state, MsgEvent::DoneArrived);
  const std::uint64_t sid = m.sid, rid = m.rid;
  const int src = m.src;
  msgs_.erase(id);
  switch (from) {
    case MsgState::LmtDoneSent:
      cpus_.cpu(src, sw_, [this, sid] { finish_send(sid); }, "MPID_nem_gni complete send");
      return;
    case MsgState::GetDoneSent: finish_send(sid); return;
    default: finish_recv(rid);  // PUT_DONE_SENT
  }
}

// The fitted per-path cost a send pays on its CPU at post, beside mpich_sw_overhead (the README's "Per-path costs").
double MpichGni::send_path_cost(int rank, int dst, std::uint64_t bytes) const {
  const auto b = static_cast<double>(bytes);
  if (same_node(rank, dst)) return shm_eager(bytes) && !eager_short(bytes) ? sp_.mpt_shm_eager_cost : 0.0;
  if (bytes + kHdr > vshort_ && rendezvous(bytes)) return b / sp_.mpt_rndv_send_rate;
  return 0.0;
}

// E1 (see the header): a free DMA buffer, or wait in order behind earlier E1 sends of this rank.
void MpichGni::e1_send(std::uint32_t id) {
  counters_.add(GniStat::E1Eager);
  const int rank = msgs_[id].src;
  const auto n = static_cast<std::uint32_t>(mca_.mpich_gni_num_bufs.get());
  base::BufferPool& pool = e1_.try_emplace(rank, n, 0, n).first->second;
  if (pool.take([this, id] { on_dma_buffer(id); }) == base::BufferPool::Result::Wait) {
    counters_.add(GniStat::E1BufferWaits);
    return;
  }
  on_dma_buffer(id);
}

void MpichGni::on_dma_buffer(std::uint32_t id) {
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::BufferReady);
  cpus_.cpu_copy(m.src, static_cast<double>(m.bytes), [this, id] { on_copied(id); });
}

void MpichGni::on_e1_desc(std::uint32_t id) {  // the receiver pulls the DMA buffer's data
  GniMsg& m = msgs_[id];
  m.state = step(m.state, MsgEvent::DescArrived);
  gni_.rdma(gemini::RdmaOp::Get, use_bte(m.bytes), m.dst, m.src, m.bytes, [this, id] { on_get_done(id); });
}

// A DMA buffer came back: the oldest waiting E1 send takes it, else the rank's pool is dropped once idle.
void MpichGni::e1_buffer_back(int rank) {
  auto it = e1_.find(rank);
  it->second.give_back();
  if (it->second.in_use() == 0 && it->second.waiting() == 0) e1_.erase(it);
}

void MpichGni::finish_send(std::uint64_t sid) { lib_.complete_send(sid); }
void MpichGni::finish_recv(std::uint64_t rid) { lib_.complete_recv(rid); }

}  // namespace ompisim::native
