// Cross-check of the fluid engine against the SimGrid engine on contended flows
// (its own process: SimGrid allows one engine per process; the fluid engine
// runs in the same process). Configuration: one pool of 16 resources with
// capacities spread over two decades (1e8 .. 1e10 B/s). 3,000 random flow sets,
// each run by its own run() on both engines, one after the other: 2 .. 40 flows
// (100 .. 300 in one set of fifty), each over 1 .. 5 resources drawn from the
// pool (a resource twice on one path one time in twenty), of 0 .. 1e7 bytes
// (log-uniform, a zero-byte flow one time in fifty; in one set of three, 64 KiB
// or 1 MiB, so that flows end together), started at a random offset from the
// set's start (on a 1e-5 s grid one time in three and always in the sets of
// equal sizes, so starts coincide), or, one time in four, from the completion
// of an earlier flow of the set after a delay that is zero one time in three
// (starts at the instant others end). The last 1,000 sets also meet two streams
// (another job's endless flows) declared after the first 2,000. Then 10 sets of
// 500 .. 1,500 flows over 64 other resources, and 6 pairwise alltoalls (16, 32,
// 48 nodes in 4 groups; 64 KiB and 1 MiB) over injection, global and ejection
// resources of their own, and 40 sets where many flows share paths: 100 ..
// 1,000 flows over 2 .. 12 distinct paths of the first pool (so the streams
// too), sizes log-uniform 1e3 .. 1e7 B (one set in two 64 KiB or 1 MiB, starts
// on a grid), started within 1 ms or, one time in three, at the end of an
// earlier flow (flows join a path while its other flows are part-way through
// theirs). Expected: every flow of every set ends at the same
// time on both engines, within 1e-9 relative to the flow's duration from the
// set's start (SimGrid 3.32 CM02 with crosstraffic off and TCP-gamma 0 is
// max-min fair sharing; the fluid engine computes it by a local progressive
// filling); the flows' callbacks run in the same order on both (flows ending at
// one date in start order on both engines); both engines run the same number of
// flows. The largest difference is printed. It fails when the local solve skips
// its boundary test, when the class fast path skips any of its guard's conditions
// (fluid_engine.cpp, try_class), and when the fast path serves no solve. The same sets run on the lmm engine (SimGrid's arithmetic
// repeated without SimGrid), which must run the callbacks in SimGrid's order in
// every set and end every flow at SimGrid's clock value within two ulps (the
// number of flows not equal bit for bit is printed: 4 of 111,243, one ulp each,
// all in set 12).
#include "engine/fluid_engine.hpp"
#include "engine/lmm_engine.hpp"
#include "engine/simgrid_engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace ompisim;

