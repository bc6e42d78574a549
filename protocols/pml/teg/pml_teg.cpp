#include "protocols/pml/teg/pml_teg.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ompisim::pml::teg {

PmlTeg::PmlTeg(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, ptl::Ptl& ptl, double overhead,
               std::string name)
    : sim_(sim), cpus_(cpus), ptl_(ptl), overhead_(overhead), name_(std::move(name)), lib_(contexts.ranks()),
      up_at_(static_cast<std::size_t>(contexts.ranks()), -1.0) {
  ptl_.pml = this;
}

StackStats PmlTeg::stats() const {
  StackStats s;
  lib_.report(s);
  auto c = counters_;
  c.set(TegStat::LayerPmlNs, static_cast<std::uint64_t>(std::llround(layer_pml_s_ * 1e9)));
  c.report(s.counters);
  if (extra_counters) extra_counters(s.counters);
  return s;
}

void PmlTeg::start_send(const mpi::P2P& m, Completion done) {
  auto [sid, r] = lib_.new_send(m, std::move(done));
  r.left = r.bytes;
  const int rank = m.rank;
  ptl::MatchHeader h;
  h.contextid = r.ctx, h.src = rank, h.dst = m.peer, h.tag = m.tag;
  h.seq = lib_.next_send_seq(rank, r.ctx, m.peer), h.msg_bytes = r.bytes, h.send_req = sid;
  h.rendezvous = r.bytes > ptl_.first_frag_size();
  h.inline_bytes = !h.rendezvous ? r.bytes : ptl_.inline_rendezvous() ? ptl_.first_frag_size() : 0;
  cpus_.cpu(rank, overhead_ + ptl_.request_overhead(), [this, rank, h] {
    double& up = up_at_[static_cast<std::size_t>(rank)];
    if (up >= 0) {  // PML and above: from the last hand-up to this hand-down (paper §6.3)
      layer_pml_s_ += sim_.now() - up;
      counters_.add(TegStat::LayerPmlCount);
      up = -1;
    }
    ptl_.send(rank, h);
  }, "mca_pml_teg_isend");
}

void PmlTeg::start_recv(const mpi::P2P& m, Completion done) {
  const mpi::RequestId rid = lib_.new_recv(m, std::move(done)).first;
  const int rank = m.rank, src = m.peer, tag = m.tag;
  const std::uint32_t cid = m.comm.context_id;
  cpus_.cpu(rank, overhead_, [this, rank, cid, src, tag, rid] {
    if (auto msg = lib_.post(rank, cid, mpi::Posted{src, tag, rid})) on_matched(rank, rank, rid, *msg);
  }, "mca_pml_teg_irecv");
}

void PmlTeg::match(int ctx, int rank, const ptl::MatchHeader& h) {
  double& up = up_at_[static_cast<std::size_t>(rank)];
  if (up < 0) up = sim_.now();
  cpus_.cpu(ctx, overhead_, [this, ctx, rank, h] {
    std::vector<Msg> unexpected;
    auto matched = lib_.arrive(rank, h.contextid, h.seq, Msg{h.src, h.tag, h}, &unexpected);
    for (auto& u : unexpected) {  // the PTL's slot is reused: the inlined data waits in an unexpected buffer
      counters_.add(TegStat::Unexpected);
      cpus_.cpu_copy(ctx, static_cast<double>(u.h.inline_bytes), [] {});
    }
    for (auto& m : matched) on_matched(ctx, rank, m.recv.rid, m.msg);
  }, "mca_pml_teg progress");
}

void PmlTeg::on_matched(int ctx, int rank, mpi::RequestId rid, const Msg& m) {
  Req& r = lib_.recv(rid);
  lib_.matched(r, m.src, m.tag, m.h.msg_bytes);
  r.left = m.h.msg_bytes;
  // The receive request's convertor (the datatype engine, when on) is set up first: it describes the receive
  // buffer the PTL's RDMA targets. Then the PTL moves the rest, and the inlined data is copied in.
  cpus_.cpu(ctx, ptl_.request_overhead(), [this, ctx, rank, rid, m] {
    if (m.h.rendezvous) ptl_.matched(ctx, m.h, rid);
    cpus_.cpu_copy(ctx, static_cast<double>(m.h.inline_bytes),
                [this, ctx, rank, rid, m] { recv_progress(ctx, rank, rid, m.h.inline_bytes); });
  }, "mca_pml_teg_recv_frag_match");
}

void PmlTeg::finish(Completion done, int ctx, int rank) { ptl_.complete_user(ctx, rank, std::move(done)); }

void PmlTeg::send_progress(int ctx, int, std::uint64_t sid, std::uint64_t bytes) {
  Req& r = lib_.send(sid);
  r.left -= std::min(r.left, bytes);
  if (r.left == 0) {
    const int rank = r.rank;
    finish(lib_.finish_send(sid), ctx, rank);
  }
}

void PmlTeg::recv_progress(int ctx, int, std::uint64_t rid, std::uint64_t bytes) {
  Req& r = lib_.recv(rid);
  if (bytes > r.left) throw std::logic_error("pml/teg: more data than the message holds");
  r.left -= bytes;
  if (r.matched() && r.left == 0) {
    const int rank = r.rank;
    finish(lib_.finish_recv(rid), ctx, rank);
  }
}

}  // namespace ompisim::pml::teg
