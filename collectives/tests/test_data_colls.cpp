// Tests of the data-carrying collective generators (collectives/data_colls.hpp): allreduce recursive_doubling,
// alltoall pairwise, bcast binomial, run on the zero-time checker (collectives/check.hpp).
#include <catch2/catch.hpp>
#include <deque>
#include <stdexcept>

#include "collectives/check.hpp"
#include "collectives/data_colls.hpp"
#include "collectives/decision.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/tuned_colls.hpp"
#include "collectives/tests/coll_helpers.hpp"


using namespace ompisim::coll;

namespace {
std::uint64_t rd_messages(int n) {  // allreduce recursive doubling on n ranks: p2 log2(p2) + 2 (n - p2)
  int p2 = 1, lg = 0;
  while (p2 * 2 <= n) p2 *= 2, ++lg;
  return static_cast<std::uint64_t>(p2) * static_cast<std::uint64_t>(lg) + 2u * static_cast<std::uint64_t>(n - p2);
}
std::uint64_t sends_expected(const AlgoInfo& info, int n, std::uint32_t bytes) {
  const auto un = static_cast<std::uint64_t>(n);
  if (info.algo == "nonoverlapping") return 2u * (un - 1);  // a reduce and a bcast on the whole communicator
  if (info.composition) {  // mpich_smp on nodes of 4 (the test's layout): k-1 up and k-1 down per node of k ranks
    const int nodes = (n + 3) / 4;
    return 2u * (un - static_cast<std::uint64_t>(nodes)) + rd_messages(nodes);
  }
  // Open MPI's Rabenseifner below pof2 elements: basic linear reduce to 0 and bcast from 0.
  if (info.algo == "rabenseifner" && n > 1 && bytes < static_cast<std::uint32_t>(detail::floor_pow2(n)))
    return 2u * (un - 1);
  if (info.coll == "alltoall") return un * (un - 1);
  if (info.coll == "bcast") return un - 1;
  // P-1 reduce steps and P-1 allgather steps per rank; fewer bytes than ranks: recursive doubling (below)
  if ((info.algo == "ring" || info.algo == "segmented_ring") && bytes >= un) return un * 2 * (un - 1);
  int p2 = 1, lg = 0;
  while (p2 * 2 <= n) p2 *= 2, ++lg;
  const auto extra = static_cast<std::uint64_t>(n - p2);
  if (info.algo == "rabenseifner")  // Open MPI folds with a sendrecv of halves and one half back, then unfolds: 4
    return static_cast<std::uint64_t>(p2) * 2u * static_cast<std::uint64_t>(lg) + 4u * extra;
  const std::uint64_t steps = info.algo == "mpich_rabenseifner" ? 2u * lg : static_cast<std::uint64_t>(lg);
  return static_cast<std::uint64_t>(p2) * steps + 2u * extra;  // exchange (both halves) + fold/unfold
}
std::uint64_t bytes_sent(const Schedule& s) {
  std::uint64_t b = 0;
  for (const auto& r : s.rounds)
    for (const auto& op : r.ops)
      if (op.kind == OpKind::Send) b += op.value;
  return b;
}
}  // namespace

// Configuration: each data collective, P in {1, 2, 3, 5, 7, 8, 13, 16, 33, 100} (non-powers of two included), 8 B and
// 64 KiB messages; bcast with roots 0, 1 and P-1.
// Expected: every rank finishes exactly once, every message is received exactly once with the size it was sent with,
// and the number of messages is the algorithm's: allreduce recursive_doubling p2 log2(p2) + 2 (P - p2), ring and
// segmented_ring 2P(P-1) (recursive doubling's where the vector has fewer elements than ranks),
// mpich_rabenseifner 2 p2 log2(p2) + 2 (P - p2), rabenseifner 2 p2 log2(p2) + 4 (P - p2) (2 (P - 1) where the vector
// has fewer than p2 elements: Open MPI's basic linear fallback), mpich_smp on nodes of 4 ranks (binomial reduce and
// bcast within a node, recursive doubling among the N leaders) 2 (P - N) plus recursive doubling's count for N,
// nonoverlapping (binomial reduce and bcast) 2 (P - 1),
// alltoall P(P-1), bcast P-1.
// How validated: the zero-time checker (FIFO matching per ordered pair, size checked on every match).
TEST_CASE("data collectives: complete, conserve messages, algorithm message counts", "[collective]") {
  CollRegistry reg;
  register_data_collectives(reg);
  for (const auto& info : reg.all()) {
    for (int n : {1, 2, 3, 5, 7, 8, 13, 16, 33, 100}) {
      for (std::uint32_t bytes : {8u, 65536u}) {
        std::vector<int> roots{0};
        if (info.coll == "bcast" && n > 1) roots = {0, 1, n - 1};
        for (int root : roots) {
          AlgoParams p;
          p.bytes = bytes;
          p.root = root;
          // The node-aware composition (allreduce mpich_smp): 4 ranks a node, MPICH's small-message stages.
          const NodeLayout layout = NodeLayout::block(n, 4);
          const StageChooser stages = [](Stage st, int) -> Generator {
            if (st == Stage::Node || st == Stage::Comm) return &reduce_basic_log;
            return st == Stage::Roots ? &allreduce_recursive_doubling : &bcast_mpich_binomial;
          };
          p.layout = &layout;
          p.stages = &stages;
          CheckResult r = run_schedules(n, info.make, p);
          INFO(info.coll << "/" << info.algo << " P=" << n << " bytes=" << bytes << " root=" << root << ": " << r.error);
          REQUIRE(r.completed);
          CHECK(r.sends == r.recvs);
          CHECK(r.unmatched_sends == 0);
          for (int rel : r.releases) CHECK(rel == 1);
          CHECK(r.sends == sends_expected(info, n, bytes));
        }
      }
    }
  }
}

