// Tests of the barrier schedule generators (collectives/barrier/*.cpp), the registry, the coll/tuned barrier
// decision rule (collectives/decision/barrier_tuned.json, mirroring ompi_coll_tuned_barrier_intra_dec_fixed,
// Open MPI v1.7–v4.0) and the zero-time schedule checker (collectives/check.hpp).
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "collectives/barrier/barriers.hpp"
#include "collectives/check.hpp"
#include "collectives/decision.hpp"
#include "collectives/tests/coll_helpers.hpp"
#include "collectives/registry.hpp"

using namespace ompisim::coll;

namespace {

CollRegistry make_registry() {
  CollRegistry reg;
  register_barriers(reg);
  return reg;
}

std::vector<Schedule> all_schedules(Generator gen, int n, const AlgoParams& p) {
  std::vector<Schedule> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) out.push_back(gen(r, n, p));
  return out;
}

std::size_t op_count(const Schedule& s) {
  std::size_t k = 0;
  for (const auto& rd : s.rounds) k += rd.ops.size();
  return k;
}

int ceil_log2(int n) {
  int k = 0;
  while ((1LL << k) < n) ++k;
  return k;
}

// First round of `s` that contains an operation of kind `k`; -1 if none.
int first_round_with(const Schedule& s, OpKind k) {
  for (std::size_t i = 0; i < s.rounds.size(); ++i)
    for (const auto& op : s.rounds[i].ops)
      if (op.kind == k) return static_cast<int>(i);
  return -1;
}

// Depth of the complete heap-layout n-ary tree with n nodes: smallest d with (radix^(d+1)-1)/(radix-1) >= n.
int complete_tree_depth(int n, int radix) {
  long long size = 1, level = 1;
  int d = 0;
  while (size < n) {
    level *= radix;
    size += level;
    ++d;
  }
  return d;
}

const std::vector<int>& large_sample() {
  static const std::vector<int> v{65,   96,   100,  127,  128,  129,  255,  256,  257,  500,  1000,
                                  1023, 1024, 1025, 2047, 2048, 2049, 3000, 4095, 4096};
  return v;
}

}  // namespace

// Configuration: to_string on every OpKind; an empty registry and one filled by register_barriers.
// Expected:      the four names; the nine barrier algorithms with their coll/tuned or cheetah names, one-line
//                descriptions, a non-empty `mirrors`, uses_amo exactly for the two atomic Cheetah barriers;
//                duplicates and null generators are rejected.
// How validated: exact string comparison and REQUIRE_THROWS_AS on std::invalid_argument.
TEST_CASE("barrier registry: names, provenance and rejection of bad entries", "[collective]") {
  REQUIRE(std::string(to_string(OpKind::Send)) == "Send");
  REQUIRE(std::string(to_string(OpKind::Recv)) == "Recv");
  REQUIRE(std::string(to_string(OpKind::Amo)) == "Amo");
  REQUIRE(std::string(to_string(OpKind::WaitCounter)) == "WaitCounter");

  auto reg = make_registry();
  const std::vector<std::string> expected{"linear",         "double_ring", "recursive_doubling",
                                          "bruck",          "two_proc",    "tree",
                                          "cheetah-atomic", "cheetah-p2p", "cheetah-hierarchical"};
  REQUIRE(reg.names("barrier") == expected);
  REQUIRE(reg.names("bcast").empty());
  REQUIRE(reg.all().size() == expected.size());
  for (const auto& info : reg.all()) {
    INFO(info.algo);
    REQUIRE(info.coll == "barrier");
    REQUIRE(info.make != nullptr);
    REQUIRE(!info.description.empty());
    REQUIRE(info.description.find('\n') == std::string::npos);
    REQUIRE(!info.mirrors.empty());
    REQUIRE(info.uses_amo == (info.algo == "cheetah-atomic" || info.algo == "cheetah-hierarchical"));
    REQUIRE(reg.find("barrier", info.algo) == &info);
  }
  REQUIRE(reg.find("barrier", "nope") == nullptr);
  REQUIRE(reg.find("bcast", "linear") == nullptr);
  REQUIRE_THROWS_AS(reg.add({"barrier", "bruck", "dup", "x", &barrier_bruck, false}), std::invalid_argument);
  REQUIRE_THROWS_AS(reg.add({"barrier", "null", "no generator", "x", nullptr, false}), std::invalid_argument);
  REQUIRE_THROWS_AS(reg.add({"", "x", "empty coll", "x", &barrier_bruck, false}), std::invalid_argument);
}

