#include "protocols/pml/teg/pml_teg.hpp"

#include <cmath>

namespace ompisim::pml::teg {

PmlTeg::PmlTeg(World& w, ptl::Ptl& ptl, double overhead, std::string name)
    : w_(w), ptl_(ptl), overhead_(overhead), name_(std::move(name)),
      up_at_(static_cast<std::size_t>(w.ranks()), -1.0) {
  ptl_.pml = this;
}

PmlTeg::RankState& PmlTeg::rs(int rank) { return ranks_[rank]; }

StackStats PmlTeg::stats() const {
  StackStats s = st_;
  s.live_requests = sends_.size() + recvs_.size();
  for (auto& [r, x] : ranks_) s.unexpected_now += x.mq.unexpected_size(), s.posted_now += x.mq.posted_size();
  s.counters["teg_unexpected"] = unexpected_;
  s.counters["layer_pml_ns"] = static_cast<std::uint64_t>(std::llround(layer_pml_s_ * 1e9));
  s.counters["layer_pml_count"] = layer_pml_count_;
  if (extra_counters) extra_counters(s.counters);
  return s;
}

void PmlTeg::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer, Completion done) {
  ++st_.sends_posted;
  std::uint64_t sid = next_++;
  sends_[sid] = Req{rank, bytes, true, std::move(done)};
  ptl::MatchHeader h;
  h.src = rank, h.dst = dst, h.tag = tag, h.seq = rs(rank).send_seq[dst]++, h.msg_bytes = bytes, h.send_req = sid;
  h.rendezvous = bytes > ptl_.first_frag_size();
  h.inline_bytes = !h.rendezvous ? bytes : ptl_.inline_rendezvous() ? ptl_.first_frag_size() : 0;
  w_.cpu(rank, overhead_ + ptl_.request_overhead(), [this, rank, h] {
    double& up = up_at_[static_cast<std::size_t>(rank)];
    if (up >= 0) {  // PML and above: from the last hand-up to this hand-down (paper §6.3)
      layer_pml_s_ += w_.sim().now() - up;
      ++layer_pml_count_;
      up = -1;
    }
    ptl_.send(rank, h);
  });
}

void PmlTeg::irecv(int rank, int src, int tag, std::uint64_t, Buffer, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t rid = next_++;
  recvs_[rid] = Req{rank, 0, false, std::move(done)};
  w_.cpu(rank, overhead_, [this, rank, src, tag, rid] {
    if (auto m = rs(rank).mq.post(Posted{src, tag, rid})) on_matched(rank, rank, rid, *m);
  });
}

void PmlTeg::match(int ctx, int rank, const ptl::MatchHeader& h) {
  double& up = up_at_[static_cast<std::size_t>(rank)];
  if (up < 0) up = w_.sim().now();
  w_.cpu(ctx, overhead_, [this, ctx, rank, h] {
    std::vector<Msg> unexpected;
    auto matched = rs(rank).mq.arrive(h.seq, Msg{h.src, h.tag, h}, &unexpected);
    for (auto& u : unexpected) {  // the PTL's slot is reused: the inlined data waits in an unexpected buffer
      ++unexpected_;
      w_.cpu_copy(ctx, static_cast<double>(u.h.inline_bytes), [] {});
    }
    for (auto& m : matched) on_matched(ctx, rank, m.recv.rid, m.msg);
  });
}

void PmlTeg::on_matched(int ctx, int rank, std::uint64_t rid, const Msg& m) {
  Req& r = recvs_.at(rid);
  r.known = true;
  r.left = m.h.msg_bytes;
  // The receive request's convertor (the datatype engine, when on) is set up first: it describes the receive
  // buffer the PTL's RDMA targets. Then the PTL moves the rest, and the inlined data is copied in.
  w_.cpu(ctx, ptl_.request_overhead(), [this, ctx, rank, rid, m] {
    if (m.h.rendezvous) ptl_.matched(ctx, m.h, rid);
    w_.cpu_copy(ctx, static_cast<double>(m.h.inline_bytes),
                [this, ctx, rank, rid, m] { recv_progress(ctx, rank, rid, m.h.inline_bytes); });
  });
}

void PmlTeg::finish(std::unordered_map<std::uint64_t, Req>& table, std::uint64_t id, std::uint64_t& count, int ctx) {
  auto it = table.find(id);
  Completion done = std::move(it->second.done);
  int rank = it->second.rank;
  table.erase(it);
  ++count;
  ptl_.complete_user(ctx, rank, std::move(done));
}

void PmlTeg::send_progress(int ctx, int, std::uint64_t sid, std::uint64_t bytes) {
  Req& r = sends_.at(sid);
  r.left -= std::min(r.left, bytes);
  if (r.left == 0) finish(sends_, sid, st_.sends_completed, ctx);
}

void PmlTeg::recv_progress(int ctx, int, std::uint64_t rid, std::uint64_t bytes) {
  Req& r = recvs_.at(rid);
  if (bytes > r.left) throw std::logic_error("pml/teg: more data than the message holds");
  r.left -= bytes;
  if (r.known && r.left == 0) finish(recvs_, rid, st_.recvs_completed, ctx);
}

}  // namespace ompisim::pml::teg
