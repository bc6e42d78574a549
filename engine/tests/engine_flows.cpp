// Flows in the SimGrid engine: bandwidth sharing, and the route given at flow start being the one SimGrid uses (its
// own process: SimGrid allows one engine per process). All cases run side by side in one run, on disjoint resources,
// so they cannot affect each other. Capacities 1e9 B/s unless said; flows of 1e9 B.
// Expected (CM02, crosstraffic off, TCP-gamma 0: max-min fair sharing, a flow alone takes bytes / min capacity):
//  1. contention: two flows over the same one-resource path each get half (end at 2 s); a flow over a disjoint
//     resource is unaffected (1 s);
//  2. route at flow start: two flows whose paths share a bottleneck ([a1, B], [b1, B]) end at 2 s; two flows with
//     the same first hops but different last hops ([a2, C], [b2, D]) end at 1 s. Every flow goes between the same
//     two SimGrid hosts, so only the per-flow path can make these differ;
//  3. a path's slowest resource sets the rate, wherever it is on the path ([fast, slow] and [slow, fast]: 2 s with a
//     0.5e9 resource);
//  4. a flow started during the run (from an event at 0.5 s, while another flow is in flight on its resource) shares
//     from then on: flow of 1e9 B from 0 and of 0.5e9 B from 0.5 s both end at 1.5 s;
//  5. completions at one date reach the model in start order, whatever SimGrid's heap holds: flow A (1e9 B on o1)
//     and B (1.25e9 B on o2) start together, C (0.25e9 B on o1) at +0.5 s; C ends at +1 s, A and B both at +1.25 s,
//     and A's heap entry was re-dated after B's (by C's start and end), yet the callbacks run C, A, B (a second run);
//  6. SimGrid asked the zone for a route exactly once per flow; a declared resource no flow crosses gets no SimGrid
//     link; misuse fails loudly (flow before seal, empty path, undeclared resource, add_resource after seal).
// The same misuse checks run on DesEngine. How validated: times compared with a 1e-9 relative tolerance.
#include "engine/des_engine.hpp"
#include "engine/simgrid_engine.hpp"
#include "engine/tests/expect.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ompisim;

using engine_test::expect_throw;
using engine_test::expect_time;
using engine_test::failures;

namespace {

void misuse(Simulator& s, const std::string& engine) {
  ResourceId r = s.add_resource(engine + "-misuse", 1e9);
  expect_throw((engine + ": zero capacity").c_str(), [&] { s.add_resource(engine + "-zero", 0); });
  expect_throw((engine + ": flow before seal").c_str(), [&] { s.flow({r}, 1, [] {}); });
  s.seal();
  expect_throw((engine + ": add_resource after seal").c_str(), [&] { s.add_resource(engine + "-late", 1e9); });
  expect_throw((engine + ": empty path").c_str(), [&] { s.flow({}, 1, [] {}); });
  expect_throw((engine + ": undeclared resource").c_str(), [&] { s.flow({r + 100}, 1, [] {}); });
}
}  // namespace

int main() {
  {
    engine::DesEngine des;
    misuse(des, "des");
  }
  engine::SimGridEngine sg;
  auto res = [&](const std::string& name, double cap = 1e9) { return sg.add_resource(name, cap); };
  // 1. contention
  ResourceId shared = res("shared"), alone = res("alone");
  // 2. route at flow start
  ResourceId a1 = res("a1"), b1 = res("b1"), B = res("B"), a2 = res("a2"), b2 = res("b2"), C = res("C"), D = res("D");
  // 3. slowest resource
  ResourceId fast1 = res("fast1", 4e9), slow1 = res("slow1", 0.5e9), fast2 = res("fast2", 4e9),
             slow2 = res("slow2", 0.5e9);
  // 4. mid-run start
  ResourceId mid = res("mid");
  // 5. start order at equal dates
  ResourceId o1 = res("o1"), o2 = res("o2");
  res("never-used");
  const std::size_t declared = 17;
  misuse(sg, "simgrid");  // declares one more resource, then seals

  std::vector<double> end(12, -1);
  auto flow = [&](std::vector<ResourceId> path, double bytes, int i) {
    sg.flow(path, bytes, [&sg, &end, i] { end[static_cast<std::size_t>(i)] = sg.now(); });
  };
  sg.at(0, [&] {
    flow({shared}, 1e9, 0);
    flow({shared}, 1e9, 1);
    flow({alone}, 1e9, 2);
    flow({a1, B}, 1e9, 3);
    flow({b1, B}, 1e9, 4);
    flow({a2, C}, 1e9, 5);
    flow({b2, D}, 1e9, 6);
    flow({fast1, slow1}, 1e9, 7);
    flow({slow2, fast2}, 1e9, 8);
    flow({mid}, 1e9, 9);
  });
  sg.at(0.5, [&] { flow({mid}, 0.5e9, 10); });
  sg.run();

  expect_time("1. shared resource, flow 1", end[0], 2.0);
  expect_time("1. shared resource, flow 2", end[1], 2.0);
  expect_time("1. disjoint resource", end[2], 1.0);
  expect_time("2. [a1, B] with [b1, B]", end[3], 2.0);
  expect_time("2. [b1, B] with [a1, B]", end[4], 2.0);
  expect_time("2. [a2, C] beside [b2, D]", end[5], 1.0);
  expect_time("2. [b2, D] beside [a2, C]", end[6], 1.0);
  expect_time("3. [fast, slow]", end[7], 2.0);
  expect_time("3. [slow, fast]", end[8], 2.0);
  expect_time("4. 1e9 B from 0, shared from 0.5 s", end[9], 1.5);
  expect_time("4. 0.5e9 B from 0.5 s", end[10], 1.5);
  // 5. start order at equal dates (a second run, from the first one's end)
  const double t0 = sg.now();
  std::vector<int> order;
  auto ordered = [&](ResourceId r, double bytes, int i) {
    sg.flow({r}, bytes, [&sg, &end, &order, i] {
      end[static_cast<std::size_t>(i)] = sg.now();
      order.push_back(i);
    });
  };
  sg.at(t0, [&] {
    ordered(o1, 1e9, 0);
    ordered(o2, 1.25e9, 1);
  });
  sg.at(t0 + 0.5, [&] { ordered(o1, 0.25e9, 2); });
  sg.run();
  expect_time("5. A (re-dated by C) ends with B", end[0] - t0, 1.25);
  expect_time("5. B ends with A", end[1] - t0, 1.25);
  expect_time("5. C", end[2] - t0, 1.0);
  const bool start_order = order == std::vector<int>{2, 0, 1};
  std::printf("%-56s %s\n", "5. callbacks C, A, B (start order at equal dates)", start_order ? "ok" : "FAILED");
  if (!start_order) ++failures;
  std::printf("flows %llu, routes asked %llu, links created %zu of %zu resources\n",
              static_cast<unsigned long long>(sg.flows_started), static_cast<unsigned long long>(sg.route_queries()),
              sg.links_created(), declared + 1);
  if (sg.flows_started != 14 || sg.route_queries() != sg.flows_started) ++failures;
  if (sg.links_created() != 16) ++failures;  // all but "never-used" and the misuse resource
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
