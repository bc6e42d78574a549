#include "engine/event_queue.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>

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

// Configuration: for every queue size from 1 to 40, then 3,000 (three slab chunks of 1,024 slots), events pushed in a
// shuffled order of times drawn from a few values (ties), then popped to empty; at 3,000, half are popped and as many
// pushed again before the drain (slots reused across chunks). Expected: size() and top_time() track the earliest
// pending event; pops come out as a stable sort by time of the push sequence, each callback with its own event.
// How validated: against std::stable_sort of the pushed (time, id) list. Fails if the heap's index arithmetic (root at
// an offset, children 4(i-2)..4(i-2)+3) loses or misorders a node at any small size, or if a slot in a later chunk
// is handed out twice.
TEST_CASE("event queue: every small size and several slab chunks match a stable sort", "[unit][engine]") {
  std::mt19937 rng(11);
  std::vector<int> sizes;
  for (int n = 1; n <= 40; ++n) sizes.push_back(n);
  sizes.push_back(3000);
  for (int n : sizes) {
    engine::EventQueue q;
    struct Ev {
      double t;
      int id;
    };
    std::vector<Ev> pushed, popped;
    std::uniform_int_distribution<int> when(0, n < 10 ? 3 : 20);
    auto push = [&](double base) {
      Ev e{base + when(rng), static_cast<int>(pushed.size())};
      pushed.push_back(e);
      q.push(e.t, [&popped, e] { popped.push_back(e); });
    };
    for (int i = 0; i < n; ++i) push(0);
    REQUIRE(q.size() == static_cast<std::size_t>(n));
    double now = 0;
    auto pop_one = [&] {
      if (n <= 40) {  // the quadratic check only on the small queues
        double earliest = 1e300;
        for (const auto& e : pushed) {
          bool done = false;
          for (const auto& p : popped) done = done || p.id == e.id;
          if (!done) earliest = std::min(earliest, e.t);
        }
        CHECK(q.top_time() == earliest);
      }
      auto [t, cb] = q.pop();
      CHECK(t >= now);
      now = t;
      cb();
    };
    if (n == 3000) {
      for (int i = 0; i < n / 2; ++i) {
        auto [t, cb] = q.pop();
        now = t;
        cb();
      }
      for (int i = 0; i < n / 2; ++i) push(now);
    }
    while (!q.empty()) pop_one();
    CHECK(q.size() == 0);
    // The reference: pops in time order, ties in push order; events pushed after `now` moved on sort after it anyway.
    std::vector<Ev> want = pushed;
    if (n == 3000) {
      // The first half popped before the second push wave: compare the two phases separately.
      std::vector<Ev> first(pushed.begin(), pushed.begin() + n);
      std::stable_sort(first.begin(), first.end(), [](const Ev& a, const Ev& b) { return a.t < b.t; });
      std::vector<Ev> rest(first.begin() + n / 2, first.end());
      rest.insert(rest.end(), pushed.begin() + n, pushed.end());
      std::stable_sort(rest.begin(), rest.end(), [](const Ev& a, const Ev& b) {
        return a.t < b.t || (a.t == b.t && a.id < b.id);
      });
      want.assign(first.begin(), first.begin() + n / 2);
      want.insert(want.end(), rest.begin(), rest.end());
    } else {
      std::stable_sort(want.begin(), want.end(), [](const Ev& a, const Ev& b) { return a.t < b.t; });
    }
    REQUIRE(popped.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      INFO("size " << n << ", pop " << i);
      CHECK(popped[i].id == want[i].id);
      CHECK(popped[i].t == want[i].t);
    }
  }
}