namespace {
struct FlowSpec {
  std::vector<int> path;  // indices in the pool
  double bytes = 0, offset = 0;
  int parent = -1;  // start after this earlier flow ends (offset is then the
                    // delay), or -1
};
using Set = std::vector<FlowSpec>;

// 1 to 5 distinct resources drawn by `pick` (the same draws, in the same order, for every kind of set).
template <class Rng, class Pick>
void random_path(Rng& rng, Pick& pick, std::vector<int>& path) {
  int hops = std::uniform_int_distribution<int>(1, 5)(rng);
  while (static_cast<int>(path.size()) < hops) {
    int r = pick(rng);
    if (std::find(path.begin(), path.end(), r) == path.end()) path.push_back(r);
  }
}

Set random_set(std::mt19937& rng, int pool) {
  std::uniform_real_distribution<double> u(0, 1);
  const bool ties = u(rng) < 0.33;  // sizes 64 KiB or 1 MiB and starts on the
                                    // grid: many flows end at one date
  std::uniform_int_distribution<int> pick(0, pool - 1);
  const bool large = u(rng) < 0.02;  // one set in fifty: 100 .. 300 flows
  Set s(static_cast<std::size_t>(std::uniform_int_distribution<int>(large ? 100 : 2, large ? 300 : 40)(rng)));
  for (std::size_t i = 0; i < s.size(); ++i) {
    FlowSpec& f = s[i];
    random_path(rng, pick, f.path);
    if (u(rng) < 0.05) f.path.push_back(f.path.front());
    f.bytes = u(rng) < 0.02 ? 0.0 : std::floor(std::pow(10.0, 7 * u(rng)));
    if (ties) f.bytes = u(rng) < 0.5 ? 65536.0 : 1048576.0;
    if (i > 0 && u(rng) < 0.25) {
      f.parent = std::uniform_int_distribution<int>(0, static_cast<int>(i) - 1)(rng);
      f.offset = u(rng) < 0.33 || ties ? 0.0 : 1e-4 * u(rng);
    } else {
      f.offset = u(rng) < 0.33 || ties ? 1e-5 * std::floor(100 * u(rng)) : 1e-3 * u(rng);
    }
  }
  return s;
}

struct Runner {
  Simulator& s;
  std::vector<ResourceId> pool;
  std::vector<double> end;  // per flow of the current set, from the set's start
  std::vector<double> at;   // per flow of the current set, the engine's clock at its end
  std::vector<int> order;   // the set's flows in the order their callbacks ran
  double start = 0;
  void launch(const Set& set, std::size_t i) {
    std::vector<ResourceId> path;
    for (int r : set[i].path) path.push_back(pool[static_cast<std::size_t>(r)]);
    s.flow(path, set[i].bytes, [this, &set, i] {
      end[i] = s.now() - start;
      at[i] = s.now();
      order.push_back(static_cast<int>(i));
      for (std::size_t k = i + 1; k < set.size(); ++k)
        if (set[k].parent == static_cast<int>(i)) s.after(set[k].offset, [this, &set, k] { launch(set, k); });
    });
  }
  void run(const Set& set) {
    start = s.now() + 1e-3;
    end.assign(set.size(), -1);
    at.assign(set.size(), -1);
    order.clear();
    for (std::size_t i = 0; i < set.size(); ++i)
      if (set[i].parent < 0) s.at(start + set[i].offset, [this, &set, i] { launch(set, i); });
    s.run();
  }
};
// One set of 500 .. 1,500 flows over `count` resources from `first` in the pool
// (a connected crowd), sizes 1e3 .. 1e7 B log-uniform, started within 1 ms or,
// one time in four, at the end of an earlier flow.
Set large_set(std::mt19937& rng, int first, int count) {
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> pick(first, first + count - 1);
  Set s(static_cast<std::size_t>(std::uniform_int_distribution<int>(500, 1500)(rng)));
  for (std::size_t i = 0; i < s.size(); ++i) {
    FlowSpec& f = s[i];
    random_path(rng, pick, f.path);
    f.bytes = std::floor(std::pow(10.0, 3 + 4 * u(rng)));
    if (i > 0 && u(rng) < 0.25) {
      f.parent = std::uniform_int_distribution<int>(0, static_cast<int>(i) - 1)(rng);
      f.offset = u(rng) < 0.5 ? 0.0 : 1e-5 * u(rng);
    } else {
      f.offset = 1e-3 * u(rng);
    }
  }
  return s;
}

// A pairwise alltoall among `nodes` nodes in `groups` groups: in round k (1 ..
// nodes - 1) node i sends `bytes` to node (i + k) mod nodes over [its
// injection, the global link between the two groups when they differ, the
// destination's ejection]; a node's round k starts when its round k - 1 send
// ends. Pool layout from `first`: injections, ejections, then groups x groups
// global links.
Set alltoall_set(int first, int nodes, int groups, double bytes) {
  Set s;
  const int per = nodes / groups;
  for (int k = 1; k < nodes; ++k)
    for (int i = 0; i < nodes; ++i) {
      const int dst = (i + k) % nodes, gi = i / per, gd = dst / per;
      FlowSpec f;
      f.path.push_back(first + i);
      if (gi != gd) f.path.push_back(first + 2 * nodes + gi * groups + gd);
      f.path.push_back(first + nodes + dst);
      f.bytes = bytes;
      f.parent = k == 1 ? -1 : static_cast<int>(s.size()) - nodes;
      s.push_back(f);
    }
  return s;
}

// One set of 100 .. 1,000 flows over 2 .. 12 distinct paths drawn from the
// pool's first `pool` resources (the engine solves one variable per path in
// flight, with a virtual clock for its flows' completions).
Set shared_set(std::mt19937& rng, int pool) {
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> pick(0, pool - 1);
  std::vector<std::vector<int>> paths(static_cast<std::size_t>(std::uniform_int_distribution<int>(2, 12)(rng)));
  for (auto& p : paths) random_path(rng, pick, p);
  const bool ties = u(rng) < 0.5;
  Set s(static_cast<std::size_t>(std::uniform_int_distribution<int>(100, 1000)(rng)));
  for (std::size_t i = 0; i < s.size(); ++i) {
    FlowSpec& f = s[i];
    f.path = paths[std::uniform_int_distribution<std::size_t>(0, paths.size() - 1)(rng)];
    f.bytes = ties ? (u(rng) < 0.5 ? 65536.0 : 1048576.0) : std::floor(std::pow(10.0, 3 + 4 * u(rng)));
    if (i > 0 && u(rng) < 0.33) {
      f.parent = std::uniform_int_distribution<int>(0, static_cast<int>(i) - 1)(rng);
      f.offset = u(rng) < 0.5 || ties ? 0.0 : 1e-5 * u(rng);
    } else {
      f.offset = ties ? 1e-5 * std::floor(100 * u(rng)) : 1e-3 * u(rng);
    }
  }
  return s;
}

}  // namespace

