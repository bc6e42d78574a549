// FNV-1a (64-bit) over bytes: the project's one name hash, for file names derived from inputs (a sweep point's
// file, a what-if run's default folder) and for colours; not for security.
#pragma once

#include <cstdint>
#include <string_view>

namespace ompisim {

inline std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace ompisim
