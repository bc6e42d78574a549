// pml/ob1's fragment pipeline of one rendezvous (frag_pipeline.hpp) as a plain state machine: the depth bound, round
// robin over the BTLs, each fragment sized from the bytes still remaining (Open MPI 1.1), every byte posted once and in
// order.
#include "protocols/pml/ob1/frag_pipeline.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

using ompisim::pml::ob1::FragPipeline;

namespace {
// Drives a pipeline to the end: posts what next() gives, then completes one in-flight fragment chosen by a fixed
// pseudo-random sequence (not FIFO, so completions come out of order as over two NICs). Checks after every step that
// at most `depth` fragments of the request are in flight, that the per-BTL counts agree, and that the pipeline is
// full whenever bytes are left to post; returns the fragments in posting order.
std::vector<FragPipeline::Frag> drive(FragPipeline& p, std::size_t btls, int depth, std::uint32_t seed) {
  std::vector<FragPipeline::Frag> posted, in_flight;
  std::uint32_t x = seed;
  for (int guard = 0; guard < 1000000; ++guard) {
    while (auto f = p.next()) {
      posted.push_back(*f);
      in_flight.push_back(*f);
    }
    REQUIRE(static_cast<int>(in_flight.size()) == p.in_flight());
    std::map<std::size_t, int> per_share;
    for (const auto& f : in_flight) ++per_share[f.share];
    REQUIRE(p.in_flight() <= depth);
    for (std::size_t i = 0; i < btls; ++i) REQUIRE(p.in_flight(i) == per_share[i]);
    if (!in_flight.empty()) REQUIRE(p.state() != FragPipeline::State::Posting);
    if (p.state() == FragPipeline::State::Full) REQUIRE(p.in_flight() == depth);
    if (in_flight.empty()) break;
    x = x * 1664525u + 1013904223u;
    const std::size_t k = (x >> 8) % in_flight.size();
    const std::size_t share = in_flight[k].share;
    in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(k));
    const bool last = p.complete(share);
    CHECK(last == (in_flight.empty() && p.remaining() == 0));
  }
  return posted;
}
}  // namespace

// Configuration: the rest of an 8 MiB rendezvous (first fragment at 12 KiB - 40 B already sent) over two BTLs as
// weighted_rr does on lanl-multi-nic (openib weight 800/1050, 1 MiB PUT fragments, takes all below 12 KiB; gm
// 250/1050, 128 KiB), over four BTLs with uneven weights and fragment sizes (one with weight 0), and over one BTL;
// depths 1 to 7; completions out of order. Expected: never more than `depth` fragments in flight and never fewer while
// bytes are left; BTLs taken in round robin (skipping weight 0); every fragment min(max_frag, remaining if it is the
// only BTL or remaining < take_all, else floor(weight x remaining)) of the bytes remaining when it was posted;
// offsets contiguous from the first offset (every byte posted once, in order); ends Done with nothing in flight. How
// validated: the same formula evaluated here from mca_pml_ob1_recv_request_schedule / _send_request_schedule (v1.1.0).
TEST_CASE("pml/ob1 fragment pipeline: v1.1 sizes from the remaining bytes, depth bound, every byte once",
          "[unit][protocol][ob1]") {
  struct Case {
    std::vector<FragPipeline::Btl> btls;
    std::uint64_t first, bytes;
  };
  const std::uint64_t first = 12 * 1024 - 40;
  const std::vector<Case> cases = {
      {{{2, 800.0 / 1050, 1u << 20, 12288, 1}, {1, 250.0 / 1050, 128u << 10, 32768, 1}}, first, (8u << 20) - first},
      {{{0, 0.1, 300, 0, 0}, {1, 0.0, 64, 0, 0}, {2, 0.6, 4096, 100, 0}, {3, 0.3, 1, 0, 0}}, 64, 6777},
      {{{5, 1.0, 1u << 20, 0, 0}}, 0, 3u << 20},
  };
  for (int depth : {1, 2, 3, 4, 7}) {
    for (std::size_t c = 0; c < cases.size(); ++c) {
      CAPTURE(depth, c);
      const Case& cs = cases[c];
      FragPipeline p(cs.btls, cs.first, cs.bytes, depth);
      CHECK(p.state() == FragPipeline::State::Posting);
      const auto posted = drive(p, cs.btls.size(), depth, 12345u + static_cast<std::uint32_t>(depth * 7 + c));
      CHECK(p.state() == FragPipeline::State::Done);
      CHECK(p.in_flight() == 0);
      CHECK(!p.next());
      REQUIRE(posted.size() == p.posted_frags());
      std::size_t used = 0;
      for (const auto& b : cs.btls) used += b.weight > 0;
      std::uint64_t off = cs.first, remaining = cs.bytes;
      std::size_t rr = 0;
      for (const auto& f : posted) {
        while (cs.btls[rr % cs.btls.size()].weight <= 0) ++rr;
        CHECK(f.share == rr % cs.btls.size());  // round robin over the BTLs in use
        ++rr;
        const FragPipeline::Btl& b = cs.btls[f.share];
        std::uint64_t want = remaining;
        if (used > 1 && remaining >= b.take_all)
          want = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(b.weight * static_cast<double>(remaining)));
        want = std::min(want, b.max_frag);
        CHECK(f.len == want);
        CHECK(f.offset == off);  // contiguous, increasing: once and in order
        CHECK(f.btl == b.btl);
        CHECK(f.flags == b.flags);
        off += f.len;
        remaining -= f.len;
      }
      CHECK(remaining == 0);
      CHECK(off == cs.first + cs.bytes);
    }
  }
}

