#include "protocols/ofi/cxi/cxi_provider.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::ofi::cxi {

namespace {
std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}
}  // namespace

CxiConfig CxiConfig::from(const slingshot::CassiniParams& nic, const slingshot::SoftwareParams& sw, const CxiMca& mca,
                          bool linkx_peer) {
  CxiConfig c;
  c.limits.inject_size = static_cast<std::uint64_t>(nic.inject_size.value);
  c.limits.rdzv_threshold = static_cast<std::uint64_t>(mca.fi_cxi_rdzv_threshold.get());
  c.limits.rdzv_get_min = static_cast<std::uint64_t>(mca.fi_cxi_rdzv_get_min.get());
  c.limits.rdzv_eager_size = effective_rdzv_eager_size(mca);
  c.oflow_bytes = static_cast<std::uint64_t>(mca.fi_cxi_oflow_buf_size.get() * mca.fi_cxi_oflow_buf_count.get());
  c.fc_recovery_time = sw.fc_recovery_time.value;
  c.fc_recovery.params = {&sw.fc_recovery_time};
  c.software_matching = linkx_peer || mca.fi_cxi_rx_match_mode.get() == 1;  // choices: hardware, software
  c.host_overhead = sw.cxi_overhead.value;
  c.dma_read_latency = nic.dma_read_latency.value;
  c.device_access_latency = nic.device_access_latency.value;
  c.device_access.params = {&nic.device_access_latency};
  c.per_message.params = {&nic.inject_size, &sw.cxi_overhead, &nic.dma_read_latency};
  return c;
}

CxiProvider::CxiProvider(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric, CxiConfig c)
    : sim_(sim), ctx_(contexts), cpus_(cpus), fabric_(fabric), c_(c) {
  peer_index_ = nic_lists_.add_peer(this);
  owner_ = &nic_lists_;
}

void CxiProvider::bind_peer(SrxOwner* owner, int index, CqOwnerOps ops) {
  owner_ = owner;
  peer_index_ = index;
  cq_ = std::move(ops);
}

OverflowBuffers& CxiProvider::oflow(int rank) {
  auto it = oflow_.find(rank);
  if (it == oflow_.end()) it = oflow_.emplace(rank, OverflowBuffers(c_.oflow_bytes)).first;
  return it->second;
}

void CxiProvider::tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  c_.per_message.mark();
  SendProtocol p = choose(bytes, c_.limits, buf.space.kind == MemKind::Host);
  auto [id, m] = msgs_.create();
  m.src = rank, m.dst = dst, m.tag = tag, m.bytes = bytes, m.context = context, m.sbuf = buf, m.proto = p;
  m.seq = seq(send_seq_, rank, dst)++;
  m.tx = step(m.tx, TxEvent::Issue);
  static_assert(static_cast<int>(CxiStat::Inject) + static_cast<int>(SendProtocol::Rendezvous) ==
                static_cast<int>(CxiStat::Rendezvous));
  n_.add(static_cast<CxiStat>(static_cast<int>(CxiStat::Inject) + static_cast<int>(p)));
  if (ctx_.node_of(rank) == ctx_.node_of(dst)) n_.add(CxiStat::Loopback);
  cpus_.cpu(rank, c_.host_overhead, [this, id = id] { on_issued(id); }, "fi_tsend (cxi)");
}

bool CxiProvider::can_inject(std::uint64_t bytes, const Buffer& buf) const {
  return choose(bytes, c_.limits, buf.space.kind == MemKind::Host) == SendProtocol::Inject;
}

