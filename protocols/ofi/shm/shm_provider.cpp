#include "protocols/ofi/shm/shm_provider.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::ofi::shm {

namespace {
double per_byte(double bytes, double rate) { return rate > 0 ? bytes / rate : 0.0; }
}  // namespace

void ShmProvider::tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  send(rank, dst, tag, bytes, buf, context, nullptr);
}

void ShmProvider::tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) {
  if (buf.space.kind == MemKind::Device || static_cast<double>(bytes) > c_.inject_size)
    throw std::logic_error("shm: fi_tinject of " + std::to_string(bytes) + " B beyond the inject size or from a device");
  send(rank, dst, tag, bytes, buf, 0, std::move(injected));  // the inject path (a host payload within shm_inject_size)
}

void ShmProvider::send(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context,
                       Callback injected) {
  if (ctx_.node_of(rank) != ctx_.node_of(dst)) throw std::logic_error("shm: peer on another node");
  // The receive buffer is not known yet: a GPU buffer on the sending side selects IPC here; one on the receiving side
  // only (a host send into a device receive) is moved by the receiver's IPC copy as well (see deliver()).
  ShmPath p = buf.space.kind == MemKind::Device ? ShmPath::Ipc
              : static_cast<double>(bytes) <= c_.inject_size ? ShmPath::Inject
                                                             : ShmPath::SingleCopy;
  auto [id, m] = msgs_.create();
  m.src = rank, m.dst = dst, m.tag = tag, m.bytes = bytes, m.context = context, m.sbuf = buf, m.path = p;
  m.injected = std::move(injected);
  m.tx = step(m.tx, ShmTxEvent::Post);
  static_assert(static_cast<int>(ShmPath::Ipc) == static_cast<int>(ShmStat::Ipc));
  n_.add(static_cast<ShmStat>(p));
  double path = p == ShmPath::Inject ? per_byte(static_cast<double>(bytes), c_.inject_rate) : 0.0;
  if (c_.inject_cost_max > 0) path = std::min(path, c_.inject_cost_max);
  cpus_.cpu(rank, c_.overhead + path, [this, id = id] { on_posted(id); }, "fi_tsend (shm)");
}

void ShmProvider::on_posted(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  if (m.path == ShmPath::Inject) {
    // Copy into the shared inject buffer; the send is complete when the copy is.
    m.tx = step(m.tx, ShmTxEvent::CopyIn);
    cpus_.cpu_copy(m.src, static_cast<double>(m.bytes), [this, id] { on_copied_in(id); });
    return;
  }
  m.tx = step(m.tx, ShmTxEvent::CommandSent);
  sim_.after(ctx_.signal_latency(m.src, m.dst), [this, id] { on_arrived(id); });
}

void ShmProvider::on_copied_in(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.tx = step(m.tx, ShmTxEvent::CopiedIn);
  const double hop = ctx_.signal_latency(m.src, m.dst);
  if (m.injected) {  // fi_tinject: the call returns after the copy; no completion is written
    Callback f = std::move(m.injected);
    m.injected = nullptr;
    f();
  } else if (cq_.write) {
    cq_.write(send_completion(m, peer_index_));
  }
  sim_.after(hop, [this, id] { on_arrived(id); });
}

void ShmProvider::on_arrived(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.rx = step(m.rx, ShmRxEvent::Arrive);
  cpus_.cpu(m.dst, c_.overhead, [this, id] { on_progress(id); }, "shm progress (recv)");
}

void ShmProvider::on_progress(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  if (RxEntry* e = get_tag_or_queue(*owner_, peer_index_, m, id, [&] {
        n_.add(ShmStat::Unexpected);
        m.rx = step(m.rx, ShmRxEvent::Queued);
      }))
    deliver(id, e);
}

int ShmProvider::start_tag(RxEntry* e) {
  deliver(unexpected_record(msgs_, *e, "shm", "start_tag"), e);
  return 0;
}