// Configuration: cheetah-atomic for radix 2..32 and P in {1, 2, 3, 5, 17, 64, 100, 257, 1000}.
// Expected:      the tree read back from the schedules is the heap-layout n-ary tree: the root sends no fan-in Amo;
//                every other rank sends exactly one, to (r-1)/radix, and appears exactly once among the fan-out Amos,
//                of that same parent; at most `radix` children per rank; depth equals the complete-tree depth
//                (smallest d with (radix^(d+1)-1)/(radix-1) >= P), hence <= ceil(log_radix P).
// How validated: parents taken from the first Amo of each non-root schedule, children from the Amos after it (all
//                Amos for the root); depth by following parents; compared with nary_parent/nary_num_children.
TEST_CASE("barrier cheetah-atomic: n-ary tree shape", "[collective]") {
  for (int radix = 2; radix <= 32; ++radix) {
    for (int n : {1, 2, 3, 5, 17, 64, 100, 257, 1000}) {
      INFO("radix " << radix << " P " << n);
      AlgoParams p;
      p.radix = radix;
      const auto scheds = all_schedules(&barrier_cheetah_atomic, n, p);
      std::vector<int> parent(static_cast<std::size_t>(n), -1), listed_by(static_cast<std::size_t>(n), -1);
      for (int r = 0; r < n; ++r) {
        std::vector<int> amos;
        for (const auto& rd : scheds[static_cast<std::size_t>(r)].rounds)
          for (const auto& op : rd.ops)
            if (op.kind == OpKind::Amo) amos.push_back(op.peer);
        std::size_t first_child = 0;
        if (r != 0) {
          REQUIRE(!amos.empty());
          parent[static_cast<std::size_t>(r)] = amos[0];
          first_child = 1;
        }
        const std::size_t nchild = amos.size() - first_child;
        REQUIRE(nchild <= static_cast<std::size_t>(radix));
        REQUIRE(static_cast<int>(nchild) == nary_num_children(r, n, radix));
        for (std::size_t i = first_child; i < amos.size(); ++i) {
          const int c = amos[i];
          REQUIRE(c > 0);
          REQUIRE(c < n);
          REQUIRE(listed_by[static_cast<std::size_t>(c)] == -1);  // exactly one parent lists it
          listed_by[static_cast<std::size_t>(c)] = r;
        }
      }
      int depth = 0;
      for (int r = 0; r < n; ++r) {
        if (r == 0) {
          REQUIRE(listed_by[0] == -1);
          continue;
        }
        REQUIRE(parent[static_cast<std::size_t>(r)] == nary_parent(r, radix));
        REQUIRE(listed_by[static_cast<std::size_t>(r)] == parent[static_cast<std::size_t>(r)]);
        int d = 0;
        for (int x = r; x != 0; x = parent[static_cast<std::size_t>(x)]) {
          ++d;
          REQUIRE(d <= n);  // no cycle
        }
        depth = std::max(depth, d);
      }
      REQUIRE(depth == complete_tree_depth(n, radix));
      if (n > 1) REQUIRE(depth <= static_cast<int>(std::ceil(std::log(n) / std::log(radix) - 1e-9)));
    }
  }
}

