// Unit tests of the Portals 3.3 matching and data-movement model (protocols/ptl/portals/portals.hpp).
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "core/errors.hpp"
#include "models/portals/portals.hpp"

using namespace ompisim::portals;

namespace {

constexpr ProcessId kA{1, 10};
constexpr ProcessId kB{2, 20};
constexpr ProcessId kC{3, 30};
constexpr PtIndex kPt = 4;

// Match-bit layout of Open MPI's mtl/portals (mtl_portals.h): 4 protocol bits, 12 context bits, 16 source bits,
// 32 tag bits. Values restated here, not copied code.
constexpr MatchBits kProtocolMask = 0xF000000000000000ULL;
constexpr MatchBits kContextMask = 0x0FFF000000000000ULL;
constexpr MatchBits kSourceMask = 0x0000FFFF00000000ULL;
constexpr MatchBits kTagMask = 0x00000000FFFFFFFFULL;
constexpr MatchBits kShortMsg = 0x1000000000000000ULL;
constexpr MatchBits kLongMsg = 0x2000000000000000ULL;

constexpr MatchBits send_bits(MatchBits protocol, std::uint64_t context, std::uint64_t source, std::uint64_t tag) {
  return protocol | (context << 48) | (source << 32) | tag;
}

Md put_md(std::uint64_t length, EqId eq, int threshold = 1) {
  Md m;
  m.length = length;
  m.threshold = threshold;
  m.options.op_put = true;
  m.eq = eq;
  return m;
}

std::vector<EventKind> kinds(const std::vector<Event>& events) {
  std::vector<EventKind> out;
  for (const auto& e : events) out.push_back(e.kind);
  return out;
}

std::vector<EventKind> drain(Nic& nic, EqId eq) {
  std::vector<EventKind> out;
  while (auto entry = nic.eq_get(eq)) out.push_back(entry->event.kind);
  return out;
}

using K = EventKind;

}  // namespace

// Configuration: one match entry (source any) with the given match and ignore bits and an MD that accepts one put.
// Expected:      the put matches iff ((incoming ^ match_bits) & ~ignore_bits) == 0.
// How validated: table of hand-computed cases, including the MTL layout with a wildcard tag.
TEST_CASE("ptl/portals: match bits and ignore bits", "[unit][protocol][portals]") {
  struct Row {
    const char* name;
    MatchBits match, ignore, incoming;
    bool expect;
  };
  const Row rows[] = {
      {"equal bits", 0x1234, 0, 0x1234, true},
      {"one bit differs", 0x1234, 0, 0x1235, false},
      {"differing bit ignored", 0x1234, 0x1, 0x1235, true},
      {"differing bit not the ignored one", 0x1234, 0x2, 0x1235, false},
      {"everything ignored", 0, ~MatchBits{0}, 0xDEADBEEFULL, true},
      {"MTL any tag, same context", send_bits(0, 5, 1, 0), kProtocolMask | kTagMask, send_bits(kShortMsg, 5, 1, 77),
       true},
      {"MTL any tag, other context", send_bits(0, 5, 1, 0), kProtocolMask | kTagMask,
       send_bits(kShortMsg, 6, 1, 77), false},
      {"MTL any source, same tag", send_bits(0, 5, 0, 9), kProtocolMask | kSourceMask, send_bits(kLongMsg, 5, 3, 9),
       true},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    Nic nic(kB);
    const EqId eq = nic.eq_alloc(8);
    const MeId me = nic.me_attach(kPt, ProcessId::any(), row.match, row.ignore, UnlinkOp::Retain, InsertPos::After);
    nic.md_attach(me, put_md(64, eq), UnlinkOp::Unlink);
    const auto r = nic.deliver_put(kA, kPt, row.incoming, 8, 0, AckReq::NoAck);
    CHECK(r.matched == row.expect);
    CHECK(r.entries_walked == 1);
    CHECK(nic.dropped_count() == (row.expect ? 0u : 1u));
  }
}

