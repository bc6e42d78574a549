#include "protocols/ofi/shm/shm_provider.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::ofi::shm {

namespace {
double per_byte(double bytes, double rate) { return rate > 0 ? bytes / rate : 0.0; }
}  // namespace

void ShmProvider::tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  if (ctx_.node_of(rank) != ctx_.node_of(dst)) throw std::logic_error("shm: peer on another node");
  std::uint64_t id = next_++;
  // The receive buffer is not known yet: a GPU buffer on the sending side selects IPC here; one on the receiving side
  // only (a host send into a device receive) is moved by the receiver's IPC copy as well (see deliver()).
  Path p = buf.space.kind == MemKind::Device ? Path::Ipc
           : static_cast<double>(bytes) <= c_.inject_size ? Path::Inject
                                                          : Path::SingleCopy;
  msgs_.emplace(id, Msg{rank, dst, tag, bytes, context, buf, p, {}});
  static_assert(static_cast<int>(Path::Ipc) == static_cast<int>(ShmStat::Ipc));
  n_.add(static_cast<ShmStat>(p));
  double path = p == Path::Inject ? per_byte(static_cast<double>(bytes), c_.inject_rate) : 0.0;
  if (c_.inject_cost_max > 0) path = std::min(path, c_.inject_cost_max);
  cpus_.cpu(rank, c_.overhead + path, [this, id, rank, dst] {
    double hop = ctx_.signal_latency(rank, dst);
    if (msgs_.at(id).path == Path::Inject) {
      // Copy into the shared inject buffer; the send is complete when the copy is.
      cpus_.cpu_copy(rank, static_cast<double>(msgs_.at(id).bytes), [this, id, hop] {
        send_done(id);
        sim_.after(hop, [this, id] { arrive(id); });
      });
      return;
    }
    sim_.after(hop, [this, id] { arrive(id); });
  }, "fi_tsend (shm)");
}

void ShmProvider::tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) {
  if (buf.space.kind == MemKind::Device || static_cast<double>(bytes) > c_.inject_size)
    throw std::logic_error("shm: fi_tinject of " + std::to_string(bytes) + " B beyond the inject size or from a device");
  const std::uint64_t id = next_;
  tsend(rank, dst, tag, bytes, buf, 0);  // the inject path (a host payload within shm_inject_size)
  msgs_.at(id).injected = std::move(injected);
}

void ShmProvider::arrive(std::uint64_t id) {
  int dst = msgs_.at(id).dst;
  cpus_.cpu(dst, c_.overhead, [this, id] {
    const Msg& m = msgs_.at(id);
    RxEntry* e = nullptr;
    if (owner_->get_tag(m.dst, peer_index_, m.src, m.tag, m.bytes, &e) == 0) {
      deliver(id, e);
      return;
    }
    e->peer_context = id;
    n_.add(ShmStat::Unexpected);
    owner_->queue_tag(e);
  }, "shm progress (recv)");
}

int ShmProvider::start_tag(RxEntry* e) {
  if (!msgs_.count(e->peer_context)) throw ProtocolError("shm", "no unexpected message for the entry", "start_tag");
  deliver(e->peer_context, e);
  return 0;
}

void ShmProvider::deliver(std::uint64_t id, RxEntry* e) {
  Msg& m = msgs_.at(id);
  if (e->size < m.bytes) n_.add(ShmStat::Truncate);
  double bytes = static_cast<double>(std::min(m.bytes, e->size));
  int dst = m.dst;
  if (m.path == Path::Inject) {
    cpus_.cpu_copy(dst, bytes, [this, id, e] { recv_done(id, e); }, MemSpace{}, e->buf.space);
    return;
  }
  if (m.path == Path::SingleCopy) {
    std::uint64_t pair = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(dst)) << 32) |
                         static_cast<std::uint32_t>(m.src);
    double attach = attached_.insert(pair).second ? c_.xpmem_attach_cost : 0.0;
    MemSpace from = ctx_.local_memory(m.src);
    cpus_.cpu(dst, attach + c_.copy_cost + per_byte(bytes, c_.copy_rate), [this, id, e, dst, bytes, from] {
      cpus_.cpu_copy(dst, bytes, [this, id, e] {
        recv_done(id, e);
        send_done(id);
      }, from, e->buf.space);
    }, "shm XPMEM attach");
    return;
  }
  // GPU IPC: open (or find cached) the sender's handle, then a GPU copy engine moves the data.
  bool miss = ipc_cache_.insert({dst, m.src, m.sbuf.addr}).second;
  n_.add(miss ? ShmStat::IpcOpen : ShmStat::IpcCacheHit);
  MemSpace from = m.sbuf.space.kind == MemKind::Device ? m.sbuf.space : ctx_.local_memory(m.src);
  if (from.kind == MemKind::Device && from.index < 0) from.index = ctx_.gpu_of(m.src);
  double setup = (miss ? c_.ipc_open_cost : 0.0) + c_.gpu_copy_latency;
  cpus_.cpu(dst, setup, [this, id, e, dst, bytes, from] {
    cpus_.cpu_copy(dst, bytes, [this, id, e] {
      recv_done(id, e);
      send_done(id);
    }, from, e->buf.space);
  }, "shm CMA setup");
}

void ShmProvider::recv_done(std::uint64_t id, RxEntry* e) {
  const Msg& m = msgs_.at(id);
  CqEntry ce{m.dst, e->context, CqEntry::Recv | CqEntry::Tagged, std::min(m.bytes, e->size), m.tag, m.src, peer_index_};
  owner_->free_entry(e);
  if (m.path == Path::Inject) msgs_.erase(id);  // the sender finished at its copy-in
  if (cq_.write) cq_.write(ce);
}

void ShmProvider::send_done(std::uint64_t id) {
  const Msg& m = msgs_.at(id);
  CqEntry ce{m.src, m.context, CqEntry::Send | CqEntry::Tagged, m.bytes, m.tag, m.dst, peer_index_};
  if (m.path == Path::Inject) {
    if (m.injected) {  // fi_tinject: the call returns after the copy; no completion is written
      Callback f = std::move(msgs_.at(id).injected);
      f();
      return;
    }
    if (cq_.write) cq_.write(ce);
    return;
  }
  // The receiver's completion signal reaches the sender, which reads it.
  int src = m.src, dst = m.dst;
  msgs_.erase(id);
  sim_.after(ctx_.signal_latency(dst, src), [this, src, ce] {
    cpus_.cpu(src, c_.overhead, [this, ce] {
      if (cq_.write) cq_.write(ce);
    }, "fi_cq_read (shm)");
  });
}

int ShmProvider::discard_tag(RxEntry* e) {
  auto it = msgs_.find(e->peer_context);
  if (it == msgs_.end()) throw ProtocolError("shm", "no unexpected message for the entry", "discard_tag");
  std::uint64_t id = e->peer_context;
  owner_->free_entry(e);
  n_.add(ShmStat::Discards);
  if (it->second.path == Path::Inject) msgs_.erase(it);
  else send_done(id);
  return 0;
}

void ShmProvider::add_counters(std::map<std::string, std::uint64_t>& c) const {
  n_.accumulate(c);  // mpi_truncate_errors: summed with the other providers' under one MTL
}

}  // namespace ompisim::ofi::shm