// Configuration: every registered barrier for P = 1..64 and P in {65, ..., 4096} (non-powers of two included);
//                cheetah-atomic with radix 2, 4 and 7; cheetah-hierarchical with (radix, ranks_per_node) in
//                {(4,1), (2,4), (4,16), (3,24)}; two_proc only for P = 2.
// Expected:      run_schedules completes; every rank is released exactly once; sends == recvs; no unmatched
//                message; per-rank schedules are O(log P + radix + ranks_per_node) operations (linear's root: P).
// How validated: CheckResult fields; ops per rank bounded by 4*ceil(log2 P) + 2*radix + 2*ranks_per_node + 8.
TEST_CASE("barrier: every algorithm completes and conserves messages", "[collective]") {
  auto reg = make_registry();
  std::vector<int> sizes;
  for (int n = 1; n <= 64; ++n) sizes.push_back(n);
  for (int n : large_sample()) sizes.push_back(n);

  for (const auto& info : reg.all()) {
    std::vector<AlgoParams> variants{AlgoParams{}};
    if (info.algo == "cheetah-atomic") variants = {AlgoParams{2, 1}, AlgoParams{4, 1}, AlgoParams{7, 1}};
    if (info.algo == "cheetah-hierarchical")
      variants = {AlgoParams{4, 1}, AlgoParams{2, 4}, AlgoParams{4, 16}, AlgoParams{3, 24}};
    for (const auto& p : variants) {
      for (int n : sizes) {
        INFO(info.algo << " P " << n << " radix " << p.radix << " rpn " << p.ranks_per_node);
        if (info.algo == "two_proc" && n != 2) continue;
        const auto res = run_schedules(n, info.make, p);
        INFO(res.error);
        REQUIRE(res.completed);
        REQUIRE(res.error.empty());
        REQUIRE(std::all_of(res.releases.begin(), res.releases.end(), [](int x) { return x == 1; }));
        REQUIRE(res.sends == res.recvs);
        REQUIRE(res.unmatched_sends == 0);
        REQUIRE(res.unmatched_recvs == 0);
        if (info.uses_amo) {
          REQUIRE(res.sends == 0);
          if (n > 1) REQUIRE(res.amos == 2 * static_cast<std::uint64_t>(n - 1));
        } else {
          REQUIRE(res.amos == 0);
        }
        const std::size_t bound = 4 * static_cast<std::size_t>(ceil_log2(n)) + 2 * static_cast<std::size_t>(p.radix) +
                                  2 * static_cast<std::size_t>(p.ranks_per_node) + 8;
        for (int r = 0; r < n; r += (n > 256 ? 97 : 1)) {
          if (info.algo == "linear" && r == 0) continue;
          REQUIRE(op_count(info.make(r, n, p)) <= bound);
        }
      }
    }
  }
}