// Configuration: three entries that all match anything, linked at the tail in order e1, e2, e3; then e0 inserted at
//                the head that matches only 0x99; then entries placed with me_insert Before/After a base entry.
// Expected:      the first accepting entry in list order wins; entries_walked counts the entries examined, including
//                non-matching ones ahead; me_insert places entries next to the base.
// How validated: the matched MeId, entries_walked, and match_list order.
TEST_CASE("ptl/portals: first match in list order", "[unit][protocol][portals]") {
  Nic nic(kB);
  const EqId eq = nic.eq_alloc(32);
  std::vector<MeId> mes;
  for (int i = 0; i < 3; ++i) {
    mes.push_back(nic.me_attach(kPt, ProcessId::any(), 0, ~MatchBits{0}, UnlinkOp::Unlink, InsertPos::After));
    nic.md_attach(mes.back(), put_md(64, eq), UnlinkOp::Unlink);
  }
  auto r = nic.deliver_put(kA, kPt, 0x42, 8, 0, AckReq::NoAck);
  REQUIRE(r.matched);
  CHECK(r.me == mes[0]);
  CHECK(r.entries_walked == 1);
  CHECK(r.md_unlinked);  // threshold 1
  CHECK(r.me_unlinked);

  const MeId e0 = nic.me_attach(kPt, ProcessId::any(), 0x99, 0, UnlinkOp::Retain, InsertPos::Before);
  nic.md_attach(e0, put_md(64, eq), UnlinkOp::Unlink);
  r = nic.deliver_put(kA, kPt, 0x42, 8, 0, AckReq::NoAck);
  REQUIRE(r.matched);
  CHECK(r.me == mes[1]);
  CHECK(r.entries_walked == 2);

  const MeId before = nic.me_insert(mes[2], ProcessId::any(), 1, 0, UnlinkOp::Retain, InsertPos::Before);
  const MeId after = nic.me_insert(e0, ProcessId::any(), 2, 0, UnlinkOp::Retain, InsertPos::After);
  CHECK(nic.match_list(kPt) == std::vector<MeId>{e0, after, before, mes[2]});
  nic.me_unlink(after);
  CHECK(nic.match_list(kPt) == std::vector<MeId>{e0, before, mes[2]});
  CHECK_FALSE(nic.has_me(after));
}

// Configuration: an entry that accepts only kB, then one that accepts any nid with pid 30.
// Expected:      a put from kA is dropped after walking both entries; kB matches the first, kC the second.
// How validated: matched entry, entries_walked, drop reason and the NIC drop counter.
TEST_CASE("ptl/portals: source filtering", "[unit][protocol][portals]") {
  Nic nic(kB);
  const EqId eq = nic.eq_alloc(32);
  const MeId only_b = nic.me_attach(kPt, kB, 7, 0, UnlinkOp::Retain, InsertPos::After);
  nic.md_attach(only_b, put_md(64, eq, kMdThreshInf), UnlinkOp::Retain);
  const MeId pid30 = nic.me_attach(kPt, ProcessId{ProcessId::kNidAny, 30}, 7, 0, UnlinkOp::Retain, InsertPos::After);
  nic.md_attach(pid30, put_md(64, eq, kMdThreshInf), UnlinkOp::Retain);

  auto r = nic.deliver_put(kA, kPt, 7, 8, 0, AckReq::Ack);
  CHECK(r.dropped());
  CHECK(r.drop_reason == DropReason::NoMatch);
  CHECK(r.entries_walked == 2);
  CHECK_FALSE(r.ack);  // a dropped put is never acknowledged
  CHECK(nic.dropped_count() == 1);

  r = nic.deliver_put(kB, kPt, 7, 8, 0, AckReq::NoAck);
  CHECK(r.me == only_b);
  r = nic.deliver_put(kC, kPt, 7, 8, 0, AckReq::NoAck);
  CHECK(r.me == pid30);
  CHECK(r.entries_walked == 2);
  CHECK(to_string(ProcessId{ProcessId::kNidAny, 30}) == "(*,30)");
}

