#include "protocols/btl/ugni/btl_ugni.hpp"

namespace ompisim::btl::ugni {

BtlUgni::BtlUgni(const Contexts& contexts, CpuTimeline& cpus, gemini::Gni& nic, const UgniMca& mca)
    : cpus_(cpus), mca_(mca),
      gni_(nic, static_cast<std::uint16_t>(mca.btl_ugni_smsg_max_credits.get()), nullptr,
           &gemini::nic(nic.fabric().network()).software.btl_ugni_overhead) {
  const UgniMca& m = mca;
  // Open MPI trunk r26242 (bd8b4f7f1e) ompi/mca/btl/ugni/btl_ugni_component.c, the revision whose eager-get pool the
  // Gemini paper's §IV.C describes (validation/notes.md, "Latency that falls with message size"): eager_limit,
  // rndv_eager_limit, max_send_size and rdma_pipeline_send_length 8 KiB (eager_limit from btl_ugni_eager_limit; the
  // others follow it in the model), rdma_pipeline_frag_size 2 MiB, min_rdma_pipeline_size 8 KiB, flags SEND | RDMA,
  // bandwidth 40000 Mb/s, latency 2 us (constants in the component: Open MPI does not read them from the NIC),
  // exclusivity MCA_BTL_EXCLUSIVITY_HIGH (either way ugni does not reach on-node peers).
  caps_.eager_limit = static_cast<std::uint64_t>(m.btl_ugni_eager_limit.get());
  caps_.rndv_eager_limit = caps_.eager_limit;
  caps_.max_send_size = caps_.eager_limit;
  caps_.rdma_pipeline_send_length = caps_.eager_limit;
  caps_.rdma_pipeline_frag_size = 2 << 20;
  caps_.min_rdma_pipeline_size = 8 << 10;
  caps_.exclusivity = kExclusivityHigh;
  caps_.latency = 2;
  caps_.bandwidth = 40000;
  caps_.flags = kFlags;
  caps_.nic_atomics = true;  // GNI_PostFMA AMOs, executed by the target Gemini, on the node too
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
      .emplace(key, EagerPool(static_cast<std::uint32_t>(m.btl_ugni_eager_num.get()),
                               static_cast<std::uint32_t>(m.btl_ugni_eager_inc.get()),
                               static_cast<std::uint32_t>(m.btl_ugni_eager_max.get())))
      .first->second;
}

// Short: COPYING -> SMSG_SENT -> COMPLETE. Eager get: AWAIT_SEND_BUFFER -> ... -> COMPLETE (ugni_frag.hpp).
void BtlUgni::send(const Descriptor& f, Completion local_done) {
  const std::uint32_t id = frags_.create(FragState::Idle, f, std::move(local_done));
  SendFrag& s = frags_[id];
  if (f.wire_bytes() <= smsg_limit_) {
    counters_.add(UgniStat::ShortSends);
    s.state = step(s.state, FragEvent::StartShort);
    // prepare_src: copy into the send fragment, then SMSG (TAG_SEND).
    cpus_.cpu_copy(f.src, static_cast<double>(f.data.length), [this, id] { on_copied(id); }, f.data.buf.space);
    return;
  }
  counters_.add(UgniStat::EagerGets);
  s.state = step(s.state, FragEvent::StartEager);
  take_buffer(f.src, Pool::Send, id);  // a registered buffer from the sender's pool
}

// A buffer of `rank`'s list: free now, after growing the list (the rank's CPU pays a registration), or, when the list
// is at its maximum, once one comes back (the pool calls on_buffer then).
void BtlUgni::take_buffer(int rank, Pool which, std::uint32_t id) {
  switch (pool(rank, which).take([this, id] { on_buffer(id); })) {
    case EagerPool::Result::Got: on_buffer(id); break;
    case EagerPool::Result::Grew:
      counters_.add(UgniStat::EagerPoolGrows);
      cpus_.cpu(rank, gni_.nic().params().registration_cost, [this, id] { on_buffer(id); },
                "mca_btl_ugni_eager_pool_grow");
      break;
    case EagerPool::Result::Wait: counters_.add(UgniStat::EagerBufferWaits); break;
  }
}

void BtlUgni::on_buffer(std::uint32_t id) {
  SendFrag& s = frags_[id];
  s.state = step(s.state, FragEvent::BufferReady);
  if (s.state == FragState::EagerCopying) {
    cpus_.cpu_copy(s.d.src, static_cast<double>(s.d.data.length), [this, id] { on_copied(id); }, s.d.data.buf.space);
    return;
  }
  // PULLING: the receiver pulls by FMA GET whatever the size (r26242 btl_ugni_component.c mca_btl_ugni_start_eager_get
  // posts GNI_POST_FMA_GET; btl_ugni_fma_limit picks FMA or BTE for the long protocol's GET only).
  gni_.rdma(gemini::RdmaOp::Get, false, s.d.dst, s.d.src, s.d.data.length, [this, id] { on_get_done(id); });
}

void BtlUgni::on_copied(std::uint32_t id) {
  SendFrag& s = frags_[id];
  s.state = step(s.state, FragEvent::Copied);
  if (s.state == FragState::SmsgSent) {
    gni_.smsg_send(s.d.src, s.d.dst, s.d.wire_bytes(), std::move(s.local_done), [this, id] { on_send_arrived(id); });
    return;
  }
  // INIT_GET_SENT: the user buffer was copied, the PML may complete the send.
  if (Completion done = std::move(s.local_done)) done();
  gni_.smsg_send(s.d.src, s.d.dst, kCtrlBytes + s.d.hdr.len, nullptr, [this, id] { on_init_get(id); });
}

void BtlUgni::on_send_arrived(std::uint32_t id) {
  SendFrag& s = frags_[id];
  s.state = step(s.state, FragEvent::SendArrived);
  const Descriptor in = s.d;
  frags_.erase(id);
  deliver_landed(in, MemSpace{});  // in the receiver's SMSG mailbox
}

// INIT_GET arrived: the receiver takes a buffer from its receive list and pulls the data.
void BtlUgni::on_init_get(std::uint32_t id) {
  SendFrag& s = frags_[id];
  s.state = step(s.state, FragEvent::InitGetArrived);
  take_buffer(s.d.dst, Pool::Recv, id);
}

void BtlUgni::on_get_done(std::uint32_t id) {
  SendFrag& s = frags_[id];
  s.state = step(s.state, FragEvent::GetDone);
  gni_.smsg_send(s.d.dst, s.d.src, kCtrlBytes, nullptr, [this, id] { on_rdma_complete(id); });
  Descriptor in = s.d;
  in.rx_buffer = next_rx_++;
  eager_in_use_.emplace(in.rx_buffer, in.dst);  // the receiver's pool buffer now holds the payload
  deliver_landed(in, MemSpace{});
}

// RDMA_COMPLETE frees the sender's eager buffer.
void BtlUgni::on_rdma_complete(std::uint32_t id) {
  SendFrag& s = frags_[id];
  s.state = step(s.state, FragEvent::RdmaCompleteArrived);
  const int src = s.d.src;
  frags_.erase(id);
  pool(src, Pool::Send).give_back();
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

// GET_POSTED -> COMPLETE, or the PUT fallback: PUT_INIT_SENT -> PUTTING -> RDMA_COMPLETE_SENT -> COMPLETE.
void BtlUgni::get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) {
  bool bte = bytes > static_cast<std::uint64_t>(mca_.btl_ugni_fma_limit.get());
  bool aligned = local.addr % 4 == 0 && remote.addr % 4 == 0 && bytes % 4 == 0;
  const std::uint32_t id = rdmas_.create(RdmaState::Idle, initiator, peer, bytes, std::move(done), bte);
  RdmaFrag& r = rdmas_[id];
  if (bte) counters_.add(UgniStat::BteTransfers);
  if (aligned && bytes <= static_cast<std::uint64_t>(mca_.btl_ugni_get_limit.get())) {
    counters_.add(UgniStat::LongGets);
    r.state = step(r.state, RdmaEvent::StartGet);
    gni_.rdma(gemini::RdmaOp::Get, bte, initiator, peer, bytes, [this, id] { on_rdma_done(id); });
    return;
  }
  // PUT fallback: PUT_INIT to the data owner, which PUTs and answers RDMA_COMPLETE.
  counters_.add(UgniStat::PutFallbacks);
  r.state = step(r.state, RdmaEvent::StartPutFallback);
  gni_.smsg_send(initiator, peer, kCtrlBytes, nullptr, [this, id] { on_put_init(id); });
}

void BtlUgni::on_put_init(std::uint32_t id) {
  RdmaFrag& r = rdmas_[id];
  r.state = step(r.state, RdmaEvent::PutInitArrived);
  gni_.rdma(gemini::RdmaOp::Put, r.bte, r.peer, r.initiator, r.bytes, [this, id] { on_rdma_done(id); });
}

void BtlUgni::on_rdma_done(std::uint32_t id) {
  RdmaFrag& r = rdmas_[id];
  r.state = step(r.state, RdmaEvent::RdmaDone);
  if (r.state == RdmaState::Complete) return finish_rdma(id);
  gni_.smsg_send(r.peer, r.initiator, kCtrlBytes, nullptr, [this, id] { on_put_complete(id); });  // RDMA_COMPLETE
}

void BtlUgni::on_put_complete(std::uint32_t id) {
  RdmaFrag& r = rdmas_[id];
  r.state = step(r.state, RdmaEvent::RdmaCompleteArrived);
  finish_rdma(id);
}

void BtlUgni::finish_rdma(std::uint32_t id) {
  Completion done = std::move(rdmas_[id].done);
  rdmas_.erase(id);
  if (done) done();
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
