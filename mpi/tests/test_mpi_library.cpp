// The shared MPI-library skeleton without an engine: matching queues and engine (MPI order per source, communicator
// and tag; wildcards; communicators kept apart), per-peer sequence numbers, the request table, Library's completion
// with MPI_Status, datatypes.
#include "mpi/datatype.hpp"
#include "mpi/library.hpp"
#include "mpi/match_engine.hpp"
#include "mpi/match_queues.hpp"
#include "mpi/peer_seq.hpp"
#include "mpi/request.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <utility>
#include <random>
#include <set>

using namespace ompisim;

// Configuration: matching queues with receives of named sources and wild ones interleaved, then unexpected messages
// from several sources taken by named and wild receives. Expected: an arrival takes the first posted receive that
// matches in post order, whether it names its source or is wild (the receives are kept per source and wild apart);
// a wild receive takes the first-arrived matching message of any source, a named one its source's first; the sizes
// count every queued entry. How validated: which receive and message each match pairs. Fails when the per-source
// lists lose the post or arrival order between them.
TEST_CASE("mpi matching queues: per-source and wild lists keep one post order", "[unit][mpi]") {
  struct R { int src, tag, id; };
  struct M { int src, tag, n; };
  mpi::MatchQueues<R, M> q;
  CHECK_FALSE(q.post(R{1, 5, 1}));
  CHECK_FALSE(q.post(R{kAnySource, 5, 2}));
  CHECK_FALSE(q.post(R{2, 5, 3}));
  CHECK_FALSE(q.post(R{2, kAnyTag, 4}));
  CHECK(q.posted_size() == 4);
  auto a = q.arrive(0, M{2, 5, 10});  // the wild receive was posted before source 2's
  REQUIRE(a.size() == 1);
  CHECK(a[0].recv.id == 2);
  a = q.arrive(0, M{1, 5, 11});  // source 1's own, posted first
  REQUIRE(a.size() == 1);
  CHECK(a[0].recv.id == 1);
  a = q.arrive(1, M{2, 6, 12});  // tag 6: only the ANY_TAG receive of source 2
  REQUIRE(a.size() == 1);
  CHECK(a[0].recv.id == 4);
  a = q.arrive(2, M{2, 5, 13});
  REQUIRE(a.size() == 1);
  CHECK(a[0].recv.id == 3);
  CHECK(q.posted_size() == 0);
  CHECK(q.arrive(0, M{4, 7, 20}).empty());
  CHECK(q.arrive(0, M{3, 7, 21}).empty());
  CHECK(q.arrive(1, M{4, 7, 22}).empty());
  CHECK(q.unexpected_size() == 3);
  CHECK(q.post(R{3, 7, 5})->n == 21);           // source 3's only message, though source 4's arrived first
  CHECK(q.post(R{kAnySource, 7, 6})->n == 20);  // the first to arrive of those left
  CHECK(q.post(R{kAnySource, kAnyTag, 7})->n == 22);
  CHECK(q.unexpected_size() == 0);
  CHECK_FALSE(q.post(R{kAnySource, 7, 8}));
  CHECK(q.posted_size() == 1);
}

// Configuration: matching queues; messages from one source arrive out of order (seq 1 before 0), a wildcard receive.
// Expected: MPI order: a message is matched only after its predecessors; first posted receive wins.
TEST_CASE("mpi matching queues: sequence order, unexpected queue, wildcards", "[unit][mpi]") {
  struct R { int src, tag, id; };
  struct M { int src, tag, n; };
  mpi::MatchQueues<R, M> q;
  std::vector<M> unex;
  CHECK(q.arrive(1, M{3, 7, 101}, &unex).empty());  // early: held, not (yet) unexpected
  CHECK(q.held_size() == 1);
  CHECK(unex.empty());
  auto out = q.arrive(0, M{3, 7, 100}, &unex);       // releases both, none posted: both unexpected
  CHECK(out.empty());
  CHECK(q.unexpected_size() == 2);
  REQUIRE(unex.size() == 2);  // the arriving message and the held one it released (each is copied once by ob1)
  CHECK(unex[0].n == 100);
  CHECK(unex[1].n == 101);
  auto m = q.post(R{kAnySource, 7, 1});
  REQUIRE(m);
  CHECK(m->n == 100);  // first in MPI order
  CHECK(q.post(R{3, kAnyTag, 2})->n == 101);
  CHECK_FALSE(q.post(R{4, 7, 3}));
  CHECK(q.post(R{kAnySource, 9, 4}) == std::nullopt);
  auto o2 = q.arrive(0, M{4, 9, 200});   // matches the first posted that fits: id 3 wants tag 7, id 4 tag 9
  REQUIRE(o2.size() == 1);
  CHECK(o2[0].recv.id == 4);
}