// Configuration: entry 1 has a 100-byte MD without truncate, entry 2 a 100-byte MD with truncate; a remote-managed
//                MD receives at the initiator's remote offset.
// Expected:      a 150-byte put is rejected by entry 1 (the walk goes on) and truncated by entry 2 to mlength 100,
//                rlength 150; a 60-byte put fits entry 1; with remote offset 80 entry 2 gives mlength 20 at offset 80.
// How validated: me, mlength, rlength, offset, truncated(), and the lengths carried by the PUT_END event.
TEST_CASE("ptl/portals: truncation and length rejection", "[unit][protocol][portals]") {
  Nic nic(kB);
  const EqId eq = nic.eq_alloc(32);
  const MeId strict = nic.me_attach(kPt, ProcessId::any(), 1, 0, UnlinkOp::Retain, InsertPos::After);
  nic.md_attach(strict, put_md(100, eq, kMdThreshInf), UnlinkOp::Retain);
  const MeId trunc = nic.me_attach(kPt, ProcessId::any(), 1, 0, UnlinkOp::Retain, InsertPos::After);
  Md md = put_md(100, eq, kMdThreshInf);
  md.options.truncate = true;
  nic.md_attach(trunc, md, UnlinkOp::Retain);

  auto r = nic.deliver_put(kA, kPt, 1, 150, 0, AckReq::NoAck);
  REQUIRE(r.matched);
  CHECK(r.me == trunc);
  CHECK(r.entries_walked == 2);
  CHECK(r.rlength == 150);
  CHECK(r.mlength == 100);
  CHECK(r.truncated());
  REQUIRE(r.events.size() == 2);
  CHECK(r.events[1].kind == K::PutEnd);
  CHECK(r.events[1].rlength == 150);
  CHECK(r.events[1].mlength == 100);

  r = nic.deliver_put(kA, kPt, 1, 60, 0, AckReq::NoAck);
  CHECK(r.me == strict);
  CHECK_FALSE(r.truncated());

  r = nic.deliver_put(kA, kPt, 1, 60, 0, AckReq::NoAck, /*remote_offset=*/80);
  CHECK(r.me == trunc);  // 60 > 100 - 80 on the strict MD
  CHECK(r.offset == 80);
  CHECK(r.mlength == 20);
}

// Configuration: an MD with threshold 2 on a PTL_UNLINK entry; a retained MD with threshold 1 on a PTL_RETAIN entry
//                ahead of it on another portal.
// Expected:      the 2nd put exhausts the threshold: PUT_START, PUT_END, UNLINK; MD and ME are gone and a 3rd put is
//                dropped. A retained MD becomes inactive, its ME stays and is walked past.
// How validated: events of each delivery, has_md/has_me, match-list length, entries_walked.
TEST_CASE("ptl/portals: threshold-based unlinking", "[unit][protocol][portals]") {
  Nic nic(kB);
  const EqId eq = nic.eq_alloc(32);
  const MeId me = nic.me_attach(kPt, ProcessId::any(), 3, 0, UnlinkOp::Unlink, InsertPos::After);
  const MdId md = nic.md_attach(me, put_md(64, eq, 2), UnlinkOp::Unlink);

  auto r = nic.deliver_put(kA, kPt, 3, 8, 0, AckReq::NoAck);
  CHECK(kinds(r.events) == std::vector<K>{K::PutStart, K::PutEnd});
  CHECK_FALSE(r.md_unlinked);
  CHECK(nic.md(md).md.threshold == 1);
  r = nic.deliver_put(kA, kPt, 3, 8, 0, AckReq::NoAck);
  CHECK(kinds(r.events) == std::vector<K>{K::PutStart, K::PutEnd, K::Unlink});
  CHECK(r.md_unlinked);
  CHECK(r.me_unlinked);
  CHECK_FALSE(nic.has_md(md));
  CHECK_FALSE(nic.has_me(me));
  CHECK(nic.match_list_length(kPt) == 0);
  CHECK(nic.deliver_put(kA, kPt, 3, 8, 0, AckReq::NoAck).dropped());
  CHECK(drain(nic, eq) == std::vector<K>{K::PutStart, K::PutEnd, K::PutStart, K::PutEnd, K::Unlink});

  // Retained MD on a retained ME: inactive, not unlinked, skipped by the walk.
  const PtIndex pt2 = kPt + 1;
  const MeId kept = nic.me_attach(pt2, ProcessId::any(), 3, 0, UnlinkOp::Retain, InsertPos::After);
  const MdId kept_md = nic.md_attach(kept, put_md(64, eq, 1), UnlinkOp::Retain);
  const MeId next = nic.me_attach(pt2, ProcessId::any(), 3, 0, UnlinkOp::Retain, InsertPos::After);
  nic.md_attach(next, put_md(64, eq, kMdThreshInf), UnlinkOp::Retain);
  r = nic.deliver_put(kA, pt2, 3, 8, 0, AckReq::NoAck);
  CHECK(r.me == kept);
  CHECK_FALSE(r.md_unlinked);
  CHECK(kinds(r.events) == std::vector<K>{K::PutStart, K::PutEnd});
  CHECK(nic.has_md(kept_md));
  CHECK_FALSE(nic.md(kept_md).active());
  r = nic.deliver_put(kA, pt2, 3, 8, 0, AckReq::NoAck);
  CHECK(r.me == next);
  CHECK(r.entries_walked == 2);
}

