// pml/ob1's fragment pipeline of one rendezvous (frag_pipeline.hpp) as a plain state machine: the depth bound, round
// robin over the BTLs' shares, every byte posted once and in order.
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
// at most `depth` fragments of the request are in flight (so at most `depth` on any BTL), that the per-BTL counts
// agree, and that the pipeline is full whenever fragments are left to post; returns the fragments in posting order.
std::vector<FragPipeline::Frag> drive(FragPipeline& p, std::size_t shares, int depth, std::uint32_t seed) {
  std::vector<FragPipeline::Frag> posted, in_flight;
  std::uint32_t x = seed;
  for (int guard = 0; guard < 1000000; ++guard) {
    while (auto f = p.next()) {
      posted.push_back(*f);
      in_flight.push_back(*f);
    }
    REQUIRE(static_cast<int>(in_flight.size()) == p.in_flight());
    std::map<std::size_t, int> per_btl, per_share;
    for (const auto& f : in_flight) ++per_btl[f.btl], ++per_share[f.share];
    REQUIRE(p.in_flight() <= depth);
    for (const auto& [btl, n] : per_btl) REQUIRE(n <= depth);
    for (std::size_t i = 0; i < shares; ++i) REQUIRE(p.in_flight(i) == per_share[i]);
    if (!in_flight.empty()) REQUIRE(p.state() != FragPipeline::State::Posting);
    if (p.state() == FragPipeline::State::Full) REQUIRE(p.in_flight() == depth);
    if (in_flight.empty()) break;
    x = x * 1664525u + 1013904223u;
    const std::size_t k = (x >> 8) % in_flight.size();
    const std::size_t share = in_flight[k].share;
    in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(k));
    const bool last = p.complete(share);
    CHECK(last == (in_flight.empty() && p.frags_left() == 0));
  }
  return posted;
}
}  // namespace

// Configuration: the rest of a rendezvous (first fragment at 12 KiB - 40 B already sent) split over two BTLs as
// weighted_rr does on lanl-multi-nic (openib 1 MiB PUT fragments, gm 128 KiB), over four BTLs with uneven shares and
// fragment sizes (one with nothing), and over one BTL; depths 1 to 7; completions out of order. Expected: never more
// than `depth` fragments of the request in flight (so never more on one BTL), and never fewer while some are left;
// offsets contiguous from the first offset (every byte posted once, in order); each BTL carries exactly its share in
// ceil(share / chunk) fragments; ends Done with nothing in flight. How validated: by hand (round robin, ceilings).
TEST_CASE("pml/ob1 fragment pipeline: depth bound, every byte once and in order", "[unit][protocol][ob1]") {
  struct Case {
    std::vector<FragPipeline::Share> shares;
    std::uint64_t first;
  };
  const std::uint64_t first = 12 * 1024 - 40;
  const std::uint64_t left = (8u << 20) - first;
  const std::uint64_t gm = left * 250 / 1050;
  const std::vector<Case> cases = {
      {{{2, left - gm, 1u << 20, 1}, {1, gm, 128u << 10, 1}}, first},
      {{{0, 1000, 300, 0}, {1, 0, 64, 0}, {2, 5000, 4096, 0}, {3, 777, 1, 0}}, 64},
      {{{5, 3u << 20, 1u << 20, 0}}, 0},
  };
  for (int depth : {1, 2, 3, 4, 7}) {
    for (std::size_t c = 0; c < cases.size(); ++c) {
      CAPTURE(depth, c);
      const Case& cs = cases[c];
      FragPipeline p(cs.shares, cs.first, depth);
      CHECK(p.state() == FragPipeline::State::Posting);
      std::uint64_t frags = 0;
      for (const auto& s : cs.shares) frags += (s.bytes + s.chunk - 1) / s.chunk;
      CHECK(p.total_frags() == frags);
      const auto posted = drive(p, cs.shares.size(), depth, 12345u + static_cast<std::uint32_t>(depth * 7 + c));
      CHECK(p.state() == FragPipeline::State::Done);
      CHECK(p.in_flight() == 0);
      CHECK(!p.next());
      REQUIRE(posted.size() == frags);
      std::uint64_t off = cs.first;
      std::map<std::size_t, std::uint64_t> bytes, count;
      for (const auto& f : posted) {
        CHECK(f.offset == off);  // contiguous, increasing: once and in order
        CHECK(f.len > 0);
        CHECK(f.len <= cs.shares[f.share].chunk);
        CHECK(f.btl == cs.shares[f.share].btl);
        CHECK(f.flags == cs.shares[f.share].flags);
        off += f.len;
        bytes[f.share] += f.len;
        ++count[f.share];
      }
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < cs.shares.size(); ++i) {
        CHECK(bytes[i] == cs.shares[i].bytes);
        CHECK(count[i] == (cs.shares[i].bytes + cs.shares[i].chunk - 1) / cs.shares[i].chunk);
        total += cs.shares[i].bytes;
      }
      CHECK(off == cs.first + total);
    }
  }
}

// Configuration: two BTLs, 5 fragments of 10 B on BTL 0 (offsets from 100) and 2 on BTL 1, depth 3. Expected: the
// first three round robin 0,1,0 (then Full); a completion on BTL 1 gives its slot back to BTL 1 (offset 130); the
// next completion on BTL 1 finds it exhausted, so the slot goes round robin to BTL 0; BTL 0's completions refill BTL
// 0; Draining once the seventh fragment is posted, Done after the seventh completion; complete() true only then.
TEST_CASE("pml/ob1 fragment pipeline: a completion's slot goes back to its BTL", "[unit][protocol][ob1]") {
  FragPipeline p({{0, 50, 10, 0}, {1, 20, 10, 0}}, 100, 3);
  std::vector<std::size_t> order;
  std::vector<std::uint64_t> offs;
  auto post = [&] {
    int n = 0;
    while (auto f = p.next()) order.push_back(f->btl), offs.push_back(f->offset), ++n;
    return n;
  };
  CHECK(post() == 3);
  CHECK(order == std::vector<std::size_t>{0, 1, 0});
  CHECK(p.state() == FragPipeline::State::Full);
  CHECK(p.in_flight(0) == 2);
  CHECK(p.in_flight(1) == 1);
  CHECK_FALSE(p.complete(1));
  CHECK(post() == 1);
  CHECK(order.back() == 1);
  CHECK_FALSE(p.complete(1));
  CHECK(post() == 1);  // BTL 1 has no bytes left: round robin gives the slot to BTL 0
  CHECK(order.back() == 0);
  CHECK_FALSE(p.complete(0));
  CHECK(post() == 1);
  CHECK(p.state() == FragPipeline::State::Full);
  CHECK_FALSE(p.complete(0));
  CHECK(post() == 1);
  CHECK(post() == 0);
  CHECK(p.state() == FragPipeline::State::Draining);
  CHECK(order == std::vector<std::size_t>{0, 1, 0, 1, 0, 0, 0});
  CHECK(offs == std::vector<std::uint64_t>{100, 110, 120, 130, 140, 150, 160});
  CHECK_FALSE(p.complete(0));
  CHECK_FALSE(p.complete(0));
  CHECK(p.complete(0));
  CHECK(p.state() == FragPipeline::State::Done);
  // A depth below 1 is taken as 1.
  FragPipeline q({{0, 30, 10, 0}}, 0, 0);
  CHECK(q.depth() == 1);
  REQUIRE(q.next());
  CHECK(!q.next());
}