// Configuration: 5,000 receives posted from one source (tags 0..4 in turn) and 1,000 wild ones, then 6,000 messages
// arriving in order, mostly taking the first posted receive (the queue's head moves and is compacted), some a receive
// in the middle (tag 9 matches only the wild ones); then 3,000 unexpected messages taken by receives, first and
// middle ones. Expected: every match is the first posted receive (or first-arrived message) that fits, in post order;
// the sizes end at 0. How validated: against a plain scan of std::vector queues in post order.
TEST_CASE("mpi matching queues: long queues keep post order while their head moves", "[unit][mpi]") {
  struct R { int src, tag, id; };
  struct M { int src, tag, n; };
  mpi::MatchQueues<R, M> q;
  std::vector<R> posted;  // the reference: one queue in post order
  for (int i = 0; i < 6000; ++i) {
    const R r = i % 6 == 5 ? R{kAnySource, kAnyTag, i} : R{1, i % 5, i};
    CHECK_FALSE(q.post(r));
    posted.push_back(r);
  }
  std::uint32_t seq = 0;
  for (int n = 0; n < 6000; ++n) {
    const M m{1, n % 7 == 6 ? 9 : (n % 5), n};
    auto want = std::find_if(posted.begin(), posted.end(), [&](const R& r) {
      return (r.src == kAnySource || r.src == m.src) && (r.tag == kAnyTag || r.tag == m.tag);
    });
    auto got = q.arrive(seq++, m);
    if (want == posted.end()) {
      CHECK(got.empty());
      continue;
    }
    REQUIRE(got.size() == 1);
    CHECK(got[0].recv.id == want->id);
    posted.erase(want);
  }
  CHECK(q.posted_size() == posted.size());
  mpi::MatchQueues<R, M> u;
  std::vector<M> arrived;
  for (int n = 0; n < 3000; ++n) {
    const M m{2, n % 3, n};
    CHECK(u.arrive(static_cast<std::uint32_t>(n), m).empty());
    arrived.push_back(m);
  }
  for (int i = 0; i < 3000; ++i) {
    const int tag = i % 4 == 3 ? 2 : 0;  // mostly the first message of tag 0, sometimes a later one of tag 2
    auto want = std::find_if(arrived.begin(), arrived.end(), [&](const M& m) { return m.tag == tag; });
    auto got = u.post(R{2, tag, i});
    if (want == arrived.end()) {
      CHECK_FALSE(got);
      continue;
    }
    REQUIRE(got);
    CHECK(got->n == want->n);
    arrived.erase(want);
  }
  CHECK(u.unexpected_size() == arrived.size());
}

// Configuration: the per-peer sequence map with 5,000 peers in a scrambled order (it grows from 4 slots), each
// incremented a peer-dependent number of times, interleaved. Expected: every counter starts at 0 and ends at its own
// count; size() counts distinct peers. How validated: against std::map.
TEST_CASE("mpi per-peer sequence map: first contact at 0, counters independent, growth", "[unit][mpi]") {
  mpi::PeerSeq m;
  std::map<int, std::uint32_t> ref;
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 5000; ++i) {
      int peer = (i * 7919) % 5000;
      if (round > 0 && peer % (round + 1)) continue;
      CHECK(m[peer] == ref[peer]);
      ++m[peer];
      ++ref[peer];
    }
  CHECK(m.size() == ref.size());
  for (auto& [p, v] : ref) CHECK(m[p] == v);
  CHECK(m.size() == 5000);
}

