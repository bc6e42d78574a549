// protocols/base/transition_table.hpp: the compile-time index that step<kTable>() reads gives what the walk over the
// rows gives, for every (state, event) pair.
#include "protocols/base/transition_table.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <string>

using namespace ompisim;

namespace {
enum class TS : std::uint8_t { A, B, C, D, Unused };
enum class TE : std::uint8_t { Go, Back, Skip, Never };
constexpr std::array<const char*, 5> kTSNames{"A", "B", "C", "D", "Unused"};
constexpr std::array<const char*, 4> kTENames{"Go", "Back", "Skip", "Never"};
// found by argument-dependent lookup, as each protocol's own to_string is
const char* to_string(TS v) { return name_of<TS::Unused>(v, kTSNames); }
const char* to_string(TE v) { return name_of<TE::Never>(v, kTENames); }
// A pair given twice (the first row is the walk's answer), a state only reached (D), events no row has in some states
// (Never in all; Skip in all but B), and a state and an event beyond every row (Unused, Never).
constexpr std::array<base::Transition<TS, TE>, 6> kTable{{
    {TS::A, TE::Go, TS::B},
    {TS::B, TE::Go, TS::C},
    {TS::B, TE::Back, TS::A},
    {TS::B, TE::Skip, TS::D},
    {TS::B, TE::Go, TS::A},  // a repeated pair: the walk never reaches it
    {TS::C, TE::Back, TS::B},
}};
}  // namespace

// Configuration: the six-row table above. Expected: for each of the 5 x 4 (state, event) pairs, step<kTable> returns the
// walk's state or throws the walk's ProtocolError (same text); B + Go is C (first row), the index is 5 states x 3
// events (D is only a target, Never in no row). How validated: every pair, both ways. Fails if the index keeps the
// last row of a pair, drops a target-only state, or reads past its cells for a value beyond them.
TEST_CASE("transition table: the compile-time index gives the walk's answer for every pair", "[protocols][transition]") {
  using I = base::TransitionIndex<kTable>;
  STATIC_REQUIRE(I::states == 4);  // A..D: D appears as a target only
  STATIC_REQUIRE(I::events == 3);  // Go, Back, Skip
  CHECK(base::step<kTable>("t", TS::B, TE::Go) == TS::C);
  int legal = 0;
  for (int s = 0; s <= static_cast<int>(TS::Unused); ++s)
    for (int e = 0; e <= static_cast<int>(TE::Never); ++e) {
      const auto st = static_cast<TS>(s);
      const auto ev = static_cast<TE>(e);
      std::string walk, index;
      TS walk_to{}, index_to{};
      try {
        walk_to = base::step(kTable, "t", st, ev);
      } catch (const ProtocolError& x) {
        walk = x.what();
      }
      try {
        index_to = base::step<kTable>("t", st, ev);
      } catch (const ProtocolError& x) {
        index = x.what();
      }
      INFO("state " << to_string(st) << ", event " << to_string(ev));
      CHECK(index == walk);
      if (walk.empty()) {
        CHECK(index_to == walk_to);
        ++legal;
      }
    }
  CHECK(legal == 5);  // the distinct pairs of the six rows
}
