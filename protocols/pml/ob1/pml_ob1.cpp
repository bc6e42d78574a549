#include "protocols/pml/ob1/pml_ob1.hpp"

#include "platform/alloc_mem.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ompisim::pml::ob1 {

static_assert(static_cast<int>(Hdr::Fin) + 1 == kHdrTypes, "kOb1Statistics has one header counter per Hdr");

Ob1::Ob1(const Contexts& contexts, CpuTimeline& cpus, double sw, std::vector<btl::Btl*> btls, std::string name,
         StripeConfig stripe)
    : ctx_(contexts), cpus_(cpus), sw_(sw), stripe_(stripe), bml_(contexts, std::move(btls)), name_(std::move(name)),
      lib_(contexts.ranks()) {
  frag_bytes_.assign(bml_.btls().size(), 0);
  // mca_pml_ob1_add_procs: mca_bml.bml_register(MCA_PML_OB1_HDR_TYPE_*, mca_pml_ob1_recv_frag_callback_*) for every
  // header type on every BTL. NACK is registered too and rejected on arrival (the model never sends it).
  for (btl::Btl* b : bml_.btls())
    for (int h = 0; h < kHdrTypes; ++h)
      b->register_tag(tag_of(static_cast<Hdr>(h)), [this, b](const btl::Descriptor& d) { on_desc(b, d); });
  // Each process publishes its architecture descriptor (ompi_proc arch, from the node type's "arch" record) and
  // bml/r2 compares them per peer (no RDMA between unlike ones). Only a machine whose node types differ pays for
  // the per-rank array; converting needs the receivers' per-element cost.
  const Machine& machine = contexts.machine();
  const auto& types = machine.node_types();
  bool mixed = false;
  for (auto& t : types) mixed = mixed || (t.arch && types.front().arch && !(*t.arch == *types.front().arch));
  if (mixed)
    for (int r = 0; r < contexts.ranks(); ++r) {
      const NodeTypeDef& d = machine.node_type_def(contexts.node_of(r));
      if (!d.arch) continue;
      bml_.set_arch(r, d.arch->descriptor());
      if (!d.arch->convert_cost_per_element.set)
        throw InputError(machine.file, "node_types." + d.name + ".arch.convert_cost_per_element",
                         "missing: ranks of different architectures convert typed data (receiver makes right)");
    }
}

void Ob1::copy_out(std::uint64_t rid, int me, int peer, std::uint64_t bytes, Completion next, MemSpace src) {
  const RecvRequest& r = lib_.recv(rid);
  const bool convert = r.convert_elem && bytes && bml_.arch(me) != bml_.arch(peer);
  if (!convert) {
    cpus_.cpu_copy(me, static_cast<double>(bytes), std::move(next), src);
    return;
  }
  counters_.add(Ob1Stat::ConvertedBytes, bytes);
  const double per = ctx_.machine().node_type_def(ctx_.node_of(me)).arch->convert_cost_per_element;
  const double t = static_cast<double>(bytes / r.convert_elem) * per;
  cpus_.cpu_copy(me, static_cast<double>(bytes), [this, me, t, next = std::move(next)]() mutable {
    cpus_.cpu(me, t, std::move(next), "opal_convertor_unpack (convert)");
  }, src);
}

std::uint64_t Ob1::frag_bytes(const btl::Btl* b) const {
  const auto& all = bml_.btls();
  auto it = std::find(all.begin(), all.end(), b);
  return it == all.end() ? 0 : frag_bytes_[static_cast<std::size_t>(it - all.begin())];
}

void Ob1::amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia via) {
  btl::Btl* chosen = nullptr;
  if (via == AmoVia::Nic)
    for (btl::Btl* b : bml_.btls())
      if (b->caps().nic_atomics && !chosen) chosen = b;
  if (!chosen)
    for (const auto& b : bml_.endpoint(rank, target).send)
      if (b.btl->caps().has(btl::flag::AtomicOps) && !chosen) chosen = b.btl;
  if (!chosen) return Stack::amo_add(rank, target, std::move(local_done), std::move(at_target), via);
  ++amos_;
  chosen->atomic_add(rank, target, std::move(local_done), std::move(at_target));
}

std::vector<std::string> Ob1::idle_components() const {
  std::vector<std::string> idle;
  for (const btl::Btl* b : bml_.btls())
    if (!bml_.selected(b)) idle.push_back("btl/" + b->name());
  return idle;
}

StackStats Ob1::stats() const {
  StackStats s;
  lib_.report(s);
  s.amos = amos_;
  auto c = counters_;
  c.set(Ob1Stat::TruncateErrors, lib_.truncated());
  c.report(s.counters);
  return s;
}

