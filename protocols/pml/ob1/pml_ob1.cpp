#include "protocols/pml/ob1/pml_ob1.hpp"

#include <algorithm>

namespace ompisim::pml::ob1 {

static_assert(static_cast<int>(Hdr::Fin) == 7, "Ob1::hdr_sent_ has one slot per Hdr");

Ob1::Ob1(World& w, double sw, btl::Btl* self, btl::Btl* sm, btl::Btl* net, std::string name)
    : w_(w), sw_(sw), self_(self), sm_(sm), net_(net), name_(std::move(name)),
      ranks_(static_cast<std::size_t>(w.ranks())) {
  for (auto* b : {self_, sm_, net_})
    if (b) b->set_sink(this);
}

btl::Btl& Ob1::bml_select(int rank, int peer) {
  if (rank == peer && self_) return *self_;
  if (w_.same_node(rank, peer) && sm_) return *sm_;
  if (net_) return *net_;
  throw std::logic_error("bml/r2: no BTL reaches the peer");
}

void Ob1::amo_add(int rank, int target, Completion local_done, Completion at_target) {
  if (!amo_provider) Stack::amo_add(rank, target, std::move(local_done), std::move(at_target));
  ++st_.amos;
  amo_provider(rank, target, std::move(local_done), std::move(at_target));
}

StackStats Ob1::stats() const {
  StackStats s = st_;
  for (std::size_t h = 0; h < hdr_sent_.size(); ++h)
    if (hdr_sent_[h]) s.counters[std::string("ob1_") + to_string(static_cast<Hdr>(h))] = hdr_sent_[h];
  if (unexpected_copies_) s.counters["ob1_unexpected_copy"] = unexpected_copies_;
  if (rget_fallbacks_) s.counters["ob1_rget_fallbacks"] = rget_fallbacks_;
  s.counters["ob1_unexpected_short"] = unexpected_short_;
  s.counters["ob1_unexpected_long"] = unexpected_long_;
  s.counters["mpi_truncate_errors"] = truncate_errors_;
  s.live_requests = sends_.size() + recvs_.size();
  for (auto& r : ranks_) {
    s.unexpected_now += r.mq.unexpected_size();
    s.posted_now += r.mq.posted_size();
  }
  return s;
}

void Ob1::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  ++st_.sends_posted;
  std::uint64_t id = next_id_++;
  btl::Btl& b = bml_select(rank, dst);
  SendRequest& r = sends_[id];
  r.rank = rank, r.peer = dst, r.tag = tag, r.bytes = bytes, r.buf = buf, r.done = std::move(done);
  r.seq = ranks_[rank].send_seq[dst]++;
  Hdr h = start(r, b.caps());
  ++hdr_sent_[static_cast<std::size_t>(h)];
  btl::Frag f{h, rank, dst, tag, r.seq, bytes, first_payload(r, h, b.caps()), id, 0, buf};
  w_.cpu(rank, sw_, [this, id, f, &b] {
    if (f.hdr == Hdr::Match) {
      b.send(f, [this, id] {
        on_event(sends_.at(id), SendEvent::BtlDone);
        complete_send(id);
      });
    } else if (f.hdr == Hdr::Rget) {
      b.prepare_rdma(f.src, f.sbuf, f.msg_bytes, [f, &b] { b.send(f, nullptr); });
    } else {
      b.send(f, nullptr);
    }
  });
}

void Ob1::irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t id = next_id_++;
  RecvRequest& r = recvs_[id];
  r.rank = rank, r.src = src, r.tag = tag, r.bytes = bytes, r.buf = buf, r.done = std::move(done);
  w_.cpu(rank, sw_, [this, rank, src, tag, id] {
    auto m = ranks_[rank].mq.post(PostedRecv{src, tag, id});
    if (m) matched(id, m->frag, true);
  });
}

void Ob1::on_frag(const btl::Frag& f) {
  w_.cpu(f.dst, sw_, [this, f] { handle(f); });
}

void Ob1::send_ctrl(Hdr h, int from, int to, std::uint64_t sreq, std::uint64_t rreq) {
  btl::Frag c{h, from, to, 0, 0, 0, 0, sreq, rreq, Buffer{}};
  ++hdr_sent_[static_cast<std::size_t>(h)];
  bml_select(from, to).send(c, nullptr);
}