// Configuration: one rank's table under three patterns: an alltoall's (rank 100 of 512 visits 101, 102, ... 511, 0,
// ... 99, twice), a whole-machine barrier's (partners rank +- 4^j over 299,008 ranks) and a dense table meeting a far
// peer. Expected: every counter equals std::map's after every step; the buffer never exceeds the hashed layout's
// bytes for the peers seen; the alltoall's table ends dense with each peer's seen bit on its counter's cache line, the
// barrier's stays hashed, the far peer sends a dense table back to hashed with its counters kept; a copy keeps them
// too. How validated: against std::map, PeerSeq::hashed_bytes and the addresses of a counter and its bit's word.
TEST_CASE("mpi per-peer sequence map: dense for a rank that talks to most peers, never larger", "[unit][mpi]") {
  auto visit = [](mpi::PeerSeq& m, std::map<int, std::uint32_t>& ref, int peer) {
    // find() sees only peers already contacted, and makes no contact
    const std::size_t before = m.size();
    const std::uint32_t* f = std::as_const(m).find(peer);
    CHECK((f != nullptr) == (ref.count(peer) == 1));
    if (f) CHECK(*f == ref[peer]);
    CHECK(m.size() == before);
    CHECK(std::as_const(m).find(peer + 1000003) == nullptr);
    CHECK(m[peer] == ref[peer]);
    ++m[peer];
    ++ref[peer];
    CHECK(m.size() == ref.size());
    CHECK(m.bytes() <= mpi::PeerSeq::hashed_bytes(m.size()));
  };
  SECTION("alltoall") {
    mpi::PeerSeq m;
    std::map<int, std::uint32_t> ref;
    for (int call = 0; call < 2; ++call)
      for (int k = 1; k < 512; ++k) visit(m, ref, (100 + k) % 512);
    CHECK(m.dense());
    CHECK(2 * m.bytes() <= mpi::PeerSeq::hashed_bytes(m.size()));  // 4 bytes and a bit per peer (range doubled)
    for (auto& [p, v] : ref) CHECK(m[p] == v);
    // The dense layout: a peer's seen bit and its counter on one cache line.
    auto line = [](const void* a) { return reinterpret_cast<std::uintptr_t>(a) / mpi::PeerSeq::kLineBytes; };
    for (int p = 0; p < 512; ++p) {
      REQUIRE(m.seen_word(p) != nullptr);
      CHECK(line(m.seen_word(p)) == line(&m[p]));
    }
  }
  SECTION("whole-machine barrier") {
    mpi::PeerSeq m;
    std::map<int, std::uint32_t> ref;
    const int n = 299008, rank = 150001;
    for (int d = 1; d < n; d *= 4) {
      visit(m, ref, (rank + d) % n);
      visit(m, ref, (rank - d + n) % n);
    }
    CHECK_FALSE(m.dense());
    CHECK(m.seen_word(rank + 1) == nullptr);
    CHECK(m.bytes() == mpi::PeerSeq::hashed_bytes(m.size()));
  }
  SECTION("a far peer sends a dense table back to hashed") {
    mpi::PeerSeq m;
    std::map<int, std::uint32_t> ref;
    for (int p = 0; p < 64; ++p) visit(m, ref, p);
    REQUIRE(m.dense());
    visit(m, ref, 1000000);
    CHECK_FALSE(m.dense());
    const mpi::PeerSeq copy = m;
    for (auto& [p, v] : ref) {
      CHECK(m[p] == v);
      CHECK(mpi::PeerSeq(copy)[p] == v);
    }
    CHECK(m.size() == 65);
  }
}