// Configuration: initiator S binds a 64-byte MD with threshold 2 (send + ack, as Open MPI's long send); target T has
//                an entry whose MD accepts puts. S puts with PTL_ACK_REQ and hdr_data 0xABC.
// Expected:      S: SEND_START, SEND_END; T: PUT_START, PUT_END and an ACK; S on ACK: ACK then UNLINK (threshold
//                exhausted). With ack_disable at the target, or an initiator threshold of 1, no ACK is seen.
// How validated: events returned and drained from the event queues, event fields, the ACK message contents.
TEST_CASE("ptl/portals: put with ack, events on both sides", "[unit][protocol][portals]") {
  Nic s(kA), t(kB);
  const EqId seq = s.eq_alloc(16), teq = t.eq_alloc(16);
  Md smd;
  smd.length = 64;
  smd.threshold = 2;
  smd.eq = seq;
  smd.user_ptr = 111;
  const MdId md = s.md_bind(smd, UnlinkOp::Unlink);
  const MeId me = t.me_attach(kPt, ProcessId::any(), 5, 0, UnlinkOp::Retain, InsertPos::After);
  Md tmd = put_md(128, teq, kMdThreshInf);
  tmd.user_ptr = 222;
  t.md_attach(me, tmd, UnlinkOp::Retain);

  const auto sent = s.put(md, AckReq::Ack, kB, kPt, 5, 0, 0xABC);
  CHECK(kinds(sent.local.events) == std::vector<K>{K::SendStart, K::SendEnd});
  CHECK(sent.message.target == kB);
  CHECK(sent.message.length == 64);
  CHECK(sent.local.events[1].user_ptr == 111);

  const auto in = t.deliver_put(sent.message);
  CHECK(kinds(in.events) == std::vector<K>{K::PutStart, K::PutEnd});
  CHECK(in.events[1].hdr_data == 0xABC);
  CHECK(in.events[1].initiator == kA);
  CHECK(in.user_ptr == 222);
  REQUIRE(in.ack);
  CHECK(in.ack->mlength == 64);

  const auto acked = s.on_ack(*in.ack);
  CHECK(kinds(acked.events) == std::vector<K>{K::Ack, K::Unlink});
  CHECK(acked.events[0].initiator == kB);
  CHECK(acked.events[0].mlength == 64);
  CHECK(acked.md_unlinked);
  CHECK(drain(s, seq) == std::vector<K>{K::SendStart, K::SendEnd, K::Ack, K::Unlink});
  CHECK(drain(t, teq) == std::vector<K>{K::PutStart, K::PutEnd});

  SECTION("target MD with ack_disable sends no ACK") {
    const MeId me2 = t.me_attach(kPt, ProcessId::any(), 6, 0, UnlinkOp::Retain, InsertPos::After);
    Md quiet = put_md(128, teq, kMdThreshInf);
    quiet.options.ack_disable = true;
    quiet.options.event_start_disable = true;
    t.md_attach(me2, quiet, UnlinkOp::Retain);
    const auto r = t.deliver_put(kA, kPt, 6, 16, 0, AckReq::Ack);
    CHECK(r.matched);
    CHECK_FALSE(r.ack);
    CHECK(kinds(r.events) == std::vector<K>{K::PutEnd});
  }
  SECTION("an ACK for an MD that already unlinked is discarded") {
    smd.threshold = 1;
    const MdId one = s.md_bind(smd, UnlinkOp::Unlink);
    const auto p = s.put(one, AckReq::Ack, kB, kPt, 5);
    CHECK(kinds(p.local.events) == std::vector<K>{K::SendStart, K::SendEnd, K::Unlink});
    const auto r = t.deliver_put(p.message);
    REQUIRE(r.ack);
    CHECK(s.on_ack(*r.ack).dropped);
  }
}

