#include "engine/event_queue.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace ompisim;

// Configuration: 20,000 events at random times from a small set (many ties), pushed and popped interleaved so that
// callback slots are reused. Expected: events come out by time, ties in insertion order, each exactly once, and the
// popped callback is the one pushed with that event. How validated: against a stable sort of the same events.
TEST_CASE("event queue: time order, ties in insertion order, slots reused", "[unit][engine]") {
  engine::EventQueue q;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> when(0, 50);
  struct Ev {
    double t;
    int id;
  };
  std::vector<Ev> pushed, popped;
  int next = 0;
  double now = 0;
  auto push = [&] {
    double t = now + when(rng);
    int id = next++;
    pushed.push_back({t, id});
    q.push(t, [&popped, t, id] { popped.push_back({t, id}); });
  };
  for (int i = 0; i < 1000; ++i) push();
  while (!q.empty()) {
    auto [t, cb] = q.pop();
    CHECK(t >= now);
    now = t;
    cb();
    if (next < 20000 && rng() % 2) push(), push();
  }
  REQUIRE(popped.size() == pushed.size());
  // Same-time events must come out in the order they were pushed.
  for (std::size_t i = 1; i < popped.size(); ++i) {
    CHECK(popped[i - 1].t <= popped[i].t);
    if (popped[i - 1].t == popped[i].t) CHECK(popped[i - 1].id < popped[i].id);
  }
  std::vector<int> ids;
  for (auto& e : popped) ids.push_back(e.id);
  std::sort(ids.begin(), ids.end());
  for (int i = 0; i < static_cast<int>(ids.size()); ++i) CHECK(ids[static_cast<std::size_t>(i)] == i);
}