namespace {
struct M {  // a message in the matching engine: envelope and an identity
  int src, tag, n;
};
using Engine = mpi::MatchEngine<mpi::Posted, M>;
}  // namespace

// Configuration: one rank's engine; source 1 sends 6 messages on (context 0, tag 5), numbered 0..5 by its send
// sequence, which arrive in the scrambled order 3 1 0 5 2 4; receives (src 1, tag 5) are posted, three before any
// arrival and three after. Expected: MPI non-overtaking: the i-th receive takes message i, whatever the arrival order;
// messages arriving ahead of a predecessor are held, not matched and not unexpected. How validated: message numbers.
TEST_CASE("mpi matching: non-overtaking per source, communicator and tag under any arrival order", "[unit][mpi]") {
  Engine e;
  std::vector<std::pair<std::uint64_t, int>> got;  // (receive id, message n)
  for (std::uint64_t r = 0; r < 3; ++r) CHECK_FALSE(e.post(0, mpi::Posted{1, 5, r}));
  std::vector<M> unexpected;
  for (int n : {3, 1, 0, 5, 2, 4})
    for (auto& m : e.arrive(0, static_cast<std::uint32_t>(n), M{1, 5, n}, &unexpected))
      got.emplace_back(m.recv.rid, m.msg.n);
  CHECK(e.posted_size() == 0);
  CHECK(e.held_size() == 0);
  REQUIRE(unexpected.size() == 3);  // 3, 4, 5 found no receive
  CHECK(unexpected[0].n == 3);
  for (std::uint64_t r = 3; r < 6; ++r) {
    auto m = e.post(0, mpi::Posted{1, 5, r});
    REQUIRE(m);
    got.emplace_back(r, m->n);
  }
  REQUIRE(got.size() == 6);
  for (auto& [rid, n] : got) CHECK(static_cast<int>(rid) == n);
  CHECK(e.unexpected_size() == 0);
}

// Configuration: messages from sources 3 and 2 arrive unexpected (3 first), then from 4; receives with ANY_SOURCE and
// a specific source; a message with a negative (internal) tag. Expected: an ANY_SOURCE receive takes the earliest
// unexpected message of any source; a specific-source receive skips others' messages; an ANY_TAG receive never takes
// a negative tag (Open MPI's wild receives, PTL_TAG_IGNR); an arriving message takes the first posted receive that
// matches it, wildcard or not.
TEST_CASE("mpi matching: ANY_SOURCE and ANY_TAG", "[unit][mpi]") {
  Engine e;
  CHECK(e.arrive(0, 0, M{3, 7, 30}).empty());
  CHECK(e.arrive(0, 0, M{2, 7, 20}).empty());
  CHECK(e.arrive(0, 1, M{2, -4, 21}).empty());  // a collective's internal tag
  CHECK(e.unexpected_size() == 3);
  auto a = e.post(0, mpi::Posted{2, 7, 1});
  REQUIRE(a);
  CHECK(a->n == 20);  // source 2's message, though source 3's arrived first
  auto b = e.post(0, mpi::Posted{kAnySource, kAnyTag, 2});
  REQUIRE(b);
  CHECK(b->n == 30);
  CHECK_FALSE(e.post(0, mpi::Posted{kAnySource, kAnyTag, 3}));  // only the negative tag is left: not taken
  auto c = e.post(0, mpi::Posted{kAnySource, -4, 4});
  REQUIRE(c);
  CHECK(c->n == 21);
  // Receive 3 (ANY_SOURCE, ANY_TAG) was posted first: a new message from source 4 goes to it, not to receive 5.
  CHECK_FALSE(e.post(0, mpi::Posted{4, 9, 5}));
  auto out = e.arrive(0, 0, M{4, 9, 40});
  REQUIRE(out.size() == 1);
  CHECK(out[0].recv.rid == 3);
  CHECK(e.posted_size() == 1);
  CHECK(mpi::matches(kAnySource, kAnyTag, 5, 0));
  CHECK_FALSE(mpi::matches(kAnySource, kAnyTag, 5, -1));
}