// Configuration: the bcast tree for P = 13, root 5. Expected: the root only sends, and every other rank receives
// exactly once, before it sends. How validated: the first round of each non-root rank is a single Recv.
TEST_CASE("bcast binomial: non-root ranks receive once before sending", "[collective]") {
  AlgoParams p;
  p.root = 5;
  p.bytes = 8;
  for (int me = 0; me < 13; ++me) {
    Schedule s = bcast_binomial(me, 13, p);
    int recvs = 0;
    for (auto& rd : s.rounds)
      for (auto& op : rd.ops) recvs += op.kind == OpKind::Recv;
    if (me == 5) {
      CHECK(recvs == 0);
    } else {
      CHECK(recvs == 1);
      REQUIRE(!s.rounds.empty());
      CHECK(s.rounds[0].ops.size() == 1);
      CHECK(s.rounds[0].ops[0].kind == OpKind::Recv);
    }
  }
}

// Configuration: bad arguments. Expected: std::invalid_argument naming the algorithm. How validated: the exception.
TEST_CASE("data collectives: invalid arguments throw", "[collective]") {
  AlgoParams p;
  CHECK_THROWS_AS(allreduce_recursive_doubling(4, 4, p), std::invalid_argument);
  CHECK_THROWS_AS(alltoall_pairwise(0, 0, p), std::invalid_argument);
  p.root = 7;
  CHECK_THROWS_WITH(bcast_binomial(0, 4, p), Catch::Contains("bcast/binomial: root = 7"));
}

// Configuration: allreduce ring (coll/tuned v1.3) and mpich_rabenseifner (MPICH2 MPIR_Allreduce above 2048 B) at
// 128 KiB, P = 16 (GTC's row reductions) and P = 12 (Rabenseifner's fold: 4 extra ranks), and recursive_doubling.
// Expected: the reduce-scatter + allgather algorithms move 2 (P-1)/P of the vector per rank (ring: every rank sends
// 2 x (131072 - its last block); Rabenseifner on 16 ranks: 2 x (131072 - 8192) = 245760 B), recursive doubling the
// whole vector per step (4 x 131072 B); on 12 ranks a folded-out even rank sends its vector once and a rank outside
// the fold 2 x (131072 - 16384) B. How validated: the byte sums of the generated schedules, worked by hand from the
// sources' block counts.
TEST_CASE("allreduce ring and mpich_rabenseifner: bytes per rank", "[collective]") {
  AlgoParams p;
  p.bytes = 131072;
  for (int me = 0; me < 16; ++me) {
    CHECK(bytes_sent(allreduce_ring(me, 16, p)) == 2u * (131072u - 8192u));
    CHECK(bytes_sent(allreduce_mpich_rabenseifner(me, 16, p)) == 245760u);
    CHECK(bytes_sent(allreduce_recursive_doubling(me, 16, p)) == 4u * 131072u);
  }
  CHECK(bytes_sent(allreduce_mpich_rabenseifner(0, 12, p)) == 131072u);                           // folded out
  CHECK(bytes_sent(allreduce_mpich_rabenseifner(11, 12, p)) == 2u * (131072u - 16384u));           // pof2 = 8
  CHECK(bytes_sent(allreduce_mpich_rabenseifner(1, 12, p)) == 2u * (131072u - 16384u) + 131072u);  // + unfold
  // An uneven vector: the last of the pof2 pieces carries the rest (MPICH's cnts[pof2-1]).
  p.bytes = 102;  // pieces 25, 25, 25, 27
  std::uint64_t total = 0;
  for (int me = 0; me < 4; ++me) total += bytes_sent(allreduce_mpich_rabenseifner(me, 4, p));
  CHECK(total == 6u * 102u);  // each piece leaves the 3 ranks that do not own it, twice
  // Rank 3 keeps the upper halves: it sends pieces 0-1 (50 B), then piece 2 (25 B), and in the allgather what it holds,
  // piece 3 (27 B), then pieces 2-3 (52 B).
  CHECK(bytes_sent(allreduce_mpich_rabenseifner(3, 4, p)) == 50u + 25u + 27u + 52u);
}