// Configuration: the lanl-multi-nic striping of an 8 MiB message's rest (openib 800/1050 with 1 MiB PUT fragments, gm
// 250/1050 with 128 KiB), depth 4, in the capped loop (the FRAG side, and the receiver's PUT branch that registers each
// fragment as it goes; a registered buffer has no cap, test below). Expected (Open MPI 1.1): the fragments alternate openib 1 MiB, gm 128 KiB while
// weight x remaining exceeds both caps (six rounds), then shrink with the remaining bytes (989312, 73609, 179467,
// 13353, 32556, 10175 B), so gm carries 862.9 KiB, far less than its bandwidth share (250/1050 of the rest, 1.9 MiB,
// what a split fixed up front gives it). How validated: the v1.1 loop evaluated by hand (a short script).
TEST_CASE("pml/ob1 fragment pipeline: Open MPI 1.1 sizes, not fixed shares", "[unit][protocol][ob1]") {
  const std::uint64_t first = 12 * 1024 - 40, bytes = (8u << 20) - first;
  FragPipeline p({{0, 800.0 / 1050, 1u << 20, 12288, 0}, {1, 250.0 / 1050, 128u << 10, 32768, 0}}, first, bytes, 4);
  std::map<std::size_t, std::uint64_t> carried;
  std::vector<std::uint64_t> lens;
  while (p.state() != FragPipeline::State::Done) {
    std::vector<std::size_t> posted;
    while (auto f = p.next()) carried[f->share] += f->len, lens.push_back(f->len), posted.push_back(f->share);
    for (std::size_t s : posted) p.complete(s);
  }
  REQUIRE(lens.size() >= 4);
  CHECK(lens[0] == (1u << 20));
  CHECK(lens[1] == (128u << 10));
  CHECK(lens[2] == (1u << 20));
  CHECK(lens[3] == (128u << 10));
  CHECK(carried[0] + carried[1] == bytes);
  CHECK(carried[1] < (1u << 20));  // 862.9 KiB; a fixed 250/1050 share would be 1.9 MiB
  CHECK(carried[1] > (6u * (128u << 10)));
  CHECK(lens.back() < (128u << 10));
}

