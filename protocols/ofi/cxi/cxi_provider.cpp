#include "protocols/ofi/cxi/cxi_provider.hpp"

#include "core/trace.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::ofi::cxi {

namespace {
std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}
}  // namespace

CxiConfig CxiConfig::from(const slingshot::CassiniParams& nic, const slingshot::SoftwareParams& sw, const CxiMca& mca) {
  CxiConfig c;
  c.limits.inject_size = static_cast<std::uint64_t>(nic.inject_size.value);
  c.limits.rdzv_threshold = static_cast<std::uint64_t>(mca.fi_cxi_rdzv_threshold.value);
  c.limits.rdzv_get_min = static_cast<std::uint64_t>(mca.fi_cxi_rdzv_get_min.value);
  c.limits.rdzv_eager_size = static_cast<std::uint64_t>(mca.fi_cxi_rdzv_eager_size.value);
  c.oflow_bytes = static_cast<std::uint64_t>(mca.fi_cxi_oflow_buf_size.value * mca.fi_cxi_oflow_buf_count.value);
  c.fc_recovery_time = sw.fc_recovery_time;
  c.software_matching = mca.fi_cxi_rx_match_mode.value == 1;  // choices: hardware, software
  c.host_overhead = sw.cxi_overhead;
  c.dma_read_latency = nic.dma_read_latency;
  c.device_access_latency = nic.device_access_latency;
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
  SendProtocol p = choose(bytes, c_.limits, buf.space.kind == MemKind::Host);
  auto created = msgs_.create();
  const std::uint64_t id = created.first;
  created.second = Msg{rank, dst, tag, bytes, context, buf, p, seq(send_seq_, rank, dst)++};
  static_assert(static_cast<int>(CxiStat::Inject) + static_cast<int>(SendProtocol::Rendezvous) ==
                static_cast<int>(CxiStat::Rendezvous));
  n_.add(static_cast<CxiStat>(static_cast<int>(CxiStat::Inject) + static_cast<int>(p)));
  if (ctx_.node_of(rank) == ctx_.node_of(dst)) n_.add(CxiStat::Loopback);
  cpus_.cpu(rank, c_.host_overhead, [this, id] { launch(id); }, "fi_tsend (cxi)");
}

bool CxiProvider::can_inject(std::uint64_t bytes, const Buffer& buf) const {
  return choose(bytes, c_.limits, buf.space.kind == MemKind::Host) == SendProtocol::Inject;
}

void CxiProvider::tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) {
  if (!can_inject(bytes, buf))
    throw std::logic_error("cxi: fi_tinject of " + std::to_string(bytes) + " B beyond the inject size or from a device");
  auto created = msgs_.create();
  const std::uint64_t id = created.first;
  created.second = Msg{rank, dst, tag, bytes, 0, buf, SendProtocol::Inject, seq(send_seq_, rank, dst)++};
  created.second.no_cq = true;
  n_.add(CxiStat::Inject);
  if (ctx_.node_of(rank) == ctx_.node_of(dst)) n_.add(CxiStat::Loopback);
  cpus_.cpu(rank, c_.host_overhead, [this, id, injected = std::move(injected)] {
    launch(id);
    if (injected) injected();
  }, "fi_tinject (cxi)");
}

// Trace rows of the NIC (TraceSink::nic): "transmit", the commands the source NIC executes (an IDC inject, the DMA
// read and send of an eager payload or a rendezvous header), and "receive", the payloads the target NIC lands in host
// memory (an eager payload or a rendezvous header, a rendezvous Get it pulls). Each span runs from the command to the
// transfer's end (the bulk flow's end), as Gemini's BTE spans do.
void CxiProvider::launch(std::uint64_t id) {
  const Msg& m = msgs_.at(id);
  long long a = ctx_.node_of(m.src), b = ctx_.node_of(m.dst);
  std::uint64_t eb = eager_bytes(m.proto, m.bytes, c_.limits);
  if (m.proto == SendProtocol::Inject) {
    const double t = fabric_.wire_time(a, b, static_cast<double>(eb));
    if (TraceSink* tr = sim_.trace) tr->nic(a, "transmit", sim_.now(), sim_.now() + t, "IDC inject");
    sim_.after(t, [this, id] { arrive(id); });
    return;
  }
  double lat = c_.dma_read_latency + dev_latency(m.sbuf) + fabric_.path(a, b).latency;
  Callback done = [this, id] { arrive(id); };
  if (sim_.trace) {
    const bool rdzv = m.proto == SendProtocol::Rendezvous;
    done = [this, a, b, rdzv, t0 = sim_.now(), done = std::move(done)]() mutable {
      if (TraceSink* tr = sim_.trace) {
        tr->nic(a, "transmit", t0, sim_.now(), rdzv ? "rendezvous header (DMA)" : "eager send (DMA)");
        tr->nic(b, "receive", t0, sim_.now(), rdzv ? "rendezvous header" : "eager payload");
      }
      done();
    };
  }
  fabric_.bulk(a, b, static_cast<double>(eb), lat, std::move(done), false, m.src, m.dst);
}