// Configuration: allreduce rabenseifner (Open MPI v5 coll/base redscat_allgather) at 128 KiB on 16 and 12 ranks, and
// with a vector shorter than the pieces. Expected: 16 ranks move 2 x (131072 - 8192) B each, as MPICH's; on 12 ranks
// (pof2 8, rem 4) the fold keeps the even rank: rank 0 sends its right half, then 2 x (131072 - 16384) B, then the
// whole result to rank 1; rank 1 sends its left half and the reduced right half (131072 B) and nothing else; rank 0's
// first partner of the reduce-scatter is rank 2 (new rank 1 = real rank 2), where MPICH's rank 1 pairs with rank 3;
// fewer elements than pof2 (4 B on 8 ranks; with 4-byte elements 8 B on 5 ranks, count 2 < pof2 4) runs Open MPI's
// basic linear allreduce: rank 0 receives from P-1, then P-2 down to 1, one at a time, reducing after each (and its
// own vector last), then sends the result to every other rank in one round; the others send, then receive; 16 B on 5
// ranks (count 4 = pof2) runs the reduce-scatter.
// How validated: byte sums and peers of the generated schedules, worked by hand from the v5 source
// (ompi_coll_base_allreduce_intra_redscat_allgather's count < nprocs_pof2 branch, reduce and bcast basic_linear).
TEST_CASE("allreduce rabenseifner (Open MPI): fold into the even rank, bytes per rank", "[collective]") {
  AlgoParams p;
  p.bytes = 131072;
  for (int me = 0; me < 16; ++me) CHECK(bytes_sent(allreduce_rabenseifner(me, 16, p)) == 245760u);
  CHECK(bytes_sent(allreduce_rabenseifner(0, 12, p)) == 65536u + 2u * (131072u - 16384u) + 131072u);
  CHECK(bytes_sent(allreduce_rabenseifner(1, 12, p)) == 131072u);
  CHECK(bytes_sent(allreduce_rabenseifner(11, 12, p)) == 2u * (131072u - 16384u));
  const Schedule s0 = allreduce_rabenseifner(0, 12, p);
  REQUIRE(s0.rounds.size() >= 4);  // [sendrecv 1] [reduce the left half] [recv 1] then the first halving step
  CHECK(s0.rounds[1].ops.front().kind == OpKind::Reduce);
  CHECK(s0.rounds[1].ops.front().value == 65536u);
  CHECK(s0.rounds[3].ops.front().peer == 2);
  CHECK(s0.rounds.back().ops.front().peer == 1);
  p.bytes = 4;
  CHECK(allreduce_rabenseifner(3, 8, p).rounds.size() == 2);  // send to 0, then receive from 0
  p.bytes = 8;
  p.elem_bytes = 4;
  const Schedule lin = allreduce_rabenseifner(0, 5, p);
  // [recv 4] [recv 3] [reduce] [recv 2] [reduce] [recv 1] [reduce] [reduce its own] [send to 1 .. 4]
  REQUIRE(lin.rounds.size() == 9);
  const std::vector<std::pair<OpKind, int>> want{{OpKind::Recv, 4},    {OpKind::Recv, 3},    {OpKind::Reduce, -1},
                                                 {OpKind::Recv, 2},    {OpKind::Reduce, -1}, {OpKind::Recv, 1},
                                                 {OpKind::Reduce, -1}, {OpKind::Reduce, -1}};
  for (std::size_t k = 0; k < want.size(); ++k) {
    REQUIRE(lin.rounds[k].ops.size() == 1);
    CHECK(lin.rounds[k].ops[0].kind == want[k].first);
    CHECK(lin.rounds[k].ops[0].peer == want[k].second);
    CHECK(lin.rounds[k].ops[0].value == 8u);
  }
  REQUIRE(lin.rounds[8].ops.size() == 4);
  for (int k = 0; k < 4; ++k) {
    CHECK(lin.rounds[8].ops[static_cast<std::size_t>(k)].kind == OpKind::Send);
    CHECK(lin.rounds[8].ops[static_cast<std::size_t>(k)].peer == k + 1);
    CHECK(lin.rounds[8].ops[static_cast<std::size_t>(k)].value == 8u);
  }
  const Schedule other = allreduce_rabenseifner(2, 5, p);
  REQUIRE(other.rounds.size() == 2);
  CHECK(other.rounds[0].ops[0].kind == OpKind::Send);
  CHECK(other.rounds[1].ops[0].kind == OpKind::Recv);
  p.bytes = 16;  // 4 elements on 5 ranks: the reduce-scatter, whose fold pairs ranks 0 and 1
  CHECK(allreduce_rabenseifner(0, 5, p).rounds[0].ops.front().peer == 1);
  CHECK(allreduce_rabenseifner(0, 5, p).rounds.size() > 2);
}

