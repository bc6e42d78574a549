// The check shared by the platform's SimGrid test programs (each its own process: SimGrid allows one engine per
// process): prints one line and counts a failure in `failures`, which the program returns.
#pragma once
#include <cstdio>

namespace ompisim::platform_test {

inline int failures = 0;

inline void check(bool ok, const char* what, double got, double want) {
  std::printf("%s %s: %.6g (expected %.6g)\n", ok ? "ok  " : "FAIL", what, got, want);
  if (!ok) ++failures;
}

}  // namespace ompisim::platform_test