void CxiProvider::tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) {
  c_.per_message.mark();
  if (!can_inject(bytes, buf))
    throw std::logic_error("cxi: fi_tinject of " + std::to_string(bytes) + " B beyond the inject size or from a device");
  auto [id, m] = msgs_.create();
  m.src = rank, m.dst = dst, m.tag = tag, m.bytes = bytes, m.sbuf = buf, m.proto = SendProtocol::Inject;
  m.seq = seq(send_seq_, rank, dst)++;
  m.no_cq = true;
  m.injected = std::move(injected);
  m.tx = step(m.tx, TxEvent::Issue);
  n_.add(CxiStat::Inject);
  if (ctx_.node_of(rank) == ctx_.node_of(dst)) n_.add(CxiStat::Loopback);
  cpus_.cpu(rank, c_.host_overhead, [this, id = id] { on_issued(id); }, "fi_tinject (cxi)");
}

void CxiProvider::on_issued(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.tx = step(m.tx, TxEvent::Launch);
  Callback injected = std::move(m.injected);
  m.injected = nullptr;
  launch(id);
  if (injected) injected();
}

// Trace rows of the NIC (TraceSink::nic): "transmit", the commands the source NIC executes (an IDC inject, the DMA
// read and send of an eager payload or a rendezvous header), and "receive", the payloads the target NIC lands in host
// memory (an eager payload or a rendezvous header, a rendezvous Get it pulls). Each span runs from the command to the
// transfer's end (the bulk flow's end), as Gemini's BTE spans do.
void CxiProvider::launch(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  long long a = ctx_.node_of(m.src), b = ctx_.node_of(m.dst);
  std::uint64_t eb = eager_bytes(m.proto, m.bytes, c_.limits);
  if (m.proto == SendProtocol::Inject) {
    // analytic (no flow), after the packets ahead of it on its links
    const double t = fabric_.wire_time(to_dst(m), static_cast<double>(eb)) +
                     fabric_.packet_wait(a, b, static_cast<double>(eb), m.src, m.dst);
    if (TraceSink* tr = sim_.trace) tr->nic(a, "transmit", sim_.now(), sim_.now() + t, "IDC inject");
    sim_.after(t, [this, id] { on_header(id); });
    return;
  }
  double lat = c_.dma_read_latency + dev_latency(m.sbuf) + to_dst(m).latency;
  m.t_transfer = sim_.now();
  fabric_.bulk(a, b, static_cast<double>(eb), lat, [this, id] { on_transferred(id); }, false, m.src, m.dst);
}

const PathCost& CxiProvider::to_dst(CxiMsg& m) {
  if (!m.have_to_dst) {
    m.to_dst = fabric_.path(ctx_.node_of(m.src), ctx_.node_of(m.dst));
    m.have_to_dst = true;
  }
  return m.to_dst;
}

const PathCost& CxiProvider::to_src(CxiMsg& m) {
  if (!m.have_to_src) {
    m.to_src = fabric_.path(ctx_.node_of(m.dst), ctx_.node_of(m.src));
    m.have_to_src = true;
  }
  return m.to_src;
}

void CxiProvider::on_transferred(std::uint64_t id) {
  if (TraceSink* tr = sim_.trace) {
    const CxiMsg& m = msgs_.at(id);
    const bool rdzv = m.proto == SendProtocol::Rendezvous;
    tr->nic(ctx_.node_of(m.src), "transmit", m.t_transfer, sim_.now(), rdzv ? "rendezvous header (DMA)" : "eager send (DMA)");
    tr->nic(ctx_.node_of(m.dst), "receive", m.t_transfer, sim_.now(), rdzv ? "rendezvous header" : "eager payload");
  }
  on_header(id);
}

void CxiProvider::on_header(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  const int src = m.src, dst = m.dst;
  std::uint64_t key = pair_key(src, dst);
  // The pair's next sequence number (looked up again after process(), which may add pairs and move the table).
  std::uint32_t expect = seq(recv_seq_, dst, src);
  if (m.seq != expect) {  // an earlier header is still on its way (or was dropped): keep MPI's order
    m.rx = step(m.rx, RxEvent::Hold);
    held_[key][m.seq] = id;
    return;
  }
  std::uint64_t cur = id;
  while (true) {
    process(cur);
    if (const CxiMsg* mc = msgs_.find(cur); mc && mc->rx == RxState::Idle)
      return;  // dropped: successors wait for its re-send
    expect = ++seq(recv_seq_, dst, src);
    if (held_.empty()) return;
    auto h = held_.find(key);
    if (h == held_.end() || h->second.empty() || h->second.begin()->first != expect) {
      if (h != held_.end() && h->second.empty()) held_.erase(h);
      return;
    }
    cur = h->second.begin()->second;
    h->second.erase(h->second.begin());
  }
}