// Configuration: collectives/decision/ompi_v1_3_tuned.json and mpich2_v1_0.json (data_dir()), the application
// skeletons' sizes. Expected: Open MPI 1.3 reduces below 10000 B by recursive doubling and 128 KiB on 16 ranks by the
// ring (the segmented ring in 1 MiB segments beyond 16 x 1 MiB); MPICH2 reduces up to 2048 B by recursive doubling and above by
// Rabenseifner's algorithm; both exchange 64 KiB alltoall blocks pairwise (MPICH2 with exclusive-or partners); MPICH2's
// barrier is the dissemination ("bruck"), Open MPI 1.3's recursive doubling on a power of two. How validated: the
// branches of coll_tuned_decision_fixed.c (v1.3 tag) and MPICH2's MPIR_Allreduce / MPIR_Alltoall / MPIR_Barrier.
TEST_CASE("decision tables of Open MPI 1.3 and MPICH2 1.0 at the skeletons' sizes", "[collective][decision]") {
  const auto v13 = decision_data("ompi_v1_3_tuned.json"), m2 = decision_data("mpich2_v1_0.json");
  CHECK(decide_algorithm(v13, "allreduce", 1024, 8) == "recursive_doubling");
  CHECK(decide_algorithm(v13, "allreduce", 16, 9999) == "recursive_doubling");
  CHECK(decide_algorithm(v13, "allreduce", 16, 131072) == "ring");
  CHECK(decide_algorithm(v13, "allreduce", 16, 16u << 20) == "ring");
  CHECK(decide_algorithm(v13, "allreduce", 16, (16u << 20) + 1) == "segmented_ring");
  CHECK(decide(v13, "allreduce", CommShape{16, false}, (16u << 20) + 1).segsize == 1u << 20);
  CHECK(decide_algorithm(m2, "allreduce", 16, 2048) == "recursive_doubling");
  CHECK(decide_algorithm(m2, "allreduce", 16, 2049) == "mpich_rabenseifner");
  CHECK(decide_algorithm(v13, "alltoall", 16, 65536) == "pairwise");
  CHECK(decide_algorithm(m2, "alltoall", 16, 65536) == "mpich_pairwise");
  CHECK(decide_algorithm(v13, "bcast", 1024, 8) == "binomial");
  CHECK(decide_algorithm(m2, "bcast", 1024, 8) == "mpich_binomial");
  CHECK(decide_algorithm(v13, "barrier", 1024, 0) == "recursive_doubling");
  CHECK(decide_algorithm(v13, "barrier", 12, 0) == "bruck");
  CHECK(decide_algorithm(m2, "barrier", 1024, 0) == "bruck");
}

// Configuration: collectives/decision/ompi_v1_3_tuned.json's bcast (ompi_coll_tuned_bcast_intra_dec_fixed, v1.3.0)
// at sizes on either side of each branch. Expected (worked by hand from the source's constants): below 2048 B the
// binomial tree, unsegmented; below 370728 B split_bintree with 1 KiB segments; above, at 1 MiB the 128 KiB pipeline
// while P < 1.6134e-6 x 1048576 + 2.1102 = 3.80 (P = 3), split_bintree with 8 KiB segments below 13 ranks (P = 4 and
// 12), else (64 KiB pipeline below 3.66 and 16 KiB below 12.16, neither reached) the 8 KiB pipeline (P = 13, 1024); at
// 16 MiB the 128 KiB pipeline below 29.18 (P = 29), 64 KiB below 40.91 (P = 40), 16 KiB below 62.68 (P = 62), 8 KiB
// from there (P = 63). Malformed entries (a line of one number, a negative segment size) and a segment size that
// cuts a message into more than 65,536 segments are refused, naming them. How validated: the branches and constants of
// the v1.3.0 source; the error texts.
TEST_CASE("decision: coll/tuned v1.3's bcast, with its segment sizes", "[collective][decision]") {
  const auto v13 = decision_data("ompi_v1_3_tuned.json");
  struct Case {
    int p;
    std::uint64_t bytes;
    const char* algo;
    std::uint32_t seg;
  };
  for (const Case& c : {Case{64, 2047, "binomial", 0}, Case{64, 2048, "split_binary_tree", 1024},
                        Case{2, 370727, "split_binary_tree", 1024}, Case{3, 1u << 20, "pipeline", 131072},
                        Case{4, 1u << 20, "split_binary_tree", 8192}, Case{12, 1u << 20, "split_binary_tree", 8192},
                        Case{13, 1u << 20, "pipeline", 8192}, Case{1024, 1u << 20, "pipeline", 8192},
                        Case{29, 16u << 20, "pipeline", 131072}, Case{40, 16u << 20, "pipeline", 65536},
                        Case{62, 16u << 20, "pipeline", 16384}, Case{63, 16u << 20, "pipeline", 8192}}) {
    INFO(c.p << " ranks, " << c.bytes << " B");
    CHECK(decide_algorithm(v13, "bcast", c.p, c.bytes) == c.algo);
    CHECK(decide(v13, "bcast", CommShape{c.p, false}, c.bytes).segsize == c.seg);
  }
  CHECK(decide(v13, "allreduce", CommShape{16, false}, 131072).segsize == 0);  // no "segsize": one segment
  nlohmann::json bad = nlohmann::json::parse(R"({"bcast": {"table": [{"when": "always", "sizes": [
      {"ranks_below_line": [1.0], "algorithm": "pipeline"}]}]}})");
  CHECK_THROWS_WITH(decide_algorithm(bad, "bcast", 4, 8), Catch::Contains("\"ranks_below_line\" must be [a, b]"));
  bad = nlohmann::json::parse(R"({"bcast": {"table": [{"when": "always", "sizes": [
      {"algorithm": "pipeline", "segsize": -4}]}]}})");
  CHECK_THROWS_WITH(decide(bad, "bcast", CommShape{4, false}, 8), Catch::Contains("\"segsize\" must be a byte count"));
  bad = nlohmann::json::parse(R"({"bcast": {"table": [{"when": "always", "sizes": [
      {"algorithm": "pipeline", "segsize": 1}]}]}})");
  CHECK(decide(bad, "bcast", CommShape{4, false}, 65536).segsize == 1);
  bad["bcast"]["table"][0]["sizes"][0]["segsize"] = 4294968320ull;  // 4 GiB + 1 KiB: not a 32-bit byte count
  CHECK_THROWS_WITH(decide(bad, "bcast", CommShape{4, false}, 8), Catch::Contains("must be a byte count"));
  bad["bcast"]["table"][0]["sizes"][0]["segsize"] = 1u;
  CHECK_THROWS_WITH(decide_algorithm(bad, "bcast", 4, 65537), Catch::Contains("more than 65536 segments"));
}