// Configuration: hand-worked schedules: recursive_doubling P = 6, bruck P = 5, tree P = 6, linear P = 3,
//                double_ring P = 3; cheetah-p2p vs recursive_doubling for P = 1..300.
// Expected:      the sequences derived by hand from coll_base_barrier.c (written out below); cheetah-p2p's schedule
//                equals recursive_doubling's (ptpcoll's proxy/extra scheme is the same fold).
// How validated: exact comparison of Round/Op lists.
TEST_CASE("barrier: hand-checked schedules", "[collective]") {
  const AlgoParams p;
  auto ops = [](const Schedule& s) {
    std::vector<std::vector<Op>> v;
    for (const auto& rd : s.rounds) v.push_back(rd.ops);
    return v;
  };
  using V = std::vector<std::vector<Op>>;
  const auto S = OpKind::Send;
  const auto R = OpKind::Recv;
  // recursive_doubling, P = 6 (p2 = 4): rank 4 folds into 0; rank 0 serves it; rank 3 is in the group only.
  REQUIRE(ops(barrier_recursive_doubling(4, 6, p)) == V{{{R, 0, 0}, {S, 0, 0, true}}});
  REQUIRE(ops(barrier_recursive_doubling(0, 6, p)) ==
          V{{{R, 4, 0}}, {{R, 1, 0}, {S, 1, 0, true}}, {{R, 2, 0}, {S, 2, 0, true}}, {{S, 4, 0, true}}});
  REQUIRE(ops(barrier_recursive_doubling(3, 6, p)) == V{{{R, 2, 0}, {S, 2, 0, true}}, {{R, 1, 0}, {S, 1, 0, true}}});
  // bruck, P = 5, rank 0: distances 1, 2, 4.
  REQUIRE(ops(barrier_bruck(0, 5, p)) == V{{{R, 4, 0}, {S, 1, 0}}, {{R, 3, 0}, {S, 2, 0}}, {{R, 1, 0}, {S, 4, 0}}});
  REQUIRE(barrier_bruck(0, 1, p).rounds.empty());
  // tree, P = 6: rank 4 receives from 5, reports to 0, is released by 0, releases 5; rank 0 is the root.
  REQUIRE(ops(barrier_tree(4, 6, p)) == V{{{R, 5, 0}}, {{S, 0, 0}}, {{R, 0, 0}}, {{S, 5, 0}}});
  REQUIRE(ops(barrier_tree(0, 6, p)) ==
          V{{{R, 1, 0}}, {{R, 2, 0}}, {{R, 4, 0}}, {{S, 4, 0}}, {{S, 2, 0}}, {{S, 1, 0}}});
  REQUIRE(ops(barrier_tree(5, 6, p)) == V{{{S, 4, 0}}, {{R, 4, 0}}});
  // linear, P = 3.
  REQUIRE(ops(barrier_linear(0, 3, p)) == V{{{R, 1, 0}, {R, 2, 0}}, {{S, 1, 0}}, {{S, 2, 0}}});
  REQUIRE(ops(barrier_linear(2, 3, p)) == V{{{S, 0, 0}}, {{R, 0, 0}}});
  // double_ring, P = 3.
  REQUIRE(ops(barrier_double_ring(0, 3, p)) == V{{{S, 1, 0}}, {{R, 2, 0}}, {{S, 1, 0}}, {{R, 2, 0}}});
  REQUIRE(ops(barrier_double_ring(1, 3, p)) == V{{{R, 0, 0}}, {{S, 2, 0}}, {{R, 0, 0}}, {{S, 2, 0}}});
  // two_proc.
  REQUIRE(ops(barrier_two_proc(1, 2, p)) == V{{{R, 0, 0}, {S, 0, 0, true}}});
  // cheetah-p2p == recursive_doubling, message for message (bcol/ptpcoll posts isends where coll/base's sends block,
  // and its isend before its irecv where coll/base posts the irecv first: the blocking marks and the order within a
  // round differ, compared apart).
  auto unmarked = [&](const Schedule& s) {
    auto v = ops(s);
    for (auto& rd : v) {
      for (auto& op : rd) op.blocking = false;
      std::stable_sort(rd.begin(), rd.end(), [](const Op& a, const Op& b) { return a.kind < b.kind; });
    }
    return v;
  };
  REQUIRE(ops(barrier_cheetah_p2p(0, 4, p))[0] == std::vector<Op>{{S, 1, 0}, {R, 1, 0}});  // bcol_ptpcoll_barrier.c
  REQUIRE(ops(barrier_recursive_doubling(0, 4, p))[0] == std::vector<Op>{{R, 1, 0}, {S, 1, 0, true}});
  for (int n = 1; n <= 300; ++n)
    for (int r = 0; r < n; ++r) {
      INFO("P " << n << " rank " << r);
      REQUIRE(unmarked(barrier_cheetah_p2p(r, n, p)) == unmarked(barrier_recursive_doubling(r, n, p)));
    }
  // cheetah-atomic, radix 4, P = 6: rank 1 has child 5; rank 0 has children 1..4; every atomic through the NIC (the
  // uGNI BCOL's GNI_PostFMA, on the node too).
  const auto A = OpKind::Amo;
  const auto W = OpKind::WaitCounter;
  const std::uint32_t N = kAmoNic;
  REQUIRE(ops(barrier_cheetah_atomic(1, 6, p)) == V{{{W, -1, 1}}, {{A, 0, N}}, {{W, -1, 2}}, {{A, 5, N}}});
  REQUIRE(ops(barrier_cheetah_atomic(0, 6, p)) == V{{{W, -1, 4}}, {{A, 1, N}, {A, 2, N}, {A, 3, N}, {A, 4, N}}});
  REQUIRE(ops(barrier_cheetah_atomic(5, 6, p)) == V{{{A, 1, N}}, {{W, -1, 1}}});
  REQUIRE(barrier_cheetah_atomic(0, 1, p).rounds.empty());
}