// Configuration: target T exposes a 4096-byte MD accepting gets (remote-managed offset); initiator S binds a 1000-byte
//                MD with threshold 1 and gets from remote offset 512.
// Expected:      S's get posts nothing and keeps the MD linked until the reply; T: GET_START, GET_END, REPLY of 1000
//                bytes at offset 512; S on REPLY: REPLY_START, REPLY_END, UNLINK. A get to a put-only MD is dropped.
// How validated: events, the reply message, has_md before and after the reply.
TEST_CASE("ptl/portals: get and reply", "[unit][protocol][portals]") {
  Nic s(kA), t(kB);
  const EqId seq = s.eq_alloc(16), teq = t.eq_alloc(16);
  const MeId me = t.me_attach(kPt, ProcessId::any(), 9, 0, UnlinkOp::Retain, InsertPos::After);
  Md src;
  src.length = 4096;
  src.options.op_get = true;
  src.eq = teq;
  t.md_attach(me, src, UnlinkOp::Retain);

  Md dst;
  dst.length = 1000;
  dst.threshold = 1;
  dst.eq = seq;
  const MdId md = s.md_bind(dst, UnlinkOp::Unlink);
  const auto g = s.get(md, kB, kPt, 9, 512);
  CHECK(g.local.events.empty());
  CHECK(s.has_md(md));
  CHECK(s.md(md).md.threshold == 0);

  const auto in = t.deliver_get(g.message);
  CHECK(kinds(in.events) == std::vector<K>{K::GetStart, K::GetEnd});
  CHECK_FALSE(in.ack);
  REQUIRE(in.reply);
  CHECK(in.reply->mlength == 1000);
  CHECK(in.reply->offset == 512);

  const auto rep = s.on_reply(*in.reply);
  CHECK(kinds(rep.events) == std::vector<K>{K::ReplyStart, K::ReplyEnd, K::Unlink});
  CHECK(rep.events[1].mlength == 1000);
  CHECK(rep.md_unlinked);
  CHECK_FALSE(s.has_md(md));
  CHECK(drain(s, seq) == std::vector<K>{K::ReplyStart, K::ReplyEnd, K::Unlink});

  const MeId put_only = t.me_attach(kPt + 1, ProcessId::any(), 9, 0, UnlinkOp::Retain, InsertPos::After);
  t.md_attach(put_only, put_md(4096, teq, kMdThreshInf), UnlinkOp::Retain);
  const auto miss = t.deliver_get(kA, kPt + 1, 9, 100);
  CHECK(miss.dropped());
  CHECK_FALSE(miss.reply);
}

// Configuration: two Open MPI-style short-message blocks (256 bytes, manage_local, max_size 64, ack_disable,
//                PTL_UNLINK) on the same portal; five 60-byte unexpected puts, then a 70-byte one.
// Expected:      puts 1-4 land in block 1 at offsets 0, 60, 120, 180; after the 4th only 16 bytes remain (< 64) so
//                block 1 unlinks (UNLINK event) with its ME; put 5 lands in block 2 at offset 0; a 70-byte put
//                exceeds max_size and is rejected by block 2 (dropped).
// How validated: offsets, unlink flags, match-list length, events, and the local offset of block 2.
TEST_CASE("ptl/portals: manage_local buffer fills with short unexpected messages", "[unit][protocol][portals]") {
  Nic nic(kB);
  const EqId eq = nic.eq_alloc(64);
  Md block;
  block.length = 256;
  block.threshold = kMdThreshInf;
  block.max_size = 64;
  block.options.op_put = true;
  block.options.manage_local = true;
  block.options.ack_disable = true;
  block.eq = eq;
  const MeId b1 = nic.me_attach(kPt, ProcessId::any(), kShortMsg, ~kShortMsg, UnlinkOp::Unlink, InsertPos::After);
  const MdId m1 = nic.md_attach(b1, block, UnlinkOp::Unlink);
  const MeId b2 = nic.me_attach(kPt, ProcessId::any(), kShortMsg, ~kShortMsg, UnlinkOp::Unlink, InsertPos::After);
  const MdId m2 = nic.md_attach(b2, block, UnlinkOp::Unlink);

  const std::uint64_t expected_offsets[] = {0, 60, 120, 180};
  for (int i = 0; i < 4; ++i) {
    const auto r = nic.deliver_put(kA, kPt, send_bits(kShortMsg, 1, 0, i), 60, 0, AckReq::Ack);
    INFO("message " << i);
    REQUIRE(r.matched);
    CHECK(r.md == m1);
    CHECK(r.offset == expected_offsets[i]);
    CHECK(r.mlength == 60);
    CHECK_FALSE(r.ack);
    CHECK(r.md_unlinked == (i == 3));
    if (i == 3) CHECK(kinds(r.events) == std::vector<K>{K::PutStart, K::PutEnd, K::Unlink});
  }
  CHECK_FALSE(nic.has_me(b1));
  CHECK(nic.match_list_length(kPt) == 1);

  auto r = nic.deliver_put(kA, kPt, send_bits(kShortMsg, 1, 0, 4), 60, 0, AckReq::NoAck);
  CHECK(r.md == m2);
  CHECK(r.offset == 0);
  CHECK(r.entries_walked == 1);
  CHECK(nic.md(m2).local_offset == 60);

  r = nic.deliver_put(kA, kPt, send_bits(kShortMsg, 1, 0, 5), 70, 0, AckReq::NoAck);
  CHECK(r.dropped());
  CHECK(nic.md(m2).local_offset == 60);
}