// Configuration: bcast pipeline (chain) and split_binary_tree with segment sizes, on the zero-time checker: P in
// {2, 3, 5, 13, 16}, roots 0 and P-1, sizes 2048, 10000 and 65537 B, segments 1 KiB and 8 KiB (and 0: one segment).
// Expected: every rank finishes, every message is received with its size; the pipeline sends ceil(n / seg) segments
// over each of its P-1 links; split_binary_tree (when each half holds a segment, else the pipeline) sends ceil(h / seg)
// segments of each half h down its subtree and one exchange of halves per rank pair; an intermediate pipeline rank posts
// the next segment's receive before it waits for the previous one (a round of PostRecv and Wait). How validated: the
// checker's conservation and the message counts worked from ompi_coll_tuned_bcast_intra_generic and _split_bintree
// (coll_tuned_bcast.c v1.3.0).
TEST_CASE("bcast pipeline and split_binary_tree with segments: complete, conserve, count segments", "[collective]") {
  for (int n : {2, 3, 5, 13, 16})
    for (int root : {0, n - 1})
      for (std::uint32_t bytes : {2048u, 10000u, 65537u})
        for (std::uint32_t seg : {0u, 1024u, 8192u}) {
          INFO(n << " ranks, root " << root << ", " << bytes << " B, segments of " << seg);
          AlgoParams p;
          p.bytes = bytes;
          p.root = root;
          p.segsize = seg;
          const std::uint64_t segs = seg == 0 ? 1 : (bytes + seg - 1) / seg;
          const CheckResult pipe = run_schedules(n, &bcast_pipeline, p);
          CHECK(pipe.completed);
          CHECK(pipe.error.empty());
          CHECK(pipe.sends == static_cast<std::uint64_t>(n - 1) * segs);
          const CheckResult split = run_schedules(n, &bcast_split_bintree, p);
          CHECK(split.completed);
          CHECK(split.error.empty());
          const std::uint32_t h1 = bytes / 2, h0 = bytes - h1;
          if (seg > h1) {
            CHECK(split.sends == pipe.sends);  // the source's chain fall-back
            continue;
          }
          const std::uint64_t s0 = seg == 0 ? 1 : (h0 + seg - 1) / seg, s1 = seg == 0 ? 1 : (h1 + seg - 1) / seg;
          const auto left = static_cast<std::uint64_t>(n / 2), right = static_cast<std::uint64_t>((n - 1) / 2);
          // step 1: each rank of a subtree receives its half's segments once; step 2: n - 1 ranks receive the other half
          CHECK(split.sends == left * s0 + right * s1 + static_cast<std::uint64_t>(n - 1));
        }
  AlgoParams p;
  p.bytes = 4096;
  p.segsize = 1024;
  const Schedule mid = bcast_pipeline(1, 3, p);  // rank 1 of a chain 0 -> 1 -> 2: four segments
  REQUIRE(mid.rounds.size() == 9);
  CHECK(mid.rounds[0].ops == std::vector<Op>{{OpKind::PostRecv, 0, 1024}});
  CHECK(mid.rounds[1].ops == std::vector<Op>{{OpKind::PostRecv, 0, 1024}, {OpKind::Wait, -1, 0}});
  CHECK(mid.rounds[2].ops == std::vector<Op>{{OpKind::Send, 2, 1024}});
  CHECK(mid.rounds[7].ops == std::vector<Op>{{OpKind::Wait, -1, 0}});
  CHECK(mid.rounds[8].ops == std::vector<Op>{{OpKind::Send, 2, 1024}});
}