void CxiProvider::arrive(std::uint64_t id) {
  const Msg& m = msgs_.at(id);
  const int src = m.src, dst = m.dst;
  std::uint64_t key = pair_key(src, dst);
  // The pair's next sequence number (looked up again after process(), which may add pairs and move the table).
  std::uint32_t expect = seq(recv_seq_, dst, src);
  if (m.seq != expect) {  // an earlier header is still on its way (or was dropped): keep MPI's order
    held_[key][m.seq] = id;
    return;
  }
  std::uint64_t cur = id;
  while (true) {
    process(cur);
    if (!dropped_.empty()) {
      if (const Msg* mc = msgs_.find(cur)) {
        auto d = dropped_.find(mc->dst);
        if (d != dropped_.end() && std::find(d->second.begin(), d->second.end(), cur) != d->second.end())
          return;  // dropped: successors wait for its re-send
      }
    }
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
  Msg& m = msgs_.at(id);
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
      if (m.proto != SendProtocol::Rendezvous) send_done(id);
      matched(id, e, false);
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
    nic_lists_.queue_tag(e);
    if (m.proto != SendProtocol::Rendezvous) send_done(id);  // transmit complete: the payload is in the target NIC
    return;
  }
  // Software matching: the payload is in a request buffer; the host reads the event and asks the owner's queue.
  if (m.proto != SendProtocol::Rendezvous) send_done(id);
  if (standalone()) n_.add(CxiStat::HostMatched);  // FI_CXI_RX_MATCH_MODE=software (under LINKx: linkx_matched_*)
  cpus_.cpu(m.dst, c_.host_overhead, [this, id] {
    const Msg& mm = msgs_.at(id);
    RxEntry* e = nullptr;
    if (owner_->get_tag(mm.dst, peer_index_, mm.src, mm.tag, mm.bytes, &e) == 0) {
      matched(id, e, false);
      return;
    }
    e->peer_context = id;
    n_.add(CxiStat::Unexpected);
    owner_->queue_tag(e);
  }, "cxip unexpected header");
}

void CxiProvider::matched(std::uint64_t id, RxEntry* e, bool was_unexpected) {
  const Msg& m = msgs_.at(id);
  if (e->size < m.bytes) n_.add(CxiStat::Truncate);
  std::uint64_t eb = std::min(eager_bytes(m.proto, m.bytes, c_.limits), e->size);
  if (hardware_matching() && !was_unexpected) {
    // The NIC matched the header against a posted receive: the payload was written in place by DMA; a rendezvous'
    // rest is pulled by the target NIC itself (offloaded: no host involvement).
    if (m.proto == SendProtocol::Rendezvous) {
      pull(id, e, eb);
      return;
    }
    sim_.after(dev_latency(e->buf), [this, id, e] { cpus_.cpu(msgs_.at(id).dst, c_.host_overhead, [this, id, e] { recv_done(id, e); }, "fi_cq_read (cxi, recv)"); });
    return;
  }
  // The payload waits in host memory (an overflow buffer, or a request buffer with software matching): the host
  // copies it into the receive; a rendezvous' rest is then pulled by a Get that software issues.
  int dst = m.dst;
  cpus_.cpu_copy(
      dst, static_cast<double>(eb),
      [this, id, e, eb] {
        Msg& mm = msgs_.at(id);
        if (mm.in_oflow) oflow(mm.dst).release(eager_bytes(mm.proto, mm.bytes, c_.limits), mm.oflow_epoch);
        mm.in_oflow = false;
        if (mm.proto == SendProtocol::Rendezvous) {
          cpus_.cpu(mm.dst, c_.host_overhead, [this, id, e, eb] { pull(id, e, eb); }, "cxip rendezvous pull");
          return;
        }
        sim_.after(dev_latency(e->buf), [this, id, e] { recv_done(id, e); });
      },
      MemSpace{}, e->buf.space);
}