// Configuration: the Open MPI mtl/portals receive side on receiver R's send portal, in list order: a pre-posted
//                receive (4 KiB, threshold 1, any protocol), a short-message block (manage_local, max_size = eager
//                limit), and the unexpected-long entry (zero-length MD, truncate, ack_disable). The sender S's long
//                send MD (threshold 2, OP_GET, start events disabled) is also exposed on S's read portal.
// Expected:      expected short -> delivered in place in the posted receive, which unlinks; unexpected short -> in the
//                block; unexpected long -> truncated to 0 bytes in the long entry (rlength kept, no ACK); R then gets
//                the data from S's read portal: S sees SEND_END then GET_END and its MD unlinks (send + get = 2);
//                R sees REPLY_START, REPLY_END of the full length.
// How validated: matched entries, entries_walked, mlength/rlength, events on each queue, unlink flags.
TEST_CASE("ptl/portals: mtl/portals expected, unexpected short and unexpected long", "[unit][protocol][portals]") {
  constexpr PtIndex kSendTable = 2, kReadTable = 3;
  constexpr std::uint64_t kEager = 1024, kLong = 200 * 1024;
  Nic r(kB), s(kA);
  const EqId expected_eq = r.eq_alloc(64), unex_eq = r.eq_alloc(64), s_eq = s.eq_alloc(64);

  // Unexpected long: zero-length truncating MD, at the tail.
  const MeId unex_long = r.me_attach(kSendTable, ProcessId::any(), kLongMsg, ~kLongMsg, UnlinkOp::Retain,
                                     InsertPos::After);
  Md zero;
  zero.length = 0;
  zero.options.op_put = true;
  zero.options.truncate = true;
  zero.options.ack_disable = true;
  zero.eq = unex_eq;
  r.md_attach(unex_long, zero, UnlinkOp::Retain);
  // Unexpected short: a buffer block inserted before it.
  const MeId block = r.me_insert(unex_long, ProcessId::any(), kShortMsg, kContextMask | kSourceMask | kTagMask,
                                 UnlinkOp::Unlink, InsertPos::Before);
  Md blk;
  blk.length = 16 * kEager;
  blk.max_size = kEager;
  blk.options.op_put = true;
  blk.options.manage_local = true;
  blk.options.ack_disable = true;
  blk.eq = unex_eq;
  const MdId block_md = r.md_attach(block, blk, UnlinkOp::Unlink);
  // Pre-posted receive for (context 1, source 0, tag 7), any protocol, at the head.
  const MeId posted = r.me_attach(kSendTable, kA, send_bits(0, 1, 0, 7), kProtocolMask, UnlinkOp::Unlink,
                                  InsertPos::Before);
  r.md_attach(posted, put_md(4096, expected_eq, 1), UnlinkOp::Unlink);
  REQUIRE(r.match_list(kSendTable) == std::vector<MeId>{posted, block, unex_long});

  // Expected short.
  auto in = r.deliver_put(kA, kSendTable, send_bits(kShortMsg, 1, 0, 7), 100, 0, AckReq::Ack);
  CHECK(in.me == posted);
  CHECK(in.entries_walked == 1);
  CHECK(in.mlength == 100);
  CHECK(in.ack);
  CHECK(in.me_unlinked);
  CHECK(drain(r, expected_eq) == std::vector<K>{K::PutStart, K::PutEnd, K::Unlink});

  // Unexpected short (same tag, no receive posted any more).
  in = r.deliver_put(kA, kSendTable, send_bits(kShortMsg, 1, 0, 7), 100, 0, AckReq::NoAck);
  CHECK(in.me == block);
  CHECK(in.entries_walked == 1);
  CHECK(in.md == block_md);
  CHECK(in.offset == 0);
  CHECK(in.mlength == 100);

  // Unexpected long: S exposes its send buffer for a get, then puts it.
  Md long_md;
  long_md.length = kLong;
  long_md.threshold = 2;  // send, {ack, get}
  long_md.options.op_get = true;
  long_md.options.event_start_disable = true;
  long_md.eq = s_eq;
  const MatchBits long_bits = send_bits(kLongMsg, 1, 0, 8);
  const MeId read_me = s.me_attach(kReadTable, kB, long_bits, 0, UnlinkOp::Unlink, InsertPos::After);
  const MdId smd = s.md_attach(read_me, long_md, UnlinkOp::Unlink);
  const auto sent = s.put(smd, AckReq::Ack, kB, kSendTable, long_bits);
  CHECK(kinds(sent.local.events) == std::vector<K>{K::SendEnd});

  in = r.deliver_put(sent.message);
  CHECK(in.me == unex_long);
  CHECK(in.entries_walked == 2);
  CHECK(in.rlength == kLong);
  CHECK(in.mlength == 0);
  CHECK(in.truncated());
  CHECK_FALSE(in.ack);
  CHECK_FALSE(in.md_unlinked);
  std::vector<K> unex;
  while (auto e = r.eq_get(unex_eq)) {
    unex.push_back(e->event.kind);
    if (e->event.kind == K::PutEnd && e->event.match_bits == long_bits) {
      CHECK(e->event.rlength == kLong);  // what the MTL reads to size the get
      CHECK(e->event.initiator == kA);
    }
  }
  CHECK(unex == std::vector<K>{K::PutStart, K::PutEnd, K::PutStart, K::PutEnd});

  // The receive is posted late; R fetches the data with a get on S's read portal.
  Md landing;
  landing.length = kLong;
  landing.threshold = 1;
  landing.eq = expected_eq;
  const MdId rmd = r.md_bind(landing, UnlinkOp::Unlink);
  const auto g = r.get(rmd, kA, kReadTable, long_bits);
  const auto served = s.deliver_get(g.message);
  CHECK(served.me == read_me);
  CHECK(served.mlength == kLong);
  CHECK(kinds(served.events) == std::vector<K>{K::GetEnd, K::Unlink});
  CHECK(served.md_unlinked);
  CHECK(served.me_unlinked);
  CHECK(drain(s, s_eq) == std::vector<K>{K::SendEnd, K::GetEnd, K::Unlink});
  REQUIRE(served.reply);
  const auto got = r.on_reply(*served.reply);
  CHECK(kinds(got.events) == std::vector<K>{K::ReplyStart, K::ReplyEnd, K::Unlink});
  CHECK(got.events[1].mlength == kLong);
  CHECK(r.dropped_count() == 0);
  CHECK(s.dropped_count() == 0);
}