// Configuration: allreduce rabenseifner, mpich_rabenseifner, ring and recursive_doubling, a 131072-byte vector of
// 4-byte elements (elem_bytes 4) on 2, 3, 5, 8 and 12 ranks, every rank's schedule; rabenseifner also with 8 B on 5
// ranks (2 elements < pof2 4: Open MPI's basic linear allreduce).
// Expected: every Reduce is alone in its round; the bytes reduced, summed over the ranks, are (P-1) x n for the three
// that combine each contribution once (reduce-scatter by halving with the fold, the ring's P-1 blocks of the other
// ranks, the basic linear reduce at rank 0), and p2 x log2(p2) x n + (P - p2) x n for recursive doubling (every rank
// of the power of two reduces the whole vector each step; each folded pair once); a Reduce of the reduce-scatters and
// of recursive doubling reduces as many bytes as the receive of the round before it got (the ring's: the PostRecv that
// the round before waited for).
// How validated: the sums worked by hand from the sources (ompi_op_reduce calls of coll_base_allreduce.c, the
// MPIR_Reduce_local calls of MPICH's reduce_scatter_allgather).
TEST_CASE("allreduce schedules reduce each contribution once (recursive doubling: once a step)", "[collective]") {
  struct Case {
    const char* name;
    Generator g;
    std::uint32_t bytes;
  };
  for (const Case& c : {Case{"rabenseifner", &allreduce_rabenseifner, 131072u},
                        Case{"rabenseifner", &allreduce_rabenseifner, 8u},
                        Case{"mpich_rabenseifner", &allreduce_mpich_rabenseifner, 131072u},
                        Case{"ring", &allreduce_ring, 131072u},
                        Case{"recursive_doubling", &allreduce_recursive_doubling, 131072u}}) {
    for (int n : {2, 3, 5, 8, 12}) {
      if (c.bytes == 8u && n != 5) continue;
      INFO(c.name << " on " << n << " ranks, " << c.bytes << " B");
      AlgoParams p;
      p.bytes = c.bytes;
      p.elem_bytes = 4;
      std::uint64_t reduced = 0;
      for (int me = 0; me < n; ++me) {
        const Schedule s = c.g(me, n, p);
        std::deque<std::uint32_t> posted;  // PostRecvs not yet waited for, oldest first
        std::uint32_t got = 0;             // what the round before received (its Recvs and the PostRecvs it waited for)
        for (std::size_t k = 0; k < s.rounds.size(); ++k) {
          const auto& ops = s.rounds[k].ops;
          bool has_reduce = false;
          for (const Op& op : ops) has_reduce = has_reduce || op.kind == OpKind::Reduce;
          if (has_reduce) {
            REQUIRE(ops.size() == 1);
            reduced += ops[0].value;
            // the basic linear reduce: its own vector follows a reduce
            if (c.bytes != 8u && k != 0) CHECK(got == ops[0].value);
          }
          got = 0;
          for (const Op& op : ops) {
            if (op.kind == OpKind::Recv) got += op.value;
            if (op.kind == OpKind::PostRecv) posted.push_back(op.value);
            if (op.kind == OpKind::Wait) {
              REQUIRE(!posted.empty());
              got += posted.front();
              posted.pop_front();
            }
          }
        }
        CHECK(posted.empty());
      }
      const auto un = static_cast<std::uint64_t>(n);
      const int p2 = detail::floor_pow2(n);
      int lg = 0;
      while ((1 << lg) < p2) ++lg;
      const std::uint64_t want = std::string(c.name) == "recursive_doubling"
                                     ? (static_cast<std::uint64_t>(p2) * static_cast<std::uint64_t>(lg) +
                                        static_cast<std::uint64_t>(n - p2)) *
                                           c.bytes
                                     : (un - 1) * c.bytes;
      CHECK(reduced == want);
    }
  }
}

// Configuration: the zero-time checker on PostRecv / Wait. (A) rank 0 posts a receive of 100 B from rank 1, then in
// its next round a plain Recv of 200 B, then waits; rank 1 sends 100 B, then 200 B. (B) the same with rank 1 sending
// 200 B first. (C) a Wait with nothing posted; (D) a PostRecv never waited for.
// Expected: (A) completes: the PostRecv, posted first, takes the first message; (B) a size mismatch on the PostRecv
// (it took the 200 B message); (C) and (D) errors naming them. How validated: CheckResult.
TEST_CASE("schedule checker: a PostRecv matches before receives posted after it", "[collective]") {
  auto two = [](Schedule s0, Schedule s1) { return run_schedules(std::vector<Schedule>{s0, s1}); };
  Schedule r0, first_small, first_large;
  r0.round().post_recv(1, 100).round().recv(1, 200).round().wait();
  first_small.round().send(0, 100).send(0, 200);
  first_large.round().send(0, 200).send(0, 100);
  const CheckResult a = two(r0, first_small);
  CHECK(a.completed);
  CHECK(a.error.empty());
  CHECK(a.recvs == 2);
  const CheckResult b = two(r0, first_large);
  CHECK_FALSE(b.completed);
  CHECK_THAT(b.error, Catch::Contains("size mismatch: rank 0 round 0: PostRecv(peer 1) expects 100 B"));
  Schedule w, nothing, unwaited;
  w.round().wait();
  const CheckResult c = two(w, nothing);
  CHECK_THAT(c.error, Catch::Contains("a Wait without a PostRecv: rank 0 round 0: Wait()"));
  unwaited.round().post_recv(1, 8);
  Schedule one;
  one.round().send(0, 8);
  const CheckResult d = two(unwaited, one);
  CHECK_FALSE(d.completed);
  CHECK_THAT(d.error, Catch::Contains("rank 0 ended with 1 PostRecv not waited for"));
}

