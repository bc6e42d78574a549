// A protocol state machine's transitions as data: one row per legal (state, event) pair and the state it leads to.
// step() is the pure transition function: it looks the pair up and throws ProtocolError naming the machine, the
// state and the event when the table has no row for it (sst-macro's `default:` branch). btl/ugni's fragments and RDMA
// operations and Cray MPT's uGNI messages use it; their tables sit beside them, where a test can read them. The
// states and events are named with name_of (core/enum_names.hpp), as every enum of the project is.
#pragma once
#include "core/enum_names.hpp"
#include "core/errors.hpp"

#include <array>
#include <cstddef>

namespace ompisim::base {

template <class State, class Event>
struct Transition {
  State from;
  Event event;
  State to;
};

// The state after `e` in `s`; to_string(State) and to_string(Event) name them in the error.
template <class State, class Event, std::size_t N>
State step(const std::array<Transition<State, Event>, N>& table, const char* machine, State s, Event e) {
  for (const auto& t : table)
    if (t.from == s && t.event == e) return t.to;
  throw ProtocolError(machine, to_string(s), to_string(e));
}

}  // namespace ompisim::base
