// mpi/: MPI matching queues and the per-peer sequence map every stack uses.
#include "mpi/match_queues.hpp"
#include "mpi/peer_seq.hpp"
#include "mpi/stack.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: matching queues; messages from one source arrive out of order (seq 1 before 0), a wildcard receive.
// Expected: MPI order: a message is matched only after its predecessors; first posted receive wins.
TEST_CASE("ob1 matching: sequence order, unexpected queue, wildcards", "[unit][protocol][ob1]") {
  struct R { int src, tag, id; };
  struct M { int src, tag, n; };
  pml::MatchQueues<R, M> q;
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

// Configuration: the per-peer sequence map with 5,000 peers in a scrambled order (it grows from 4 slots), each
// incremented a peer-dependent number of times, interleaved. Expected: every counter starts at 0 and ends at its own
// count; size() counts distinct peers. How validated: against std::map.
TEST_CASE("pml per-peer sequence map: first contact at 0, counters independent, growth", "[unit][protocol][ob1]") {
  pml::PeerSeq m;
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