void ShmProvider::deliver(std::uint64_t id, RxEntry* e) {
  ShmMsg& m = msgs_.at(id);
  if (e->size < m.bytes) n_.add(ShmStat::Truncate);
  m.entry = e;
  double bytes = static_cast<double>(std::min(m.bytes, e->size));
  int dst = m.dst;
  if (m.path == ShmPath::Inject) {
    m.rx = step(m.rx, ShmRxEvent::MatchedInject);
    cpus_.cpu_copy(dst, bytes, [this, id] { on_copied(id); }, MemSpace{}, e->buf.space);
    return;
  }
  m.rx = step(m.rx, ShmRxEvent::MatchedPeer);
  if (m.path == ShmPath::SingleCopy) {
    std::uint64_t pair = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(dst)) << 32) |
                         static_cast<std::uint32_t>(m.src);
    double attach = attached_.insert(pair).second ? c_.xpmem_attach_cost : 0.0;
    m.from = ctx_.local_memory(m.src);
    cpus_.cpu(dst, attach + c_.copy_cost + per_byte(bytes, c_.copy_rate), [this, id] { on_attached(id); },
              "shm XPMEM attach");
    return;
  }
  // GPU IPC: open (or find cached) the sender's handle, then a GPU copy engine moves the data.
  bool miss = ipc_cache_.insert({dst, m.src, m.sbuf.addr}).second;
  n_.add(miss ? ShmStat::IpcOpen : ShmStat::IpcCacheHit);
  MemSpace from = m.sbuf.space.kind == MemKind::Device ? m.sbuf.space : ctx_.local_memory(m.src);
  if (from.kind == MemKind::Device && from.index < 0) from.index = ctx_.gpu_of(m.src);
  m.from = from;
  double setup = (miss ? c_.ipc_open_cost : 0.0) + c_.gpu_copy_latency;
  cpus_.cpu(dst, setup, [this, id] { on_attached(id); }, "shm CMA setup");
}

void ShmProvider::on_attached(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.rx = step(m.rx, ShmRxEvent::Attached);
  cpus_.cpu_copy(m.dst, static_cast<double>(std::min(m.bytes, m.entry->size)), [this, id] { on_copied(id); }, m.from,
                 m.entry->buf.space);
}

void ShmProvider::on_copied(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.rx = step(m.rx, ShmRxEvent::Copied);
  const bool signal = m.path != ShmPath::Inject;  // the sender waits for the receiver's copy
  complete_recv(msgs_, id, *owner_, cq_, peer_index_);  // inject: the sender completed at its copy-in
  if (signal) peer_done(id);
}

// The receiver's completion signal reaches the sender, which reads it.
void ShmProvider::peer_done(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.tx = step(m.tx, ShmTxEvent::PeerDone);
  sim_.after(ctx_.signal_latency(m.dst, m.src), [this, id] { on_signal(id); });
}

void ShmProvider::on_signal(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.tx = step(m.tx, ShmTxEvent::SignalArrived);
  cpus_.cpu(m.src, c_.overhead, [this, id] { on_send_cq_read(id); }, "fi_cq_read (shm)");
}

void ShmProvider::on_send_cq_read(std::uint64_t id) {
  ShmMsg& m = msgs_.at(id);
  m.tx = step(m.tx, ShmTxEvent::CqRead);
  complete_send(msgs_, id, cq_, peer_index_);
}

int ShmProvider::discard_tag(RxEntry* e) {
  const std::uint64_t id = unexpected_record(msgs_, *e, "shm", "discard_tag");
  ShmMsg& m = msgs_.at(id);
  m.rx = step(m.rx, ShmRxEvent::Discard);
  const bool signal = m.path != ShmPath::Inject;
  owner_->free_entry(e);
  n_.add(ShmStat::Discards);
  if (signal) peer_done(id);
  free_if_done(msgs_, id);
  return 0;
}

void ShmProvider::add_counters(std::map<std::string, std::uint64_t>& c) const {
  n_.accumulate(c);  // mpi_truncate_errors: summed with the other providers' under one MTL
}

}  // namespace ompisim::ofi::shm