void Ob1::send_desc(btl::Btl& b, const HdrFields& h, int from, int to, btl::DataSegment data, std::uint8_t flags,
                    std::uint64_t cookie, Completion local_done, Completion packed) {
  btl::Descriptor d;
  d.tag = tag_of(h.type);
  d.flags = flags;
  d.src = from, d.dst = to;
  d.hdr = pack(h);
  d.data = data;
  d.cookie = cookie;
  if (packed) b.send_packed(d, std::move(local_done), std::move(packed));
  else b.send(d, std::move(local_done));
}

// The context id travels in the 16-bit hdr_ctx.
static std::uint16_t hdr_ctx(std::uint32_t ctx) {
  if (ctx > 0xFFFF) throw std::invalid_argument("pml/ob1: context id " + std::to_string(ctx) + " exceeds hdr_ctx (16 bits)");
  return static_cast<std::uint16_t>(ctx);
}

void Ob1::start_send(const mpi::P2P& m, Completion done) {
  const int rank = m.rank, dst = m.peer;
  auto [id, r] = lib_.new_send(m, std::move(done));
  const bml::r2::Endpoint& ep = bml_.endpoint(rank, dst);
  // The first fragment's BTL (stripe policy; v1.1.1 pml_ob1_sendreq.h:154, MCA_PML_OB1_SEND_REQUEST_START).
  btl::Btl* b = next_eager_btl(rank, dst);
  r.seq = lib_.next_send_seq(rank, r.ctx, dst);
  // RGET needs exactly one RDMA BTL with GET (Open MPI 1.1 start_rdma: req_rdma_cnt == 1); otherwise RNDV, and the
  // receiver decides from its own record whether the rest comes by RDMA PUT (rdma_choice).
  const RdmaChoice choice = rdma_choice(ep, r.bytes);
  // Open MPI 1.1 takes start_rdma only for a buffer mca_pml_ob1_rdma_btls finds usable by an RDMA BTL
  // (req_rdma_cnt != 0: registered already, or mpi_leave_pinned); any other contiguous buffer goes by start_rndv
  // with its first eager bytes, flagged CONTIG, even to one BTL with GET (v1.1.1 pml_ob1_sendreq.h 221-240). Under
  // the 1.3-on schedule every contiguous buffer counts as registered (the model's premise there).
  const bool usable = !registered_path() || v11_rdma_cnt(ep, r.buf) != 0;
  Hdr h = start(r, b->caps(), choice.rget && usable);
  bool pinned = false;  // start_rdma's RNDV: flagged CONTIG|PIN
  r.first = first_payload(r, h, b->caps());
  if (h == Hdr::Rndv && choice.put && r.buf.contiguous && usable) {
    // A contiguous buffer registered with the RDMA BTLs (the model's premise, as for RGET) takes start_rdma: without
    // GET it sends "a rendezvous header - dont eager send any data; receiver will schedule rdma put(s) of the entire
    // message", on the first BTL of its RDMA array (v1.1.1 pml_ob1_sendreq.c:559-676, `bml_btl =
    // sendreq->req_rdma[0].bml_btl`; the eager round robin above has still advanced; v1.8.8 start_rdma ->
    // start_rndv(size 0, CONTIG|PIN) alike).
    b = ep.rdma.front().btl;
    r.first = 0;
    pinned = true;
  }
  counters_.add(hdr_stat(h));
  HdrFields hf;
  hf.type = h, hf.ctx = hdr_ctx(r.ctx), hf.tag = r.tag, hf.seq = r.seq, hf.msg_bytes = r.bytes;
  hf.send_req = h == Hdr::Match ? 0 : id;
  if (h != Hdr::Match && r.buf.contiguous) hf.flags = hdr_flag::Contig;
  if (pinned) hf.flags |= hdr_flag::Pin;
  btl::DataSegment data{0, r.first, r.buf};
  const bool early = early_completion(r, h, b->caps(), early_completion_);
  cpus_.cpu(rank, sw_, [this, id, hf, data, b, rank, dst, early] {
    if (hf.type == Hdr::Match) {
      // start_prepare: a BTL that can send in place may take the data straight from the user buffer.
      // Every first fragment (MATCH, RNDV, RGET) and control message is flagged MCA_BTL_DES_FLAGS_PRIORITY (v1.1
      // pml_ob1_sendreq.c start_copy/start_prepare/start_rndv/start_rdma, pml_ob1_recvreq.c ACK and FIN); FRAGs not.
      std::uint8_t fl = btl::desc_flag::Priority;
      if (b->caps().has(btl::flag::SendInplace)) fl |= btl::desc_flag::InPlace;
      // start_copy with early completion: MPI-complete once the data is in the fragment and the send call returned.
      Completion packed;
      if (early)
        packed = [this, id] {
          on_event(lib_.send(id), SendEvent::Packed);
          mpi_complete_send(id);
        };
      send_desc(*b, hf, rank, dst, data, fl, id, [this, id] {
        on_event(lib_.send(id), SendEvent::BtlDone);
        complete_send(id);
      }, std::move(packed));
    } else if (hf.type == Hdr::Rget) {
      // start_rdma: register the buffer, then send the RGET with the buffer exposed for the receiver's GET.
      b->prepare_rdma(rank, data.buf, hf.msg_bytes, [this, hf, data, b, rank, dst, id] {
        send_desc(*b, hf, rank, dst, data, btl::desc_flag::ExposeData | btl::desc_flag::Priority, id, nullptr);
      });
    } else {
      send_desc(*b, hf, rank, dst, data, btl::desc_flag::Priority, id, nullptr);
    }
  }, "mca_pml_ob1_send_request_start");
}