void CxiProvider::process(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.rx = step(m.rx, RxEvent::Arrive);
  if (hardware_matching()) {
    if (auto d = dropped_.find(m.dst); d != dropped_.end() && !d->second.empty()) {  // flow control: the target's NIC drops everything
      drop(id);
      return;
    }
    RxEntry* e = nullptr;
    const bool hit = nic_lists_.get_tag(m.dst, peer_index_, m.src, m.tag, m.bytes, &e) == 0;
    if (TraceSink* tr = sim_.trace)  // the target NIC's list processing (instantaneous in this model)
      tr->nic(ctx_.node_of(m.dst), "match engine", sim_.now(), sim_.now(),
              hit ? "priority list match" : "overflow (unexpected)");
    if (hit) {
      if (m.proto != SendProtocol::Rendezvous) target_ack(id);
      matched(id, e, true);
      return;
    }
    OverflowBuffers& ob = oflow(m.dst);
    if (!ob.take(eager_bytes(m.proto, m.bytes, c_.limits))) {
      nic_lists_.free_entry(e);
      drop(id);
      return;
    }
    m.in_oflow = true;
    m.oflow_epoch = ob.epoch();
    e->peer_context = id;
    n_.add(CxiStat::Unexpected);
    m.rx = step(m.rx, RxEvent::Queued);
    nic_lists_.queue_tag(e);
    if (m.proto != SendProtocol::Rendezvous) target_ack(id);  // transmit complete: the payload is in the target NIC
    return;
  }
  // Software matching: the payload is in a request buffer; the host reads the event and asks the owner's queue.
  if (m.proto != SendProtocol::Rendezvous) target_ack(id);
  if (standalone()) n_.add(CxiStat::HostMatched);  // FI_CXI_RX_MATCH_MODE=software (under LINKx: linkx_matched_*)
  m.rx = step(m.rx, RxEvent::HostMatch);
  cpus_.cpu(m.dst, c_.host_overhead, [this, id] { on_host_matched(id); }, "cxip unexpected header");
}

void CxiProvider::on_host_matched(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  if (RxEntry* e = get_tag_or_queue(*owner_, peer_index_, m, id, [&] {
        n_.add(CxiStat::Unexpected);
        m.rx = step(m.rx, RxEvent::Queued);
      }))
    owner_matched(id, e);
}

// `in_nic`: the NIC matched the header against a posted receive (hardware matching, the message expected).
void CxiProvider::matched(std::uint64_t id, RxEntry* e, bool in_nic) {
  CxiMsg& m = msgs_.at(id);
  if (e->size < m.bytes) n_.add(CxiStat::Truncate);
  m.entry = e;
  m.landed = std::min(eager_bytes(m.proto, m.bytes, c_.limits), e->size);
  if (in_nic) {
    // The payload was written in place by DMA; a rendezvous' rest is pulled by the target NIC itself (offloaded: no
    // host involvement).
    if (m.proto == SendProtocol::Rendezvous) {
      m.rx = step(m.rx, RxEvent::NicMatchedRdzv);
      pull(id);
      return;
    }
    m.rx = step(m.rx, RxEvent::NicMatchedEager);
    sim_.after(dev_latency(e->buf), [this, id] { on_landed(id); });
    return;
  }
  // The payload waits in host memory (an overflow buffer, or a request buffer with software matching): the host
  // copies it into the receive; a rendezvous' rest is then pulled by a Get that software issues.
  m.rx = step(m.rx, RxEvent::Matched);
  cpus_.cpu_copy(m.dst, static_cast<double>(m.landed), [this, id] { on_copied(id); }, MemSpace{}, e->buf.space);
}

