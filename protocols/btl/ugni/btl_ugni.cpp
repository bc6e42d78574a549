#include "protocols/btl/ugni/btl_ugni.hpp"

namespace ompisim::btl::ugni {

BtlUgni::BtlUgni(const Contexts& contexts, CpuTimeline& cpus, gemini::Gni& nic, const UgniMca& mca)
    : cpus_(cpus), mca_(mca),
      gni_(nic, static_cast<std::uint16_t>(mca.btl_ugni_smsg_max_credits.value), 0,
           gemini::nic(nic.fabric().network()).software.btl_ugni_overhead) {
  const UgniMca& m = mca;
  // Open MPI trunk r26242 (bd8b4f7f1e) ompi/mca/btl/ugni/btl_ugni_component.c, the revision whose eager-get pool the
  // Gemini paper's §IV.C describes (validation/notes.md, "Latency that falls with message size"): eager_limit,
  // rndv_eager_limit, max_send_size and rdma_pipeline_send_length 8 KiB (eager_limit from btl_ugni_eager_limit; the
  // others follow it in the model), rdma_pipeline_frag_size 2 MiB, min_rdma_pipeline_size 8 KiB, flags SEND | RDMA,
  // bandwidth 40000 Mb/s, latency 2 us (constants in the component: Open MPI does not read them from the NIC),
  // exclusivity MCA_BTL_EXCLUSIVITY_HIGH (either way ugni does not reach on-node peers).
  caps_.eager_limit = static_cast<std::uint64_t>(m.btl_ugni_eager_limit.value);
  caps_.rndv_eager_limit = caps_.eager_limit;
  caps_.max_send_size = caps_.eager_limit;
  caps_.rdma_pipeline_send_length = caps_.eager_limit;
  caps_.rdma_pipeline_frag_size = 2 << 20;
  caps_.min_rdma_pipeline_size = 8 << 10;
  caps_.exclusivity = kExclusivityHigh;
  caps_.latency = 2;
  caps_.bandwidth = 40000;
  caps_.flags = kFlags;
  smsg_limit_ = effective_smsg_limit(m, contexts.ranks());
}

// Open MPI trunk r26242 btl_ugni_add_procs.c: eager_frags_send and eager_frags_recv, each grown from eager_num by
// eager_inc up to eager_max (btl_ugni_frag.h: a sender allocates from the first, a receiver from the second).
EagerPool& BtlUgni::pool(int rank, Pool which) {
  const std::int64_t key = 2 * static_cast<std::int64_t>(rank) + (which == Pool::Recv ? 1 : 0);
  auto it = pools_.find(key);
  if (it != pools_.end()) return it->second;
  const UgniMca& m = mca_;
  return pools_
      .emplace(key, EagerPool(static_cast<std::uint32_t>(m.btl_ugni_eager_num.value),
                               static_cast<std::uint32_t>(m.btl_ugni_eager_inc.value),
                               static_cast<std::uint32_t>(m.btl_ugni_eager_max.value)))
      .first->second;
}

void BtlUgni::send(const Descriptor& f, Completion local_done) {
  std::uint64_t total = f.wire_bytes();
  if (total <= smsg_limit_) {
    counters_.add(UgniStat::ShortSends);
    // prepare_src: copy into the send fragment, then SMSG (TAG_SEND).
    const std::uint32_t id = shorts_.create(f, std::move(local_done));
    cpus_.cpu_copy(f.src, static_cast<double>(f.data.length), [this, id] {
      ShortSend& s = shorts_[id];
      gni_.smsg_send(s.f.src, s.f.dst, s.f.wire_bytes(), std::move(s.local_done), [this, id] {
        const Descriptor in = shorts_[id].f;
        shorts_.erase(id);
        deliver(in);
      });
    });
    return;
  }
  // Eager get: a registered buffer from the sender's pool.
  counters_.add(UgniStat::EagerGets);
  auto go = [this, f, local_done = std::move(local_done)]() mutable {
    cpus_.cpu_copy(f.src, static_cast<double>(f.data.length), [this, f, local_done = std::move(local_done)]() mutable {
      if (local_done) local_done();  // the user buffer was copied: the PML may complete the send
      gni_.smsg_send(f.src, f.dst, kCtrlBytes + f.hdr.len, nullptr, [this, f] {
        // INIT_GET arrived: the receiver takes a buffer from its pool and pulls the data.
        // The receiver pulls by FMA GET whatever the size (r26242 btl_ugni_component.c mca_btl_ugni_start_eager_get
        // posts GNI_POST_FMA_GET; btl_ugni_fma_limit picks FMA or BTE for the long protocol's GET only).
        auto pull = [this, f] {
          gni_.rdma(gemini::RdmaOp::Get, false, f.dst, f.src, f.data.length, [this, f] {
            // RDMA_COMPLETE frees the sender's eager buffer.
            gni_.smsg_send(f.dst, f.src, kCtrlBytes, nullptr, [this, f] { pool(f.src, Pool::Send).give_back(); });
            Descriptor in = f;
            in.rx_buffer = next_rx_++;
            eager_in_use_.emplace(in.rx_buffer, f.dst);  // the receiver's pool buffer now holds the payload
            deliver(in);
          });
        };
        switch (pool(f.dst, Pool::Recv).take(pull)) {
          case EagerPool::Result::Got: pull(); break;
          case EagerPool::Result::Grew: cpus_.cpu(f.dst, gni_.nic().params().registration_cost, pull, "mca_btl_ugni_eager_pool_grow"); break;
          case EagerPool::Result::Wait: break;
        }
      });
    });
  };
  auto shared = std::make_shared<decltype(go)>(std::move(go));
  switch (pool(f.src, Pool::Send).take([shared] { (*shared)(); })) {
    case EagerPool::Result::Got: (*shared)(); break;
    case EagerPool::Result::Grew: cpus_.cpu(f.src, gni_.nic().params().registration_cost, [shared] { (*shared)(); }, "mca_btl_ugni_eager_pool_grow"); break;
    case EagerPool::Result::Wait: break;
  }
}

void BtlUgni::payload_consumed(const Descriptor& f) {
  if (f.rx_buffer == 0) return;  // came by SMSG: the mailbox slot was freed on arrival
  auto it = eager_in_use_.find(f.rx_buffer);
  if (it == eager_in_use_.end()) throw ProtocolError("btl/ugni eager buffer", "free", "payload_consumed twice");
  pool(it->second, Pool::Recv).give_back();  // the receiver's eager buffer goes back to its pool
  eager_in_use_.erase(it);
}

void BtlUgni::prepare_rdma(int rank, Buffer b, std::uint64_t bytes, Completion ready) {
  gni_.register_buffer(rank, b, bytes, std::move(ready));
}

void BtlUgni::get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) {
  bool bte = bytes > static_cast<std::uint64_t>(mca_.btl_ugni_fma_limit.value);
  bool aligned = local.addr % 4 == 0 && remote.addr % 4 == 0 && bytes % 4 == 0;
  if (aligned && bytes <= static_cast<std::uint64_t>(mca_.btl_ugni_get_limit.value)) {
    counters_.add(UgniStat::LongGets);
    gni_.rdma(gemini::RdmaOp::Get, bte, initiator, peer, bytes, std::move(done));
    return;
  }
  // PUT fallback: PUT_INIT to the data owner, which PUTs and answers RDMA_COMPLETE.
  counters_.add(UgniStat::PutFallbacks);
  gni_.smsg_send(initiator, peer, kCtrlBytes, nullptr, [this, initiator, peer, bytes, bte, done = std::move(done)]() mutable {
    gni_.rdma(gemini::RdmaOp::Put, bte, peer, initiator, bytes, [this, initiator, peer, done = std::move(done)]() mutable {
      gni_.smsg_send(peer, initiator, kCtrlBytes, nullptr, std::move(done));
    });
  });
}

void BtlUgni::atomic_add(int rank, int target, Completion local_done, Completion at_target) {
  gni_.amo(rank, target, std::move(local_done), std::move(at_target));
}

Statistics<UgniStat, kStatistics.size()> BtlUgni::snapshot() const {
  auto v = counters_;
  v.set(UgniStat::Smsg, gni_.smsg_sent);
  v.set(UgniStat::SmsgLocalEvents, gni_.smsg_local_events);
  v.set(UgniStat::CreditWaits, gni_.credit_waits);
  v.set(UgniStat::Endpoints, gni_.endpoints());
  v.set(UgniStat::Registrations, gni_.registrations);
  v.set(UgniStat::EagerBuffersHeld, eager_buffers_held());
  return v;
}

void BtlUgni::add_counters(std::map<std::string, std::uint64_t>& c) const { snapshot().report(c); }

}  // namespace ompisim::btl::ugni
