// Tests of the allgather/gather/scatter generators (collectives/gather_scatter.hpp).
#include "collectives/check.hpp"
#include "collectives/gather_scatter.hpp"
#include "collectives/tuned_colls.hpp"

#include "collectives/decision.hpp"
#include "collectives/tests/coll_helpers.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <stdexcept>

using namespace ompisim::coll;

// Configuration: every generator of register_gather_scatter, P in {1, 2, 3, 5, 8, 13, 64}, roots 0 and P-1.
// Expected: the schedules complete on the zero-time executor with every send matched; message counts are P(P-1) for
//           the ring allgather and P-1 for gather and scatter; the gather root receives from every other rank once.
// How validated: run_schedules' counters.
TEST_CASE("gather_scatter: allgather ring, gather and scatter basic_linear complete and match", "[collective]") {
  CollRegistry reg;
  register_gather_scatter(reg);
  REQUIRE(reg.all().size() == 3);
  for (const auto& info : reg.all())
    for (int n : {1, 2, 3, 5, 8, 13, 64})
      for (int root : {0, n - 1}) {
        AlgoParams p;
        p.bytes = 4096;
        p.root = root;
        CheckResult r = run_schedules(n, info.make, p);
        INFO(info.coll << "/" << info.algo << " P=" << n << " root=" << root << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        CHECK(r.sends == r.recvs);
        long long want = info.coll == "allgather" ? static_cast<long long>(n) * (n - 1) : n - 1;
        CHECK(static_cast<long long>(r.sends) == want);
      }
  AlgoParams bad;
  bad.root = 4;
  CHECK_THROWS_WITH(gather_basic_linear(0, 4, bad), Catch::Contains("root = 4 outside [0, 4)"));
}

// Configuration: every generator of register_tuned_collectives, P in {1, 2, 3, 5, 8, 13, 64, 100}, roots 0 and P-1,
// block 4096 B (bcast: the message), radix 4 (knomial radix, MPICH throttle).
// Expected: the schedules complete on the zero-time executor with every send matched and every receive's size equal to
// its send's (run_schedules checks sizes); message counts: alltoall linear / mpich_* P(P-1) (bruck: P ceil(log2 P));
// allgather recursive_doubling / bruck P ceil(log2 P) for P > 1; gather / scatter binomial and knomial bcast P-1;
// split_binary_tree 2(P-1) (P-1 down the tree, P-1 in the exchange of halves); basic_linear, pipeline, chain and
// binary_tree bcast P-1; mpich_binomial P-1; mpich_smp (block
// layout 4 a node, binomial stages) P-1, plus one when the root is not its node's leader; two_proc 2 on 2 ranks;
// gather linear_sync 3(P-1) (the root's zero-byte sync, the block, the empty second segment);
// mpich_scatter_rdb_allgather (P not a power of two: MPICH v3.4a2 asserts it) and two_proc (P != 2) throw where their
// registry entries' rank rule says they cannot run.
// How validated: run_schedules' counters.
TEST_CASE("tuned collectives: every generator completes with matched sizes", "[collective]") {
  CollRegistry reg;
  register_tuned_collectives(reg);
  REQUIRE(reg.all().size() == 25);
  for (const auto& info : reg.all())
    for (int n : {1, 2, 3, 5, 8, 13, 64, 100})
      for (int root : {0, n - 1}) {
        AlgoParams p;
        p.bytes = 4096;
        p.root = root;
        p.radix = 4;
        const NodeLayout layout = NodeLayout::block(n, 4);  // the node-aware composition's (test_mpich_smp.cpp)
        const StageChooser flat = [](Stage, int) -> Generator { return &bcast_mpich_binomial; };
        p.layout = &layout;
        p.stages = &flat;
        if (!ranks_rule_violation(info, n).empty()) {  // a count the library asserts or refuses
          CHECK(info.ranks != RankRule::Any);
          CHECK_THROWS_AS(info.make(0, n, p), std::invalid_argument);
          continue;
        }
        CheckResult r = run_schedules(n, info.make, p);
        INFO(info.coll << "/" << info.algo << " P=" << n << " root=" << root << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        CHECK(r.sends == r.recvs);
        long long lg = 0;
        while ((1LL << lg) < n) ++lg;
        long long want = -1;
        if (info.coll == "alltoall" && (info.algo == "linear" || info.algo == "linear_sync" ||
                                        info.algo == "mpich_scattered" || info.algo == "mpich_pairwise"))
          want = static_cast<long long>(n) * (n - 1);
        else if (info.algo == "modified_bruck" || info.algo == "bruck") want = n * lg;
        else if (info.algo == "linear_sync") want = 3LL * (n - 1);  // gather: sync, block, empty second segment
        else if (info.algo == "knomial" || info.algo == "mpich_binomial" || info.coll == "gather" ||
                 info.coll == "scatter")
          want = n - 1;
        else if (info.composition)  // root 0 is a leader: the two stages' P-1; root P-1 not a leader (P % 4 != 1)
          want = n - 1 + (root % 4 != 0 ? 1 : 0);
        else if (info.algo == "split_binary_tree") want = 2LL * (n - 1);
        else if (info.algo == "two_proc") want = 2;
        else if (info.algo == "basic_linear" || info.algo == "pipeline" || info.algo == "chain" ||
                 info.algo == "binary_tree")
          want = n - 1;
        if (want >= 0) CHECK(static_cast<long long>(r.sends) == want);
      }
}

// Configuration: P = 8, root 0, 1000-byte blocks. Expected: gather binomial's root receives 1, 2 and 4 blocks from
// ranks 1, 2, 4 (in that order); scatter binomial's root sends 4, 2, 1 blocks to 4, 2, 1; knomial (radix 4): the root
// sends to 4, 1, 2, 3; rank 5's parent is 4; bruck alltoall step 1 carries the 4 odd blocks.
// How validated: the schedules' operations compared with the hand-derived trees.
TEST_CASE("tuned collectives: hand-checked trees", "[collective]") {
  AlgoParams p;
  p.bytes = 1000;
  p.radix = 4;
  Schedule g = gather_binomial(0, 8, p);
  REQUIRE(g.rounds.size() == 3);
  CHECK(g.rounds[0].ops[0] == Op{OpKind::Recv, 1, 1000});
  CHECK(g.rounds[1].ops[0] == Op{OpKind::Recv, 2, 2000});
  CHECK(g.rounds[2].ops[0] == Op{OpKind::Recv, 4, 4000});
  Schedule sc = scatter_binomial(0, 8, p);
  REQUIRE(sc.rounds.size() == 3);
  CHECK(sc.rounds[0].ops[0] == Op{OpKind::Send, 4, 4000, true});
  CHECK(sc.rounds[2].ops[0] == Op{OpKind::Send, 1, 1000, true});
  Schedule k = bcast_knomial(0, 8, p);
  REQUIRE(k.rounds.size() == 1);
  std::vector<int> kids;
  for (auto& op : k.rounds[0].ops) kids.push_back(op.peer);
  CHECK(kids == std::vector<int>{4, 1, 2, 3});
  Schedule k5 = bcast_knomial(5, 8, p);
  CHECK(k5.rounds[0].ops[0] == Op{OpKind::Recv, 4, 1000});
  Schedule b = alltoall_modified_bruck(0, 8, p);
  CHECK(b.rounds[0].ops[1] == Op{OpKind::Send, 1, 4000, true});  // after its receive (ompi_coll_base_sendrecv)
}

// Configuration: bcast split_binary_tree, P = 8 and 7, root 0 (P = 7: root 3), a 1001-byte message; and 1 byte.
// Expected (coll_base_bcast.c ompi_coll_base_bcast_intra_split_bintree, coll_base_topo.c build_tree(2)): halves of 501
// and 500 bytes; the root sends the first half to shifted rank 1 and the second to 2, one send per round; shifted 1
// receives from the root and forwards to its children 3 and 5, then swaps halves with 2 in one sendrecv; shifted 7
// (child of 3) receives the first half from 3 and, P being even, the second from the root, which sends it last. With P
// odd every rank but the root swaps with its pair (shifted 6 with 5) and the root sends nothing more. One byte: the
// source's fall-back chain root -> 1 -> 2 ... How validated: hand-derived from the C source, rank by rank.
TEST_CASE("tuned collectives: bcast split_binary_tree follows coll_base's binary tree and half exchange", "[collective]") {
  AlgoParams p;
  p.bytes = 1001;
  Schedule r0 = bcast_split_bintree(0, 8, p);
  REQUIRE(r0.rounds.size() == 3);
  CHECK(r0.rounds[0].ops == std::vector<Op>{Op{OpKind::Send, 1, 501, true}});
  CHECK(r0.rounds[1].ops == std::vector<Op>{Op{OpKind::Send, 2, 500, true}});
  CHECK(r0.rounds[2].ops == std::vector<Op>{Op{OpKind::Send, 7, 500, true}});
  Schedule r1 = bcast_split_bintree(1, 8, p);
  REQUIRE(r1.rounds.size() == 4);
  CHECK(r1.rounds[0].ops == std::vector<Op>{Op{OpKind::Recv, 0, 501}});
  CHECK(r1.rounds[1].ops == std::vector<Op>{Op{OpKind::Send, 3, 501, true}});
  CHECK(r1.rounds[2].ops == std::vector<Op>{Op{OpKind::Send, 5, 501, true}});
  CHECK(r1.rounds[3].ops == std::vector<Op>{Op{OpKind::Recv, 2, 500}, Op{OpKind::Send, 2, 501, true}});
  Schedule r7 = bcast_split_bintree(7, 8, p);
  REQUIRE(r7.rounds.size() == 2);
  CHECK(r7.rounds[0].ops == std::vector<Op>{Op{OpKind::Recv, 3, 501}});
  CHECK(r7.rounds[1].ops == std::vector<Op>{Op{OpKind::Recv, 0, 500}});
  Schedule r6 = bcast_split_bintree(6, 8, p);  // under 2 (2's children 4 and 6): second half, pair 5
  CHECK(r6.rounds[0].ops == std::vector<Op>{Op{OpKind::Recv, 2, 500}});
  CHECK(r6.rounds.back().ops == std::vector<Op>{Op{OpKind::Recv, 5, 501}, Op{OpKind::Send, 5, 500, true}});
  p.root = 3;  // P = 7: rank 2 is shifted 6 (pair 5 = rank 1), the root sends two halves only
  Schedule o = bcast_split_bintree(2, 7, p);
  CHECK(o.rounds.front().ops == std::vector<Op>{Op{OpKind::Recv, 5, 500}});  // shifted 6's parent is 2 = rank 5
  CHECK(o.rounds.back().ops == std::vector<Op>{Op{OpKind::Recv, 1, 501}, Op{OpKind::Send, 1, 500, true}});
  CHECK(bcast_split_bintree(3, 7, p).rounds.size() == 2);
  p.root = 0;
  p.bytes = 1;
  Schedule c = bcast_split_bintree(2, 8, p);
  REQUIRE(c.rounds.size() == 2);
  CHECK(c.rounds[0].ops == std::vector<Op>{Op{OpKind::Recv, 1, 1}});
  CHECK(c.rounds[1].ops == std::vector<Op>{Op{OpKind::Send, 3, 1}});
}

// Configuration: bcast binary_tree, pipeline and basic_linear on P = 10, root 3, 100 B; scatter_allgather on P = 5,
// root 0, 5 B (the source's example shape, cut at 5 ranks) and on 8 ranks, 8 B.
// Expected (coll_base_topo.c build_tree(2) and build_chain(1), coll_base_bcast.c): binary tree on shifted ranks: the
// root (s 0) sends to s 1 and 2 in one round, s 1 to s 3 and 5, s 4 receives from s 2 and sends to s 8 alone (s 4 +
// 2^2 = 8; 4 + 2^3 = 12 >= P); pipeline: s 4 receives from s 3 and sends to s 5, the last one only receives; basic
// linear: the root's one round of 9 isends in rank order. scatter_allgather, 8 ranks, 8 B: the root sends 4, 2, 1 B
// to 4, 2, 1 (blocking, in that order), then exchanges 1, 2 and 4 B with 1, 2 and 4; 5 ranks, 5 B: the root sends
// 1 B to 4, 2 B to 2 and 1 B to 1; in the last step rank 0 swaps 4 B for 1 B with rank 4, and ranks 1-3, whose
// partners do not exist, get rank 4's 1 B by recursive halving (0 -> 2, 0 -> 1, 2 -> 3); below P elements the
// source's basic linear bcast. Over P = 1 .. 40 and counts P - 1 .. 3P + 1 (and 4 KiB): every schedule completes with
// sizes matched, and every rank receives, besides what it forwards in the scatter, the whole message but its own
// block. How validated: schedules compared with the trees worked by hand from the sources.
TEST_CASE("tuned collectives: bcast binary_tree, pipeline, basic_linear and scatter_allgather", "[collective]") {
  AlgoParams p;
  p.bytes = 100;
  p.root = 3;
  auto real = [](int sh) { return (sh + 3) % 10; };
  const Schedule root = bcast_binary_tree(3, 10, p);
  REQUIRE(root.rounds.size() == 1);
  CHECK(root.rounds[0].ops == std::vector<Op>{{OpKind::Send, real(1), 100}, {OpKind::Send, real(2), 100}});
  const Schedule s1 = bcast_binary_tree(real(1), 10, p);
  REQUIRE(s1.rounds.size() == 2);
  CHECK(s1.rounds[0].ops == std::vector<Op>{{OpKind::Recv, real(0), 100}});
  CHECK(s1.rounds[1].ops == std::vector<Op>{{OpKind::Send, real(3), 100}, {OpKind::Send, real(5), 100}});
  const Schedule s4 = bcast_binary_tree(real(4), 10, p);
  REQUIRE(s4.rounds.size() == 2);
  CHECK(s4.rounds[0].ops == std::vector<Op>{{OpKind::Recv, real(2), 100}});
  CHECK(s4.rounds[1].ops == std::vector<Op>{{OpKind::Send, real(8), 100}});
  const Schedule c4 = bcast_pipeline(real(4), 10, p);
  REQUIRE(c4.rounds.size() == 2);
  CHECK(c4.rounds[0].ops == std::vector<Op>{{OpKind::Recv, real(3), 100}});
  CHECK(c4.rounds[1].ops == std::vector<Op>{{OpKind::Send, real(5), 100}});
  CHECK(bcast_pipeline(real(9), 10, p).rounds.size() == 1);
  const Schedule lin = bcast_basic_linear(3, 10, p);
  REQUIRE(lin.rounds.size() == 1);
  CHECK(lin.rounds[0].ops.size() == 9);
  CHECK(lin.rounds[0].ops.front().peer == 0);
  CHECK(lin.rounds[0].ops.back().peer == 9);

  AlgoParams q;
  q.bytes = 8;
  const Schedule r8 = bcast_scatter_allgather(0, 8, q);
  const std::vector<std::vector<Op>> want8{{{OpKind::Send, 4, 4, true}}, {{OpKind::Send, 2, 2, true}},
                                           {{OpKind::Send, 1, 1, true}},
                                           {{OpKind::Recv, 1, 1}, {OpKind::Send, 1, 1, true}},
                                           {{OpKind::Recv, 2, 2}, {OpKind::Send, 2, 2, true}},
                                           {{OpKind::Recv, 4, 4}, {OpKind::Send, 4, 4, true}}};
  CHECK(all_ops(r8) == want8);
  q.bytes = 5;
  const std::vector<std::vector<Op>> want5{{{OpKind::Send, 4, 1, true}}, {{OpKind::Send, 2, 2, true}},
                                           {{OpKind::Send, 1, 1, true}},
                                           {{OpKind::Recv, 1, 1}, {OpKind::Send, 1, 1, true}},
                                           {{OpKind::Recv, 2, 2}, {OpKind::Send, 2, 2, true}},
                                           {{OpKind::Recv, 4, 1}, {OpKind::Send, 4, 4, true}},
                                           {{OpKind::Send, 2, 1, true}}, {{OpKind::Send, 1, 1, true}}};
  CHECK(all_ops(bcast_scatter_allgather(0, 5, q)) == want5);
  const Schedule r3 = bcast_scatter_allgather(3, 5, q);
  REQUIRE(!r3.rounds.empty());
  CHECK(r3.rounds.back().ops == std::vector<Op>{{OpKind::Recv, 2, 1}});
  q.bytes = 4;  // 4 elements on 5 ranks: basic linear
  CHECK(all_ops(bcast_scatter_allgather(0, 5, q)) == all_ops(bcast_basic_linear(0, 5, q)));

  for (int n = 1; n <= 40; ++n)
    for (long long count : {static_cast<long long>(n) - 1, static_cast<long long>(n), n + 1LL, 2LL * n + 3,
                            3LL * n + 1, 4096LL})
      for (int rt : {0, n / 2}) {
        if (count < 0) continue;
        AlgoParams a;
        a.bytes = static_cast<std::uint32_t>(count);
        a.root = rt;
        CheckResult r = run_schedules(n, &bcast_scatter_allgather, a);
        INFO("P=" << n << " count=" << count << " root=" << rt << ": " << r.error);
        REQUIRE(r.completed);
        CHECK(r.unmatched_sends == 0);
        if (count < n) continue;
        const long long sc = (count + n - 1) / n;
        for (int me = 0; me < n; ++me) {
          const long long v = (me - rt + n) % n;
          long long got = 0, scattered = 0;
          const Schedule sch = bcast_scatter_allgather(me, n, a);
          for (const Round& rd : sch.rounds)
            for (const Op& op : rd.ops)
              if (op.kind == OpKind::Recv) got += op.value;
          long long top = 1;
          while (top < n && (v & top) == 0) top <<= 1;
          if (v != 0 && count - v * sc > 0) scattered = std::min(count - v * sc, top * sc);
          const long long own = std::clamp(count - v * sc, 0LL, sc);
          CHECK(got == scattered + (count - own));
        }
      }
}

// Configuration: collectives/decision/ompi_v5_tuned.json and mpich_default.json (data_dir()).
// Expected: the choices read off coll_tuned_decision_fixed.c (v5.0.x) and MPICH's CVAR defaults at 512 and 4096
// ranks (hand-read from the tables), every algorithm either registered or listed as not implemented, and errors for
// an unknown collective.
// How validated: decide_algorithm's answers against the tables; the registry for every entry of every table.
TEST_CASE("tuned collectives: size-table decisions of coll/tuned v5 and MPICH", "[collective]") {
  const auto ompi = decision_data("ompi_v5_tuned.json"), mpich = decision_data("mpich_default.json");
  CHECK(decide_algorithm(ompi, "alltoall", 512, 1) == "modified_bruck");
  CHECK(decide_algorithm(ompi, "alltoall", 512, 511) == "modified_bruck");
  CHECK(decide_algorithm(ompi, "alltoall", 512, 512) == "linear_sync");
  CHECK(decide_algorithm(ompi, "alltoall", 512, 8192) == "linear");
  CHECK(decide_algorithm(ompi, "alltoall", 512, 65536) == "linear_sync");
  CHECK(decide_algorithm(ompi, "alltoall", 512, 1048576) == "pairwise");
  CHECK(decide_algorithm(ompi, "alltoall", 4096, 65536) == "linear_sync");
  CHECK(decide_algorithm(ompi, "alltoall", 4096, 65535) == "linear");
  CHECK(decide_algorithm(ompi, "allgather", 512, 1) == "recursive_doubling");
  CHECK(decide_algorithm(ompi, "allgather", 512, 128) == "bruck");
  CHECK(decide_algorithm(ompi, "allgather", 512, 4096) == "neighbor");
  CHECK(decide_algorithm(ompi, "bcast", 512, 16384) == "split_binary_tree");
  CHECK(decide_algorithm(ompi, "bcast", 512, 1048576) == "knomial");
  CHECK(decide_algorithm(ompi, "gather", 512, 1) == "binomial");
  CHECK(decide_algorithm(ompi, "scatter", 512, 512) == "linear_nb");
  CHECK(decide_algorithm(ompi, "allreduce", 9408, 1048576) == "rabenseifner");
  CHECK(decide_algorithm(ompi, "allreduce", 9408, 32767) == "recursive_doubling");
  CHECK(decide_algorithm(ompi, "allreduce", 9408, 16383) == "segmented_ring");
  CHECK(decide_algorithm(ompi, "allreduce", 512, 8) == "nonoverlapping");
  CHECK(decide_algorithm(ompi, "allreduce", 64, 262143) == "recursive_doubling");
  CHECK(decide_algorithm(ompi, "allreduce", 2, 4) == "ring");
  CHECK(decide_algorithm(mpich, "alltoall", 512, 256) == "modified_bruck");
  CHECK(decide_algorithm(mpich, "alltoall", 512, 257) == "mpich_scattered");
  CHECK(decide_algorithm(mpich, "alltoall", 4, 1) == "mpich_scattered");
  CHECK(decide_algorithm(mpich, "alltoall", 512, 32769) == "mpich_pairwise");
  CHECK(decide_algorithm(mpich, "allgather", 512, 1023) == "recursive_doubling");
  CHECK(decide_algorithm(mpich, "allgather", 512, 1024) == "ring");
  CHECK(decide_algorithm(mpich, "allgather", 500, 100) == "bruck");
  CHECK(decide_algorithm(mpich, "bcast", 512, 12288) == "mpich_scatter_rdb_allgather");
  CHECK(decide_algorithm(mpich, "bcast", 500, 12288) == "mpich_scatter_ring_allgather");
  CHECK(decide_algorithm(mpich, "bcast", 4, 1 << 20) == "mpich_binomial");
  CHECK_THROWS_WITH(decide_algorithm(ompi, "scan", 8, 1), Catch::Contains("no table"));  // a collective not transcribed
  for (const auto* l : {&ompi, &mpich}) {
    const std::string missing = l->at("not_implemented").get<std::string>();
    for (const char* c : {"alltoall", "allgather", "bcast", "gather", "scatter", "allreduce", "reduce"}) {
      REQUIRE(l->contains(c));
      for (const auto& row : l->at(c).at("table"))
        for (const auto& e : row.at("sizes")) {
          std::string a = e.at("algorithm");
          INFO(c << " " << a);
          CHECK((default_registry().find(c, a) != nullptr || missing.find(a) != std::string::npos));
        }
    }
  }
  CHECK(ompi.contains("allreduce"));
}