btl::Btl* Ob1::next_eager_btl(int rank, int peer) {
  const bml::r2::Endpoint& ep = bml_.endpoint(rank, peer);
  // A peer with one eager BTL and the default policy keeps no counter.
  if (ep.send.size() < 2 || (ep.eager.size() < 2 && stripe_.policy == StripePolicy::WeightedRoundRobin))
    return ep.eager.front().btl;
  if (eager_rr_.empty()) eager_rr_.resize(static_cast<std::size_t>(ctx_.ranks()));
  return first_fragment_btl(ep, stripe_.policy, eager_rr_[static_cast<std::size_t>(rank)][peer]);
}

std::size_t Ob1::v11_rdma_cnt(const bml::r2::Endpoint& ep, const Buffer& b) const {
  return static_cast<std::size_t>(std::count_if(ep.rdma.begin(), ep.rdma.end(), [&](const bml::r2::BmlBtl& x) {
    return v11_rdma_usable(x.btl->caps().mpool, from_alloc_mem(b), stripe_.leave_pinned);
  }));
}

std::uint64_t Ob1::btl_rdma_offset(const bml::r2::Endpoint& ep) {
  std::uint64_t off = 0;
  for (const auto& x : ep.rdma) off = std::max(off, x.btl->caps().min_rdma_pipeline_size);
  return off;
}

std::uint32_t& Ob1::array_rr(std::vector<mpi::PeerSeq>& rr, int rank, int peer) {
  if (rr.empty()) rr.resize(static_cast<std::size_t>(ctx_.ranks()));
  return rr[static_cast<std::size_t>(rank)][peer];
}

void Ob1::start_recv(const mpi::P2P& m, Completion done) {
  auto [id, req] = lib_.new_recv(m, std::move(done));
  req.convert_elem = m.type.never_convert ? 0 : m.type.size;
  // The request holds the call's rank, source, tag and context until it is posted (nothing matches it before), so the
  // event carries only its id and fits std::function's inline buffer.
  cpus_.cpu(m.rank, sw_, [this, id] {
    const auto& r = lib_.recv(id);
    auto u = lib_.post(r.rank, r.ctx, mpi::Posted{r.peer, r.tag, id});
    if (u) matched(id, u->frag, true);
  }, "mca_pml_ob1_irecv");
}

void Ob1::on_desc(btl::Btl* b, const btl::Descriptor& d) {
  cpus_.cpu(d.dst, sw_, [this, b, d] { handle(InFrag{d, unpack(d.hdr), b}); }, "mca_pml_ob1_recv_frag_callback");
}

Ob1::RdmaChoice Ob1::rdma_choice(const bml::r2::Endpoint& ep, std::uint64_t bytes) const {
  RdmaChoice c;
  auto in_rdma = [&ep](const btl::Btl* b) {
    return std::any_of(ep.rdma.begin(), ep.rdma.end(), [b](const bml::r2::BmlBtl& x) { return x.btl == b; });
  };
  if (ep.send.size() > 1 && !striped(ep, stripe_.policy, bytes, stripe_.min_size)) {
    // A message the policy does not stripe (stripe_above below its size) uses the fastest BTL's RDMA alone.
    const btl::Btl* f = fastest_btl(ep);
    c.put = in_rdma(f) && !f->caps().has(btl::flag::Get) && f->caps().has(btl::flag::Put);
    c.rget = in_rdma(f) && f->caps().has(btl::flag::Get);
    return c;
  }
  c.put = ep.rdma.size() > 1 || (ep.rdma.size() == 1 && !ep.rdma.front().btl->caps().has(btl::flag::Get) &&
                                 ep.rdma.front().btl->caps().has(btl::flag::Put));
  c.rget = ep.rdma.size() == 1 && !c.put;
  return c;
}

void Ob1::send_ctrl(Hdr h, int from, int to, std::uint64_t sreq, std::uint64_t rreq, std::uint64_t offset,
                    btl::Btl* on) {
  HdrFields hf;
  hf.type = h, hf.send_req = sreq, hf.recv_req = rreq, hf.offset = offset;
  counters_.add(hdr_stat(h));
  send_desc(on ? *on : eager_btl(from, to), hf, from, to, btl::DataSegment{}, btl::desc_flag::Priority, rreq, nullptr);
}

