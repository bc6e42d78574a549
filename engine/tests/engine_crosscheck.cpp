// Cross-check of the two engines (its own process: SimGrid allows one engine per process).
// Configuration: K independent chains, each with three private resources of different capacities (no bandwidth
// sharing: a chain has at most one flow in flight). A chain step waits a random delay (zero one time in four, so
// same-time events occur), then either schedules a plain event or starts a flow of random size over a path chosen at
// that moment among the non-empty ordered subsets of its resources (the path is given at flow start); 2,000 steps
// per chain. Each chain draws from its own random generator, so its decisions do not depend on the order in which
// chains interleave.
// Expected: SimGridEngine (our event queue, SimGrid woken only while flows are in flight, deferred flow starts, the
// route handed to the zone at Comm::start) and DesEngine give the same time for every step of every chain (a flow
// alone on its path takes bytes / min capacity in both), and both end at the same time; SimGrid asked the zone for a
// route exactly once per flow. How validated: step times compared with a 1e-12 relative tolerance.
#include "engine/des_engine.hpp"
#include "engine/simgrid_engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace ompisim;

namespace {
struct Chain {
  int left = 0;
  std::mt19937 rng;
  std::vector<double> times;
};

struct Driver {
  Simulator& s;
  std::vector<std::vector<ResourceId>> res;  // per chain: its three resources
  std::vector<Chain> chains;
  void step(int k) {
    Chain& c = chains[static_cast<std::size_t>(k)];
    c.times.push_back(s.now());
    if (c.left-- == 0) return;
    std::uniform_int_distribution<int> four(0, 3);
    double delay = four(c.rng) == 0 ? 0.0 : std::uniform_real_distribution<double>(0, 1e-6)(c.rng);
    bool flow = four(c.rng) >= 2;
    double bytes = 1 + std::uniform_int_distribution<int>(0, 100000)(c.rng);
    unsigned mask = 1 + std::uniform_int_distribution<unsigned>(0, 6)(c.rng);  // non-empty subset of the three
    bool reversed = four(c.rng) >= 2;
    s.after(delay, [this, k, flow, bytes, mask, reversed] {
      if (!flow) return step(k);
      std::vector<ResourceId> path;
      for (unsigned i = 0; i < 3; ++i)
        if (mask & (1u << i)) path.push_back(res[static_cast<std::size_t>(k)][i]);
      if (reversed) std::reverse(path.begin(), path.end());
      s.flow(path, bytes, [this, k] { step(k); });
    });
  }
};

std::vector<Chain> run(Simulator& s, int chains, int steps, unsigned seed) {
  Driver d{s, {}, {}};
  for (int k = 0; k < chains; ++k) {
    std::vector<ResourceId> r;
    for (int i = 0; i < 3; ++i)
      r.push_back(s.add_resource("r" + std::to_string(k) + "-" + std::to_string(i), 1e9 * (1 + k) * (1 + 0.37 * i)));
    d.res.push_back(r);
    d.chains.push_back(Chain{steps, std::mt19937(seed * 1000 + static_cast<unsigned>(k)), {}});
  }
  s.seal();
  for (int k = 0; k < chains; ++k) d.step(k);
  s.run();
  return d.chains;
}
}  // namespace

int main() {
  // One SimGrid engine per process: every configuration runs its chains side by side in one pair of engines.
  const int chains = 24, steps = 2000;
  engine::DesEngine des;
  auto a = run(des, chains, steps, 7);
  engine::SimGridEngine sg;
  auto b = run(sg, chains, steps, 7);
  int bad = 0;
  std::size_t n = 0;
  for (int k = 0; k < chains; ++k) {
    const auto& x = a[static_cast<std::size_t>(k)].times;
    const auto& y = b[static_cast<std::size_t>(k)].times;
    n += x.size();
    if (x.size() != y.size()) {
      std::printf("chain %d: %zu steps (des) vs %zu (simgrid)\n", k, x.size(), y.size());
      ++bad;
      continue;
    }
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::abs(x[i] - y[i]) > 1e-12 * (1 + std::abs(x[i]))) {
        std::printf("chain %d step %zu: des %.15g simgrid %.15g\n", k, i, x[i], y[i]);
        ++bad;
        break;
      }
  }
  if (std::abs(des.now() - sg.now()) > 1e-12 * (1 + des.now())) ++bad;
  if (sg.route_queries() != sg.flows_started || des.flows_started != sg.flows_started) ++bad;
  std::printf("%zu steps in %d chains; %d differences; end des %.9g simgrid %.9g; flows %llu (des %llu), routes "
              "asked %llu, links created %zu\n",
              n, chains, bad, des.now(), sg.now(), static_cast<unsigned long long>(sg.flows_started),
              static_cast<unsigned long long>(des.flows_started), static_cast<unsigned long long>(sg.route_queries()),
              sg.links_created());
  return bad == 0 && n == static_cast<std::size_t>(chains) * (steps + 1) && sg.flows_started > 0 ? 0 : 1;
}