// Configuration: depth 3, two BTLs of weight 0.5 with 10-byte fragments, 70 bytes from offset 100. Expected: the
// first three fragments 0,1,0 (then Full); a completion frees one slot, the next BTL in round robin gets it (1), and so
// on; sizes min(10, floor(0.5 x remaining)) until 20 bytes remain, then 10, 5, 2, 1, 1, 1 (the shrinking tail of
// weight x remaining); Draining once everything is posted, Done after the last completion; complete() true only then.
// A depth below 1 is taken as 1; no BTL with a weight is refused. How validated: by hand.
TEST_CASE("pml/ob1 fragment pipeline: state machine", "[unit][protocol][ob1]") {
  FragPipeline p({{0, 0.5, 10, 0, 0}, {1, 0.5, 10, 0, 0}}, 100, 70, 3);
  std::vector<std::size_t> order;
  std::vector<std::uint64_t> lens;
  auto post = [&] {
    int n = 0;
    while (auto f = p.next()) order.push_back(f->share), lens.push_back(f->len), ++n;
    return n;
  };
  CHECK(post() == 3);
  CHECK(order == std::vector<std::size_t>{0, 1, 0});
  CHECK(p.state() == FragPipeline::State::Full);
  CHECK(p.in_flight(0) == 2);
  CHECK(p.in_flight(1) == 1);
  int completions = 0;
  while (p.state() != FragPipeline::State::Draining) {
    CHECK_FALSE(p.complete(order[static_cast<std::size_t>(completions++)]));
    post();
  }
  CHECK(order == std::vector<std::size_t>{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
  CHECK(lens == std::vector<std::uint64_t>{10, 10, 10, 10, 10, 10, 5, 2, 1, 1, 1});
  while (completions + 1 < static_cast<int>(order.size()))
    CHECK_FALSE(p.complete(order[static_cast<std::size_t>(completions++)]));
  CHECK(p.complete(order.back()));
  CHECK(p.state() == FragPipeline::State::Done);
  FragPipeline q({{0, 1.0, 10, 0, 0}}, 0, 30, 0);
  CHECK(q.depth() == 1);
  REQUIRE(q.next());
  CHECK(!q.next());
  CHECK_THROWS_AS(FragPipeline({{0, 0.0, 10, 0, 0}}, 0, 30, 2), std::invalid_argument);
}

// Configuration: calc_weighted_length (Open MPI v1.3.0-v1.8.8 pml_ob1.h) over BTLs in its order: 8376360 B over weights
// 800/1050 and 250/1050 with eager limits 12 KiB and 32 KiB; 100 B over the same; 1000 B over weights 0.5/0.3/0.2 with
// eager limits 0/0/400; one BTL. Expected: openib floor(8376360 x 800/1050) + the rounding remainder, gm floor(8376360 x
// 250/1050); 100 B all on the first (100 <= its eager limit); 500, 300, then the last takes the 200 left (200 <= 400);
// one BTL takes all. How validated: the C loop evaluated by hand.
TEST_CASE("pml/ob1 calc_weighted_length: shares of the whole range, the rest within the eager limit",
          "[unit][protocol][ob1]") {
  using ompisim::pml::ob1::calc_weighted_length;
  const std::uint64_t left = 8376360;
  const auto two = calc_weighted_length({800.0 / 1050, 250.0 / 1050}, {12288, 32768}, left);
  CHECK(two[1] == 1994371);  // floor(1994371.43)
  CHECK(two[0] == left - 1994371);  // floor(6381988.57) + 1 of rounding
  CHECK(calc_weighted_length({800.0 / 1050, 250.0 / 1050}, {12288, 32768}, 100) == std::vector<std::uint64_t>{100, 0});
  CHECK(calc_weighted_length({0.5, 0.3, 0.2}, {0, 0, 400}, 1000) == std::vector<std::uint64_t>{500, 300, 200});
  CHECK(calc_weighted_length({0.7}, {0}, 12345) == std::vector<std::uint64_t>{12345});
}

// Configuration: the lanl-multi-nic rest of an 8 MiB rendezvous (as the v1.1 case above) under the v1.3 schedule
// (Schedule::WeightedLength) on the RDMA side, depth 4, fragments completed one at a time in posting order (each
// completion followed by posting); then with the
// BTLs given lightest first; then with max_btls 1. Expected: openib assigned 6381989 B, gm 1994371 B up front (gm's
// bandwidth share, not the 862.9 KiB of the capped v1.1 loop); fragments alternate openib 1 MiB, gm 128 KiB until openib's
// share is posted (6 x 1 MiB + 90533 B), then gm alone (its 16 fragments: 15 x 128 KiB + 28291 B); each BTL carries
// exactly its share; the order does not depend on the order the BTLs are given in (sorted by weight); with max_btls 1
// only the first BTL given carries the range. Failing without the selection: the capped v1.1 schedule gives gm 883569 B.
// How validated: calc_weighted_length and schedule_once (v1.3.0) by hand.
TEST_CASE("pml/ob1 fragment pipeline: Open MPI 1.3 shares fixed up front", "[unit][protocol][ob1]") {
  using S = FragPipeline::Schedule;
  const std::uint64_t first = 12 * 1024 - 40, bytes = (8u << 20) - first;
  const FragPipeline::Btl ib{0, 800.0 / 1050, 1u << 20, 12288, 1}, gm{1, 250.0 / 1050, 128u << 10, 32768, 1};
  auto run = [&](std::vector<FragPipeline::Btl> btls, int max_btls, std::vector<std::uint64_t>& lens) {
    FragPipeline p(btls, first, bytes, 4, S::WeightedLength, max_btls, true);
    CHECK(p.schedule() == S::WeightedLength);
    std::map<std::size_t, std::uint64_t> carried;  // by caller's BTL index
    std::uint64_t off = first;
    std::vector<std::size_t> in_flight;  // completed oldest first, one at a time, each followed by posting
    while (p.state() != FragPipeline::State::Done) {
      while (auto f = p.next()) {
        CHECK(f->offset == off);
        off += f->len;
        carried[f->btl] += f->len, lens.push_back(f->len), in_flight.push_back(f->share);
      }
      REQUIRE(!in_flight.empty());
      p.complete(in_flight.front());
      in_flight.erase(in_flight.begin());
    }
    CHECK(off == first + bytes);
    return carried;
  };
  std::vector<std::uint64_t> lens;
  auto carried = run({ib, gm}, 4, lens);
  CHECK(carried[1] == 1994371);
  CHECK(carried[0] == bytes - 1994371);
  REQUIRE(lens.size() == 7 + 16);
  for (std::size_t k = 0; k < 12; ++k) CHECK(lens[k] == (k % 2 == 0 ? (1u << 20) : (128u << 10)));
  CHECK(lens[12] == bytes - 1994371 - 6 * (1u << 20));  // openib's last
  for (std::size_t k = 13; k + 1 < lens.size(); ++k) CHECK(lens[k] == (128u << 10));
  CHECK(lens.back() == 1994371 - 15 * (128u << 10));
  std::vector<std::uint64_t> lens2;
  auto carried2 = run({gm, ib}, 4, lens2);  // lightest first: sorted by weight all the same
  CHECK(carried2 == carried);
  CHECK(lens2 == lens);
  std::vector<std::uint64_t> lens3;
  auto carried3 = run({ib, gm}, 1, lens3);
  CHECK(carried3[0] == bytes);
  CHECK(carried3.count(1) == 0);
}

// Configuration: v1.3 schedule, two BTLs of weight 0.5 with 10-byte fragments and eager limit 0, 100 bytes, depth 2.
// RDMA side (refill_completer): post 0,1; BTL 1's fragment completes: BTL 1 goes next (its bml_btl is start_bml_btl);
// BTL 1's completes again: BTL 1 again. Send side (no refill): post 0,1; BTL 1's completes: plain round robin gives
// BTL 0; BTL 0's completes: BTL 1. When the completing BTL has nothing left, round robin continues. How validated: by
// hand from mca_pml_ob1_recv_request_schedule_once (start_bml_btl) and mca_pml_ob1_send_request_schedule_once (v1.3.0).
TEST_CASE("pml/ob1 fragment pipeline: v1.3 RDMA side schedules the completing BTL first", "[unit][protocol][ob1]") {
  using S = FragPipeline::Schedule;
  auto seq = [](bool refill, std::vector<std::size_t> completions) {
    FragPipeline p({{0, 0.5, 10, 0, 0}, {1, 0.5, 10, 0, 0}}, 0, 100, 2, S::WeightedLength, 4, refill);
    CHECK(p.assigned(0) == 50);
    CHECK(p.assigned(1) == 50);
    std::vector<std::size_t> order;
    while (auto f = p.next()) order.push_back(f->share);
    for (std::size_t c : completions) {
      REQUIRE(p.in_flight(c) > 0);
      p.complete(c);
      auto f = p.next();
      REQUIRE(f);
      order.push_back(f->share);
    }
    return order;
  };
  CHECK(seq(true, {1, 1}) == std::vector<std::size_t>{0, 1, 1, 1});
  CHECK(seq(false, {1, 0}) == std::vector<std::size_t>{0, 1, 0, 1});
  CHECK(seq(true, {1, 0}) == std::vector<std::size_t>{0, 1, 1, 0});
  // BTL 1 with a single fragment: once it is posted, a completion on it leaves round robin to BTL 0.
  FragPipeline q({{0, 0.5, 10, 0, 0}, {1, 0.5, 10, 0, 0}}, 0, 20, 1, S::WeightedLength, 4, true);
  auto a = q.next();
  REQUIRE(a);
  CHECK(a->share == 0);
  q.complete(0);
  auto b = q.next();
  REQUIRE(b);
  CHECK(b->share == 1);
  CHECK(q.complete(1));
  CHECK(q.state() == FragPipeline::State::Done);
}

// Configuration: the rest of an 8 MiB rendezvous over a receive buffer already registered with both BTLs (the
// receiver's req_rdma_cnt == 2), lanl-multi-nic's weights (openib 800/1050 first, gm 250/1050), their max_rdma_size
// 1 MiB and 128 KiB, depth 4; then the same with gm first in the array, and over one BTL. Expected (Open MPI 1.1.1
// pml_ob1_recvreq.c:607-644): two PUTs, no cap: the first BTL floor(weight x rest), the second (num_btl_avail =
// req_rdma_cnt - req_rdma_idx = 1) all the rest, so each carries its weight's share whichever comes first; one BTL
// takes the rest in one PUT. How validated: the v1.1.1 loop evaluated by hand; without `registered` the first case
// gives 1 MiB and 128 KiB fragments (the test above).
TEST_CASE("pml/ob1 fragment pipeline: Open MPI 1.1 PUTs over a registered buffer", "[unit][protocol][ob1]") {
  const std::uint64_t bytes = 8u << 20;
  const FragPipeline::Btl openib{0, 800.0 / 1050, 1u << 20, 12288, 0}, gm{1, 250.0 / 1050, 128u << 10, 32768, 0};
  auto run = [&](std::vector<FragPipeline::Btl> btls) {
    FragPipeline p(std::move(btls), 0, bytes, 4, FragPipeline::Schedule::Remaining, 4, true, true);
    std::vector<FragPipeline::Frag> out;
    while (auto f = p.next()) out.push_back(*f);
    for (const auto& f : out) p.complete(f.share);
    CHECK(p.state() == FragPipeline::State::Done);
    return out;
  };
  const auto a = run({openib, gm});
  REQUIRE(a.size() == 2);
  CHECK(a[0].btl == 0);
  CHECK(a[0].len == static_cast<std::uint64_t>(800.0 / 1050 * static_cast<double>(bytes)));  // 6391320 B
  CHECK(a[1].btl == 1);
  CHECK(a[1].offset == a[0].len);
  CHECK(a[1].len == bytes - a[0].len);  // 1997288 B, gm's 250/1050 share
  const auto b = run({gm, openib});
  REQUIRE(b.size() == 2);
  CHECK(b[0].len == static_cast<std::uint64_t>(250.0 / 1050 * static_cast<double>(bytes)));
  CHECK(b[1].len == bytes - b[0].len);
  const auto c = run({gm});
  REQUIRE(c.size() == 1);
  CHECK(c[0].len == bytes);  // not 64 PUTs of 128 KiB
  // A rest above a segment's 32-bit length (4 GiB + 1 B over one BTL): two PUTs, the first 4 GiB - 1 B, not one PUT
  // whose length the header truncates to 0 (its FIN then arrived while the request still expected data: exit 3).
  FragPipeline big({gm}, 0, (1ull << 32) + 1, 4, FragPipeline::Schedule::Remaining, 4, true, true);
  const auto f1 = big.next(), f2 = big.next();
  REQUIRE(f1);
  REQUIRE(f2);
  CHECK(f1->len == FragPipeline::kMaxSegment);
  CHECK(f2->offset == FragPipeline::kMaxSegment);
  CHECK(f2->len == 2);
  CHECK_FALSE(big.next());
}

// Configuration: the PUTs of Open MPI 1.1's branch that registers each fragment (a malloc'ed receive buffer,
// mpi_leave_pinned 0): an 8 MiB message whose ACK carried rdma offset 1 MiB (bml/r2's btl_rdma_offset), so the PUTs
// cover [1 MiB, 8 MiB); openib (800/1050, max_rdma_size 1 MiB, eager 12 KiB) and gm (250/1050, 128 KiB, 32 KiB);
// depth 4; the round robin from the peer's array position 0, then from position 1 (gm first: the position a previous
// request left). Expected (v1.1.1 pml_ob1_recvreq.c 645-684): alternately openib and gm, each floor(weight x
// remaining) capped at its max_rdma_size: 1 MiB, 128 KiB five times, then 1 MiB, 93622, 228262, 16983, 41408, 12941 B
// (16 PUTs, offsets contiguous from 1 MiB); rr_position() after each PUT is the next BTL's index; from position 1
// the first PUT is gm's 128 KiB at 1 MiB. How validated: the v1.1.1 loop evaluated by hand (the same sequence as
// test_stripe.cpp's end-to-end count).
TEST_CASE("pml/ob1 fragment pipeline: Open MPI 1.1 PUTs registered fragment by fragment", "[unit][protocol][ob1]") {
  const std::uint64_t first = 1u << 20, rest = (8u << 20) - first;
  const FragPipeline::Btl openib{0, 800.0 / 1050, 1u << 20, 12288, 0}, gm{1, 250.0 / 1050, 128u << 10, 32768, 0};
  FragPipeline p({openib, gm}, first, rest, 4, FragPipeline::Schedule::Remaining, 4, true, false);
  p.start_at(0);
  std::vector<FragPipeline::Frag> out;
  for (int guard = 0; guard < 100 && p.state() != FragPipeline::State::Done; ++guard) {
    while (auto f = p.next()) {
      out.push_back(*f);
      CHECK(p.rr_position() == (f->share + 1) % 2);
    }
    REQUIRE(p.in_flight() <= 4);
    p.complete(out[out.size() - static_cast<std::size_t>(p.in_flight())].share);  // the oldest in flight
  }
  const std::vector<std::uint64_t> want{1048576, 131072, 1048576, 131072, 1048576, 131072, 1048576, 131072,
                                        1048576, 131072, 1048576, 93622,  228262,  16983,  41408,   12941};
  REQUIRE(out.size() == want.size());
  std::uint64_t off = first;
  for (std::size_t i = 0; i < out.size(); ++i) {
    CAPTURE(i);
    CHECK(out[i].btl == i % 2);
    CHECK(out[i].offset == off);
    CHECK(out[i].len == want[i]);
    off += out[i].len;
  }
  CHECK(off == 8u << 20);
  FragPipeline q({openib, gm}, first, rest, 4, FragPipeline::Schedule::Remaining, 4, true, false);
  q.start_at(1);
  const auto g = q.next();
  REQUIRE(g);
  CHECK(g->btl == 1);
  CHECK(g->offset == first);
  CHECK(g->len == 128u << 10);
}