void CxiProvider::pull(std::uint64_t id, RxEntry* e, std::uint64_t already) {
  const Msg& m = msgs_.at(id);
  long long a = ctx_.node_of(m.src), b = ctx_.node_of(m.dst);
  std::uint64_t want = std::min(m.bytes, e->size);
  std::uint64_t rest = want > already ? want - already : 0;
  n_.add(CxiStat::RdzvGets);
  // The Get request crosses b -> a, the data a -> b.
  double lat = fabric_.path(b, a).latency + fabric_.path(a, b).latency + dev_latency(m.sbuf) + dev_latency(e->buf);
  Callback done = [this, id, e] {
    send_done(id);
    cpus_.cpu(msgs_.at(id).dst, c_.host_overhead, [this, id, e] { recv_done(id, e); }, "fi_cq_read (cxi, recv)");
  };
  if (sim_.trace)  // the target NIC pulls the rest: a span on its receive row, from the Get to the data's end
    done = [this, b, t0 = sim_.now(), done = std::move(done)]() mutable {
      if (TraceSink* tr = sim_.trace) tr->nic(b, "receive", t0, sim_.now(), "rendezvous Get");
      done();
    };
  fabric_.bulk(a, b, static_cast<double>(rest), lat, std::move(done), true, m.src, m.dst);
}

void CxiProvider::recv_done(std::uint64_t id, RxEntry* e) {
  const Msg& m = msgs_.at(id);
  CqEntry ce{m.dst, e->context, CqEntry::Recv | CqEntry::Tagged, std::min(m.bytes, e->size), m.tag, m.src, peer_index_};
  owner_->free_entry(e);
  finish(id, true);
  if (cq_.write) cq_.write(ce);
}

void CxiProvider::send_done(std::uint64_t id) {
  const Msg& m = msgs_.at(id);
  if (m.no_cq) {  // fi_tinject: the ack only frees the NIC's state; nothing reaches the host
    finish(id, false);
    return;
  }
  double back = fabric_.wire_time(ctx_.node_of(m.dst), ctx_.node_of(m.src), 0);
  int src = m.src;
  sim_.after(back, [this, id, src] {
    cpus_.cpu(src, c_.host_overhead, [this, id] {
      const Msg& mm = msgs_.at(id);
      CqEntry ce{mm.src, mm.context, CqEntry::Send | CqEntry::Tagged, mm.bytes, mm.tag, mm.dst, peer_index_};
      finish(id, false);
      if (cq_.write) cq_.write(ce);
    }, "fi_cq_read (cxi, send)");
  });
}

void CxiProvider::finish(std::uint64_t id, bool recv_side) {
  Msg& m = msgs_.at(id);
  (recv_side ? m.recv_finished : m.send_finished) = true;
  if (m.recv_finished && m.send_finished) msgs_.take(id);
}

void CxiProvider::drop(std::uint64_t id) {
  const Msg& m = msgs_.at(id);
  int dst = m.dst;
  n_.add(CxiStat::FcDrops);
  auto& list = dropped_[dst];
  bool start = list.empty();
  list.push_back(id);
  if (!start) return;
  // Flow-control recovery: the provider onloads the unexpected list to host memory, re-posts the overflow buffers,
  // and the dropped messages are sent again, in their order.
  n_.add(CxiStat::FcRecoveries);
  sim_.after(c_.fc_recovery_time, [this, dst] {
    oflow(dst).onload();
    std::vector<std::uint64_t> again = std::move(dropped_[dst]);
    dropped_.erase(dst);
    for (auto rid : again) {
      n_.add(CxiStat::FcResends);
      cpus_.cpu(msgs_.at(rid).src, c_.host_overhead, [this, rid] { launch(rid); }, "cxip rendezvous launch");
    }
  });
}

void CxiProvider::trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  if (!standalone()) throw std::logic_error("cxi: trecv on a peer provider (receives go to the owner's queue)");
  cpus_.cpu(rank, c_.host_overhead, [this, rank, src, tag, bytes, buf, context] {
    nic_lists_.post_tag(rank, src, tag, bytes, buf, context);
  }, "fi_trecv (cxi)");
}

int CxiProvider::start_tag(RxEntry* e) {
  if (!msgs_.find(e->peer_context)) throw ProtocolError("cxi", "no unexpected message for the entry", "start_tag");
  matched(e->peer_context, e, true);
  return 0;
}

int CxiProvider::discard_tag(RxEntry* e) {
  Msg* found = msgs_.find(e->peer_context);
  if (!found) throw ProtocolError("cxi", "no unexpected message for the entry", "discard_tag");
  Msg& m = *found;
  if (m.in_oflow) oflow(m.dst).release(eager_bytes(m.proto, m.bytes, c_.limits), m.oflow_epoch);
  m.in_oflow = false;
  std::uint64_t id = e->peer_context;
  owner_->free_entry(e);
  n_.add(CxiStat::Discards);
  if (m.proto == SendProtocol::Rendezvous) send_done(id);
  finish(id, true);
  return 0;
}

void CxiProvider::add_counters(std::map<std::string, std::uint64_t>& c) const {
  n_.accumulate(c);  // mpi_truncate_errors: summed with the other providers' under one MTL
}

}  // namespace ompisim::ofi::cxi