// The FRAGs of a rendezvous after the ACK, [first, end) with `end` the ACK's rdma offset (frag_pipeline.hpp), over
// the peer's send array in the schedule of the modelled Open MPI version (pml_ob1_frag_schedule): 1.1/1.2 round robin,
// each fragment weight x the bytes still remaining (all of them below the BTL's btl_min_send_size); 1.3 on each BTL's
// share of the range fixed up front (calc_weighted_length: the rest once within its btl_eager_limit), then round robin.
// Each fragment within its BTL's max_send_size; at most send_pipeline_depth FRAGs of the request in flight, the next
// one posted when one completes. The bytes from `end` on come as the receiver's RDMA PUTs (schedule_puts).
void Ob1::schedule_frags(std::uint64_t sid, std::uint64_t first, std::uint64_t end, std::uint64_t recv_req) {
  SendRequest& r = lib_.send(sid);
  const std::uint64_t left = end > first ? end - first : 0;
  if (left == 0) {
    r.frags_done = true;
    check_send_done(sid);
    return;
  }
  const bml::r2::Endpoint& ep = bml_.endpoint(r.rank, r.peer);
  std::vector<FragPipeline::Btl> share;
  share.reserve(ep.send.size());
  const std::vector<double> weight = stripe_weights(ep, stripe_.policy, left, stripe_.min_size);
  const bool v13 = stripe_.schedule == FragPipeline::Schedule::WeightedLength;
  for (std::size_t i = 0; i < ep.send.size(); ++i) {
    btl::Btl* b = ep.send[i].btl;
    const btl::BtlCaps& c = b->caps();
    const std::uint64_t hdr = hdr_len(Hdr::Frag);
    const std::uint64_t chunk = std::max<std::uint64_t>(1, c.max_send_size > hdr ? c.max_send_size - hdr : 0);
    auto idx = static_cast<std::size_t>(std::find(bml_.btls().begin(), bml_.btls().end(), b) - bml_.btls().begin());
    share.push_back({idx, weight[i], chunk, v13 ? c.eager_limit : c.min_send_size, 0});
  }
  // Open MPI 1.1: "schedule fragments up to the threshold to overlap initial registration/setup costs of the rdma":
  // while the receiver PUTs the bytes from the rdma offset on, the FRAGs before it are not bounded by the send
  // pipeline depth (v1.1.1 pml_ob1_sendreq.c 803-804, `req_pipeline_depth < send_pipeline_depth || req_rdma_offset <
  // req_bytes_packed`); the peer's btl_send round robin carries over between requests (get_next, line 810).
  const bool v11 = registered_path();
  const int depth = v11 && end < r.bytes ? std::numeric_limits<int>::max() : stripe_.send_pipeline_depth;
  FragPipeline pipe(std::move(share), first, left, depth, stripe_.schedule, stripe_.max_send_per_range, false);
  if (v11) pipe.start_at(array_rr(send_rr_, r.rank, r.peer));
  frag_sched_.insert_or_assign(sid, FragSchedule{std::move(pipe), recv_req, v11});
  post_frags(sid);
}

void Ob1::check_send_done(std::uint64_t sid) {
  SendRequest& r = lib_.send(sid);
  if (!rest_done(r)) return;
  on_event(r, SendEvent::FragsDone);
  complete_send(sid);
}

// The receiver's RDMA PUT pipeline over its RDMA array for the peer (mca_pml_ob1_recv_request_schedule, v1.1.0; v1.3
// on: mca_pml_ob1_rdma_pipeline_btls + schedule_once): the same fragment schedule as the FRAGs' (pml_ob1_frag_schedule),
// each BTL's fragments within its btl_max_rdma_size (rdma_pipeline_frag_size), the take-all threshold its eager limit,
// at most recv_pipeline_depth PUTs in flight (from the PUT control message to its FIN), at most
// pml_ob1_max_rdma_per_request BTLs (v1.3 on), and a FIN's BTL first in line for the next (v1.3 on).
void Ob1::schedule_puts(std::uint64_t rid, int me, int peer, std::uint64_t first, std::uint64_t send_req,
                        bool ack_in_put, bool registered) {
  const RecvRequest& r = lib_.recv(rid);
  const std::uint64_t left = r.msg_bytes > first ? r.msg_bytes - first : 0;
  const bml::r2::Endpoint& ep = bml_.endpoint(me, peer);
  const std::vector<double> weight = stripe_weights(ep, stripe_.policy, left, stripe_.min_size);
  std::vector<FragPipeline::Btl> share;
  for (const auto& x : ep.rdma) {
    if (!x.btl->caps().has(btl::flag::Put)) continue;
    const auto at = static_cast<std::size_t>(
        std::find_if(ep.send.begin(), ep.send.end(), [&x](const bml::r2::BmlBtl& s) { return s.btl == x.btl; }) -
        ep.send.begin());
    const btl::BtlCaps& c = x.btl->caps();
    auto idx =
        static_cast<std::size_t>(std::find(bml_.btls().begin(), bml_.btls().end(), x.btl) - bml_.btls().begin());
    share.push_back({idx, at < weight.size() ? weight[at] : 0.0, std::max<std::uint64_t>(1, c.rdma_pipeline_frag_size),
                     c.eager_limit, btl::desc_flag::Put});
  }
  // Under the v1.1 schedule a receive buffer the RDMA BTLs can use (registered by MPI_Alloc_mem, or with
  // mpi_leave_pinned) takes the branch over its registrations (v1.1.1 pml_ob1_recvreq.c:607-644: no max_rdma_size
  // cap, the last BTL takes the rest, the index per request); any other the branch that registers each fragment
  // (645-684: each PUT within btl_max_rdma_size, round robin on the peer's btl_rdma array).
  const bool v11 = registered_path();
  const std::size_t shares = share.size();
  FragPipeline pipe(std::move(share), first, left, stripe_.recv_pipeline_depth, stripe_.schedule,
                    stripe_.max_rdma_per_request, true, v11 && registered);
  const bool endpoint_rr = v11 && !registered;
  if (endpoint_rr) pipe.start_at(array_rr(rdma_rr_, me, peer));
  put_sched_.insert_or_assign(rid, PutSchedule{std::move(pipe), send_req, me, peer, {}, ack_in_put, shares,
                                               endpoint_rr});
  post_puts(rid);
}

