// A protocol state machine's transitions as data: one row per legal (state, event) pair and the state it leads to.
// step() is the pure transition function: it looks the pair up and throws ProtocolError naming the machine, the
// state and the event when the table has no row for it (sst-macro's `default:` branch). Every fragment, message and
// RDMA machine of the protocols uses it (btl/ugni, btl/portals, btl/base, ptl/elan4, mtl/portals, the cxi and shm
// providers, the native comparators); their tables sit beside them, where a test can read them. The states and events
// are named with name_of (core/enum_names.hpp), as every enum of the project is.
//
// step<kTable>() looks the pair up in a (state x event) index built from the table at compile time, one load a step
// instead of a walk over the rows (a message of the cxi provider takes several steps); the index gives what the walk
// gives: the first row for a pair, and no row for a pair the table lacks.
#pragma once
#include "core/enum_names.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ompisim::base {

template <class State, class Event>
struct Transition {
  State from;
  Event event;
  State to;
};

// The state after `e` in `s`, by walking the rows (the definition the index repeats); to_string(State) and
// to_string(Event) name them in the error.
template <class State, class Event, std::size_t N>
State step(const std::array<Transition<State, Event>, N>& table, const char* machine, State s, Event e) {
  for (const auto& t : table)
    if (t.from == s && t.event == e) return t.to;
  throw ProtocolError(machine, to_string(s), to_string(e));
}

// The compile-time index of a table: cell (state, event) holds 1 + the first row's target state, 0 when no row has the
// pair. States and events are enums numbered from 0 (their values index the cells), below 255.
template <const auto& Table>
struct TransitionIndex {
  using Row = typename std::remove_cvref_t<decltype(Table)>::value_type;
  using State = decltype(Row::from);
  using Event = decltype(Row::event);
  static constexpr std::size_t value(auto x) { return static_cast<std::size_t>(x); }
  static constexpr std::size_t states = [] {
    std::size_t n = 0;
    for (const Row& r : Table) n = std::max({n, value(r.from) + 1, value(r.to) + 1});
    return n;
  }();
  static constexpr std::size_t events = [] {
    std::size_t n = 0;
    for (const Row& r : Table) n = std::max(n, value(r.event) + 1);
    return n;
  }();
  static_assert(states < 255, "a state machine's states must fit the index's cells");
  static constexpr std::array<std::uint8_t, states * events> cells = [] {
    std::array<std::uint8_t, states * events> c{};
    for (const Row& r : Table) {
      std::uint8_t& cell = c[value(r.from) * events + value(r.event)];
      if (cell == 0) cell = static_cast<std::uint8_t>(value(r.to) + 1);  // the first row wins, as in the walk
    }
    return c;
  }();
};

// The state after `e` in `s` by the table's index: the same state as step(Table, ...), or the same ProtocolError.
template <const auto& Table, class State, class Event>
State step(const char* machine, State s, Event e) {
  using I = TransitionIndex<Table>;
  static_assert(std::is_same_v<State, typename I::State> && std::is_same_v<Event, typename I::Event>);
  const std::size_t si = I::value(s), ei = I::value(e);
  if (si < I::states && ei < I::events)
    if (const std::uint8_t c = I::cells[si * I::events + ei]; c != 0) return static_cast<State>(c - 1);
  throw ProtocolError(machine, to_string(s), to_string(e));
}

}  // namespace ompisim::base