void Ob1::handle(const btl::Frag& f) {
  switch (f.hdr) {
    case Hdr::Match:
    case Hdr::Rndv:
    case Hdr::Rget: {
      auto& rs = ranks_[f.dst];
      std::vector<Unexpected> unexpected;
      auto out = rs.mq.arrive(f.seq, Unexpected{f.src, f.tag, f}, &unexpected);
      for (auto& m : out) matched(m.recv.id, m.msg.frag, false);
      for (auto& u : unexpected) {
        ++(u.frag.hdr == Hdr::Match ? unexpected_short_ : unexpected_long_);
        if (u.frag.payload == 0) continue;
        // Unexpected eager data (this fragment, or held ones it released): copied into a PML buffer so that the BTL
        // buffer can be returned now rather than at match time.
        ++unexpected_copies_;
        const btl::Frag g = u.frag;
        w_.cpu_copy(g.dst, static_cast<double>(g.payload), [this, g] { bml_select(g.dst, g.src).payload_consumed(g); });
      }
      return;
    }
    case Hdr::Ack: {
      SendRequest& r = sends_.at(f.send_req);
      bool was_rget = r.state == SendState::RgetSent;  // the receiver fell back: the RGET carried no data
      on_event(r, SendEvent::Ack);
      btl::Btl& b = bml_select(r.rank, r.peer);
      std::uint64_t first = was_rget ? 0 : first_payload(r, Hdr::Rndv, b.caps());
      std::uint64_t left = r.bytes > first ? r.bytes - first : 0;
      std::uint64_t chunk = std::max<std::uint64_t>(1, b.caps().max_send_size - btl::kHdrBytes);
      if (left == 0) {
        on_event(r, SendEvent::FragsDone);
        complete_send(f.send_req);
        return;
      }
      r.frags_outstanding = (left + chunk - 1) / chunk;
      std::uint64_t sid = f.send_req;
      for (std::uint64_t off = 0; off < left; off += chunk) {
        btl::Frag d{Hdr::Frag, r.rank, r.peer, 0, 0, r.bytes, std::min(chunk, left - off), sid, f.recv_req, r.buf};
        ++hdr_sent_[static_cast<std::size_t>(Hdr::Frag)];
        b.send(d, [this, sid] {
          SendRequest& s = sends_.at(sid);
          if (--s.frags_outstanding == 0) {
            on_event(s, SendEvent::FragsDone);
            complete_send(sid);
          }
        });
      }
      return;
    }
    case Hdr::Fin: {
      on_event(sends_.at(f.send_req), SendEvent::Fin);
      complete_send(f.send_req);
      return;
    }
    case Hdr::Frag: {
      std::uint64_t rid = f.recv_req;
      w_.cpu_copy(f.dst, static_cast<double>(f.payload), [this, rid, f] {
        RecvRequest& r = recvs_.at(rid);
        on_event(r, RecvEvent::FragArrived, f.payload);
        bml_select(f.dst, f.src).payload_consumed(f);
        if (r.state == RecvState::Complete) complete_recv(rid);
      });
      return;
    }
    default: throw ProtocolError("ob1 receive path", "any", to_string(f.hdr));
  }
}

void Ob1::matched(std::uint64_t rid, const btl::Frag& f, bool was_unexpected) {
  RecvRequest& r = recvs_.at(rid);
  if (f.msg_bytes > r.bytes) ++truncate_errors_;  // MPI_ERR_TRUNCATE: matched the wrong receive
  r.src = f.src, r.tag = f.tag, r.msg_bytes = f.msg_bytes;
  btl::Btl& b = bml_select(f.dst, f.src);
  switch (f.hdr) {
    case Hdr::Match:
      // From the BTL's buffer, or (unexpected) from the PML buffer it was copied into on arrival.
      w_.cpu_copy(f.dst, static_cast<double>(f.payload), [this, rid, f, &b, was_unexpected] {
        if (!was_unexpected || f.payload == 0) b.payload_consumed(f);
        on_event(recvs_.at(rid), RecvEvent::MatchedEager, f.payload);
        complete_recv(rid);
      });
      return;
    case Hdr::Rget:
      if (!r.buf.contiguous) {
        // The receive buffer cannot take an RDMA GET (mca_pml_ob1_recv_request_progress_rget falls back): ACK the
        // RGET as if it were an RNDV with no data, and the sender pipelines FRAGs instead.
        ++rget_fallbacks_;
        on_event(r, RecvEvent::MatchedRndv, 0);
        send_ctrl(Hdr::Ack, f.dst, f.src, f.send_req, rid);
        return;
      }
      on_event(r, RecvEvent::MatchedRget);
      b.prepare_rdma(f.dst, r.buf, f.msg_bytes, [this, rid, f, &b] {
        RecvRequest& rr = recvs_.at(rid);
        b.get(f.dst, f.src, f.msg_bytes, rr.buf, f.sbuf, [this, rid, f] {
          on_event(recvs_.at(rid), RecvEvent::GetDone);
          w_.cpu(f.dst, sw_, [this, rid, f] {
            send_ctrl(Hdr::Fin, f.dst, f.src, f.send_req, rid);
            complete_recv(rid);
          });
        });
      });
      return;
    case Hdr::Rndv:
      w_.cpu_copy(f.dst, static_cast<double>(f.payload), [this, rid, f, &b, was_unexpected] {
        if (!was_unexpected || f.payload == 0) b.payload_consumed(f);
        RecvRequest& rr = recvs_.at(rid);
        on_event(rr, RecvEvent::MatchedRndv, f.payload);
        send_ctrl(Hdr::Ack, f.dst, f.src, f.send_req, rid);
        if (rr.state == RecvState::Complete) complete_recv(rid);
      });
      return;
    default: throw ProtocolError("ob1 match", "POSTED", to_string(f.hdr));
  }
}

void Ob1::complete_send(std::uint64_t sid) { complete_request(sends_, sid, st_.sends_completed); }

void Ob1::complete_recv(std::uint64_t rid) { complete_request(recvs_, rid, st_.recvs_completed); }

}  // namespace ompisim::pml::ob1