void Ob1::post_puts(std::uint64_t rid) {
  for (;;) {
    auto it = put_sched_.find(rid);
    if (it == put_sched_.end()) return;
    PutSchedule& ps = it->second;
    const std::optional<FragPipeline::Frag> f = ps.pipe.next();
    if (!f) return;
    if (ps.endpoint_rr) array_rr(rdma_rr_, ps.me, ps.peer) = static_cast<std::uint32_t>(ps.pipe.rr_position());
    ps.pending.push_back({f->offset, f->len, f->share});
    counters_.add(hdr_stat(Hdr::Put));
    HdrFields hf;
    hf.type = Hdr::Put, hf.offset = f->offset, hf.send_req = ps.send_req, hf.recv_req = rid, hf.msg_bytes = f->len;
    // No ACK was sent: v1.1.1 mca_pml_ob1_recv_request_schedule flags a PUT ACK when it goes on the first BTL of the
    // registered array (req_rdma_idx becomes 1) or when only one BTL is left from the index it was taken at
    // (num_btl_avail == 1: the last BTL). With two BTLs every PUT is flagged.
    if (ps.ack_in_put && (f->share == 0 || f->share + 1 == ps.shares)) hf.flags = hdr_flag::Ack;
    btl::Btl* b = bml_.btls()[f->btl];
    const int me = ps.me, peer = ps.peer;
    // prepare_dst (the fragment's registration), then the control message on the same BTL, flagged PRIORITY.
    b->prepare_rdma(me, lib_.recv(rid).buf, f->len, [this, b, hf, me, peer, rid] {
      send_desc(*b, hf, me, peer, btl::DataSegment{}, btl::desc_flag::Priority, rid, nullptr);
    });
  }
}

// mca_pml_ob1_send_request_put: write the receiver's segment over the BTL its PUT came on; at the write's completion
// (mca_pml_ob1_put_completion) send the FIN on that BTL and count the bytes delivered.
void Ob1::on_put(const InFrag& f) {
  const std::uint64_t sid = f.h.send_req, len = f.h.msg_bytes, off = f.h.offset;
  SendRequest& r = lib_.send(sid);
  // A PUT flagged ACK stands for the ACK the receiver did not send (req_got_put_ack): nothing goes by copy.
  if (f.h.flags & hdr_flag::Ack) on_event(r, SendEvent::PutAck);
  btl::Btl* b = f.btl;
  const auto& all = bml_.btls();
  frag_bytes_[static_cast<std::size_t>(std::find(all.begin(), all.end(), b) - all.begin())] += len;
  const int me = r.rank, peer = r.peer;
  // prepare_src (the sender's registration), then the write into the receiver's segment (the BTL needs its length).
  b->prepare_rdma(me, r.buf, len, [this, b, sid, len, off, me, peer, rreq = f.h.recv_req] {
    b->put(me, peer, len, lib_.send(sid).buf, Buffer{}, [this, b, sid, len, off, me, peer, rreq] {
      HdrFields hf;
      hf.type = Hdr::Fin, hf.send_req = sid, hf.recv_req = rreq, hf.offset = off, hf.msg_bytes = len;
      counters_.add(hdr_stat(Hdr::Fin));
      send_desc(*b, hf, me, peer, btl::DataSegment{}, btl::desc_flag::Priority, sid, nullptr);
      on_event(lib_.send(sid), SendEvent::PutDone, len);
      check_send_done(sid);
    });
  });
}

