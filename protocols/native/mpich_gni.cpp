#include "protocols/native/mpich_gni.hpp"

namespace ompisim::native {

constexpr std::uint64_t kHdr = 48;  // MPICH packet header + GNI tag

MpichGni::MpichGni(World& w, const MpichGniMca& mca)
    : w_(w), mca_(mca), gni_(gemini::Gni::of(w), static_cast<std::uint16_t>(mca.mpich_gni_smsg_credits.value)),
      sw_(gemini::nic(w.machine()).software.mpich_sw_overhead), ranks_(static_cast<std::size_t>(w.ranks())) {
  double v = mca.mpich_gni_max_vshort_msg_size.value;
  vshort_ = static_cast<std::uint64_t>(v > 0 ? v : ugni_auto_smsg_limit(w.ranks()));
}

StackStats MpichGni::stats() const {
  StackStats s = st_;
  s.live_requests = sends_.size() + recvs_.size();
  for (auto& r : ranks_) s.unexpected_now += r.mq.unexpected_size(), s.posted_now += r.mq.posted_size();
  s.counters["smsg"] = gni_.smsg_sent;
  s.counters["smsg_local_events"] = gni_.smsg_local_events;
  s.counters["rdma_get"] = gni_.rdma_gets;
  s.counters["rdma_put"] = gni_.rdma_puts;
  s.counters["endpoints"] = gni_.endpoints();
  return s;
}

void MpichGni::amo_add(int rank, int target, Completion local_done, Completion at_target) {
  ++st_.amos;
  gni_.amo(rank, target, std::move(local_done), std::move(at_target));
}

void MpichGni::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  ++st_.sends_posted;
  std::uint64_t sid = next_++;
  sends_[sid] = {rank, dst, std::move(done)};
  std::uint32_t seq = ranks_[rank].seq[dst]++;
  w_.cpu(rank, sw_, [this, rank, dst, tag, bytes, buf, sid, seq] {
    if (w_.same_node(rank, dst)) {
      double signal = w_.signal_latency(rank, dst);
      if (bytes <= static_cast<std::uint64_t>(mca_.mpich_smp_single_copy_size.value)) {
        ++st_.counters["shm_eager"];
        w_.cpu_copy(rank, static_cast<double>(bytes), [this, rank, dst, tag, bytes, buf, sid, seq, signal] {
          w_.sim().after(signal, [this, rank, dst, tag, bytes, buf, sid, seq] {
            arrive(dst, seq, Msg{rank, tag, Kind::Eager, bytes, sid, buf});
          });
          finish_send(sid);
        });
      } else {
        ++st_.counters["shm_lmt"];
        w_.sim().after(signal, [this, rank, dst, tag, bytes, buf, sid, seq] {
          arrive(dst, seq, Msg{rank, tag, Kind::Rts, bytes, sid, buf});
        });
      }
      return;
    }
    if (bytes + kHdr <= vshort_) {
      ++st_.counters["smsg_eager"];
      gni_.smsg_send(rank, dst, bytes + kHdr, [this, sid] { finish_send(sid); },
                     [this, rank, dst, tag, bytes, buf, sid, seq] { arrive(dst, seq, Msg{rank, tag, Kind::Eager, bytes, sid, buf}); });
      return;
    }
    ++st_.counters["rndv_get"];
    gni_.register_buffer(rank, buf, bytes, [this, rank, dst, tag, bytes, buf, sid, seq] {
      gni_.smsg_send(rank, dst, kHdr, nullptr,
                     [this, rank, dst, tag, bytes, buf, sid, seq] { arrive(dst, seq, Msg{rank, tag, Kind::Rts, bytes, sid, buf}); });
    });
  });
}

void MpichGni::irecv(int rank, int src, int tag, std::uint64_t, Buffer buf, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t rid = next_++;
  recvs_[rid] = {rank, buf, std::move(done)};
  w_.cpu(rank, sw_, [this, rank, src, tag, rid] {
    auto m = ranks_[rank].mq.post(Posted{src, tag, rid});
    if (m) deliver(rid, rank, *m, true);
  });
}

void MpichGni::arrive(int dst, std::uint32_t seq, const Msg& m) {
  w_.cpu(dst, sw_, [this, dst, seq, m] {
    std::vector<Msg> unexpected;
    auto out = ranks_[dst].mq.arrive(seq, m, &unexpected);
    for (auto& x : out) deliver(x.recv.rid, dst, x.msg, false);
    // Unexpected eager data (this message, or held ones it released) is copied out of the mailbox on arrival.
    for (auto& u : unexpected)
      if (u.kind == Kind::Eager && u.bytes > 0) w_.cpu_copy(dst, static_cast<double>(u.bytes), [] {});
  });
}

void MpichGni::deliver(std::uint64_t rid, int dst, const Msg& m, bool) {
  if (m.kind == Kind::Eager) {
    w_.cpu_copy(dst, static_cast<double>(m.bytes), [this, rid] { finish_recv(rid); });
    return;
  }
  int src = m.src;
  std::uint64_t sid = m.sid, bytes = m.bytes;
  if (w_.same_node(src, dst)) {
    // LMT: XPMEM single copy by the receiver (attach once per 2 MiB region, cached), then DONE.
    auto gran = static_cast<std::uint64_t>(mca_.mpich_smp_xpmem_attach_granularity.value);
    double attach = static_cast<double>(xpmem_.attach(dst, src, m.sbuf.addr, bytes, gran)) * w_.machine().os.xpmem_attach_cost;
    w_.cpu(dst, attach, [this, rid, dst, bytes, sid, src] {
      w_.cpu_copy(dst, static_cast<double>(bytes), [this, rid, sid, src, dst] {  // from src's buffer, on its NUMA node
        finish_recv(rid);
        w_.sim().after(w_.signal_latency(dst, src), [this, sid] {
          w_.cpu(sends_.at(sid).rank, sw_, [this, sid] { finish_send(sid); });
        });
      }, w_.local_memory(src));
    });
    return;
  }
  Buffer rbuf = recvs_.at(rid).buf;
  bool bte = bytes > static_cast<std::uint64_t>(mca_.mpich_gni_rdma_threshold.value);
  bool aligned = rbuf.addr % 4 == 0 && m.sbuf.addr % 4 == 0 && bytes % 4 == 0;
  gni_.register_buffer(dst, rbuf, bytes, [this, rid, dst, src, bytes, sid, bte, aligned] {
    if (aligned) {
      gni_.rdma(gemini::RdmaOp::Get, bte, dst, src, bytes, [this, rid, dst, src, sid] {
        finish_recv(rid);
        gni_.smsg_send(dst, src, kHdr, nullptr, [this, sid] { finish_send(sid); });
      });
      return;
    }
    ++st_.counters["rndv_put_fallback"];
    gni_.smsg_send(dst, src, kHdr, nullptr, [this, rid, dst, src, bytes, sid, bte] {
      gni_.rdma(gemini::RdmaOp::Put, bte, src, dst, bytes, [this, rid, dst, src, sid] {
        finish_send(sid);
        gni_.smsg_send(src, dst, kHdr, nullptr, [this, rid] { finish_recv(rid); });
      });
    });
  });
}

void MpichGni::finish_send(std::uint64_t sid) { complete_request(sends_, sid, st_.sends_completed); }
void MpichGni::finish_recv(std::uint64_t rid) { complete_request(recvs_, rid, st_.recvs_completed); }

}  // namespace ompisim::native