// Configuration: invalid arguments: two_proc with P != 2, me outside [0, P), P = 0, radix 1, ranks_per_node 0.
// Expected:      std::invalid_argument whose text names the algorithm and the parameter (nothing adjusted silently).
// How validated: REQUIRE_THROWS_WITH on substrings.
TEST_CASE("barrier: invalid arguments are rejected", "[collective]") {
  const AlgoParams p;
  using Catch::Matchers::Contains;
  REQUIRE_THROWS_WITH(barrier_two_proc(0, 3, p), Contains("two_proc") && Contains("nranks = 3"));
  REQUIRE_THROWS_WITH(barrier_two_proc(0, 1, p), Contains("requires exactly 2"));
  REQUIRE_THROWS_WITH(barrier_bruck(5, 5, p), Contains("bruck") && Contains("me = 5"));
  REQUIRE_THROWS_WITH(barrier_tree(0, 0, p), Contains("nranks = 0"));
  AlgoParams bad_radix;
  bad_radix.radix = 1;
  REQUIRE_THROWS_WITH(barrier_cheetah_atomic(0, 4, bad_radix), Contains("cheetah-atomic") && Contains("radix = 1"));
  REQUIRE_THROWS_WITH(barrier_cheetah_hierarchical(0, 4, bad_radix), Contains("radix = 1"));
  AlgoParams bad_rpn;
  bad_rpn.ranks_per_node = 0;
  REQUIRE_THROWS_WITH(barrier_cheetah_hierarchical(0, 4, bad_rpn), Contains("ranks_per_node = 0"));
}

// Configuration: cheetah-atomic with radix in {2, 3, 4, 8, 32} and P in {1, 2, 5, 16, 33, 100, 1000}.
// Expected:      (1) a rank's final WaitCounter value equals #children + (1 if not root), and its final counter
//                holds exactly that many adds; (2) fan-in: a rank starts the round after its fan-in wait only after
//                every child has started the round holding its Amo to it; (3) no rank finishes before rank 0 starts
//                its fan-out round (the Amos to its children).
// How validated: CheckResult.final_wait_value / counters / round_start_step / finish_step (global event steps).
TEST_CASE("barrier cheetah-atomic: counters and fan-in/fan-out causality", "[collective]") {
  for (int radix : {2, 3, 4, 8, 32}) {
    for (int n : {1, 2, 5, 16, 33, 100, 1000}) {
      INFO("radix " << radix << " P " << n);
      AlgoParams p;
      p.radix = radix;
      const auto scheds = all_schedules(&barrier_cheetah_atomic, n, p);
      const auto res = run_schedules(scheds);
      INFO(res.error);
      REQUIRE(res.completed);
      for (int r = 0; r < n; ++r) {
        const auto ur = static_cast<std::size_t>(r);
        const auto expect = static_cast<std::uint32_t>(nary_num_children(r, n, radix) + (r != 0 ? 1 : 0));
        REQUIRE(res.final_wait_value[ur] == expect);
        REQUIRE(res.counters[ur] == expect);
      }
      // (2) fan-in causality.
      for (int r = 0; r < n; ++r) {
        const int nchild = nary_num_children(r, n, radix);
        if (nchild == 0) continue;
        const auto after_fanin = res.round_start_step[static_cast<std::size_t>(r)][1];
        for (int c = nary_first_child(r, radix); c < nary_first_child(r, radix) + nchild; ++c) {
          const auto& sc = scheds[static_cast<std::size_t>(c)];
          const int amo_round = first_round_with(sc, OpKind::Amo);
          REQUIRE(amo_round >= 0);
          REQUIRE(sc.rounds[static_cast<std::size_t>(amo_round)].ops[0].peer == r);
          REQUIRE(res.round_start_step[static_cast<std::size_t>(c)][static_cast<std::size_t>(amo_round)] <
                  after_fanin);
        }
      }
      // (3) nobody leaves before the root switches to fan-out.
      if (n > 1) {
        const int fanout_round = first_round_with(scheds[0], OpKind::Amo);
        REQUIRE(fanout_round == static_cast<int>(scheds[0].rounds.size()) - 1);
        const auto fanout = res.round_start_step[0][static_cast<std::size_t>(fanout_round)];
        REQUIRE(fanout == res.root_last_round_step());
        for (int r = 0; r < n; ++r) REQUIRE(res.finish_step[static_cast<std::size_t>(r)] > fanout);
      }
    }
  }
}

