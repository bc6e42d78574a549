// Portals 3.3 matching and data-movement semantics, as used by Open MPI's mtl/portals and btl/portals on the Cray
// SeaStar (Red Storm, XT3/XT4). Pure state: no clock, no engine, no payload bytes (only lengths and offsets).
//
// Sources: R. Brightwell et al., "The Portals 3.3 Message Passing Interface", Sandia report SAND2006-0420;
//          R. Brightwell et al., "Portals 3.3 on the Sandia/Cray Red Storm System", IPDPS 2005;
//          R. L. Graham et al., "An Evaluation of Open MPI's Matching Transport Layer on the Cray XT",
//          EuroPVM/MPI 2007, §2.1;
//          open-mpi/ompi ompi/mca/mtl/portals (read for the usage pattern, no code copied).
//
// LIMITATIONS: no access-control table (ac_index, uid, jid), no PtlMDUpdate, no iovec MDs, no PtlMEMDPost, no
// event-queue handlers; one MD per ME (as in Portals 3.3); explicit unlinks post no UNLINK event; the MD of a get
// stays linked until its reply arrives even when the get consumed its last threshold; no timing (the SeaStar cost is
// exported only as IncomingResult::entries_walked for the NIC model to price).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ompisim::portals {

using MatchBits = std::uint64_t;
using PtIndex = std::uint32_t;

// Handles. Value 0 is "none" (PTL_EQ_NONE / PTL_INVALID_HANDLE); live handles count up from 1 and are never reused.
enum class EqId : std::uint32_t {};
enum class MdId : std::uint32_t {};
enum class MeId : std::uint32_t {};
inline constexpr EqId kEqNone{0};
inline constexpr MdId kMdNone{0};
inline constexpr MeId kMeNone{0};

inline constexpr int kMdThreshInf = -1;  // PTL_MD_THRESH_INF

// ptl_process_id_t. kNidAny / kPidAny are the wildcards (PTL_NID_ANY / PTL_PID_ANY) of a match entry's source.
struct ProcessId {
  static constexpr std::uint32_t kNidAny = 0xFFFFFFFFu;
  static constexpr std::uint32_t kPidAny = 0xFFFFFFFFu;
  std::uint32_t nid = 0;
  std::uint32_t pid = 0;

  static constexpr ProcessId any() { return {kNidAny, kPidAny}; }
  // True when this (a match entry's source, possibly a wildcard) accepts a message from `initiator`.
  constexpr bool accepts(ProcessId initiator) const {
    return (nid == kNidAny || nid == initiator.nid) && (pid == kPidAny || pid == initiator.pid);
  }
  friend constexpr bool operator==(ProcessId, ProcessId) = default;
};
std::string to_string(ProcessId p);

enum class UnlinkOp : std::uint8_t { Retain, Unlink };  // PTL_RETAIN / PTL_UNLINK
enum class InsertPos : std::uint8_t { Before, After };  // PTL_INS_BEFORE / PTL_INS_AFTER
enum class AckReq : std::uint8_t { NoAck, Ack };        // PTL_NOACK_REQ / PTL_ACK_REQ
enum class EventKind : std::uint8_t {
  GetStart, GetEnd, PutStart, PutEnd, ReplyStart, ReplyEnd, SendStart, SendEnd, Ack, Unlink
};  // PTL_EVENT_*
enum class DropReason : std::uint8_t { None, NoMatch, InvalidPortalIndex };
std::string to_string(UnlinkOp u);
std::string to_string(InsertPos p);
std::string to_string(AckReq a);
std::string to_string(EventKind k);
std::string to_string(DropReason r);