void CxiProvider::on_copied(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  if (m.in_oflow) oflow(m.dst).release(eager_bytes(m.proto, m.bytes, c_.limits), m.oflow_epoch);
  m.in_oflow = false;
  if (m.proto == SendProtocol::Rendezvous) {
    m.rx = step(m.rx, RxEvent::CopiedEagerPart);
    cpus_.cpu(m.dst, c_.host_overhead, [this, id] { on_pull_issued(id); }, "cxip rendezvous pull");
    return;
  }
  m.rx = step(m.rx, RxEvent::Copied);
  sim_.after(dev_latency(m.entry->buf), [this, id] { on_landed(id); });
}

// In place by the NIC (LANDING): the host then reads the completion; copied by the host (COPY_LANDING): complete.
void CxiProvider::on_landed(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.rx = step(m.rx, RxEvent::Landed);
  if (m.rx == RxState::CqReading) {
    cpus_.cpu(m.dst, c_.host_overhead, [this, id] { on_recv_cq_read(id); }, "fi_cq_read (cxi, recv)");
    return;
  }
  complete_recv(msgs_, id, *owner_, cq_, peer_index_);
}

void CxiProvider::on_pull_issued(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.rx = step(m.rx, RxEvent::PullIssued);
  pull(id);
}

void CxiProvider::pull(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  long long a = ctx_.node_of(m.src), b = ctx_.node_of(m.dst);
  std::uint64_t want = std::min(m.bytes, m.entry->size);
  std::uint64_t rest = want > m.landed ? want - m.landed : 0;
  n_.add(CxiStat::RdzvGets);
  // The Get request crosses b -> a, the data a -> b.
  double lat = to_src(m).latency + to_dst(m).latency + dev_latency(m.sbuf) + dev_latency(m.entry->buf);
  m.t_transfer = sim_.now();
  fabric_.bulk(a, b, static_cast<double>(rest), lat, [this, id] { on_pulled(id); }, true, m.src, m.dst);
}

void CxiProvider::on_pulled(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  if (TraceSink* tr = sim_.trace)  // the target NIC pulls the rest: a span on its receive row, from the Get to the data's end
    tr->nic(ctx_.node_of(m.dst), "receive", m.t_transfer, sim_.now(), "rendezvous Get");
  target_ack(id);
  m.rx = step(m.rx, RxEvent::Pulled);
  cpus_.cpu(m.dst, c_.host_overhead, [this, id] { on_recv_cq_read(id); }, "fi_cq_read (cxi, recv)");
}

void CxiProvider::on_recv_cq_read(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.rx = step(m.rx, RxEvent::CqRead);
  complete_recv(msgs_, id, *owner_, cq_, peer_index_);
}

void CxiProvider::target_ack(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  if (m.no_cq) {  // fi_tinject: the ack only frees the NIC's state; nothing reaches the host
    m.tx = step(m.tx, TxEvent::TargetAckNoCq);
    free_if_done(msgs_, id);
    return;
  }
  m.tx = step(m.tx, TxEvent::TargetAck);
  double back = fabric_.wire_time(to_src(m), 0);
  sim_.after(back, [this, id] { on_ack(id); });
}

void CxiProvider::on_ack(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.tx = step(m.tx, TxEvent::AckArrived);
  cpus_.cpu(m.src, c_.host_overhead, [this, id] { on_send_cq_read(id); }, "fi_cq_read (cxi, send)");
}

void CxiProvider::on_send_cq_read(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.tx = step(m.tx, TxEvent::CqRead);
  complete_send(msgs_, id, cq_, peer_index_);
}

