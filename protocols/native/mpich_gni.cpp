#include "protocols/native/mpich_gni.hpp"

namespace ompisim::native {

constexpr std::uint64_t kHdr = 48;  // MPICH packet header + GNI tag

MpichGni::MpichGni(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies,
                   gemini::Gni& nic, const MpichGniMca& mca)
    : sim_(sim), ctx_(contexts), cpus_(cpus), copies_(copies), mca_(mca),
      sp_(gemini::nic(nic.fabric().network()).software),
      gni_(nic, static_cast<std::uint16_t>(mca.mpich_gni_smsg_credits.value), sp_.mpt_smsg_rate),
      sw_(sp_.mpich_sw_overhead), lib_(contexts.ranks()) {
  vshort_ = effective_smsg_limit(mca.mpich_gni_max_vshort_msg_size.value, contexts.ranks(), ugni_auto_smsg_limit);
  set_switch_costs();
}

// Between nodes, E1 and the rendezvous meet at S = MPICH_GNI_MAX_EAGER_MSG_SIZE (README, "Per-path costs"): Cray's
// default switches where the rendezvous becomes the cheaper path, so the rendezvous' per-message cost, which the
// paper's data leave open (one size, 4 MB), is the one that makes the two equal there. When E1 carries S (vshort limit
// below S + hdr) the two share the SMSG descriptor, the GET and the match; E1 adds a copy in, a copy out and, on the
// receiver before the match, the SMSG that frees the sender's DMA buffer; the rendezvous adds its per-byte costs; the
// per-message cost is the difference.
void MpichGni::set_switch_costs() {
  const auto eager = static_cast<std::uint64_t>(mca_.mpich_gni_max_eager_msg_size.value);
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

void MpichGni::amo_add(int rank, int target, Completion local_done, Completion at_target) {
  ++amos_;
  gni_.amo(rank, target, std::move(local_done), std::move(at_target));
}

void MpichGni::start_send(const mpi::P2P& p, Completion done) {
  const int rank = p.rank, dst = p.peer, tag = p.tag;
  const std::uint32_t ctx = p.comm.context_id;
  const std::uint64_t bytes = p.bytes();
  const Buffer buf = p.buffer();
  const mpi::RequestId sid = lib_.new_send(p, std::move(done)).first;
  std::uint32_t seq = lib_.next_send_seq(rank, ctx, dst);
  cpus_.cpu(rank, sw_ + send_path_cost(rank, dst, bytes), [this, rank, dst, tag, ctx, bytes, buf, sid, seq] {
    if (same_node(rank, dst)) {
      double signal = ctx_.signal_latency(rank, dst);
      if (shm_eager(bytes)) {
        counters_.add(GniStat::ShmEager);
        cpus_.cpu_copy(rank, static_cast<double>(bytes), [this, rank, dst, tag, ctx, bytes, buf, sid, seq, signal] {
          sim_.after(signal, [this, rank, dst, tag, ctx, bytes, buf, sid, seq] {
            arrive(dst, ctx, seq, Msg{rank, tag, Kind::Eager, bytes, sid, buf});
          });
          finish_send(sid);
        });
      } else {
        counters_.add(GniStat::ShmLmt);
        sim_.after(signal, [this, rank, dst, tag, ctx, bytes, buf, sid, seq] {
          arrive(dst, ctx, seq, Msg{rank, tag, Kind::Rts, bytes, sid, buf});
        });
      }
      return;
    }
    if (bytes + kHdr <= vshort_) {
      counters_.add(GniStat::SmsgEager);
      gni_.smsg_send(rank, dst, bytes + kHdr, [this, sid] { finish_send(sid); },
                     [this, rank, dst, tag, ctx, bytes, buf, sid, seq] { arrive(dst, ctx, seq, Msg{rank, tag, Kind::Eager, bytes, sid, buf}); });
      return;
    }
    if (!rendezvous(bytes)) {
      e1_send(rank, dst, tag, ctx, bytes, sid, seq);
      return;
    }
    counters_.add(GniStat::RndvGet);
    gni_.register_buffer(rank, buf, bytes, [this, rank, dst, tag, ctx, bytes, buf, sid, seq] {
      gni_.smsg_send(rank, dst, kHdr, nullptr,
                     [this, rank, dst, tag, ctx, bytes, buf, sid, seq] { arrive(dst, ctx, seq, Msg{rank, tag, Kind::Rts, bytes, sid, buf}); });
    });
  }, "MPID_Isend (MPT)");
}

void MpichGni::start_recv(const mpi::P2P& p, Completion done) {
  const int rank = p.rank, src = p.peer, tag = p.tag;
  const std::uint32_t ctx = p.comm.context_id;
  const mpi::RequestId rid = lib_.new_recv(p, std::move(done)).first;
  cpus_.cpu(rank, sw_, [this, rank, src, tag, ctx, rid] {
    auto m = lib_.post(rank, ctx, mpi::Posted{src, tag, rid});
    if (m) deliver(rid, rank, *m, true);
  }, "MPID_Irecv (MPT)");
}

void MpichGni::arrive(int dst, std::uint32_t ctx, std::uint32_t seq, const Msg& m) {
  cpus_.cpu(dst, sw_, [this, dst, ctx, seq, m] {
    std::vector<Msg> unexpected;
    auto out = lib_.arrive(dst, ctx, seq, m, &unexpected);
    for (auto& x : out) deliver(x.recv.rid, dst, x.msg, false);
    // Unexpected eager data (this message, or held ones it released) is copied out of the mailbox on arrival.
    for (auto& u : unexpected)
      if (u.kind == Kind::Eager && u.bytes > 0) cpus_.cpu_copy(dst, static_cast<double>(u.bytes), [] {});
  }, "MPID_nem_gni_poll (match)");
}

void MpichGni::deliver(std::uint64_t rid, int dst, const Msg& m, bool) {
  lib_.matched(lib_.recv(rid), m.src, m.tag, m.bytes);
  if (m.kind == Kind::Eager) {
    cpus_.cpu_copy(dst, static_cast<double>(m.bytes), [this, rid] { finish_recv(rid); });
    return;
  }
  int src = m.src;
  std::uint64_t sid = m.sid, bytes = m.bytes;
  if (same_node(src, dst)) {
    // LMT: XPMEM single copy by the receiver (attach once per 2 MiB region, cached), then DONE.
    auto gran = static_cast<std::uint64_t>(mca_.mpich_smp_xpmem_attach_granularity.value);
    double attach = static_cast<double>(xpmem_.attach(dst, src, m.sbuf.addr, bytes, gran)) *
                    ctx_.machine().os.xpmem_attach_cost;
    const double path = sp_.mpt_lmt_cost + static_cast<double>(bytes) / sp_.mpt_lmt_rate;
    cpus_.cpu(dst, attach + path, [this, rid, dst, bytes, sid, src] {
      // from src's buffer, on its NUMA node
      cpus_.cpu_copy(dst, static_cast<double>(bytes), [this, rid, sid, src, dst] {
        finish_recv(rid);
        sim_.after(ctx_.signal_latency(dst, src), [this, sid] {
          cpus_.cpu(lib_.send(sid).rank, sw_, [this, sid] { finish_send(sid); }, "MPID_nem_gni complete send");
        });
      }, ctx_.local_memory(src));
    }, "MPID_nem_gni XPMEM attach");
    return;
  }
  Buffer rbuf = lib_.recv(rid).buf;
  const bool bte = use_bte(bytes);
  bool aligned = rbuf.addr % 4 == 0 && m.sbuf.addr % 4 == 0 && bytes % 4 == 0;
  const double path = rndv_meet_cost_ + static_cast<double>(bytes) / sp_.mpt_rndv_recv_rate;
  cpus_.cpu(dst, path, [this, rid, dst, src, bytes, sid, bte, aligned, rbuf] {
    gni_.register_buffer(dst, rbuf, bytes, [this, rid, dst, src, bytes, sid, bte, aligned] {
      if (aligned) {
        gni_.rdma(gemini::RdmaOp::Get, bte, dst, src, bytes, [this, rid, dst, src, sid] {
          finish_recv(rid);
          gni_.smsg_send(dst, src, kHdr, nullptr, [this, sid] { finish_send(sid); });
        });
        return;
      }
      counters_.add(GniStat::RndvPutFallback);
      gni_.smsg_send(dst, src, kHdr, nullptr, [this, rid, dst, src, bytes, sid, bte] {
        gni_.rdma(gemini::RdmaOp::Put, bte, src, dst, bytes, [this, rid, dst, src, sid] {
          finish_send(sid);
          gni_.smsg_send(src, dst, kHdr, nullptr, [this, rid] { finish_recv(rid); });
        });
      });
    });
  }, "MPID_nem_gni rendezvous receive (MPT)");
}

// The fitted per-path cost a send pays on its CPU at post, beside mpich_sw_overhead (the README's "Per-path costs").
double MpichGni::send_path_cost(int rank, int dst, std::uint64_t bytes) const {
  const auto b = static_cast<double>(bytes);
  if (same_node(rank, dst)) return shm_eager(bytes) && !eager_short(bytes) ? sp_.mpt_shm_eager_cost : 0.0;
  if (bytes + kHdr > vshort_ && rendezvous(bytes)) return b / sp_.mpt_rndv_send_rate;
  return 0.0;
}

// E1 (see the header): a free DMA buffer, or wait in order behind earlier E1 sends of this rank.
void MpichGni::e1_send(int rank, int dst, int tag, std::uint32_t ctx, std::uint64_t bytes, std::uint64_t sid,
                       std::uint32_t seq) {
  counters_.add(GniStat::E1Eager);
  std::function<void()> go = [this, rank, dst, tag, ctx, bytes, sid, seq] {
    cpus_.cpu_copy(rank, static_cast<double>(bytes), [this, rank, dst, tag, ctx, bytes, sid, seq] {
      finish_send(sid);  // the user buffer is free once copied into the DMA buffer
      gni_.smsg_send(rank, dst, kHdr, nullptr, [this, rank, dst, tag, ctx, bytes, sid, seq] {
        gni_.rdma(gemini::RdmaOp::Get, use_bte(bytes), dst, rank, bytes, [this, rank, dst, tag, ctx, bytes, sid, seq] {
          gni_.smsg_send(dst, rank, kHdr, nullptr, [this, rank] { e1_buffer_back(rank); });
          arrive(dst, ctx, seq, Msg{rank, tag, Kind::Eager, bytes, sid, Buffer{}});
        });
      });
    });
  };
  const auto n = static_cast<std::uint32_t>(mca_.mpich_gni_num_bufs.value);
  base::BufferPool& pool = e1_.try_emplace(rank, n, 0, n).first->second;
  if (pool.take(go) == base::BufferPool::Result::Wait) {
    counters_.add(GniStat::E1BufferWaits);
    return;
  }
  go();
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