// Configuration: allreduce ring, 4 ranks, 131075 B (blocks 0-2 of 32769 B, block 3 of 32768 B), rank 1.
// Expected: the computation phase in the order of ompi_coll_base_allreduce_intra_ring (v5.0.0, coll_base_allreduce.c):
// irecv of block 0 from the left and MPI_Send of block 1 to the right; for k = 2, 3: irecv of block 1-k, wait for the
// previous block, ompi_op_reduce of it, MPI_Send of it; the wait for block 2 and its reduction; then the distribution
// phase's three sendrecvs. How validated: the operations as read from the source's loop.
TEST_CASE("allreduce ring: the next block's receive is posted before the previous block is reduced", "[collective]") {
  AlgoParams p;
  p.bytes = 131075;
  p.elem_bytes = 1;
  const Schedule s = allreduce_ring(1, 4, p);
  using K = OpKind;
  const std::uint32_t big = 32769, small = 32768;
  const std::vector<std::vector<Op>> want{
      {{K::PostRecv, 0, big}, {K::Send, 2, big, true}},
      {{K::PostRecv, 0, small}, {K::Wait, -1, 0}},
      {{K::Reduce, -1, big}},
      {{K::Send, 2, big, true}},
      {{K::PostRecv, 0, big}, {K::Wait, -1, 0}},
      {{K::Reduce, -1, small}},
      {{K::Send, 2, small, true}},
      {{K::Wait, -1, 0}},
      {{K::Reduce, -1, big}},
      {{K::Recv, 0, big}, {K::Send, 2, big, true}},
      {{K::Recv, 0, big}, {K::Send, 2, big, true}},
      {{K::Recv, 0, small}, {K::Send, 2, big, true}}};
  REQUIRE(s.rounds.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("round " << k);
    CHECK(s.rounds[k].ops == want[k]);
  }
}

// Configuration: allreduce segmented_ring on 3 ranks, 10 elements of 1 B, segment size 2 B (segcount 2), rank 0; the
// same at segment sizes 0 and 3 x 10 B or more; conservation over P in {2, 3, 5, 8, 13}, 4-byte elements, segments of 8,
// 100 and 4096 B, sizes 10000 and 65536 B.
// Expected (ompi_coll_tuned_allreduce_intra_ring_segmented, v1.3.0): num_phases = 10 / 6 = 1, plus one because the
// remainder 4 is at least P and more than 6 / 2: 2 phases. Blocks 4, 3, 3 elements (COLL_TUNED_COMPUTE_BLOCKCOUNT),
// pieces per phase 2+2, 2+1, 2+1. Each phase runs the ring's computation loop on its pieces (rank 0: irecv of block 2's
// piece and MPI_Send of block 0's, then for k = 2 irecv of block 1's piece, the wait, the reduction and the send of
// block 2's piece, then the last wait and the reduction of block 1's piece), then the distribution sends whole blocks.
// With fewer elements than P x segcount (segment size 0 included: segcount = count) the schedule is the ring's, op for
// op. Every configuration completes on the zero-time checker with every message received once,
// P (P - 1) (phases + 1) messages in all (P - 1 per rank per phase, P - 1 in the distribution). How validated: the
// v1.3.0 loop, by hand.
TEST_CASE("allreduce segmented_ring: phases of the ring's computation loop, then the distribution", "[collective]") {
  AlgoParams p;
  p.bytes = 10;
  p.segsize = 2;
  const Schedule s = allreduce_ring_segmented(0, 3, p);
  using K = OpKind;
  // One phase of rank 0's computation loop, with the pieces of blocks 0, 1 and 2 it moves.
  auto phase = [](std::uint32_t b0, std::uint32_t b1, std::uint32_t b2) {
    return std::vector<std::vector<Op>>{{{K::PostRecv, 2, b2}, {K::Send, 1, b0, true}},
                                        {{K::PostRecv, 2, b1}, {K::Wait, -1, 0}},
                                        {{K::Reduce, -1, b2}},
                                        {{K::Send, 1, b2, true}},
                                        {{K::Wait, -1, 0}},
                                        {{K::Reduce, -1, b1}}};
  };
  std::vector<std::vector<Op>> want = phase(2, 2, 2);
  for (auto& round : phase(2, 1, 1)) want.push_back(round);
  want.push_back({{K::Recv, 2, 4}, {K::Send, 1, 3, true}});  // k = 0: send block 1, receive block 0
  want.push_back({{K::Recv, 2, 3}, {K::Send, 1, 4, true}});  // k = 1: send block 0, receive block 2
  const auto got = all_ops(s);
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("round " << k);
    CHECK(got[k] == want[k]);
  }
  for (std::uint32_t seg : {0u, 30u, 1u << 20}) {  // one phase or fewer: the ring, op for op
    p.segsize = seg;
    for (int me = 0; me < 3; ++me)
      CHECK(all_ops(allreduce_ring_segmented(me, 3, p)) == all_ops(allreduce_ring(me, 3, p)));
  }
  for (int n : {2, 3, 5, 8, 13})
    for (std::uint32_t bytes : {10000u, 65536u})
      for (std::uint32_t seg : {8u, 100u, 4096u}) {
        AlgoParams q;
        q.bytes = bytes;
        q.elem_bytes = 4;
        q.segsize = seg;
        const std::uint64_t count = bytes / 4, segcount = seg / 4 + (seg % 4 > 2 ? 1 : 0);  // COMPUTED_SEGCOUNT
        std::uint64_t phases = count / (n * segcount);
        if (const std::uint64_t rest = count % (n * segcount); rest >= static_cast<std::uint64_t>(n) &&
                                                                  rest > n * segcount / 2)
          ++phases;
        CheckResult r = run_schedules(n, &allreduce_ring_segmented, q);
        INFO("P=" << n << " bytes=" << bytes << " segsize=" << seg << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        if (phases >= 1) CHECK(r.sends == static_cast<std::uint64_t>(n) * (n - 1) * (phases + 1));
      }
}