void CxiProvider::drop(std::uint64_t id) {
  CxiMsg& m = msgs_.at(id);
  m.rx = step(m.rx, RxEvent::Drop);
  m.tx = step(m.tx, TxEvent::Drop);
  int dst = m.dst;
  n_.add(CxiStat::FcDrops);
  auto& list = dropped_[dst];
  bool start = list.empty();
  list.push_back(id);
  if (!start) return;
  // Flow-control recovery: the provider onloads the unexpected list to host memory, re-posts the overflow buffers,
  // and the dropped messages are sent again, in their order.
  n_.add(CxiStat::FcRecoveries);
  c_.fc_recovery.mark();
  sim_.after(c_.fc_recovery_time, [this, dst] { on_recovered(dst); });
}

void CxiProvider::on_recovered(int dst) {
  oflow(dst).onload();
  std::vector<std::uint64_t> again = std::move(dropped_[dst]);
  dropped_.erase(dst);
  for (auto rid : again) {
    n_.add(CxiStat::FcResends);
    CxiMsg& m = msgs_.at(rid);
    m.tx = step(m.tx, TxEvent::Resend);
    cpus_.cpu(m.src, c_.host_overhead, [this, rid] { on_issued(rid); }, "cxip rendezvous launch");
  }
}

void CxiProvider::trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  if (!standalone()) throw std::logic_error("cxi: trecv on a peer provider (receives go to the owner's queue)");
  c_.per_message.mark();
  auto [pid, p] = posts_.create();
  p = PostedRecv{rank, src, tag, bytes, buf, context};
  cpus_.cpu(rank, c_.host_overhead, [this, pid = pid] { on_recv_posted(pid); }, "fi_trecv (cxi)");
}

void CxiProvider::on_recv_posted(std::uint64_t pid) {
  const PostedRecv p = posts_.take(pid);
  nic_lists_.post_tag(p.rank, p.src, p.tag, p.bytes, p.buf, p.context);
}

int CxiProvider::start_tag(RxEntry* e) {
  owner_matched(unexpected_record(msgs_, *e, "cxi", "start_tag"), e);
  return 0;
}

// A peer of an owner's shared receive queue has no request of its own for the receive the owner matched (the owner's
// fi_trecv never reached this provider): libfabric prov/cxi cxip_process_srx_ux_matcher (the get_tag match at
// arrival) and cxip_unexp_start (the owner's start_tag) call cxip_recv_req_init, the set-up that the standalone
// provider's fi_trecv does at post (cxip_recv_common: cxip_recv_req_init, then cxip_recv_req_queue): a request from
// the event queue's pool and the user buffer mapped through the MR cache (cxip_recv_req_alloc, cxip_ep_obj_map).
// Priced as the provider's fi_trecv (host_overhead), on the target's CPU, before the copy. A standalone provider's
// match goes on at once.
void CxiProvider::owner_matched(std::uint64_t id, RxEntry* e) {
  if (standalone()) {  // the provider's own fi_trecv set its request up (cxip_recv_common)
    matched(id, e, false);
    return;
  }
  msgs_.at(id).entry = e;
  n_.add(CxiStat::PeerRecvRequests);
  cpus_.cpu(msgs_.at(id).dst, c_.host_overhead, [this, id] {
    CxiMsg& m = msgs_.at(id);
    matched(id, m.entry, false);
  }, "cxip_recv_req_init (peer)");
}

int CxiProvider::discard_tag(RxEntry* e) {
  const std::uint64_t id = unexpected_record(msgs_, *e, "cxi", "discard_tag");
  CxiMsg& m = msgs_.at(id);
  m.rx = step(m.rx, RxEvent::Discard);
  if (m.in_oflow) oflow(m.dst).release(eager_bytes(m.proto, m.bytes, c_.limits), m.oflow_epoch);
  m.in_oflow = false;
  owner_->free_entry(e);
  n_.add(CxiStat::Discards);
  if (m.proto == SendProtocol::Rendezvous) target_ack(id);
  free_if_done(msgs_, id);
  return 0;
}

void CxiProvider::add_counters(std::map<std::string, std::uint64_t>& c) const {
  n_.accumulate(c);  // mpi_truncate_errors: summed with the other providers' under one MTL
}

}  // namespace ompisim::ofi::cxi