// Configuration: cheetah-hierarchical, radix 2, on a layout that is not by block: 7 ranks round robin over 3 nodes
//                (rank r on node r % 3: nodes {0,3,6}, {1,4}, {2,5}), and the same schedules from block arithmetic.
// Expected:      each node's lowest rank leads it; a non-leader's one atomic goes to its node's leader through the
//                transport (a shared-memory atomic), the leaders' tree (node 0 the root, nodes 1 and 2 its children)
//                through the NIC; every rank finishes; the layout, not ranks_per_node, decides (block placement when
//                there is none).
// How validated: the ops of ranks 0, 1 and 3 by hand; run_schedules completes; the counters match.
TEST_CASE("barrier: cheetah-hierarchical follows the placement's nodes", "[collective]") {
  const NodeLayout rr(std::vector<long long>{0, 1, 2, 0, 1, 2, 0});
  AlgoParams p;
  p.radix = 2;
  p.ranks_per_node = 3;  // ignored when a layout is given
  p.layout = &rr;
  const auto A = OpKind::Amo;
  const auto W = OpKind::WaitCounter;
  using V = std::vector<std::vector<Op>>;
  auto ops = [](const Schedule& s) {
    V v;
    for (const auto& r : s.rounds) v.push_back(r.ops);
    return v;
  };
  REQUIRE(ops(barrier_cheetah_hierarchical(3, 7, p)) == V{{{A, 0, kAmoTransport}}, {{W, -1, 1}}});
  REQUIRE(ops(barrier_cheetah_hierarchical(1, 7, p)) ==
          V{{{W, -1, 1}}, {{A, 0, kAmoNic}}, {{W, -1, 2}}, {{A, 4, kAmoTransport}}});
  REQUIRE(ops(barrier_cheetah_hierarchical(0, 7, p)) ==
          V{{{W, -1, 2}}, {{W, -1, 4}}, {{A, 1, kAmoNic}, {A, 2, kAmoNic}}, {{A, 3, kAmoTransport}, {A, 6, kAmoTransport}}});
  const auto res = run_schedules(all_schedules(&barrier_cheetah_hierarchical, 7, p));
  REQUIRE(res.completed);
  CHECK(res.counters[0] == 4);
  p.layout = nullptr;  // block placement by ranks_per_node: ranks 0-2, 3-5, 6
  REQUIRE(ops(barrier_cheetah_hierarchical(3, 7, p)) ==
          V{{{W, -1, 2}}, {{A, 0, kAmoNic}}, {{W, -1, 3}}, {{A, 4, kAmoTransport}, {A, 5, kAmoTransport}}});
}

// Configuration: the other root-based barriers: cheetah-hierarchical ((radix, ranks_per_node) in {(2,4), (4,16),
//                (3,24)}), tree and linear, P in {2, 7, 64, 100, 1000}.
// Expected:      every rank finishes after rank 0 starts its fan-out (its first Amo round, resp. first Send round);
//                hierarchical: a leader's final WaitCounter is local members + tree children + (1 unless node 0),
//                a non-leader's is 1.
// How validated: CheckResult.finish_step vs round_start_step of rank 0; final_wait_value.
TEST_CASE("barrier: root-based barriers release nobody before the root's fan-out", "[collective]") {
  for (int n : {2, 7, 64, 100, 1000}) {
    for (auto [radix, rpn] : {std::pair{2, 4}, std::pair{4, 16}, std::pair{3, 24}}) {
      INFO("hierarchical P " << n << " radix " << radix << " rpn " << rpn);
      AlgoParams p;
      p.radix = radix;
      p.ranks_per_node = rpn;
      const auto scheds = all_schedules(&barrier_cheetah_hierarchical, n, p);
      const auto res = run_schedules(scheds);
      REQUIRE(res.completed);
      const auto fanout =
          res.round_start_step[0][static_cast<std::size_t>(first_round_with(scheds[0], OpKind::Amo))];
      const int nnodes = (n + rpn - 1) / rpn;
      for (int r = 0; r < n; ++r) {
        const auto ur = static_cast<std::size_t>(r);
        REQUIRE(res.finish_step[ur] > fanout);
        if (r % rpn != 0) {
          REQUIRE(res.final_wait_value[ur] == 1);
        } else {
          const int node = r / rpn;
          const int members = std::min(rpn, n - r) - 1;
          const auto expect =
              static_cast<std::uint32_t>(members + nary_num_children(node, nnodes, radix) + (node != 0 ? 1 : 0));
          REQUIRE(res.counters[ur] == expect);
          if (expect > 0) REQUIRE(res.final_wait_value[ur] == expect);
        }
      }
    }
    for (Generator g : {&barrier_tree, &barrier_linear}) {
      const AlgoParams p;
      const auto scheds = all_schedules(g, n, p);
      const auto res = run_schedules(scheds);
      REQUIRE(res.completed);
      const auto fanout =
          res.round_start_step[0][static_cast<std::size_t>(first_round_with(scheds[0], OpKind::Send))];
      for (int r = 0; r < n; ++r) REQUIRE(res.finish_step[static_cast<std::size_t>(r)] > fanout);
    }
  }
}