int main() {
  const int pool = 16, sets = 3000, streams_from = 2000, big_first = 16, big = 64, a2a_first = big_first + big;
  const int a2a_nodes = 48, a2a_groups = 4;
  std::mt19937 rng(20260);
  std::vector<Set> all;
  for (int k = 0; k < sets; ++k) all.push_back(random_set(rng, pool));
  for (int k = 0; k < 10; ++k) all.push_back(large_set(rng, big_first, big));
  for (int nodes : {16, 32, 48})
    for (double bytes : {65536.0, 1048576.0}) all.push_back(alltoall_set(a2a_first, nodes, a2a_groups, bytes));
  std::mt19937 rng_shared(20261);  // its own draws: the sets and capacities above stay as they were
  for (int k = 0; k < 40; ++k) all.push_back(shared_set(rng_shared, pool));

  engine::SimGridEngine sg;
  engine::FluidEngine fl;
  engine::LmmEngine lm;
  Runner a{sg, {}, {}}, b{fl, {}, {}}, c{lm, {}, {}};
  std::uniform_real_distribution<double> cap(8, 10);
  const int a2a_res = 2 * a2a_nodes + a2a_groups * a2a_groups;
  for (int i = 0; i < a2a_first + a2a_res; ++i) {
    double capacity = i < a2a_first ? std::pow(10.0, cap(rng)) : i < a2a_first + 2 * a2a_nodes ? 2.5e10 : 1.25e10;
    a.pool.push_back(sg.add_resource("p" + std::to_string(i), capacity));
    b.pool.push_back(fl.add_resource("p" + std::to_string(i), capacity));
    c.pool.push_back(lm.add_resource("p" + std::to_string(i), capacity));
  }
  sg.seal();
  fl.seal();
  lm.seal();
  double worst = 0;
  long flows = 0, bad = 0, order_bad = 0, lmm_bad = 0, lmm_unequal = 0;
  const double kFar = 1e300;
  for (int k = 0; k < static_cast<int>(all.size()); ++k) {
    if (k == streams_from)
      for (Runner* r : {&a, &b, &c}) {
        r->s.stream({r->pool[0], r->pool[1]});
        r->s.stream({r->pool[1]});
      }
    const Set& set = all[static_cast<std::size_t>(k)];
    a.run(set);
    b.run(set);
    c.run(set);
    if (a.order != c.order) {
      ++lmm_bad;
      if (bad++ < 10) std::printf("set %d: lmm ran the callbacks in another order than simgrid\n", k);
    }
    for (std::size_t i = 0; i < set.size(); ++i) {
      if (a.at[i] == c.at[i]) continue;
      ++lmm_unequal;
      const double two_ulps = std::nextafter(std::nextafter(a.at[i], kFar), kFar) - a.at[i];
      if (!(std::abs(a.at[i] - c.at[i]) <= two_ulps) && bad++ < 10)
        std::printf("set %d flow %zu: simgrid ends at %.17g, lmm at %.17g\n", k, i, a.at[i], c.at[i]);
    }
    if (a.order != b.order) {
      ++order_bad;
      if (bad++ < 10) std::printf("set %d: the callbacks ran in another order\n", k);
    }
    for (std::size_t i = 0; i < set.size(); ++i) {
      ++flows;
      double x = a.end[i], y = b.end[i];
      double rel = std::abs(x - y) / std::max(std::abs(x), 1e-300);
      if (x == y) rel = 0;
      worst = std::max(worst, rel);
      if (!(rel <= 1e-9) || x < 0 || y < 0) {
        if (bad++ < 10) std::printf("set %d flow %zu: simgrid %.17g fluid %.17g (rel %.3g)\n", k, i, x, y, rel);
      }
    }
  }
  if (sg.flows_started != fl.flows_started || sg.flows_started != lm.flows_started) ++bad;
  if (fl.class_hits() == 0) {  // the sets must exercise the class fast path
    std::printf("the class fast path served no solve\n");
    ++bad;
  }
  std::printf(
      "%d sets, %ld flows (simgrid %llu, fluid %llu); %ld failures, %ld sets "
      "whose callbacks ran in another "
      "order; largest relative difference %.3g; fluid solves %llu re-solving "
      "%llu path variables, %llu falling back to the whole component, %llu served by the class fast path (%llu refused by its guard); %llu path variables made; lmm: %ld sets in another order, %ld flows not bit for bit (allowed: two ulps of the clock)\n",
      static_cast<int>(all.size()), flows, static_cast<unsigned long long>(sg.flows_started),
      static_cast<unsigned long long>(fl.flows_started), bad, order_bad, worst,
      static_cast<unsigned long long>(fl.solves()), static_cast<unsigned long long>(fl.flows_resolved()),
      static_cast<unsigned long long>(fl.fallbacks()), static_cast<unsigned long long>(fl.class_hits()),
      static_cast<unsigned long long>(fl.class_refusals()), static_cast<unsigned long long>(fl.path_variables()), lmm_bad,
      lmm_unequal);
  return bad == 0 ? 0 : 1;
}