// Configuration: an event queue of capacity 2 behind an MD that accepts unlimited puts; three puts (6 events).
// Expected:      the queue keeps the 2 newest events, overflowed() is set and 4 events are counted as dropped; the
//                first eq_get reports dropped (PTL_EQ_DROPPED), the next does not; then the queue is empty.
// How validated: size, overflowed(), dropped_count(), the dropped flag and kinds of the popped entries.
TEST_CASE("ptl/portals: event queue overflow is reported", "[unit][protocol][portals]") {
  Nic nic(kB);
  const EqId eq = nic.eq_alloc(2);
  const MeId me = nic.me_attach(kPt, ProcessId::any(), 0, 0, UnlinkOp::Retain, InsertPos::After);
  nic.md_attach(me, put_md(64, eq, kMdThreshInf), UnlinkOp::Retain);
  CHECK_FALSE(nic.eq(eq).overflowed());
  for (int i = 0; i < 3; ++i) REQUIRE(nic.deliver_put(kA, kPt, 0, 8, i, AckReq::NoAck).matched);
  CHECK(nic.eq(eq).size() == 2);
  CHECK(nic.eq(eq).overflowed());
  CHECK(nic.eq(eq).dropped_count() == 4);
  auto first = nic.eq_get(eq);
  REQUIRE(first);
  CHECK(first->dropped);
  CHECK(first->event.kind == K::PutStart);
  CHECK(first->event.hdr_data == 2);
  auto second = nic.eq_get(eq);
  REQUIRE(second);
  CHECK_FALSE(second->dropped);
  CHECK(second->event.kind == K::PutEnd);
  CHECK_FALSE(nic.eq_get(eq));
  CHECK(nic.eq(eq).overflowed());  // sticky
}

