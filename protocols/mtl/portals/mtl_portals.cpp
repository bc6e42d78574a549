#include "protocols/mtl/portals/mtl_portals.hpp"

#include <algorithm>

namespace ompisim::mtl::portals {

using namespace ompisim::portals;
namespace bits = ompisim::portals::mpi;

namespace {
constexpr PtIndex kSendTable = 0;  // OMPI_MTL_PORTALS_SEND_TABLE_ID: MPI messages
constexpr PtIndex kReadTable = 1;  // OMPI_MTL_PORTALS_READ_TABLE_ID: long sends waiting to be pulled
constexpr std::uint64_t kBlockPtr = 1, kLongCatchPtr = 2;  // user_ptr of the catch-all MDs (op ids are >= 2^32)
constexpr std::uint64_t kCopyBlockPtr = 3, kZeroPtr = 4;     // the send copy blocks' MD, the zero-length send MD
}  // namespace

Protocol open_mpi_protocol(const MtlPortalsMca& mca) {
  Protocol p;
  p.name = "portals";
  p.eager_limit = static_cast<std::uint64_t>(mca.mtl_portals_eager_limit.get());
  p.block_size = static_cast<std::uint64_t>(mca.mtl_portals_short_block_size.get());
  p.blocks = static_cast<int>(mca.mtl_portals_short_blocks.get());
  p.copy_blocks = static_cast<int>(mca.mtl_portals_num_copy_blocks.get());
  p.copy_block_len = static_cast<std::uint64_t>(mca.mtl_portals_copy_block_len.get());
  p.me_md_post = true;
  return p;
}

MtlPortals::MtlPortals(const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies, seastar::SeaStar& nic,
                       Protocol p)
    : cpus_(cpus), copies_(copies), proto_(std::move(p)), ss_(nic), eager_(proto_.eager_limit) {
  check_protocol(proto_, contexts.ranks());
  client_ = ss_.open("mtl/" + proto_.name, {kSendTable, kReadTable}, [this](int r, const Event& e) { on_event(r, e); },
                     [this](int t, const IncomingResult& in, const PutMessage& m) { on_match(t, in, m); });
}

void MtlPortals::ensure(int rank) {
  RankState& rs = ranks_[rank];
  if (rs.ready) return;
  rs.ready = true;  // MPI_Init: the catch-all entries exist before any message can arrive
  Nic& nic = ss_.nic(rank);
  auto [lb, li] = bits::type_only(bits::MsgType::Long);
  rs.long_catch = nic.me_attach(kSendTable, ProcessId::any(), lb, li, UnlinkOp::Retain, InsertPos::After);
  Md md;
  md.length = 0;
  md.options.op_put = md.options.truncate = md.options.ack_disable = md.options.event_start_disable = true;
  md.eq = ss_.eq(rank, client_);
  md.user_ptr = kLongCatchPtr;
  nic.md_attach(rs.long_catch, md, UnlinkOp::Retain);
  for (int i = 0; i < proto_.blocks; ++i) post_block(rank);
  rs.copy_free = proto_.copy_blocks;
}

void MtlPortals::post_block(int rank) {
  Nic& nic = ss_.nic(rank);
  auto [sb, si] = bits::type_only(bits::MsgType::Short);
  MeId me = nic.me_attach(kSendTable, ProcessId::any(), sb, si, UnlinkOp::Unlink, InsertPos::After);
  Md md;
  md.length = proto_.block_size;
  md.max_size = std::min<std::uint64_t>(std::max<std::uint64_t>(eager_, 1), md.length);
  md.options.op_put = md.options.manage_local = md.options.ack_disable = true;
  md.options.event_start_disable = !proto_.unexpected_start_events;
  md.eq = ss_.eq(rank, client_);
  md.user_ptr = kBlockPtr;
  nic.md_attach(me, md, UnlinkOp::Unlink);
  c_.add(MtlPortalsStat::ShortBlocksPosted);
}

namespace {
std::string block_note_of(const Protocol& p) {
  return p.block_share > 1 ? " (1/" + std::to_string(p.block_share) + " of " + p.block_key + ")" : "";
}
}  // namespace

std::string MtlPortals::block_note() const { return block_note_of(proto_); }

void check_protocol(const Protocol& p, long long ranks) {
  if (ranks > bits::kMaxRanks)
    throw InputError("", "ranks",
                     std::to_string(ranks) + " ranks: mtl/portals carries the source rank in 16 match bits "
                     "(Open MPI 1.3 mtl_portals.h), so at most " + std::to_string(bits::kMaxRanks) + " ranks");
  // A short message lands whole in one unexpected block (its MD's max_size is the eager limit, PTL_MD_MAX_SIZE): one
  // larger than a block matches no entry and Portals drops it, so the run could not complete. Cray MPI aborts on an
  // unexpected buffer too small for its messages (intro_mpi: MPICH_UNEX_BUFFER_SIZE).
  if (p.eager_limit > p.block_size)
    throw InputError("", p.block_key,
                     "an unexpected block of " + std::to_string(p.block_size) + " B" + block_note_of(p) +
                         " cannot hold one short message of up to " + std::to_string(p.eager_limit) + " B (" +
                         p.eager_key + "): Portals would drop it; raise " + p.block_key + " or lower " + p.eager_key);
}

void MtlPortals::on_match(int target, const IncomingResult& in, const PutMessage& m) {
  // An MPI message that matched nothing: a short one found every unexpected block full and no fresh one posted yet
  // (a long one always matches the retained catch-all). Portals drops it and no protocol of either library resends
  // it: Cray MPI aborts on an exhausted unexpected buffer (intro_mpi: MPICH_UNEX_BUFFER_SIZE), Open MPI's would hang.
  if (!in.matched && m.portal_index == kSendTable)
    throw InputError("", proto_.block_key,
                     "rank " + std::to_string(target) + " dropped a short message of " + std::to_string(m.length) +
                         " B from rank " + std::to_string(bits::src_of(m.match_bits)) +
                         ": its " + std::to_string(proto_.blocks) + " unexpected blocks of " +
                         std::to_string(proto_.block_size) + " B" + block_note() +
                         " were full (a block unlinks when its free space falls below the eager limit, and its "
                         "successor is posted only once the host reads the unlink event); raise " +
                         proto_.block_key + " or lower " + proto_.eager_key);
  if (!in.matched || (in.user_ptr != kBlockPtr && in.user_ptr != kLongCatchPtr)) return;
  bool is_long = in.user_ptr == kLongCatchPtr;
  c_.add(is_long ? MtlPortalsStat::UnexpectedLong : MtlPortalsStat::UnexpectedShort);
  std::uint64_t length = is_long ? message_length(m.hdr_data, in.rlength) : in.rlength;
  ranks_[target].unexpected.push_back(
      Unexpected{m.match_bits, bits::src_of(m.match_bits), length, in.mlength, m.hdr_data, is_long});
}

void MtlPortals::isend(const ompisim::mpi::P2P& m, Completion done) {
  const int rank = m.rank;
  const std::uint64_t bytes = m.bytes();
  ensure(rank);
  ensure(m.peer);
  bool is_long = bytes > eager_;
  auto [id, op] = ops_.create();
  op.kind = is_long ? OpKind::LongSend : OpKind::ShortSend, op.rank = rank, op.peer = m.peer, op.bytes = bytes;
  op.buf = m.buffer(), op.done = std::move(done);
  c_.add(is_long ? MtlPortalsStat::LongSends : MtlPortalsStat::ShortSends);
  op.bits = bits::send_bits(is_long ? bits::MsgType::Long : bits::MsgType::Short, m.comm.context_id, rank, m.tag);
  RankState& rs = ranks_[rank];
  op.copied = !is_long && proto_.copy_blocks > 0 && bytes <= proto_.copy_block_len;
  if (op.copied) c_.add(bytes ? MtlPortalsStat::CopyBlockSends : MtlPortalsStat::ZeroSends);
  const bool needs_block = op.copied && bytes > 0;
  if (!rs.send_waiting.empty() || (needs_block && rs.copy_free == 0)) {
    c_.add(MtlPortalsStat::CopyBlockWaits);
    op.state = step(op.state, OpEvent::WaitCopyBlock);
    rs.send_waiting.emplace_back(needs_block, id);
    return;
  }
  if (needs_block) --rs.copy_free;
  start_send(id);
}

// Open MPI 1.3 ompi_mtl_portals_short_send / zero_send: the data copied into the copy block (none for zero bytes), one
// PtlPutRegion (PtlPut) without ACK from the retained MD, and the request is complete (is_complete = true). Any other
// send: PtlMDBind or PtlMEAttach + PtlMDAttach over the user buffer, and PtlPut.
void MtlPortals::start_send(std::uint64_t id) {
  Op& op = ops_.at(id);
  const int rank = op.rank;
  if (op.copied) {
    op.state = step(op.state, OpEvent::StartCopy);
    // The copy and the put are queued on the CPU now, one after the other, so a later send's Portals calls cannot
    // pass this put (Portals matches in the order the puts are made). The copy of at most copy_block_len bytes is
    // timed as the node's uncontended copy.
    if (op.bytes)
      cpus_.cpu(rank, copies_.copy_time_uncontended(static_cast<double>(op.bytes), rank), [] {}, "memcpy (copy block)");
    ss_.calls(rank, 1, [this, id] { on_copy_put(id); });
    return;
  }
  op.state = step(op.state, OpEvent::StartPut);
  const bool is_long = op.kind == OpKind::LongSend;
  // Queued now, before the calls, so that a later send's calls cannot pass this put.
  if (const double extra = is_long ? 0.0 : medium_send_cost(rank); extra > 0)
    cpus_.cpu(rank, extra, [] {}, "mtl/portals medium send (user-buffer MD)");
  const int long_calls = proto_.long_rendezvous ? 4 : (proto_.me_md_post ? 2 : 3);
  ss_.calls(rank, is_long ? long_calls : 2, [this, id] { on_send_calls(id); });
}

void MtlPortals::on_copy_put(std::uint64_t id) {
  Op& op = ops_.at(id);
  op.state = step(op.state, OpEvent::CopyPut);
  Md md;  // stands for a region of the retained copy-block MD (or the zero MD): no bind is priced
  md.length = op.bytes;
  md.threshold = 1;
  md.options.event_start_disable = true;
  md.eq = ss_.eq(op.rank, client_);
  md.user_ptr = op.bytes ? kCopyBlockPtr : kZeroPtr;
  MdId h = ss_.nic(op.rank).md_bind(md, UnlinkOp::Unlink);
  ss_.put(op.rank, h, AckReq::NoAck, op.peer, kSendTable, op.bits, 0);
  complete(id);
}

// A copy block came back (its SEND_END was read): sends waiting behind go, in order, while blocks last.
void MtlPortals::release_copy_block(int rank) {
  RankState& rs = ranks_[rank];
  ++rs.copy_free;
  while (!rs.send_waiting.empty()) {
    auto [needs_block, id] = rs.send_waiting.front();
    if (needs_block && rs.copy_free == 0) return;
    if (needs_block) --rs.copy_free;
    rs.send_waiting.pop_front();
    start_send(id);
  }
}

// Open MPI 1.3 ompi_mtl_portals_medium_isend, a short send not copied: PtlMDBind of the user buffer, PtlPut, and the
// request completes at SEND_END. Its cost beyond the two calls (the bind of a new MD over the user buffer, its unlink
// and the completion through the event queue) is not published; the library copies up to copy_block_len instead,
// i.e. where the copy path (memcpy + PtlPutRegion) stops being the cheaper one, so the two cost the same there: the
// uncontended copy of copy_block_len bytes less one call. Without copy blocks (Cray MPI's protocol) nothing is set.
double MtlPortals::medium_send_cost(int rank) const {
  if (proto_.copy_blocks <= 0 || proto_.copy_block_len == 0) return 0.0;
  const double copy = copies_.copy_time_uncontended(static_cast<double>(proto_.copy_block_len), rank);
  return std::max(0.0, copy - ss_.params().portals_call_cost);
}

void MtlPortals::on_send_calls(std::uint64_t id) {
  Op& op = ops_.at(id);
  const int rank = op.rank;
  const bool is_long = op.kind == OpKind::LongSend;
  op.state = step(op.state, is_long ? OpEvent::LongPut : OpEvent::ShortPut);
  Nic& nic = ss_.nic(rank);
  Md md;
  md.start = op.buf.addr;
  md.length = op.bytes;
  md.options.event_start_disable = true;
  md.eq = ss_.eq(rank, client_);
  md.user_ptr = id;
  if (!is_long) {
    md.threshold = 1;
    MdId h = nic.md_bind(md, UnlinkOp::Unlink);
    ss_.put(rank, h, AckReq::NoAck, op.peer, kSendTable, op.bits, 0);
    return;
  }
  MeId me = nic.me_attach(kReadTable, seastar::SeaStar::pid(op.peer), id, 0, UnlinkOp::Unlink, InsertPos::After);
  md.options.op_get = true;
  if (proto_.long_rendezvous) {  // data stays for the receiver's get; a header-only put announces it
    md.threshold = 1;
    nic.md_attach(me, md, UnlinkOp::Unlink);
    Md hdr;
    hdr.start = op.buf.addr;
    hdr.length = 0;
    hdr.threshold = 1;
    hdr.options.event_start_disable = hdr.options.event_end_disable = true;
    MdId h = nic.md_bind(hdr, UnlinkOp::Unlink);
    ss_.put(rank, h, AckReq::NoAck, op.peer, kSendTable, op.bits, id);
    return;
  }
  md.threshold = 2;  // send, {ack, get}
  MdId h = nic.md_attach(me, md, UnlinkOp::Unlink);
  ss_.put(rank, h, AckReq::Ack, op.peer, kSendTable, op.bits, id);
}

void MtlPortals::irecv(const ompisim::mpi::P2P& m, Completion done) {
  const int rank = m.rank;
  ensure(rank);
  auto [id, op] = ops_.create();
  op.kind = OpKind::Recv, op.rank = rank, op.bytes = m.bytes(), op.buf = m.buffer(), op.done = std::move(done);
  op.status = m.status;
  recv_keys_[id] = RecvKey{m.comm.context_id, m.peer, m.tag};
  if (take_unexpected(rank, id)) return;
  op.state = step(op.state, OpEvent::PostRecv);
  ss_.calls(rank, proto_.me_md_post ? 1 : 3, [this, id] { on_recv_calls(id); });
}

void MtlPortals::on_recv_calls(std::uint64_t id) {
  const int rank = ops_.at(id).rank;
  // PtlMDUpdate (or PtlMEMDPost) refuses while unexpected events are pending: search again, atomically with the insert.
  if (take_unexpected(rank, id)) {
    c_.add(MtlPortalsStat::MdUpdateRetry);
    return;
  }
  Op& op = ops_.at(id);
  op.state = step(op.state, OpEvent::Attached);
  Nic& nic = ss_.nic(rank);
  const RecvKey key = recv_keys_.at(id);
  auto [b, ig] = bits::recv_bits(key.ctx, key.src, key.tag);
  MeId me = nic.me_insert(ranks_[rank].long_catch, ProcessId::any(), b, ig, UnlinkOp::Unlink, InsertPos::Before);
  Md md;
  md.start = op.buf.addr;
  md.length = op.bytes;
  md.threshold = 1;
  md.options.op_put = md.options.truncate = md.options.event_start_disable = true;
  md.eq = ss_.eq(rank, client_);
  md.user_ptr = id;
  nic.md_attach(me, md, UnlinkOp::Unlink);
  recv_keys_.erase(id);
  ++posted_;
  c_.add(MtlPortalsStat::PostedReceives);
  proto_.posted_params.mark();
  if (proto_.posted_cost > 0) cpus_.cpu(rank, proto_.posted_cost, [] {}, "pre-posted receive path (protocol's own cost)");
}

bool MtlPortals::take_unexpected(int rank, std::uint64_t rid) {
  auto& q = ranks_[rank].unexpected;
  const RecvKey key = recv_keys_.at(rid);
  auto [b, ig] = bits::recv_bits(key.ctx, key.src, key.tag);
  for (auto it = q.begin(); it != q.end(); ++it) {
    if (it->waiting || ((it->bits ^ b) & ~ig) != 0) continue;
    recv_keys_.erase(rid);
    if (!it->seen) {  // matched by the firmware, event not yet at the host: finish when it is
      it->waiting = rid;
      Op& op = ops_.at(rid);
      op.state = step(op.state, OpEvent::MatchedUnseen);
      return true;
    }
    Unexpected u = *it;
    q.erase(it);
    finish_unexpected(rank, rid, u);
    return true;
  }
  return false;
}

void MtlPortals::finish_unexpected(int rank, std::uint64_t rid, const Unexpected& u) {
  // MPI_ERR_TRUNCATE: the matched message is longer than the receive (never in a correct program, so a count above
  // zero in a test means a message matched the wrong receive).
  if (u.rlength > ops_.at(rid).bytes) c_.add(MtlPortalsStat::TruncateErrors);
  set_status(rid, u.bits, u.rlength);
  Op& op = ops_.at(rid);
  if (!u.is_long) {  // copy out of the short block (after the protocol's own unexpected-path cost, if any)
    op.state = step(op.state, OpEvent::MatchedShort);
    op.data_len = u.mlength;
    proto_.unexpected_params.mark();
    const double extra = proto_.unexpected_cost +
                         (proto_.unexpected_rate > 0 ? static_cast<double>(u.mlength) / proto_.unexpected_rate : 0.0);
    if (extra > 0) cpus_.cpu(rank, extra, [this, rid] { copy_out(rid); }, "unexpected path (protocol's own cost)");
    else copy_out(rid);
    return;
  }
  op.state = step(op.state, OpEvent::MatchedLong);
  op.bits = u.bits, op.hdr_data = u.hdr_data, op.data_len = u.rlength;
  c_.add(MtlPortalsStat::LongGets);
  ss_.calls(rank, 2, [this, rid] { on_get_calls(rid); });
}

void MtlPortals::copy_out(std::uint64_t id) {
  const Op& op = ops_.at(id);
  cpus_.cpu_copy(op.rank, static_cast<double>(op.data_len), [this, id] {
    Op& o = ops_.at(id);
    o.state = step(o.state, OpEvent::Copied);
    complete(id);
  });
}

void MtlPortals::on_get_calls(std::uint64_t id) {
  Op& op = ops_.at(id);
  op.state = step(op.state, OpEvent::GetIssued);
  Md md;
  md.start = op.buf.addr;
  md.length = std::min(op.bytes, op.data_len);  // a truncating receive pulls only what fits
  md.threshold = 1;
  md.options.event_start_disable = true;
  md.eq = ss_.eq(op.rank, client_);
  md.user_ptr = id;
  MdId h = ss_.nic(op.rank).md_bind(md, UnlinkOp::Unlink);
  ss_.get(op.rank, h, bits::src_of(op.bits), kReadTable, op.hdr_data);
}

void MtlPortals::on_event(int rank, const Event& e) {
  if (e.user_ptr == kCopyBlockPtr || e.user_ptr == kZeroPtr) {
    // The real MDs are retained (bound once at MPI_Init): the model's per-message MD unlinks without an event to read.
    if (e.kind != EventKind::SendEnd) return;
    const bool block = e.user_ptr == kCopyBlockPtr;
    if (block)  // ompi_mtl_portals_short_callback: free the block once the event is read
      cpus_.cpu(rank, poll_cost(), [this, rank] { release_copy_block(rank); }, "ompi_mtl_portals_progress (PtlEQGet)");
    else
      cpus_.cpu(rank, poll_cost(), [] {}, "ompi_mtl_portals_progress (PtlEQGet)");
    return;
  }
  if (e.user_ptr == kBlockPtr || e.user_ptr == kLongCatchPtr) {
    if (e.kind == EventKind::Unlink) {  // a full short block: post a fresh one
      ss_.calls(rank, 2, [this, rank] { post_block(rank); });
      return;
    }
    if (e.kind != EventKind::PutEnd) {  // PUT_START (Cray MPI's unexpected path): read, nothing to do
      cpus_.cpu(rank, poll_cost(), [] {}, "ompi_mtl_portals_progress (PtlEQGet)");
      return;
    }
    auto& q = ranks_[rank].unexpected;
    auto it = std::find_if(q.begin(), q.end(), [&](const Unexpected& u) {
      // A long message's hdr_data is its sender's unique id (its rlength is the message length, not the put's).
      return !u.seen && u.bits == e.match_bits && u.hdr_data == e.hdr_data && (u.is_long || u.rlength == e.rlength);
    });
    if (it == q.end()) throw ProtocolError("mtl/portals", "unexpected list", "PUT_END without a matched header");
    it->seen = true;
    cpus_.cpu(rank, poll_cost(), [this, rank, bits = e.match_bits, hdr = e.hdr_data] {
      on_unexpected_put_end_read(rank, bits, hdr);
    }, "ompi_mtl_portals_progress (PtlEQGet)");
    return;
  }
  on_op_event(rank, e);
}

void MtlPortals::on_unexpected_put_end_read(int rank, ptl::MatchBits bits, std::uint64_t hdr_data) {
  auto& q = ranks_[rank].unexpected;
  auto it = std::find_if(q.begin(), q.end(), [&](const Unexpected& u) {
    return u.seen && u.waiting && u.bits == bits && u.hdr_data == hdr_data;
  });
  if (it == q.end()) return;  // no receive waits for it yet: the receive that comes later takes it (take_unexpected)
  Unexpected u = *it;
  q.erase(it);
  finish_unexpected(rank, u.waiting, u);
}

namespace {
OpEvent op_event(EventKind k) {
  switch (k) {
    case EventKind::SendEnd: return OpEvent::SendEnd;
    case EventKind::Ack: return OpEvent::Ack;
    case EventKind::GetEnd: return OpEvent::GetEnd;
    case EventKind::PutEnd: return OpEvent::PutEnd;
    case EventKind::ReplyEnd: return OpEvent::ReplyEnd;
    case EventKind::Unlink: return OpEvent::Unlink;
    default: return OpEvent::OtherEvent;  // START events: disabled on every MD of an operation
  }
}
}  // namespace

// Every event is read from the event queue (poll_cost); a completing one completes its request once read.
void MtlPortals::on_op_event(int rank, const Event& e) {
  Op* op = ops_.find(e.user_ptr);
  if (!op) {
    cpus_.cpu(rank, poll_cost(), [] {}, "ompi_mtl_portals_progress (PtlEQGet)");
    return;
  }
  const std::uint64_t id = e.user_ptr;
  const bool put_end = op->kind == OpKind::Recv && e.kind == EventKind::PutEnd;
  if (put_end) {
    --posted_;
    if (e.rlength > op->bytes) c_.add(MtlPortalsStat::TruncateErrors);  // MPI_ERR_TRUNCATE (see finish_unexpected)
    set_status(id, e.match_bits, e.rlength);
  }
  if (put_end && proto_.long_rendezvous && bits::type_of(e.match_bits) == bits::MsgType::Long) {
    // Rendezvous header matched a posted receive: pull the data (when the library next progresses).
    op->state = step(op->state, OpEvent::HeaderPutEnd);
    op->bits = e.match_bits, op->hdr_data = e.hdr_data, op->data_len = message_length(e.hdr_data, e.rlength);
    cpus_.cpu(rank, poll_cost(), [this, id] { on_header_polled(id); }, "ompi_mtl_portals_progress (PtlEQGet)");
    return;
  }
  const OpState from = op->state;
  op->state = step(op->state, op_event(e.kind));
  if (op->state == OpState::Polling && from != OpState::Polling)
    cpus_.cpu(rank, poll_cost(), [this, id] { on_polled(id); }, "ompi_mtl_portals_progress (PtlEQGet)");
  else
    cpus_.cpu(rank, poll_cost(), [] {}, "ompi_mtl_portals_progress (PtlEQGet)");
}

void MtlPortals::on_header_polled(std::uint64_t id) {
  const Op& op = ops_.at(id);
  finish_unexpected(op.rank, id,
                    Unexpected{op.bits, bits::src_of(op.bits), op.data_len, 0, op.hdr_data, true});
}

void MtlPortals::on_polled(std::uint64_t id) {
  Op& op = ops_.at(id);
  op.state = step(op.state, OpEvent::Polled);
  complete(id);
}

// The full length of a long message. Open MPI's long put carries the whole message, so it is the put's requested
// length. Cray MPI's rendezvous header is a zero-length put whose MPICH packet header holds the message size; the
// model does not serialise that header and reads the size from the sending operation (hdr_data is its id).
std::uint64_t MtlPortals::message_length(std::uint64_t hdr_data, std::uint64_t rlength) const {
  if (!proto_.long_rendezvous) return rlength;
  return ops_.at(hdr_data).bytes;
}

double MtlPortals::poll_cost() const { return proto_.eqs_polled * ss_.params().eq_poll_cost; }

void MtlPortals::set_status(std::uint64_t rid, MatchBits b, std::uint64_t length) {
  Op& op = ops_.at(rid);
  op.matched = ompisim::mpi::Status{bits::src_of(b), bits::tag_of(b), length, length > op.bytes};
}

void MtlPortals::complete(std::uint64_t id) {
  Op op = ops_.take(id);
  if (op.status && op.kind == OpKind::Recv) *op.status = op.matched;
  if (op.done) op.done();
}

std::uint64_t MtlPortals::unexpected_now() const {
  std::uint64_t n = 0;
  for (auto& [r, s] : ranks_) n += s.unexpected.size();
  return n;
}

void MtlPortals::add_counters(std::map<std::string, std::uint64_t>& c) const {
  auto own = c_;
  own.set(MtlPortalsStat::LiveOps, ops_.size());
  own.report(c);
  ss_.add_counters(c);
}

}  // namespace ompisim::mtl::portals