// ptl_md_t options. Portals 3.3 manages the offset locally unless PTL_MD_MANAGE_REMOTE is set; here the choice is the
// explicit flag `manage_local` (false: the offset comes from the initiator's remote_offset). `max_size` > 0 stands for
// PTL_MD_MAX_SIZE.
struct MdOptions {
  bool op_put = false;               // PTL_MD_OP_PUT: accept incoming puts
  bool op_get = false;               // PTL_MD_OP_GET: accept incoming gets
  bool truncate = false;             // PTL_MD_TRUNCATE: accept a too-long request, mlength = space left
  bool manage_local = false;         // offset advances by mlength after each accepted operation
  bool event_start_disable = false;  // PTL_MD_EVENT_START_DISABLE
  bool event_end_disable = false;    // PTL_MD_EVENT_END_DISABLE
  bool ack_disable = false;          // PTL_MD_ACK_DISABLE: never send an ACK, even when requested
};

// ptl_md_t. `start` is a fake (offset-based) address: the model never touches memory.
struct Md {
  std::uint64_t start = 0;
  std::uint64_t length = 0;
  int threshold = kMdThreshInf;  // operations left; 0 = inactive
  MdOptions options{};
  std::uint64_t max_size = 0;  // 0: not used; else largest request accepted, unlink/inactive when space left < max_size
  EqId eq = kEqNone;
  std::uint64_t user_ptr = 0;
};

// A linked memory descriptor and its mutable state.
struct MdState {
  Md md;
  UnlinkOp unlink = UnlinkOp::Unlink;
  MeId me = kMeNone;                // kMeNone for a free-floating (bound) MD
  std::uint64_t local_offset = 0;   // advanced by accepted operations when manage_local
  std::uint32_t pending_replies = 0;  // gets issued from this MD whose REPLY has not arrived
  bool inactive = false;            // threshold or max_size exhausted while retained

  bool active() const { return !inactive && md.threshold != 0; }
};

// ptl_me_t: one entry of a portal's match list.
struct MatchEntry {
  MeId id = kMeNone;
  PtIndex portal_index = 0;
  ProcessId source = ProcessId::any();
  MatchBits match_bits = 0;
  MatchBits ignore_bits = 0;
  UnlinkOp unlink = UnlinkOp::Retain;
  MdId md = kMdNone;  // at most one MD per ME in Portals 3.3

  // The match rule of Portals 3.3: the bits not ignored must be equal, and the source must be accepted.
  bool matches(ProcessId initiator, MatchBits incoming) const {
    return source.accepts(initiator) && ((incoming ^ match_bits) & ~ignore_bits) == 0;
  }
};

// ptl_event_t (the fields the model keeps). `initiator` is the remote end of the operation: the initiator for target
// events (PUT_*, GET_*), the target for initiator events (SEND_*, ACK, REPLY_*).
struct Event {
  EventKind kind = EventKind::PutEnd;
  ProcessId initiator{};
  PtIndex portal_index = 0;
  MatchBits match_bits = 0;
  std::uint64_t rlength = 0;  // requested length
  std::uint64_t mlength = 0;  // manipulated length
  std::uint64_t offset = 0;   // into the MD
  MdId md = kMdNone;
  std::uint64_t user_ptr = 0;
  std::uint64_t hdr_data = 0;
};

// A bounded event queue. Like the Portals 3.3 circular queue, a full queue overwrites its oldest unread event; the
// next eq_get then reports `dropped` (PTL_EQ_DROPPED), and overflowed() stays true.
class EventQueue {
public:
  struct Entry {
    Event event;
    bool dropped = false;  // events were lost before this one (PTL_EQ_DROPPED)
  };
  explicit EventQueue(std::size_t capacity);  // throws std::invalid_argument for 0

  void post(const Event& e);
  std::optional<Entry> get();  // std::nullopt is PTL_EQ_EMPTY

  std::size_t size() const { return events_.size(); }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return events_.empty(); }
  bool overflowed() const { return dropped_total_ > 0; }
  std::uint64_t dropped_count() const { return dropped_total_; }

private:
  std::size_t capacity_;
  std::deque<Event> events_;
  std::uint64_t dropped_total_ = 0;
  bool drop_pending_ = false;
};