// Configuration: misuse of the interface, and names of the enumerations.
// Expected:      impossible operations throw (put on an exhausted MD -> ProtocolError naming the state, a second MD on
//                an entry, max_size > length, unknown handles, out-of-range portal index on attach); an incoming
//                message to an out-of-range portal index is dropped, not thrown.
// How validated: exception types and message text; to_string values.
TEST_CASE("ptl/portals: errors and names", "[unit][protocol][portals]") {
  Nic nic(kA);
  const EqId eq = nic.eq_alloc(4);
  Md m;
  m.length = 8;
  m.threshold = 1;
  m.eq = eq;
  const MdId md = nic.md_bind(m, UnlinkOp::Retain);
  nic.put(md, AckReq::NoAck, kB, kPt, 0);
  CHECK_THROWS_WITH(nic.put(md, AckReq::NoAck, kB, kPt, 0), Catch::Contains("inactive") && Catch::Contains("put"));
  CHECK_THROWS_AS(nic.put(md, AckReq::NoAck, kB, kPt, 0), ompisim::ProtocolError);

  const MeId me = nic.me_attach(kPt, ProcessId::any(), 0, 0, UnlinkOp::Retain, InsertPos::After);
  nic.md_attach(me, put_md(8, eq), UnlinkOp::Retain);
  CHECK_THROWS_AS(nic.md_attach(me, put_md(8, eq), UnlinkOp::Retain), ompisim::ProtocolError);
  Md bad = put_md(8, eq);
  bad.max_size = 9;
  CHECK_THROWS_WITH(nic.md_bind(bad, UnlinkOp::Retain), Catch::Contains("max_size 9 exceeds its length 8"));
  bad = put_md(8, eq, -2);
  CHECK_THROWS_AS(nic.md_bind(bad, UnlinkOp::Retain), std::invalid_argument);
  CHECK_THROWS_AS(nic.md_bind(put_md(8, EqId{99}), UnlinkOp::Retain), std::invalid_argument);
  CHECK_THROWS_AS(nic.md_unlink(MdId{99}), std::invalid_argument);
  CHECK_THROWS_AS(nic.me_unlink(MeId{99}), std::invalid_argument);
  CHECK_THROWS_AS(nic.eq_get(EqId{99}), std::invalid_argument);
  CHECK_THROWS_WITH(nic.me_attach(64, ProcessId::any(), 0, 0, UnlinkOp::Retain, InsertPos::After),
                    Catch::Contains("portal index 64 out of range"));
  CHECK_THROWS_AS(EventQueue(0), std::invalid_argument);

  const auto r = nic.deliver_put(kB, 1000, 0, 8, 0, AckReq::NoAck);
  CHECK(r.dropped());
  CHECK(r.drop_reason == DropReason::InvalidPortalIndex);
  CHECK(nic.dropped_count() == 1);

  nic.me_unlink(me);  // also unlinks its MD, without an event
  CHECK(nic.match_list_length(kPt) == 0);

  CHECK(to_string(EventKind::PutStart) == "PTL_EVENT_PUT_START");
  CHECK(to_string(EventKind::ReplyEnd) == "PTL_EVENT_REPLY_END");
  CHECK(to_string(EventKind::Unlink) == "PTL_EVENT_UNLINK");
  CHECK(to_string(UnlinkOp::Unlink) == "PTL_UNLINK");
  CHECK(to_string(InsertPos::Before) == "PTL_INS_BEFORE");
  CHECK(to_string(AckReq::Ack) == "PTL_ACK_REQ");
  CHECK(to_string(DropReason::NoMatch) == "no matching entry");
}
