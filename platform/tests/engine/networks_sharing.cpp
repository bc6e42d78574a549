// Flows on two networks of one machine, and on two ports of one network, on the SimGrid engine (its own process: one
// SimGrid engine per process).
// Configuration: whatif-cielo-2nic (Gemini network, two ports per node: NICs on NUMA nodes 0 and 2) plus a second
//                network "second" (LogGP NIC at 1 GB/s on a flat switch, one port per node); 32 ranks on 2 nodes mapped
//                by core; 1 MiB transfers node 0 -> node 1, one phase after another:
//   (a) one transfer on the second network alone;
//   (b) the same transfer while a Gemini transfer between the same ranks runs;
//   (c) two transfers on the second network at once (one port: they share its NIC);
//   (d) one Gemini transfer alone;
//   (e) two Gemini transfers at once from ranks near different ports (ranks 0 and 8: ports 0 and 1);
//   (f) two Gemini transfers at once from ranks near the same port (ranks 0 and 1).
// Expected: (b) = (a) and (e) = (d) within 0.1 % (different networks, different ports: no shared resource); (c) and
//           (f) about twice (a) and (d) (> 1.8x: the control that flows do share a NIC).
// How validated: completion times.
#include "engine/simgrid_engine.hpp"
#include "platform/tests/engine/check.hpp"
#include "platform/tests/machine_fixtures.hpp"
#include "platform/world.hpp"
#include "runner/registries.hpp"

#include <cmath>
#include <cstdio>
#include <functional>

using namespace ompisim;

using platform_test::check;
using platform_test::failures;

int main() {
  auto m = [] {
    platform_test::TempMachine f("networks-sharing", platform_test::two_networks());
    return load_machine(f.path);
  }();

  engine::SimGridEngine sim;
  World w(sim, *m, make_placement(*m, 32, 16, {}, "test", Json{{"map_by", "core"}}));
  w.declare_resources();
  sim.seal();
  const double bytes = 1 << 20;
  const int gemini = 0, second = 1;
  double a = -1, b = -1, c1 = -1, c2 = -1, d = -1, e1 = -1, e2 = -1, f1 = -1, f2 = -1;
  // Runs `n` transfers at once, each (rank_a, rank_b, net), storing each duration; then `next`.
  using Xfer = std::tuple<int, int, int, double*>;
  std::function<void(std::vector<Xfer>, std::function<void()>)> phase = [&](std::vector<Xfer> xs, std::function<void()> next) {
    auto left = std::make_shared<int>(static_cast<int>(xs.size()));
    double start = sim.now();
    for (auto& [ra, rb, net, out] : xs)
      w.fabric(net).bulk(w.contexts().node_of(ra), w.contexts().node_of(rb), bytes, 0, [&, left, start, out, next] {
        *out = sim.now() - start;
        if (--*left == 0) next();
      }, false, ra, rb);
  };
  double scratch = 0;
  phase({{0, 16, second, &a}}, [&] {
    phase({{0, 16, second, &b}, {0, 16, gemini, &scratch}}, [&] {
      phase({{0, 16, second, &c1}, {1, 17, second, &c2}}, [&] {
        phase({{0, 16, gemini, &d}}, [&] {
          phase({{0, 16, gemini, &e1}, {8, 24, gemini, &e2}}, [&] {
            phase({{0, 16, gemini, &f1}, {1, 17, gemini, &f2}}, [] {});
          });
        });
      });
    });
  });
  sim.run();
  check(std::abs(a - bytes / 1e9) < 1e-3 * a, "(a) second network alone", a, bytes / 1e9);
  check(std::abs(b - a) < 1e-3 * a, "(b) second network beside a Gemini transfer", b, a);
  check(c1 > 1.8 * a && c2 > 1.8 * a, "(c) two transfers on the second network share its NIC", std::min(c1, c2), 2 * a);
  check(std::abs(e1 - d) < 1e-3 * d && std::abs(e2 - d) < 1e-3 * d, "(e) Gemini ports 0 and 1 at once",
        std::max(e1, e2), d);
  check(f1 > 1.8 * d && f2 > 1.8 * d, "(f) two transfers through one Gemini port share it", std::min(f1, f2), 2 * d);
  return failures ? 1 : 0;
}
