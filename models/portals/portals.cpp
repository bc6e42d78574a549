// Portals 3.3 matching and data movement. See portals.hpp for the sources and limitations.
#include "models/portals/portals.hpp"

#include "core/enum_names.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>

namespace ompisim::portals {

namespace {

constexpr const char* kMachine = "ptl/portals Nic";

std::string id_str(std::uint32_t v) { return std::to_string(v); }
template <class E> std::uint32_t raw(E e) { return static_cast<std::uint32_t>(e); }

void validate(const Md& md, const char* op) {
  if (md.threshold < kMdThreshInf)
    throw std::invalid_argument(std::string(op) + ": MD threshold " + std::to_string(md.threshold) +
                                " is invalid (allowed: -1 = PTL_MD_THRESH_INF, or >= 0)");
  if (md.max_size > md.length)
    throw std::invalid_argument(std::string(op) + ": MD max_size " + std::to_string(md.max_size) +
                                " exceeds its length " + std::to_string(md.length) +
                                " (the MD could never accept a message)");
}

}  // namespace

// ----------------------------------------------------------------------------------------------------- to_string
std::string to_string(ProcessId p) {
  auto part = [](std::uint32_t v) { return v == ProcessId::kNidAny ? std::string("*") : std::to_string(v); };
  return "(" + part(p.nid) + "," + part(p.pid) + ")";
}

namespace {
constexpr std::array<const char*, 2> kUnlinkOpNames{"PTL_RETAIN", "PTL_UNLINK"};
constexpr std::array<const char*, 2> kInsertPosNames{"PTL_INS_BEFORE", "PTL_INS_AFTER"};
constexpr std::array<const char*, 2> kAckReqNames{"PTL_NOACK_REQ", "PTL_ACK_REQ"};
constexpr std::array<const char*, 10> kEventKindNames{
    "PTL_EVENT_GET_START",  "PTL_EVENT_GET_END",  "PTL_EVENT_PUT_START", "PTL_EVENT_PUT_END", "PTL_EVENT_REPLY_START",
    "PTL_EVENT_REPLY_END", "PTL_EVENT_SEND_START", "PTL_EVENT_SEND_END", "PTL_EVENT_ACK",     "PTL_EVENT_UNLINK"};
constexpr std::array<const char*, 3> kDropReasonNames{"none", "no matching entry", "invalid portal index"};
}  // namespace

std::string to_string(UnlinkOp u) { return name_of<UnlinkOp::Unlink>(u, kUnlinkOpNames); }
std::string to_string(InsertPos p) { return name_of<InsertPos::After>(p, kInsertPosNames); }
std::string to_string(AckReq a) { return name_of<AckReq::Ack>(a, kAckReqNames); }
std::string to_string(EventKind k) { return name_of<EventKind::Unlink>(k, kEventKindNames); }
std::string to_string(DropReason r) { return name_of<DropReason::InvalidPortalIndex>(r, kDropReasonNames); }

// ---------------------------------------------------------------------------------------------------- EventQueue
EventQueue::EventQueue(std::size_t capacity) : capacity_(capacity) {
  if (capacity == 0) throw std::invalid_argument("EventQueue: capacity must be at least 1");
}

void EventQueue::post(const Event& e) {
  if (events_.size() == capacity_) {  // circular queue: the oldest unread event is overwritten
    events_.pop_front();
    ++dropped_total_;
    drop_pending_ = true;
  }
  events_.push_back(e);
}

std::optional<EventQueue::Entry> EventQueue::get() {
  if (events_.empty()) return std::nullopt;
  Entry entry{events_.front(), drop_pending_};
  drop_pending_ = false;
  events_.pop_front();
  return entry;
}

// --------------------------------------------------------------------------------------------------- PortalTable
PortalTable::PortalTable(std::size_t size) : lists_(size) {
  if (size == 0) throw std::invalid_argument("PortalTable: size must be at least 1");
}

PortalTable::List& PortalTable::list(PtIndex i) {
  if (!valid(i))
    throw std::out_of_range("PortalTable: portal index " + std::to_string(i) + " out of range [0, " +
                            std::to_string(lists_.size()) + ")");
  return lists_[i];
}

const PortalTable::List& PortalTable::list(PtIndex i) const { return const_cast<PortalTable*>(this)->list(i); }

// ----------------------------------------------------------------------------------------------------------- Nic
Nic::Nic(ProcessId id, std::size_t portal_table_size) : id_(id), table_(portal_table_size) {}

EqId Nic::eq_alloc(std::size_t capacity) {
  const EqId id{next_eq_++};
  eqs_.emplace(id, EventQueue(capacity));
  return id;
}

std::optional<EventQueue::Entry> Nic::eq_get(EqId eq) {
  auto it = eqs_.find(eq);
  if (it == eqs_.end()) throw std::invalid_argument("eq_get: unknown event queue " + id_str(raw(eq)));
  return it->second.get();
}

const EventQueue& Nic::eq(EqId eq) const {
  auto it = eqs_.find(eq);
  if (it == eqs_.end()) throw std::invalid_argument("eq: unknown event queue " + id_str(raw(eq)));
  return it->second;
}

MeId Nic::me_attach(PtIndex portal_index, ProcessId source, MatchBits match_bits, MatchBits ignore_bits,
                    UnlinkOp unlink, InsertPos pos) {
  auto& list = table_.list(portal_index);
  const MeId id{next_me_++};
  MatchEntry e{id, portal_index, source, match_bits, ignore_bits, unlink, kMdNone};
  auto it = pos == InsertPos::Before ? list.insert(list.begin(), e) : list.insert(list.end(), e);
  me_index_.emplace(id, MeRef{portal_index, it});
  return id;
}

MeId Nic::me_insert(MeId base, ProcessId source, MatchBits match_bits, MatchBits ignore_bits, UnlinkOp unlink,
                    InsertPos pos) {
  auto ref = me_index_.find(base);
  if (ref == me_index_.end()) throw std::invalid_argument("me_insert: unknown base match entry " + id_str(raw(base)));
  auto& list = table_.list(ref->second.portal_index);
  const MeId id{next_me_++};
  MatchEntry e{id, ref->second.portal_index, source, match_bits, ignore_bits, unlink, kMdNone};
  auto where = pos == InsertPos::Before ? ref->second.it : std::next(ref->second.it);
  auto it = list.insert(where, e);
  me_index_.emplace(id, MeRef{ref->second.portal_index, it});
  return id;
}

void Nic::me_unlink(MeId me) {
  auto ref = me_index_.find(me);
  if (ref == me_index_.end()) throw std::invalid_argument("me_unlink: unknown match entry " + id_str(raw(me)));
  if (ref->second.it->md != kMdNone) mds_.erase(ref->second.it->md);
  table_.list(ref->second.portal_index).erase(ref->second.it);
  me_index_.erase(ref);
}

const MatchEntry& Nic::me(MeId me) const {
  auto ref = me_index_.find(me);
  if (ref == me_index_.end()) throw std::invalid_argument("me: unknown match entry " + id_str(raw(me)));
  return *ref->second.it;
}

MdId Nic::md_attach(MeId me, const Md& md, UnlinkOp unlink) {
  auto ref = me_index_.find(me);
  if (ref == me_index_.end()) throw std::invalid_argument("md_attach: unknown match entry " + id_str(raw(me)));
  if (ref->second.it->md != kMdNone)
    throw ProtocolError(kMachine, "match entry " + id_str(raw(me)) + " already has MD " +
                                      id_str(raw(ref->second.it->md)),
                        "md_attach");
  validate(md, "md_attach");
  if (md.eq != kEqNone && eqs_.count(md.eq) == 0)
    throw std::invalid_argument("md_attach: unknown event queue " + id_str(raw(md.eq)));
  const MdId id{next_md_++};
  mds_.emplace(id, MdState{md, unlink, me, 0, 0, false});
  ref->second.it->md = id;
  return id;
}

MdId Nic::md_bind(const Md& md, UnlinkOp unlink) {
  validate(md, "md_bind");
  if (md.eq != kEqNone && eqs_.count(md.eq) == 0)
    throw std::invalid_argument("md_bind: unknown event queue " + id_str(raw(md.eq)));
  const MdId id{next_md_++};
  mds_.emplace(id, MdState{md, unlink, kMeNone, 0, 0, false});
  return id;
}

void Nic::md_unlink(MdId md) {
  if (mds_.count(md) == 0) throw std::invalid_argument("md_unlink: unknown memory descriptor " + id_str(raw(md)));
  erase_md(md, nullptr);
}

const MdState& Nic::md(MdId md) const {
  auto it = mds_.find(md);
  if (it == mds_.end()) throw std::invalid_argument("md: unknown memory descriptor " + id_str(raw(md)));
  return it->second;
}

MdState& Nic::md_mut(MdId md, const char* op) {
  auto it = mds_.find(md);
  if (it == mds_.end()) throw std::invalid_argument(std::string(op) + ": unknown memory descriptor " + id_str(raw(md)));
  return it->second;
}

std::size_t Nic::match_list_length(PtIndex portal_index) const { return table_.list(portal_index).size(); }

std::vector<MeId> Nic::match_list(PtIndex portal_index) const {
  std::vector<MeId> out;
  for (const auto& e : table_.list(portal_index)) out.push_back(e.id);
  return out;
}

EventQueue* Nic::queue_of(const MdState& s) {
  if (s.md.eq == kEqNone) return nullptr;
  auto it = eqs_.find(s.md.eq);
  return it == eqs_.end() ? nullptr : &it->second;
}

void Nic::post(const MdState& s, std::vector<Event>& out, const Event& e) {
  if (EventQueue* q = queue_of(s)) {
    q->post(e);
    out.push_back(e);
  }
}

void Nic::erase_md(MdId md, bool* me_unlinked) {
  auto it = mds_.find(md);
  const MeId me = it->second.me;
  mds_.erase(it);
  if (me == kMeNone) return;
  auto ref = me_index_.find(me);
  if (ref == me_index_.end()) return;
  ref->second.it->md = kMdNone;
  if (ref->second.it->unlink == UnlinkOp::Unlink) {
    table_.list(ref->second.portal_index).erase(ref->second.it);
    me_index_.erase(ref);
    if (me_unlinked != nullptr) *me_unlinked = true;
  }
}

void Nic::retire_if_exhausted(MdId md, const Event& cause, std::vector<Event>& out, bool& md_unlinked,
                              bool* me_unlinked) {
  MdState& s = mds_.at(md);
  const bool no_threshold = s.md.threshold == 0;
  const bool no_space = s.md.max_size > 0 && s.md.options.manage_local &&
                        s.md.length - std::min(s.local_offset, s.md.length) < s.md.max_size;
  if (!(no_threshold || no_space) || s.pending_replies > 0) return;
  if (s.unlink == UnlinkOp::Retain) {
    s.inactive = true;
    return;
  }
  Event e = cause;
  e.kind = EventKind::Unlink;
  post(s, out, e);
  erase_md(md, me_unlinked);
  md_unlinked = true;
}

// ------------------------------------------------------------------------------------------------- target side
IncomingResult Nic::deliver(bool is_put, ProcessId initiator, PtIndex portal_index, MatchBits match_bits,
                            std::uint64_t length, std::uint64_t remote_offset, std::uint64_t hdr_data, AckReq ack_req,
                            MdId initiator_md) {
  IncomingResult r;
  r.rlength = length;
  if (!table_.valid(portal_index)) {
    r.drop_reason = DropReason::InvalidPortalIndex;
    ++dropped_;
    return r;
  }
  for (const MatchEntry& me : table_.list(portal_index)) {
    ++r.entries_walked;
    if (me.md == kMdNone || !me.matches(initiator, match_bits)) continue;
    MdState& s = mds_.at(me.md);
    if (!s.active()) continue;
    if (is_put ? !s.md.options.op_put : !s.md.options.op_get) continue;
    const std::uint64_t offset = s.md.options.manage_local ? s.local_offset : remote_offset;
    std::uint64_t space = s.md.length - std::min(offset, s.md.length);
    if (s.md.max_size > 0) space = std::min(space, s.md.max_size);
    std::uint64_t mlength = length;
    if (length > space) {
      if (!s.md.options.truncate) continue;  // the MD rejects it; the walk goes on
      mlength = space;
    }

    // Accepted by this entry.
    const MdId md = me.md;
    r.matched = true;
    r.me = me.id;
    r.md = md;
    r.mlength = mlength;
    r.offset = offset;
    r.user_ptr = s.md.user_ptr;
    if (s.md.threshold > 0) --s.md.threshold;
    if (s.md.options.manage_local) s.local_offset += mlength;

    Event e{is_put ? EventKind::PutStart : EventKind::GetStart, initiator, portal_index, match_bits, length,
            mlength, offset, md, s.md.user_ptr, is_put ? hdr_data : 0};
    if (!s.md.options.event_start_disable) post(s, r.events, e);
    e.kind = is_put ? EventKind::PutEnd : EventKind::GetEnd;
    if (!s.md.options.event_end_disable) post(s, r.events, e);

    const ResponseMessage response{id_, portal_index, match_bits, length, mlength, offset, initiator_md};
    if (is_put && ack_req == AckReq::Ack && !s.md.options.ack_disable) r.ack = response;
    if (!is_put) r.reply = response;

    retire_if_exhausted(md, e, r.events, r.md_unlinked, &r.me_unlinked);  // may erase `me`: return at once
    return r;
  }
  r.drop_reason = DropReason::NoMatch;
  ++dropped_;
  return r;
}

IncomingResult Nic::deliver_put(ProcessId initiator, PtIndex portal_index, MatchBits match_bits, std::uint64_t length,
                                std::uint64_t hdr_data, AckReq ack_req, std::uint64_t remote_offset,
                                MdId initiator_md) {
  return deliver(true, initiator, portal_index, match_bits, length, remote_offset, hdr_data, ack_req, initiator_md);
}

IncomingResult Nic::deliver_put(const PutMessage& m) {
  return deliver(true, m.initiator, m.portal_index, m.match_bits, m.length, m.remote_offset, m.hdr_data, m.ack_req,
                 m.initiator_md);
}

IncomingResult Nic::deliver_get(ProcessId initiator, PtIndex portal_index, MatchBits match_bits, std::uint64_t length,
                                std::uint64_t remote_offset, MdId initiator_md) {
  return deliver(false, initiator, portal_index, match_bits, length, remote_offset, 0, AckReq::NoAck, initiator_md);
}

IncomingResult Nic::deliver_get(const GetMessage& m) {
  return deliver(false, m.initiator, m.portal_index, m.match_bits, m.length, m.remote_offset, 0, AckReq::NoAck,
                 m.initiator_md);
}

// ---------------------------------------------------------------------------------------------- initiator side
PutResult Nic::put(MdId md, AckReq ack_req, ProcessId target, PtIndex portal_index, MatchBits match_bits,
                   std::uint64_t remote_offset, std::uint64_t hdr_data) {
  MdState& s = md_mut(md, "put");
  if (!s.active()) throw ProtocolError(kMachine, "MD " + id_str(raw(md)) + " inactive", "put");
  PutResult r;
  r.message = PutMessage{{id_, target, portal_index, match_bits, s.md.length, remote_offset, md}, hdr_data, ack_req};
  if (s.md.threshold > 0) --s.md.threshold;
  Event e{EventKind::SendStart, target, portal_index, match_bits, s.md.length, s.md.length, 0, md, s.md.user_ptr,
          hdr_data};
  if (!s.md.options.event_start_disable) post(s, r.local.events, e);
  e.kind = EventKind::SendEnd;
  if (!s.md.options.event_end_disable) post(s, r.local.events, e);
  retire_if_exhausted(md, e, r.local.events, r.local.md_unlinked, nullptr);
  return r;
}

GetResult Nic::get(MdId md, ProcessId target, PtIndex portal_index, MatchBits match_bits,
                   std::uint64_t remote_offset) {
  MdState& s = md_mut(md, "get");
  if (!s.active()) throw ProtocolError(kMachine, "MD " + id_str(raw(md)) + " inactive", "get");
  GetResult r;
  r.message = GetMessage{{id_, target, portal_index, match_bits, s.md.length, remote_offset, md}};
  if (s.md.threshold > 0) --s.md.threshold;
  ++s.pending_replies;  // the MD stays linked until the REPLY lands
  return r;
}

InitiatorResult Nic::on_ack(const ResponseMessage& ack) {
  InitiatorResult r;
  auto it = mds_.find(ack.initiator_md);
  if (it == mds_.end() || !it->second.active()) {  // MD gone or exhausted: the ACK is discarded
    r.dropped = true;
    return r;
  }
  MdState& s = it->second;
  if (s.md.threshold > 0) --s.md.threshold;
  const Event e{EventKind::Ack, ack.target, ack.portal_index, ack.match_bits, ack.rlength, ack.mlength,
                ack.offset, ack.initiator_md, s.md.user_ptr, 0};
  post(s, r.events, e);
  retire_if_exhausted(ack.initiator_md, e, r.events, r.md_unlinked, nullptr);
  return r;
}

InitiatorResult Nic::on_reply(const ResponseMessage& reply) {
  InitiatorResult r;
  auto it = mds_.find(reply.initiator_md);
  if (it == mds_.end() || it->second.pending_replies == 0) {  // no get outstanding on this MD
    r.dropped = true;
    return r;
  }
  MdState& s = it->second;
  --s.pending_replies;
  Event e{EventKind::ReplyStart, reply.target, reply.portal_index, reply.match_bits, reply.rlength, reply.mlength,
          0, reply.initiator_md, s.md.user_ptr, 0};
  if (!s.md.options.event_start_disable) post(s, r.events, e);
  e.kind = EventKind::ReplyEnd;
  if (!s.md.options.event_end_disable) post(s, r.events, e);
  retire_if_exhausted(reply.initiator_md, e, r.events, r.md_unlinked, nullptr);
  return r;
}

}  // namespace ompisim::portals
