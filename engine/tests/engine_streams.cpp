// Another job's traffic in the SimGrid engine (Simulator::stream): an endless flow that shares bandwidth with the
// model's flows while a run() has work, and does not keep run() from returning. Its own process (one SimGrid engine
// per process). Capacities 1e9 B/s, flows of 1e9 B. Expected (max-min fair sharing, CM02, crosstraffic off):
//  1. a flow over a resource one stream crosses gets half: it ends 2 s after it starts; a flow over a resource two
//     streams cross gets a third (3 s); a flow over a resource no stream crosses is unaffected (1 s);
//  2. run() returns once the model's events and flows are done (streams never complete on their own), and the next
//     run() meets the same streams: a second flow on the shared resource again takes 2 s;
//  3. a run() with no work returns at once without advancing time;
//  4. misuse fails loudly: a stream over an undeclared resource or an empty path; the DES engine (no sharing) refuses
//     streams.
#include "engine/des_engine.hpp"
#include "engine/simgrid_engine.hpp"
#include "engine/tests/expect.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>

using namespace ompisim;

using engine_test::expect_throw;
using engine_test::expect_time;
using engine_test::failures;

int main() {
  engine::SimGridEngine sg;
  ResourceId shared = sg.add_resource("shared", 1e9), twice = sg.add_resource("twice", 1e9),
             alone = sg.add_resource("alone", 1e9), other = sg.add_resource("other", 1e9);
  expect_throw("simgrid: stream on an empty path", [&] { sg.stream({}); });
  expect_throw("simgrid: stream over an undeclared resource", [&] { sg.stream({other + 10}); });
  sg.stream({shared, other});
  sg.stream({twice});
  sg.stream({twice, other});
  sg.seal();

  double t_shared = -1, t_twice = -1, t_alone = -1;
  sg.at(0, [&] {
    sg.flow({shared}, 1e9, [&] { t_shared = sg.now(); });
    sg.flow({twice}, 1e9, [&] { t_twice = sg.now(); });
    sg.flow({alone}, 1e9, [&] { t_alone = sg.now(); });
  });
  sg.run();
  // "other" carries two streams and "shared" one: max-min gives the stream over [shared, other] 1/2 of other, so on
  // "shared" the model's flow and that stream split 1e9 evenly.
  expect_time("1. flow beside one stream", t_shared, 2.0);
  expect_time("1. flow beside two streams", t_twice, 3.0);
  expect_time("1. flow on a resource no stream crosses", t_alone, 1.0);
  expect_time("2. run() returned when the model's work ended", sg.now(), 3.0);

  double t2 = -1;
  sg.at(sg.now() + 1, [&] { sg.flow({shared}, 1e9, [&] { t2 = sg.now(); }); });
  sg.run();
  expect_time("2. the next run() meets the same stream", t2, 6.0);

  double before = sg.now();
  sg.run();
  expect_time("3. a run() with no work does not advance time", sg.now(), before);
  if (sg.streams != 3) {
    std::printf("streams counted %llu, expected 3: FAILED\n", static_cast<unsigned long long>(sg.streams));
    ++failures;
  }

  engine::DesEngine des;
  ResourceId d = des.add_resource("d", 1e9);
  expect_throw("des: refuses streams (no bandwidth sharing)", [&] { des.stream({d}); });
  if (des.shares_bandwidth() || !sg.shares_bandwidth()) {
    std::printf("shares_bandwidth wrong: FAILED\n");
    ++failures;
  }
  std::printf("%s\n", failures ? "FAILED" : "all ok");
  return failures ? 1 : 0;
}
