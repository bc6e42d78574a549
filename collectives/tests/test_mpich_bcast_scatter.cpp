// Tests of MPICH v3.4a2's scatter-allgather bcasts (collectives/mpich_algorithms.cpp): MPII_Scatter_for_bcast
// (src/mpi/coll/bcast/bcast_utils.c) followed by the recursive-doubling allgather of
// MPIR_Bcast_intra_scatter_recursive_doubling_allgather or the ring of MPIR_Bcast_intra_scatter_ring_allgather, with
// MPICH's byte bookkeeping (pieces of ceil(nbytes / P) bytes, the last ones short or empty).
#include "collectives/check.hpp"
#include "collectives/tests/coll_helpers.hpp"
#include "collectives/tuned_colls.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::coll;

namespace {
using Ops = std::vector<std::vector<Op>>;
// One round each: a blocking MPIC_Send, an MPIC_Recv, an MPIC_Sendrecv (the receive posted first, then the send half,
// blocking: MPIC_Irecv, MPIC_Isend, MPIC_Waitall).
std::vector<Op> snd(int peer, std::uint32_t b) { return {Op{OpKind::Send, peer, b, true}}; }
std::vector<Op> rcv(int peer, std::uint32_t b) { return {Op{OpKind::Recv, peer, b}}; }
std::vector<Op> sr(int to, std::uint32_t sb, int from, std::uint32_t rb) {
  return {Op{OpKind::Recv, from, rb}, Op{OpKind::Send, to, sb, true}};
}
std::vector<Op> sr(int peer, std::uint32_t sb, std::uint32_t rb) { return sr(peer, sb, peer, rb); }
}  // namespace

// Configuration: bcast mpich_scatter_ring_allgather, P = 5, a 13-byte message, root 0 (and root 2 for two ranks).
// Expected (hand-run of v3.4a2's C): scatter_size ss = ceil(13 / 5) = 3, pieces of 3, 3, 3, 3 and 1 bytes (relative
// ranks 0..4). Scatter: the root sends rel 4 its 1 byte (13 - 4 * 3), rel 2 the 6 bytes of pieces 2-3, rel 1 its 3;
// rel 2 forwards piece 3 (3 bytes) to rel 3. Ring: step i sends right the piece of rank me - i + 1 and receives from
// the left that of me - i, each at its own size (1 byte for piece 4). Root 2: rel = (rank - 2) mod 5; the root sends
// 1 byte to rank 1 (rel 4), 6 to rank 4, 3 to rank 3; rank 1 receives its 1 byte, then in the ring sends it (1) and
// receives 3, 3, 3, 3. An Open MPI-generator composition (scatter "binomial" of 3-byte blocks
// then "ring" of 3-byte blocks) sent 3 bytes where MPICH sends 1 (rank 4's piece) and fails this test.
// How validated: the schedules' rounds against the hand-derived sequences.
TEST_CASE("mpich bcast: scatter + ring allgather rank by rank (MPICH's byte counts)", "[collective][mpich]") {
  AlgoParams p;
  p.bytes = 13;
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(0, 5, p)) ==
        Ops{snd(4, 1), snd(2, 6), snd(1, 3), sr(1, 3, 4, 1), sr(1, 1, 4, 3), sr(1, 3, 4, 3), sr(1, 3, 4, 3)});
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(1, 5, p)) ==
        Ops{rcv(0, 3), sr(2, 3, 0, 3), sr(2, 3, 0, 1), sr(2, 1, 0, 3), sr(2, 3, 0, 3)});
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(2, 5, p)) ==
        Ops{rcv(0, 6), snd(3, 3), sr(3, 3, 1, 3), sr(3, 3, 1, 3), sr(3, 3, 1, 1), sr(3, 1, 1, 3)});
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(3, 5, p)) ==
        Ops{rcv(2, 3), sr(4, 3, 2, 3), sr(4, 3, 2, 3), sr(4, 3, 2, 3), sr(4, 3, 2, 1)});
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(4, 5, p)) ==
        Ops{rcv(0, 1), sr(0, 1, 3, 3), sr(0, 3, 3, 3), sr(0, 3, 3, 3), sr(0, 3, 3, 3)});
  p.root = 2;
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(2, 5, p)) ==
        Ops{snd(1, 1), snd(4, 6), snd(3, 3), sr(3, 3, 1, 1), sr(3, 1, 1, 3), sr(3, 3, 1, 3), sr(3, 3, 1, 3)});
  CHECK(all_ops(bcast_mpich_scatter_ring_allgather(1, 5, p)) ==
        Ops{rcv(2, 1), sr(2, 1, 0, 3), sr(2, 3, 0, 3), sr(2, 3, 0, 3), sr(2, 3, 0, 3)});
  p.root = 0;
  CHECK(bcast_mpich_scatter_ring_allgather(0, 1, p).rounds.empty());
  p.bytes = 0;
  CHECK(bcast_mpich_scatter_ring_allgather(0, 5, p).rounds.empty());
}

