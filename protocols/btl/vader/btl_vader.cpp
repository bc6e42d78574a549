#include "protocols/btl/vader/btl_vader.hpp"

namespace ompisim::btl::vader {

namespace {
constexpr std::uint64_t kFboxHdrBytes = 8;     // sizeof (mca_btl_vader_fbox_hdr_t): tag, seq, size
constexpr std::uint64_t kCacheLineBytes = 64;  // the x86-64 cache line (AMD Opteron, Intel Xeon)
}  // namespace

BtlVader::BtlVader(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const VaderMca& mca)
    : sim_(sim), ctx_(contexts), cpus_(cpus), mca_(mca) {
  // Open MPI v1.8.8 ompi/mca/btl/vader/btl_vader_component.c (XPMEM single copy): exclusivity HIGH, latency 1 us,
  // bandwidth 40000 Mb/s, flags RDMA | SEND_INPLACE (v4.1.6 adds SEND), rdma_pipeline_send_length and frag_size =
  // eager_limit, min_rdma_pipeline_size 32 KiB (without XPMEM; with XPMEM = eager_limit).
  // Sizes: btl_vader_eager_limit from the MCA parameters (default 32 KiB, v1.8.8 with XPMEM, where rndv_eager_limit,
  // max_send_size and min_rdma_pipeline_size are 32 KiB too; without XPMEM 4 KiB, rndv and max_send 32 KiB).
  caps_.eager_limit = static_cast<std::uint64_t>(mca.btl_vader_eager_limit.get());
  caps_.rndv_eager_limit = caps_.eager_limit;
  caps_.max_send_size = 32768;
  caps_.rdma_pipeline_send_length = caps_.eager_limit;
  caps_.rdma_pipeline_frag_size = caps_.eager_limit;
  caps_.min_rdma_pipeline_size = 32768;
  caps_.exclusivity = kExclusivityHigh;
  caps_.latency = 1;
  caps_.bandwidth = 40000;
  caps_.flags = kFlags;
}

void BtlVader::atomic_add(int rank, int target, Completion local_done, Completion at_target) {
  double s = ctx_.signal_latency(rank, target);
  cpus_.cpu(rank, 0, [this, s, l = std::move(local_done), a = std::move(at_target)]() mutable {
    sim_.after(s, std::move(a));
    sim_.after(s, std::move(l));
  }, "mca_btl_vader_atomic");
}

void BtlVader::add_counters(std::map<std::string, std::uint64_t>& c) const {
  auto own = counters_;
  own.set(VaderStat::XpmemAttaches, attaches());
  own.report(c);
}

double BtlVader::attach_cost(int rank, int peer, std::uint64_t addr, std::uint64_t bytes) {
  auto gran = static_cast<std::uint64_t>(mca_.btl_vader_xpmem_attach_granularity.get());
  return static_cast<double>(xpmem_.attach(rank, peer, addr, bytes, gran)) * ctx_.machine().os.xpmem_attach_cost;
}

double BtlVader::fifo_latency(int from, int to) const {
  // vader_fifo_write / vader_fifo_read (btl_vader_fifo.h, the paper's trunk of 2012 and v1.8.8): the sender swaps the
  // relative address of the fragment header into the receiver's fifo_tail and, the FIFO being empty, writes it to
  // fifo_head; the receiver's poll reads fifo_head (one line the sender wrote) and only then the header it points to
  // (tag, len, flags, the single-copy iovec; another line the sender wrote). Two dependent cache-line transfers where
  // a fast box, whose polled slot holds the header and the data, has one.
  return 2.0 * ctx_.signal_latency(from, to);
}

void BtlVader::send(const Descriptor& d, Completion local_done) {
  bool inline_send = d.wire_bytes() < static_cast<std::uint64_t>(mca_.btl_vader_max_inline_send.get());
  // Single copy needs the user data in one piece, the PML's leave to send in place (it then waits for
  // payload_consumed to know the buffer is free), and someone to tell the sender when it was taken. Anything else is
  // copied in and out.
  bool single_copy = !inline_send && d.data.buf.contiguous && (d.flags & desc_flag::InPlace);
  if (!single_copy) {
    counters_.add(inline_send ? VaderStat::FboxSends : VaderStat::CopySends);
    // Below max_inline_send the fragment goes by fast box (one hand-off); a copy-in fragment above it by the FIFO.
    double arrive = inline_send ? ctx_.signal_latency(d.src, d.dst) : fifo_latency(d.src, d.dst);
    // Fast boxes and fragments are in the sender's segment (fbox_out and the fragment free lists in my_segment, v1.8
    // btl_vader_module.c / btl_vader_fbox.h): the sender copies into its own memory, the receiver reads the data in
    // place (mca_btl_vader_check_fboxes hands the PML a segment inside fbox_in), from the sender's memory, except what
    // shares the cache line of the fast box's 8-byte header, which the poll that found the message brought over.
    const bool in_polled_line = inline_send && d.wire_bytes() + kFboxHdrBytes <= kCacheLineBytes;
    const MemSpace landed = in_polled_line ? MemSpace{} : ctx_.local_memory(d.src);
    cpus_.cpu_copy(d.src, static_cast<double>(d.data.length), [this, d, arrive, landed, local_done = std::move(local_done)]() mutable {
      if (local_done) local_done();
      sim_.after(arrive, [this, d, landed] { deliver_landed(d, landed); });
    }, d.data.buf.space);
    return;
  }
  // Single copy: pass the pointer; the receiver attaches and copies; the sender's buffer is free after that.
  counters_.add(VaderStat::SingleCopySends);
  Descriptor in = d;
  // The receiver copies straight out of the sender's buffer: from the sender's NUMA node (unless the buffer says where).
  if (in.data.buf.space.kind == MemKind::Host && in.data.buf.space.index < 0) in.data.buf.space = ctx_.local_memory(d.src);
  if (local_done) {
    in.rx_buffer = next_rx_++;
    inplace_[in.rx_buffer] = std::move(local_done);
  }
  double attach = d.data.length ? attach_cost(d.dst, d.src, d.data.buf.addr + d.data.offset, d.data.length) : 0.0;
  // A single-copy fragment always goes by the FIFO (mca_btl_vader_send: only fast-box fragments bypass it).
  sim_.after(fifo_latency(d.src, d.dst), [this, in, attach] {
    cpus_.cpu(in.dst, attach, [this, in] { deliver(in); }, "mca_btl_vader_poll_handle_frag");
  });
}

void BtlVader::payload_consumed(const Descriptor& d) {
  if (d.rx_buffer == 0) return;
  auto it = inplace_.find(d.rx_buffer);
  if (it == inplace_.end()) return;
  Completion c = std::move(it->second);
  inplace_.erase(it);
  // The receiver marks the header MCA_BTL_VADER_FLAG_COMPLETE and writes it back into the sender's FIFO
  // (vader_fifo_write_back, v1.8.8): the sender's poll reads its fifo_head, then that header.
  sim_.after(fifo_latency(d.dst, d.src), std::move(c));
}

void BtlVader::get(int initiator, int peer, std::uint64_t bytes, Buffer, Buffer remote, Completion done) {
  double attach = attach_cost(initiator, peer, remote.addr, bytes);
  cpus_.cpu(initiator, attach, [this, initiator, peer, bytes, done = std::move(done)]() mutable {
    cpus_.cpu_copy(initiator, static_cast<double>(bytes), std::move(done), ctx_.local_memory(peer));
  }, "mca_btl_vader_get_xpmem (attach)");
}

}  // namespace ompisim::btl::vader