// mca_pml_ob1_put_completion (receiver): the FIN names one of the request's PUT fragments; its bytes are in, its slot
// of the pipeline is free.
void Ob1::on_put_fin(const InFrag& f) {
  const std::uint64_t rid = f.h.recv_req;
  auto it = put_sched_.find(rid);
  if (it == put_sched_.end()) throw ProtocolError("ob1 receive path", "no RDMA PUT pipeline", "FIN");
  PutSchedule& ps = it->second;
  auto p = std::find_if(ps.pending.begin(), ps.pending.end(),
                        [&f](const PutSchedule::Pending& x) { return x.offset == f.h.offset; });
  if (p == ps.pending.end() || p->len != f.h.msg_bytes)
    throw ProtocolError("ob1 receive path", "RDMA PUT pipeline", "FIN of an unknown fragment");
  const std::size_t share = p->share;
  const std::uint64_t len = p->len;
  ps.pending.erase(p);
  counters_.add(Ob1Stat::PutFins);
  ps.pipe.complete(share);
  RecvRequest& r = lib_.recv(rid);
  on_event(r, RecvEvent::PutFin, len);
  if (r.state == RecvState::Complete) {
    put_sched_.erase(it);
    complete_recv(rid);
    return;
  }
  post_puts(rid);
}

void Ob1::post_frags(std::uint64_t sid) {
  for (;;) {
    // Looked up on every pass: a fragment that completes at once may post or finish others (and rehash the map).
    auto it = frag_sched_.find(sid);
    if (it == frag_sched_.end()) return;
    const std::optional<FragPipeline::Frag> f = it->second.pipe.next();
    if (!f) return;
    const SendRequest& r = lib_.send(sid);
    if (it->second.endpoint_rr)
      array_rr(send_rr_, r.rank, r.peer) = static_cast<std::uint32_t>(it->second.pipe.rr_position());
    frag_bytes_[f->btl] += f->len;
    counters_.add(hdr_stat(Hdr::Frag));
    HdrFields hf;
    hf.type = Hdr::Frag, hf.offset = f->offset, hf.send_req = sid, hf.recv_req = it->second.recv_req;
    send_desc(*bml_.btls()[f->btl], hf, r.rank, r.peer, btl::DataSegment{f->offset, f->len, r.buf}, f->flags, sid,
              [this, sid, share = f->share] {
                auto g = frag_sched_.find(sid);
                if (g == frag_sched_.end()) return;
                if (g->second.pipe.complete(share)) {
                  frag_sched_.erase(g);
                  lib_.send(sid).frags_done = true;
                  check_send_done(sid);
                  return;
                }
                post_frags(sid);
              });
  }
}

void Ob1::handle(const InFrag& f) {
  switch (f.h.type) {
    case Hdr::Match:
    case Hdr::Rndv:
    case Hdr::Rget: {
      InFrag g = f;
      if (f.d.data.length > 0 && lib_.early(f.d.dst, f.h.ctx, f.d.src, f.h.seq)) {
        // Ahead of an earlier fragment from its sender (mca_pml_ob1_recv_frag_callback_match ->
        // append_frag_to_ordered_list on proc->frags_cant_match): MCA_PML_OB1_RECV_FRAG_INIT copies its data into a
        // PML buffer and the BTL has its buffer back when the callback returns, as for an unexpected one. A held
        // fragment that kept its BTL buffer could leave the receive pool empty for the very predecessor it waits for.
        g.copied = true;
        counters_.add(Ob1Stat::OutOfOrderCopy);
        cpus_.cpu_copy(g.d.dst, static_cast<double>(g.d.data.length), [g] { g.btl->payload_consumed(g.d); },
                       g.d.data.buf.space);
      }
      std::vector<Unexpected> unexpected;
      auto out = lib_.arrive(f.d.dst, f.h.ctx, f.h.seq, Unexpected{f.d.src, f.h.tag, g}, &unexpected);
      for (auto& m : out) matched(m.recv.rid, m.msg.frag, m.msg.frag.copied);
      for (auto& u : unexpected) {
        counters_.add(u.frag.h.type == Hdr::Match ? Ob1Stat::UnexpectedShort : Ob1Stat::UnexpectedLong);
        if (u.frag.d.data.length == 0 || u.frag.copied) continue;
        // Unexpected eager data (this fragment, or held ones it released): copied into a PML buffer so that the BTL
        // buffer can be returned now rather than at match time.
        counters_.add(Ob1Stat::UnexpectedCopy);
        const InFrag g = u.frag;
        cpus_.cpu_copy(g.d.dst, static_cast<double>(g.d.data.length), [g] { g.btl->payload_consumed(g.d); },
                       g.d.data.buf.space);
      }
      return;
    }
    // A header alone (ACK, PUT, FIN): handled in the receive callback, after which the BTL has its buffer back
    // (Open MPI frees the descriptor when the callback returns; btl/ugni's eager-get buffer when the SMSG limit is
    // below a header's size: it went by FMA GET into the receiver's pool, which would otherwise run dry).
    case Hdr::Ack: {
      SendRequest& r = lib_.send(f.h.send_req);
      bool was_rget = r.state == SendState::RgetSent;  // the receiver fell back: the RGET carried no data
      on_event(r, SendEvent::Ack);
      r.rdma_offset = std::min(f.h.offset, r.bytes);  // hdr_rdma_offset: the receiver PUTs the bytes from there on
      std::uint64_t first = was_rget ? 0 : r.first;
      schedule_frags(f.h.send_req, first, r.rdma_offset, f.h.recv_req);
      f.btl->payload_consumed(f.d);
      return;
    }
    case Hdr::Put:
      on_put(f);
      f.btl->payload_consumed(f.d);
      return;
    case Hdr::Fin: {
      if (f.h.msg_bytes > 0) {  // an RDMA PUT fragment's FIN, to the receiver
        on_put_fin(f);
      } else {
        on_event(lib_.send(f.h.send_req), SendEvent::Fin);
        complete_send(f.h.send_req);
      }
      f.btl->payload_consumed(f.d);
      return;
    }
    case Hdr::Frag: {
      std::uint64_t rid = f.h.recv_req;
      auto arrived = [this, rid, f] {
        RecvRequest& r = lib_.recv(rid);
        on_event(r, RecvEvent::FragArrived, f.d.data.length);
        f.btl->payload_consumed(f.d);
        if (r.state == RecvState::Complete) complete_recv(rid);
      };
      copy_out(rid, f.d.dst, f.d.src, f.d.data.length, arrived, f.d.data.buf.space);
      return;
    }
    default: throw ProtocolError("ob1 receive path", "any", to_string(f.h.type));
  }
}

