// Table-driven checks of a protocol state machine (protocols/base/transition_table.hpp): its paths from IDLE (written
// whole, or as segments joined), and the error text of impossible (state, event) pairs. `step` and `to_string` are
// found beside the State and Event enums.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ompisim::test {

template <class State, class Event>
struct Path {
  const char* name;
  std::vector<std::pair<Event, State>> steps;  // each event and the state it must lead to, from IDLE
};

// The steps of `parts`, one segment after the other: the segments several paths share are written once and named.
template <class State, class Event>
std::vector<std::pair<Event, State>> joined(const std::vector<std::vector<std::pair<Event, State>>>& parts) {
  std::vector<std::pair<Event, State>> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// One SECTION per path: from IDLE, each event must lead to the state written beside it.
template <class State, class Event>
void walk(const std::vector<Path<State, Event>>& paths) {
  for (const auto& p : paths) {
    SECTION(p.name) {
      State s = State::Idle;
      for (const auto& [e, to] : p.steps) {
        s = step(s, e);
        CHECK(std::string(to_string(s)) == to_string(to));
      }
    }
  }
}

// Each (state, event) must throw ProtocolError with exactly the text beside it.
template <class State, class Event>
void check_impossible(const std::vector<std::tuple<State, Event, const char*>>& bad) {
  for (const auto& [s, e, text] : bad) {
    INFO(to_string(s) << " + " << to_string(e));
    REQUIRE_THROWS_WITH(step(s, e), text);
  }
}

}  // namespace ompisim::test