// Configuration: run_top() (the engines' loop: the callback runs in its slab slot) on 1,500 events whose callbacks
// each push up to two more while they run, so the slab grows past its first 1,024-slot chunk while a callback in that
// chunk is running; one callback throws. Expected: the same order as pop() gives for the same pushes (time, then
// insertion), every event run exactly once, the thrown event's slot freed (the queue keeps working and its size stays
// right), and a callback's captured state intact while it pushes. How validated: against a second queue driven by
// pop() with the same random sequence.
TEST_CASE("event queue: run_top runs callbacks in place, pushes during a run, a throwing callback", "[unit][engine]") {
  auto drive = [](bool in_place) {
    engine::EventQueue q;
    std::mt19937 rng(5);
    std::vector<int> order;
    int next = 0;
    std::function<void(double)> push = [&](double base) {
      int id = next++;
      double t = base + static_cast<double>(rng() % 7);
      q.push(t, [&, id, t, big = std::vector<int>(8, id)] {
        order.push_back(big[7]);  // captured state read while the slot may be reused around it
        if (next < 1500) push(t);
        if (next < 1500 && rng() % 2) push(t);
        if (id == 700) throw std::runtime_error("event 700");
      });
    };
    for (int i = 0; i < 600; ++i) push(0);
    int thrown = 0;
    while (!q.empty()) {
      std::size_t before = q.size();
      try {
        if (in_place) {
          q.run_top();
        } else {
          auto [t, cb] = q.pop();
          cb();
        }
      } catch (const std::runtime_error&) {
        ++thrown;
        CHECK(q.size() + 1 >= before);  // the thrown event left the queue
      }
    }
    CHECK(thrown == 1);
    return order;
  };
  std::vector<int> popped = drive(false), ran = drive(true);
  REQUIRE(ran.size() == popped.size());
  CHECK(ran.size() == 1500u);
  CHECK(ran == popped);
}

// Configuration: 30,000 events at times spread over 16 binades (1e-9 s .. 1e-4 s after the current time, many of them
// equal: drawn from 400 values), pushed in bursts while popping, plus events at +0.0 and -0.0 before the first pop.
// Expected: pops in (time, push order), -0.0 and +0.0 one time (push order between them); a push before the last time
// taken out throws and leaves the queue as it was. How validated: against a std::stable_sort of every (time, id)
// phase by phase. Fails if the radix heap's bucket index, its split of the lowest bucket or its FIFO of equal keys
// misorders keys that differ in their exponent or only in their lowest mantissa bits.
TEST_CASE("event queue: times over many binades, signed zeros, a push into the past", "[unit][engine]") {
  engine::EventQueue q;
  std::mt19937 rng(3);
  std::vector<double> offsets;
  for (int i = 0; i < 400; ++i) offsets.push_back(1e-9 * std::pow(2.0, (rng() % 1600) / 100.0) + (rng() % 3) * 1e-18);
  std::vector<std::pair<double, int>> pushed, popped;
  int next = 0;
  auto push = [&](double t) {
    int id = next++;
    pushed.push_back({t, id});
    q.push(t, [&popped, t, id] { popped.push_back({t, id}); });
  };
  push(0.0), push(-0.0), push(0.0);
  double now = 0;
  while (next < 30000 || !q.empty()) {
    if (next < 30000)
      for (int k = rng() % 5; k > 0; --k) push(now + offsets[rng() % offsets.size()]);
    if (q.empty()) continue;
    CHECK(q.top_time() >= now);
    now = q.top_time();
    q.run_top();
    if (popped.size() == 100) {
      const std::size_t before = q.size();
      CHECK_THROWS_AS(q.push(now - 1e-12, [] {}), std::logic_error);
      CHECK(q.size() == before);
    }
  }
  REQUIRE(popped.size() == pushed.size());
  for (std::size_t i = 1; i < popped.size(); ++i) {
    INFO("pop " << i);
    CHECK(popped[i - 1].first <= popped[i].first);
    if (popped[i - 1].first == popped[i].first) CHECK(popped[i - 1].second < popped[i].second);
  }
  CHECK(popped[0].second == 0);
  CHECK(popped[1].second == 1);  // -0.0 is the same time as 0.0: push order
  CHECK(popped[2].second == 2);
}