// Configuration: ompi_v1_3_tuned.json's allreduce (and r26242's, its base's) for MPI_FLOAT (4 B elements): 4,096 ranks
// at 16,384 and 16,388 B, 16 ranks at 9,999 B and 16 x 1 MiB + 4 B; its nonoverlapping stages through
// coll::library_stages at 4,096 ranks and 16 KiB; a table whose stage picks an algorithm not implemented here.
// Expected (ompi_coll_tuned_allreduce_intra_dec_fixed, v1.3.0): below 10000 B recursive doubling; count <= P
// (4,096 floats on 4,096 ranks) nonoverlapping, count > P the ring up to P x 1 MiB, then the segmented ring with 1 MiB
// segments. The stages are the file's reduce (comm) and bcast (comm_after) at that size, with their segment sizes:
// at 4,096 ranks and 16 KiB v1.3's reduce is the pipeline with 1 KiB segments (P > a2 x message + b2) and r26242's the
// same; the bcast the split binary tree in 1 KiB segments (below 370728 B). The bad stage is refused naming it.
// How validated: the v1.3.0 source's branches; the reduce and bcast rows already checked by their own tests.
TEST_CASE("decision: coll/tuned v1.3's allreduce, nonoverlapping and the segmented ring", "[collective][decision]") {
  const auto v13 = decision_data("ompi_v1_3_tuned.json");
  const auto r26242 = load_library(data_dir(), "tuned-r26242");
  for (const auto* lib : {&v13, &r26242}) {
    CHECK(decide(*lib, "allreduce", CommShape{16, false}, 9999, {}, 4).algorithm == "recursive_doubling");
    CHECK(decide(*lib, "allreduce", CommShape{4096, false}, 16384, {}, 4).algorithm == "nonoverlapping");
    CHECK(decide(*lib, "allreduce", CommShape{4096, false}, 16388, {}, 4).algorithm == "ring");
    const Decision seg = decide(*lib, "allreduce", CommShape{16, false}, (16u << 20) + 4, {}, 4);
    CHECK(seg.algorithm == "segmented_ring");
    CHECK(seg.segsize == 1u << 20);
    const Tunables none;
    const StageChooser stages = library_stages(*lib, "allreduce", 16384, none, 4, default_registry());
    const StageChoice reduce = stages(Stage::Comm, 4096), bcast = stages(Stage::CommAfter, 4096);
    CHECK(reduce.make == default_registry().find("reduce", decide_algorithm(*lib, "reduce", 4096, 16384))->make);
    CHECK(reduce.segsize == decide(*lib, "reduce", CommShape{4096, false}, 16384).segsize);
    CHECK(reduce.segsize == 1024);
    CHECK(bcast.make == default_registry().find("bcast", "split_binary_tree")->make);
    CHECK(bcast.segsize == 1024);
    // The stage runs with its own segment size: the composition's schedule is the two stages' with theirs.
    AlgoParams p;
    p.bytes = 16384;
    p.elem_bytes = 4;
    p.stages = &stages;
    AlgoParams r = p, b = p;
    r.segsize = reduce.segsize, b.segsize = bcast.segsize;
    auto want = all_ops(reduce.make(7, 4096, r));
    for (auto& round : all_ops(bcast.make(7, 4096, b))) want.push_back(round);
    CHECK(all_ops(allreduce_nonoverlapping(7, 4096, p)) == want);
  }
  nlohmann::json bad = v13;
  bad["bcast"]["table"] = nlohmann::json::parse(R"([{"when": "always", "sizes": [{"algorithm": "no_such_bcast"}]}])");
  const Tunables none;
  const StageChooser stages = library_stages(bad, "allreduce", 16384, none, 4, default_registry());
  CHECK_THROWS_WITH(stages(Stage::CommAfter, 4096), Catch::Contains("comm_after stage") &&
                                                       Catch::Contains("'no_such_bcast'"));
}
