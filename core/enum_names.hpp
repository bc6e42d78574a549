// Enumerator names in one way everywhere: an enum's names are an array written in the enum's order, and
// to_string(Enum) is a one-line call of name_of over it. The array's length is checked against the enum at compile
// time, so a name array that misses an enumerator, or has one too many, does not compile.
#pragma once
#include <array>
#include <cstddef>

namespace ompisim {

// The name of enumerator `v` from `names`, one per enumerator up to `Last`, the enum's last enumerator. "?" outside it
// (a value cast from outside the enum).
template <auto Last, std::size_t N>
constexpr const char* name_of(decltype(Last) v, const std::array<const char*, N>& names) {
  static_assert(N == static_cast<std::size_t>(Last) + 1, "one name per enumerator, in the enum's order");
  const auto i = static_cast<std::size_t>(v);
  return i < N ? names[i] : "?";
}

}  // namespace ompisim