// Configuration: the same source and tag on two communicators (context ids 0 and 1). Expected: a receive on one
// never takes a message of the other (each has its own queues), and sequence numbers are per communicator: message 0
// on context 1 is matched even though message 0 on context 0 has not arrived; send sequences count per (context, peer).
TEST_CASE("mpi matching: two communicators with the same source and tag never match each other", "[unit][mpi]") {
  Engine e;
  CHECK_FALSE(e.post(1, mpi::Posted{0, 5, 100}));
  CHECK(e.arrive(0, 1, M{0, 5, 1}).empty());  // context 0, seq 1: held until seq 0
  CHECK(e.held_size() == 1);
  auto out = e.arrive(1, 0, M{0, 5, 2});      // context 1, seq 0: matches the receive on context 1
  REQUIRE(out.size() == 1);
  CHECK(out[0].msg.n == 2);
  CHECK_FALSE(e.post(1, mpi::Posted{0, 5, 101}));  // nothing left on context 1
  std::vector<M> un;
  CHECK(e.arrive(0, 0, M{0, 5, 0}, &un).empty());   // context 0 releases 0 and 1: unexpected, not context 1's
  CHECK(un.size() == 2);
  CHECK(e.posted_size() == 1);
  CHECK(e.unexpected_size() == 2);
  CHECK(e.communicators() == 2);
  CHECK(e.next_send_seq(0, 9) == 0);
  CHECK(e.next_send_seq(0, 9) == 1);
  CHECK(e.next_send_seq(1, 9) == 0);
  CHECK(e.next_send_seq(0, 8) == 0);
}

// Configuration: a table filled with 1,000 requests of 10 ranks, freed in a random order while new ones are created,
// then emptied. Expected: ids are never 0 and never reused while live; a freed id is no longer found (a stale handle
// in a late header is caught); references stay valid while the table grows; live(rank) counts a rank's requests;
// the table ends empty and its storage follows the peak number of live requests. How validated: against a std::map.
TEST_CASE("mpi request table: handles, reuse, stale ids, no leak", "[unit][mpi]") {
  struct Req : mpi::Request {
    int payload = 0;
  };
  mpi::RequestTable<Req> t;
  std::map<mpi::RequestId, int> ref;
  std::mt19937 rng(7);
  std::vector<mpi::RequestId> freed;
  auto [first_id, first] = t.create();
  first.rank = 3, first.payload = -1;
  for (int i = 0; i < 1000; ++i) {
    auto [id, r] = t.create();
    CHECK(id != 0);
    CHECK(ref.count(id) == 0);
    r.rank = i % 10, r.payload = i;
    ref[id] = i;
    if (rng() % 3 == 0) {
      auto it = std::next(ref.begin(), static_cast<long>(rng() % ref.size()));
      Req q = t.take(it->first);
      CHECK(q.payload == it->second);
      freed.push_back(it->first);
      ref.erase(it);
    }
  }
  CHECK(first.payload == -1);  // the first request's reference survived every growth
  CHECK(t.find(first_id) == &first);
  CHECK(t.size() == ref.size() + 1);
  std::size_t rank3 = 1;
  for (auto& [id, n] : ref) rank3 += n % 10 == 3;
  CHECK(t.live(3) == rank3);
  for (auto id : freed) CHECK(t.find(id) == nullptr);
  CHECK_THROWS_AS(t.at(freed.front()), ProtocolError);
  for (auto& [id, n] : ref) CHECK(t.at(id).payload == n);
  for (auto& [id, n] : ref) t.take(id);
  t.take(first_id);
  CHECK(t.size() == 0);
  CHECK(t.live(3) == 0);
  CHECK(t.capacity() <= 1024);  // peak live < 1,001: four chunks of 256
}