// Configuration: hand-made faulty schedules: a leaf waiting for 2 fan-out adds; a send nobody receives; a receive
//                nobody sends; a peer outside the communicator; a size mismatch.
// Expected:      completed == false with the error naming the blocked rank/op, unmatched counts set.
// How validated: CheckResult fields and error substrings.
TEST_CASE("schedule checker: detects deadlock, unmatched messages and bad peers", "[collective]") {
  {
    std::vector<Schedule> s(2);
    s[0].round().wait_counter(1).round().amo(1);
    s[1].round().amo(0).round().wait_counter(2);  // waits for one add too many
    const auto res = run_schedules(s);
    REQUIRE_FALSE(res.completed);
    REQUIRE(res.releases == std::vector<int>{1, 0});
    REQUIRE(res.error.find("rank 1 round 1: WaitCounter(2)") != std::string::npos);
    REQUIRE(res.finish_step[1] == CheckResult::kNever);
  }
  {
    std::vector<Schedule> s(2);
    s[0].round().send(1).send(1);
    s[1].round().recv(0);
    const auto res = run_schedules(s);
    REQUIRE_FALSE(res.completed);
    REQUIRE(res.unmatched_sends == 1);
    REQUIRE(res.sends == 2);
    REQUIRE(res.recvs == 1);
    REQUIRE(res.error.find("from rank 0 to rank 1") != std::string::npos);
  }
  {
    std::vector<Schedule> s(2);
    s[0].round().recv(1);
    s[1].round().recv(0);
    const auto res = run_schedules(s);
    REQUIRE_FALSE(res.completed);
    REQUIRE(res.unmatched_recvs == 2);
    REQUIRE(res.error.find("2 rank(s) never finished") != std::string::npos);
  }
  {
    std::vector<Schedule> s(2);
    s[0].round().send(2);
    const auto res = run_schedules(s);
    REQUIRE_FALSE(res.completed);
    REQUIRE(res.error.find("invalid peer") != std::string::npos);
  }
  {
    std::vector<Schedule> s(2);
    s[0].round().send(1, 8);
    s[1].round().recv(0, 4);
    const auto res = run_schedules(s);
    REQUIRE_FALSE(res.completed);
    REQUIRE(res.error.find("size mismatch") != std::string::npos);
  }
}

