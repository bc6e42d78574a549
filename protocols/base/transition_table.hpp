// A protocol state machine's transitions as data: one row per legal (state, event) pair and the state it leads to.
// step() is the pure transition function: it looks the pair up and throws ProtocolError naming the machine, the
// state and the event when the table has no row for it (sst-macro's `default:` branch). btl/ugni's fragments and RDMA
// operations and Cray MPT's uGNI messages use it; their tables sit beside them, where a test can read them.
#pragma once
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

// The name of enumerator `v` from `names`, written in the enum's order, one per enumerator up to `Last`, the enum's
// last enumerator: a name array that misses an enumerator, or has one too many, does not compile. "?" outside it.
// Every enum of the protocols is named this way (to_string(Enum) is a one-line call of it).
template <auto Last, std::size_t N>
constexpr const char* name_of(decltype(Last) v, const std::array<const char*, N>& names) {
  static_assert(N == static_cast<std::size_t>(Last) + 1, "one name per enumerator, in the enum's order");
  const auto i = static_cast<std::size_t>(v);
  return i < N ? names[i] : "?";
}

// The state after `e` in `s`; to_string(State) and to_string(Event) name them in the error.
template <class State, class Event, std::size_t N>
State step(const std::array<Transition<State, Event>, N>& table, const char* machine, State s, Event e) {
  for (const auto& t : table)
    if (t.from == s && t.event == e) return t.to;
  throw ProtocolError(machine, to_string(s), to_string(e));
}

}  // namespace ompisim::base