// Configuration: a Library with 4 ranks; a receive with ANY_SOURCE posted before the message and one after; a message
// longer than its receive. Expected: the caller's MPI_Status holds the matched source, tag and length when the
// completion runs; a message longer than the receive is counted as MPI_ERR_TRUNCATE and flagged in the status; the
// request counters and live requests come back to zero.
TEST_CASE("mpi library: completion fills MPI_Status, counts requests and truncation", "[unit][mpi]") {
  mpi::Library<mpi::Request, mpi::Request, M> lib(4);
  mpi::Status st1, st2;
  int done1 = 0, done2 = 0;
  mpi::P2P r1{2, kAnySource, 5, 10, mpi::kInt, mpi::kCommWorld, Buffer{}, &st1};
  auto id1 = lib.new_recv(r1, [&] {
    ++done1;
    CHECK(st1.source == 1);  // filled before the completion runs
  }).first;
  CHECK(lib.recv(id1).bytes == 40);
  CHECK_FALSE(lib.post(2, 0, mpi::Posted{kAnySource, 5, id1}));
  auto out = lib.arrive(2, 0, lib.next_send_seq(1, 0, 2), M{1, 5, 0});
  REQUIRE(out.size() == 1);
  CHECK_FALSE(lib.matched(lib.recv(out[0].recv.rid), 1, 5, 40));
  StackStats mid;
  lib.report(mid);
  CHECK(mid.live_requests == 1);
  CHECK(lib.live(2) == 1);
  lib.complete_recv(id1);
  CHECK(done1 == 1);
  CHECK(st1.source == 1);
  CHECK(st1.tag == 5);
  CHECK(st1.bytes == 40);
  CHECK_FALSE(st1.truncated);
  auto id2 = lib.new_recv(mpi::P2P{2, 1, 5, 1, mpi::kDouble, mpi::kCommWorld, Buffer{}, &st2}, [&] { ++done2; }).first;
  CHECK(lib.matched(lib.recv(id2), 1, 5, 16));
  lib.complete_recv(id2);
  CHECK(st2.truncated);
  CHECK(lib.truncated() == 1);
  auto sid = lib.new_send(mpi::P2P{1, 2, 5, 3, mpi::kByte, mpi::Comm{7}, Buffer{}, nullptr}, nullptr).first;
  CHECK(lib.send(sid).ctx == 7);
  lib.complete_send(sid);
  StackStats s;
  lib.report(s);
  CHECK(s.sends_posted == 1);
  CHECK(s.sends_completed == 1);
  CHECK(s.recvs_posted == 2);
  CHECK(s.recvs_completed == 2);
  CHECK(s.live_requests == 0);
  CHECK(done2 == 1);
}

// Configuration: the predefined datatypes. Expected: MPI_BYTE and MPI_PACKED are never converted, typed data is;
// sizes as on LP64 x86-64; count * size bytes; a non-contiguous type makes the buffer the protocols see non-contiguous.
TEST_CASE("mpi datatypes: sizes, never-converted raw bytes, contiguity", "[unit][mpi]") {
  CHECK(mpi::kByte.never_convert);
  CHECK(mpi::kPacked.never_convert);
  for (const char* n : {"MPI_CHAR", "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE", "MPI_LONG_DOUBLE", "MPI_CXX_BOOL"}) {
    const mpi::Datatype* d = mpi::find_datatype(n);
    REQUIRE(d);
    CHECK_FALSE(d->never_convert);
  }
  CHECK(mpi::find_datatype("MPI_INT")->size == 4);
  CHECK(mpi::find_datatype("MPI_DOUBLE")->bytes(3) == 24);
  CHECK(mpi::find_datatype("MPI_NOPE") == nullptr);
  mpi::Datatype vec{"vector of MPI_DOUBLE", 8, false, false};
  mpi::P2P m{0, 1, 0, 4, vec, mpi::kCommWorld, Buffer{64, true, {}}, nullptr};
  CHECK(m.bytes() == 32);
  CHECK_FALSE(m.buffer().contiguous);
  m.type = mpi::kDouble;
  CHECK(m.buffer().contiguous);
}
