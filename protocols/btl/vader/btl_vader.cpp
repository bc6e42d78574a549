#include "protocols/btl/vader/btl_vader.hpp"

namespace ompisim::btl::vader {

BtlVader::BtlVader(World& w, const McaParams& mca) : w_(w), mca_(mca) {
  caps_.eager_limit = static_cast<std::uint64_t>(mca.btl_vader_eager_limit.value);
  caps_.rndv_eager_limit = caps_.eager_limit;
  caps_.max_send_size = 32768;
  caps_.has_get = true;
  caps_.exclusivity = 65536;
}

double BtlVader::attach_cost(int rank, int peer, std::uint64_t addr, std::uint64_t bytes) {
  auto gran = static_cast<std::uint64_t>(mca_.btl_vader_xpmem_attach_granularity.value);
  return static_cast<double>(xpmem_.attach(rank, peer, addr, bytes, gran)) * w_.machine().os.xpmem_attach_cost;
}

void BtlVader::send(const Frag& f, Completion local_done) {
  FragSink* sink = sink_;
  double signal = w_.signal_latency(f.src, f.dst);
  bool inline_send = kHdrBytes + f.payload < static_cast<std::uint64_t>(mca_.btl_vader_max_inline_send.value);
  // Single copy needs the user data in one piece and someone to tell the sender when it was taken: MATCH fragments
  // of contiguous buffers. Anything else (RNDV/FRAG of non-contiguous data) is copied in and out.
  bool single_copy = !inline_send && f.sbuf.contiguous && f.hdr == pml::Hdr::Match;
  if (!single_copy) {
    ++(inline_send ? fbox_sends : copy_sends);
    w_.cpu_copy(f.src, static_cast<double>(f.payload), [this, f, sink, signal, local_done = std::move(local_done)]() mutable {
      if (local_done) local_done();
      w_.sim().after(signal, [sink, f] { sink->on_frag(f); });
    });
    return;
  }
  // Single copy: pass the pointer; the receiver attaches and copies; the sender's buffer is free after that.
  ++single_copy_sends;
  if (local_done) inplace_[f.send_req] = std::move(local_done);  // one MATCH per send request
  double attach = f.payload ? attach_cost(f.dst, f.src, f.sbuf.addr, f.payload) : 0.0;
  w_.sim().after(signal, [this, sink, f, attach] { w_.cpu(f.dst, attach, [sink, f] { sink->on_frag(f); }); });
}

void BtlVader::payload_consumed(const Frag& f) {
  if (f.hdr != pml::Hdr::Match) return;
  auto it = inplace_.find(f.send_req);
  if (it == inplace_.end()) return;
  Completion c = std::move(it->second);
  inplace_.erase(it);
  w_.sim().after(w_.signal_latency(f.dst, f.src), std::move(c));
}

void BtlVader::get(int initiator, int peer, std::uint64_t bytes, Buffer, Buffer remote, Completion done) {
  double attach = attach_cost(initiator, peer, remote.addr, bytes);
  w_.cpu(initiator, attach, [this, initiator, bytes, done = std::move(done)]() mutable {
    w_.cpu_copy(initiator, static_cast<double>(bytes), std::move(done));
  });
}

}  // namespace ompisim::btl::vader