// Configuration: bcast mpich_scatter_rdb_allgather, P = 8, a 13-byte message, root 0.
// Expected (hand-run): ss = 2, pieces 2, 2, 2, 2, 2, 2, 1, 0 bytes. Scatter: the root sends 5 bytes (pieces 4-7) to 4,
// 4 to 2, 2 to 1; 4 sends 1 (piece 6; piece 7 is empty) to 6 and 2 to 5; 2 sends 2 to 3; 6 has nothing for 7, which
// receives nothing (nbytes - 7 * 2 < 0). Recursive doubling, mask 1, 2, 4: an MPIC_Sendrecv with rel ^ mask of the
// bytes of the mask-aligned subtree held against the partner's (curr_size; MPICH starts it at the rank's own piece,
// so a scatter forwarder receives its child's piece again), zero-byte exchanges included: rank 7 sends 0 and receives
// 1 from 6, then 1 against 4 with 5, then 5 against 8 with 3. The old composition sent 8 bytes to rank 4 (4 blocks of
// 2) and 2 to rank 7 and fails this test. P not a power of two: MPICH asserts, the generator throws.
// How validated: the schedules' rounds against the hand-derived sequences.
TEST_CASE("mpich bcast: scatter + recursive-doubling allgather rank by rank (MPICH's byte counts)",
          "[collective][mpich]") {
  AlgoParams p;
  p.bytes = 13;
  auto ops = [&](int me) { return all_ops(bcast_mpich_scatter_rdb_allgather(me, 8, p)); };
  CHECK(ops(0) == Ops{snd(4, 5), snd(2, 4), snd(1, 2), sr(1, 2, 2), sr(2, 4, 4), sr(4, 8, 5)});
  CHECK(ops(1) == Ops{rcv(0, 2), sr(0, 2, 2), sr(3, 4, 4), sr(5, 8, 5)});
  CHECK(ops(2) == Ops{rcv(0, 4), snd(3, 2), sr(3, 2, 2), sr(0, 4, 4), sr(6, 8, 5)});
  CHECK(ops(3) == Ops{rcv(2, 2), sr(2, 2, 2), sr(1, 4, 4), sr(7, 8, 5)});
  CHECK(ops(4) == Ops{rcv(0, 5), snd(6, 1), snd(5, 2), sr(5, 2, 2), sr(6, 4, 1), sr(0, 5, 8)});
  CHECK(ops(5) == Ops{rcv(4, 2), sr(4, 2, 2), sr(7, 4, 1), sr(1, 5, 8)});
  CHECK(ops(6) == Ops{rcv(4, 1), sr(7, 1, 0), sr(4, 1, 4), sr(2, 5, 8)});
  CHECK(ops(7) == Ops{sr(6, 0, 1), sr(5, 1, 4), sr(3, 5, 8)});
  CHECK_THROWS_WITH(bcast_mpich_scatter_rdb_allgather(0, 6, p), Catch::Contains("not a power of two"));
}

// Configuration: both generators, P in {2, 3, 5, 7, 8, 16, 24, 100} (the rdb: powers of two only), roots 0 and P-1,
// messages of 1, 7, 13, 100, 4096, 12289 and 65536 bytes.
// Expected: the zero-time executor completes with every receive's size equal to its send's, and in the allgather
// phase (the last P-1 rounds of the ring, log2 P of the rdb) every rank receives exactly the bytes of the pieces it
// lacks, nbytes - min(ss, nbytes - rel * ss) (clamped at 0): MPICH's own size check (curr_size != nbytes).
// How validated: run_schedules and the per-rank sums.
TEST_CASE("mpich bcast: scatter-allgather bytes add up to the message", "[collective][mpich]") {
  for (bool ring : {true, false})
    for (int n : {2, 3, 5, 7, 8, 16, 24, 100}) {
      if (!ring && (n & (n - 1)) != 0) continue;
      int lg = 0;
      while ((1 << lg) < n) ++lg;
      for (int root : {0, n - 1})
        for (std::uint32_t bytes : {1u, 7u, 13u, 100u, 4096u, 12289u, 65536u}) {
          AlgoParams p;
          p.bytes = bytes;
          p.root = root;
          Generator g = ring ? &bcast_mpich_scatter_ring_allgather : &bcast_mpich_scatter_rdb_allgather;
          CheckResult r = run_schedules(n, g, p);
          INFO((ring ? "ring" : "rdb") << " P=" << n << " root=" << root << " bytes=" << bytes << ": " << r.error);
          REQUIRE(r.completed);
          const long long ss = (bytes + n - 1) / n;
          for (int me = 0; me < n; ++me) {
            Schedule s = g(me, n, p);
            const std::size_t phase = ring ? static_cast<std::size_t>(n - 1) : static_cast<std::size_t>(lg);
            REQUIRE(s.rounds.size() >= phase);
            long long got = 0;
            for (std::size_t k = s.rounds.size() - phase; k < s.rounds.size(); ++k)
              for (const auto& op : s.rounds[k].ops)
                if (op.kind == OpKind::Recv) got += op.value;
            const int rel = (me - root + n) % n;
            const long long own = std::clamp<long long>(std::min<long long>(ss, bytes - rel * ss), 0, bytes);
            CHECK(got == bytes - own);
          }
        }
    }
}