// Configuration: collectives/decision/ompi_v5_tuned.json's barrier table (coll/tuned v4.1-v5.0,
//                ompi_coll_tuned_barrier_intra_dec_fixed) and ompi_v1_3_tuned.json's (v1.3, whose rule v1.7-v4.0 kept)
//                for P = 1..5000.
// Expected:      v5 picks by communicator size alone (< 4 recursive doubling, < 8 linear, < 64 recursive doubling,
//                < 256 bruck, < 512 tree, < 1024 bruck, < 4096 tree, else bruck), as a transcription of its if-chain
//                gives; v1.3's table agrees with barrier_tuned.json at every P; every name is a registered algorithm.
// How validated: decide_algorithm against the transcription and against tuned_barrier_algorithm, for every P.
TEST_CASE("barrier decision: coll/tuned v5's size table", "[collective]") {
  const auto v5 = decision_data("ompi_v5_tuned.json"), v13 = decision_data("ompi_v1_3_tuned.json"),
             rule = decision_data("barrier_tuned.json");
  auto v5_if_chain = [](int size) -> std::string {
    if (size < 4) return "recursive_doubling";
    if (size < 8) return "linear";
    if (size < 64) return "recursive_doubling";
    if (size < 256) return "bruck";
    if (size < 512) return "tree";
    if (size < 1024) return "bruck";
    if (size < 4096) return "tree";
    return "bruck";
  };
  auto reg = make_registry();
  for (int n = 1; n <= 5000; ++n) {
    INFO("P = " << n);
    REQUIRE(decide_algorithm(v5, "barrier", n, 0) == v5_if_chain(n));
    REQUIRE(decide_algorithm(v13, "barrier", n, 0) == tuned_barrier_algorithm(n, rule));
  }
  for (const char* a : {"recursive_doubling", "linear", "bruck", "tree"}) REQUIRE(reg.find("barrier", a) != nullptr);
}

// Configuration: collectives/decision/barrier_tuned.json (coll/tuned fixed rule, Open MPI v1.7–v4.0) for P = 1..5000.
// Expected:      2 -> two_proc; powers of two (1 included) -> recursive_doubling; otherwise bruck, i.e. the same
//                answer as Open MPI's bit loop ("a second set bit -> bruck"); the file names the version it mirrors;
//                malformed rules and an unmatched P are errors.
// How validated: spot values plus a comparison with a transcription of the bit loop for every P; REQUIRE_THROWS.
TEST_CASE("barrier decision: coll/tuned fixed rule", "[collective]") {
  const auto rule = decision_data("barrier_tuned.json");
  REQUIRE(rule.at("mirrors").get<std::string>().find("coll_tuned_decision_fixed.c") != std::string::npos);
  REQUIRE(tuned_barrier_algorithm(2, rule) == "two_proc");
  REQUIRE(tuned_barrier_algorithm(1, rule) == "recursive_doubling");
  REQUIRE(tuned_barrier_algorithm(4, rule) == "recursive_doubling");
  REQUIRE(tuned_barrier_algorithm(64, rule) == "recursive_doubling");
  REQUIRE(tuned_barrier_algorithm(4096, rule) == "recursive_doubling");
  REQUIRE(tuned_barrier_algorithm(3, rule) == "bruck");
  REQUIRE(tuned_barrier_algorithm(6, rule) == "bruck");
  REQUIRE(tuned_barrier_algorithm(1000, rule) == "bruck");
  auto ompi_bit_loop = [](int size) -> std::string {
    if (size == 2) return "two_proc";
    bool has_one = false;
    for (; size > 0; size >>= 1)
      if (size & 1) {
        if (has_one) return "bruck";
        has_one = true;
      }
    return "recursive_doubling";
  };
  for (int n = 1; n <= 5000; ++n) REQUIRE(tuned_barrier_algorithm(n, rule) == ompi_bit_loop(n));
  auto reg = make_registry();
  for (int n = 1; n <= 64; ++n) REQUIRE(reg.find("barrier", tuned_barrier_algorithm(n, rule)) != nullptr);

  using nlohmann::json;
  REQUIRE_THROWS_AS(tuned_barrier_algorithm(5, json::parse(R"({"rules":[{"when":"odd","algorithm":"x"}]})")),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(tuned_barrier_algorithm(5, json::parse(R"({"rules":[{"when":"pow2","algorithm":"x"}]})")),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(tuned_barrier_algorithm(5, json::parse(R"({"rules":[{"when":"always"}]})")),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(tuned_barrier_algorithm(5, json::parse(R"({"rule":[]})")), std::invalid_argument);
  REQUIRE(tuned_barrier_algorithm(9, json::parse(R"({"rules":[{"when":"nranks >= 8","algorithm":"a"},
                                                              {"when":"always","algorithm":"b"}]})")) == "a");
  REQUIRE_THROWS_AS(load_decision("/nonexistent/decision.json"), std::runtime_error);
}