// Messages exchanged between two Nics. The engine carries them; tests hand them over directly.
// What a put and a get request both carry: who asks whom, where (portal index, match bits, remote offset), how many
// bytes, and the initiator's MD (where an ACK or a REPLY lands).
struct RequestMessage {
  ProcessId initiator{};
  ProcessId target{};
  PtIndex portal_index = 0;
  MatchBits match_bits = 0;
  std::uint64_t length = 0;
  std::uint64_t remote_offset = 0;
  MdId initiator_md = kMdNone;
};
struct PutMessage : RequestMessage {
  std::uint64_t hdr_data = 0;
  AckReq ack_req = AckReq::NoAck;
};
struct GetMessage : RequestMessage {};
// ACK (for a put) or REPLY (for a get), sent by the target back to the initiator's MD.
struct ResponseMessage {
  ProcessId target{};
  PtIndex portal_index = 0;
  MatchBits match_bits = 0;
  std::uint64_t rlength = 0;
  std::uint64_t mlength = 0;
  std::uint64_t offset = 0;  // where the target placed / read the data in its MD
  MdId initiator_md = kMdNone;
};

// What a target NIC did with one incoming put or get.
struct IncomingResult {
  bool matched = false;                   // false: the message was dropped (counted by Nic::dropped_count)
  DropReason drop_reason = DropReason::None;
  std::uint32_t entries_walked = 0;       // match entries examined (SeaStar firmware cost grows with it)
  MeId me = kMeNone;                      // the entry that matched
  MdId md = kMdNone;                      // its memory descriptor
  std::uint64_t rlength = 0;
  std::uint64_t mlength = 0;              // < rlength when truncated
  std::uint64_t offset = 0;               // into the MD
  std::uint64_t user_ptr = 0;             // of the MD
  std::vector<Event> events;              // posted to the MD's event queue, in order
  bool md_unlinked = false;
  bool me_unlinked = false;
  std::optional<ResponseMessage> ack;     // put: ACK to send back (requested, matched and not ack_disable)
  std::optional<ResponseMessage> reply;   // get: REPLY carrying mlength bytes

  bool dropped() const { return !matched; }
  bool truncated() const { return matched && mlength < rlength; }
};

// What an initiator NIC did locally for one put/get/ack/reply.
struct InitiatorResult {
  std::vector<Event> events;  // posted to the MD's event queue, in order
  bool md_unlinked = false;
  bool dropped = false;       // an ACK/REPLY whose MD is gone or inactive is discarded
};
struct PutResult {
  PutMessage message;
  InitiatorResult local;
};
struct GetResult {
  GetMessage message;
  InitiatorResult local;
};

// The portal table of one network interface: portal index -> ordered match list.
class PortalTable {
public:
  using List = std::list<MatchEntry>;
  explicit PortalTable(std::size_t size);  // throws std::invalid_argument for 0

  std::size_t size() const { return lists_.size(); }
  bool valid(PtIndex i) const { return i < lists_.size(); }
  List& list(PtIndex i);  // throws std::out_of_range
  const List& list(PtIndex i) const;

private:
  std::vector<List> lists_;
};

// One process's Portals network interface (PtlNIInit handle): event queues, match lists, memory descriptors, and the
// target and initiator halves of put and get.
//
// Message sequence. put: the initiator's put() consumes one threshold of its MD and posts SEND_START/SEND_END; the
// target's deliver_put() walks the match list of the portal index in order; the first entry whose match bits, source,
// and MD (operation allowed, threshold left, space or truncate) accept the put receives it and gets PUT_START/PUT_END;
// if an ACK was requested and the MD allows it, the ACK goes back and the initiator's on_ack() consumes one more
// threshold and posts ACK (Open MPI's long send uses threshold 2: "send, {ack, get}"). get: the initiator's get()
// consumes one threshold; the target posts GET_START/GET_END and returns a REPLY; the initiator's on_reply() posts
// REPLY_START/REPLY_END. An MD whose threshold reaches 0, or whose space left falls below max_size, is unlinked (with
// an UNLINK event) if its unlink op says so, else becomes inactive; a match entry with PTL_UNLINK goes with its MD.
class Nic {
public:
  explicit Nic(ProcessId id, std::size_t portal_table_size = 64);

  ProcessId id() const { return id_; }