void Ob1::matched(std::uint64_t rid, const InFrag& f, bool was_unexpected) {
  RecvRequest& r = lib_.recv(rid);
  lib_.matched(r, f.d.src, f.h.tag, f.h.msg_bytes);  // counts MPI_ERR_TRUNCATE (a wrong match in a correct program)
  const int me = f.d.dst, peer = f.d.src;
  const std::uint64_t payload = f.d.data.length;
  switch (f.h.type) {
    case Hdr::Match:
      // From the BTL's buffer (where the descriptor's data segment says it is: the sender's memory for a single-copy
      // BTL), or (unexpected) from the PML buffer it was copied into on arrival.
      copy_out(rid, me, peer, payload, [this, rid, f, payload, was_unexpected] {
        if (!was_unexpected || payload == 0) f.btl->payload_consumed(f.d);
        on_event(lib_.recv(rid), RecvEvent::MatchedEager, payload);
        complete_recv(rid);
      }, was_unexpected ? MemSpace{} : f.d.data.buf.space);
      return;
    case Hdr::Rget: {
      // An RGET carries no data, only where the sender's is (read below): its BTL buffer is free once matched.
      f.btl->payload_consumed(f.d);
      // The GET goes over the first BTL of the RDMA array that can GET.
      btl::Btl* g = nullptr;
      for (const auto& s : bml_.endpoint(me, peer).rdma)
        if (s.btl->caps().has(btl::flag::Get)) {
          g = s.btl;
          break;
        }
      if (!r.buf.contiguous || !g) {
        // The receive buffer cannot take an RDMA GET, or no BTL can do it (mca_pml_ob1_recv_request_progress_rget
        // falls back): ACK the RGET as if it were an RNDV with no data, and the sender pipelines FRAGs instead.
        counters_.add(Ob1Stat::RgetFallbacks);
        on_event(r, RecvEvent::MatchedRndv, 0);
        // v1.8.8 mca_pml_ob1_recv_request_ack_send: the ACK on the eager array's next BTL.
        send_ctrl(Hdr::Ack, me, peer, f.h.send_req, rid, f.h.msg_bytes, next_eager_btl(me, peer));  // all by copy
        return;
      }
      on_event(r, RecvEvent::MatchedRget);
      const std::uint64_t bytes = f.h.msg_bytes, sreq = f.h.send_req;
      const Buffer remote = f.d.data.buf;
      g->prepare_rdma(me, r.buf, bytes, [this, rid, g, me, peer, bytes, sreq, remote] {
        RecvRequest& rr = lib_.recv(rid);
        g->get(me, peer, bytes, rr.buf, remote, [this, rid, me, peer, sreq] { on_rget_done(rid, me, peer, sreq); });
      });
      return;
    }
    case Hdr::Rndv: {
      // mca_pml_ob1_recv_request_progress (v1.1.1 pml_ob1_recvreq.c; v4.1.6 ..._progress_rndv, same order): the ACK
      // goes out first (mca_pml_ob1_recv_request_ack), then the RNDV's own data is unpacked
      // (MCA_PML_OB1_RECV_REQUEST_UNPACK): that copy, and a converting receiver's conversion, overlap the ACK's trip.
      on_event(r, RecvEvent::MatchedRndv, payload);
      bool put = false, ack_in_put = false, registered = false;
      std::uint64_t rdma_from = payload;  // the ACK's rdma offset when some of the rest goes by PUT
      if (registered_path()) {
        // Open MPI 1.1's mca_pml_ob1_recv_request_ack (v11_rndv_ack): a RNDV flagged PIN with this side's buffer
        // registered too takes "start rdma at current fragment offset - no need to ack" (no ACK; the PUTs carry it,
        // post_puts); an unregistered buffer gets an ACK whose rdma offset is bml/r2's btl_rdma_offset (the bytes
        // before it by FRAGs, the PUTs after it registered fragment by fragment); else everything by copy.
        const bml::r2::Endpoint& ep = bml_.endpoint(me, peer);
        RndvAckIn in;
        in.msg_bytes = f.h.msg_bytes, in.received = payload;
        in.contig = (f.h.flags & hdr_flag::Contig) && r.buf.contiguous;
        in.pin = (f.h.flags & hdr_flag::Pin) != 0;
        in.rdma_cnt = v11_rdma_cnt(ep, r.buf);
        auto puts = [](const bml::r2::BmlBtl& x) { return x.btl->caps().has(btl::flag::Put); };
        in.rdma_btls = static_cast<std::size_t>(std::count_if(ep.rdma.begin(), ep.rdma.end(), puts));
        in.btl_rdma_offset = btl_rdma_offset(ep);
        const RndvAck a = v11_rndv_ack(in);
        put = a.rdma_offset < f.h.msg_bytes;
        ack_in_put = !a.send_ack;
        registered = a.registered;
        rdma_from = a.rdma_offset;
      } else {
        // mca_pml_ob1_recv_request_ack (1.3 on): the rest by RDMA PUT when both buffers are contiguous (the RNDV's
        // CONTIG flag) and this side's record gives it (rdma offset = the bytes received), else everything by copy
        // (the length). Open MPI 1.3 on also skip the ACK when nothing goes by copy (v1.8.8
        // mca_pml_ob1_recv_request_ack); not modelled: those versions keep the ACK here.
        put = r.state != RecvState::Complete && (f.h.flags & hdr_flag::Contig) && r.buf.contiguous &&
              rdma_choice(bml_.endpoint(me, peer), f.h.msg_bytes).put;
      }
      // mca_pml_ob1_recv_request_ack takes the eager array's next BTL for the ACK before it decides whether to send
      // one (v1.1.1 pml_ob1_recvreq.c:174, `bml_btl = mca_bml_base_btl_array_get_next(&bml_endpoint->btl_eager)`, then
      // the "no need to ack" return at 194-200): every matched RNDV advances this rank's round robin towards the
      // sender, so its next send to that peer starts on the other eager BTL. (v1.8.8 draws in
      // mca_pml_ob1_recv_request_ack_send, only when an ACK goes; the model sends one there.)
      btl::Btl* ack_btl = next_eager_btl(me, peer);
      if (!ack_in_put) send_ctrl(Hdr::Ack, me, peer, f.h.send_req, rid, put ? rdma_from : f.h.msg_bytes, ack_btl);
      if (put) schedule_puts(rid, me, peer, rdma_from, f.h.send_req, ack_in_put, registered);  // ..._schedule
      ++lib_.recv(rid).unpacking;
      copy_out(rid, me, peer, payload, [this, rid, f, payload, was_unexpected] {
        if (!was_unexpected || payload == 0) f.btl->payload_consumed(f.d);
        --lib_.recv(rid).unpacking;
        complete_recv(rid);
      }, was_unexpected ? MemSpace{} : f.d.data.buf.space);
      return;
    }
    default: throw ProtocolError("ob1 match", "POSTED", to_string(f.h.type));
  }
}

void Ob1::on_rget_done(std::uint64_t rid, int me, int peer, std::uint64_t sreq) {
  on_event(lib_.recv(rid), RecvEvent::GetDone);
  cpus_.cpu(me, sw_, [this, rid, me, peer, sreq] {
    send_ctrl(Hdr::Fin, me, peer, sreq, rid);
    complete_recv(rid);
  }, "mca_pml_ob1_recv_request_progress_rget (FIN)");
}

void Ob1::complete_send(std::uint64_t sid) { lib_.complete_send(sid); }

void Ob1::mpi_complete_send(std::uint64_t sid) {
  counters_.add(Ob1Stat::EarlyCompletions);
  SendRequest& r = lib_.send(sid);
  Completion done = std::move(r.done);
  r.done = nullptr;
  if (done) done();  // last: it may start new requests
}

void Ob1::complete_recv(std::uint64_t rid) {
  const RecvRequest& r = lib_.recv(rid);
  if (r.state == RecvState::Complete && r.unpacking == 0) lib_.complete_recv(rid);
}

}  // namespace ompisim::pml::ob1