  // Event queues.
  EqId eq_alloc(std::size_t capacity);
  std::optional<EventQueue::Entry> eq_get(EqId eq);  // pop the oldest event; nullopt when empty
  const EventQueue& eq(EqId eq) const;

  // Match entries. me_attach puts the entry at the head (Before) or tail (After) of the portal's list; me_insert
  // puts it just before or after `base`. me_unlink also unlinks the attached MD.
  MeId me_attach(PtIndex portal_index, ProcessId source, MatchBits match_bits, MatchBits ignore_bits, UnlinkOp unlink,
                 InsertPos pos);
  MeId me_insert(MeId base, ProcessId source, MatchBits match_bits, MatchBits ignore_bits, UnlinkOp unlink,
                 InsertPos pos);
  void me_unlink(MeId me);
  const MatchEntry& me(MeId me) const;
  bool has_me(MeId me) const { return me_index_.count(me) != 0; }

  // Memory descriptors. md_attach links an MD to an ME that has none; md_bind creates a free-floating MD for the
  // initiator side. md_unlink (explicit) posts no event.
  MdId md_attach(MeId me, const Md& md, UnlinkOp unlink);
  MdId md_bind(const Md& md, UnlinkOp unlink);
  void md_unlink(MdId md);
  const MdState& md(MdId md) const;
  bool has_md(MdId md) const { return mds_.count(md) != 0; }

  // Target side.
  IncomingResult deliver_put(ProcessId initiator, PtIndex portal_index, MatchBits match_bits, std::uint64_t length,
                             std::uint64_t hdr_data, AckReq ack_req, std::uint64_t remote_offset = 0,
                             MdId initiator_md = kMdNone);
  IncomingResult deliver_put(const PutMessage& m);
  IncomingResult deliver_get(ProcessId initiator, PtIndex portal_index, MatchBits match_bits, std::uint64_t length,
                             std::uint64_t remote_offset = 0, MdId initiator_md = kMdNone);
  IncomingResult deliver_get(const GetMessage& m);

  // Initiator side (argument order of PtlPut / PtlGet; the whole MD is sent or fetched).
  PutResult put(MdId md, AckReq ack_req, ProcessId target, PtIndex portal_index, MatchBits match_bits,
                std::uint64_t remote_offset = 0, std::uint64_t hdr_data = 0);
  GetResult get(MdId md, ProcessId target, PtIndex portal_index, MatchBits match_bits,
                std::uint64_t remote_offset = 0);
  InitiatorResult on_ack(const ResponseMessage& ack);
  InitiatorResult on_reply(const ResponseMessage& reply);

  // Statistics and inspection.
  std::uint64_t dropped_count() const { return dropped_; }  // PTL_SR_DROP_COUNT
  std::size_t match_list_length(PtIndex portal_index) const;
  std::vector<MeId> match_list(PtIndex portal_index) const;

private:
  struct MeRef {
    PtIndex portal_index;
    PortalTable::List::iterator it;
  };
  MdState& md_mut(MdId md, const char* op);
  EventQueue* queue_of(const MdState& s);
  void post(const MdState& s, std::vector<Event>& out, const Event& e);
  // After an operation: unlink (or deactivate) an exhausted MD, posting UNLINK; reports what went.
  void retire_if_exhausted(MdId md, const Event& cause, std::vector<Event>& out, bool& md_unlinked,
                           bool* me_unlinked);
  void erase_md(MdId md, bool* me_unlinked);
  IncomingResult deliver(bool is_put, ProcessId initiator, PtIndex portal_index, MatchBits match_bits,
                         std::uint64_t length, std::uint64_t remote_offset, std::uint64_t hdr_data, AckReq ack_req,
                         MdId initiator_md);

  ProcessId id_;
  PortalTable table_;
  std::unordered_map<EqId, EventQueue> eqs_;
  std::unordered_map<MdId, MdState> mds_;
  std::unordered_map<MeId, MeRef> me_index_;
  std::uint32_t next_eq_ = 1, next_md_ = 1, next_me_ = 1;
  std::uint64_t dropped_ = 0;
};

}  // namespace ompisim::portals
