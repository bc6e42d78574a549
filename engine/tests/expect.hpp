// Checks shared by the engine test programs (each its own process: SimGrid allows one engine per process). Each
// prints one line and counts a failure in `failures`, which the program returns.
#pragma once
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>

namespace ompisim::engine_test {

inline int failures = 0;

// A simulated time equal to the expected one within 1e-9 relative.
inline void expect_time(const char* what, double got, double want) {
  bool ok = std::abs(got - want) <= 1e-9 * std::abs(want);
  std::printf("%-56s %.12g (expected %.12g) %s\n", what, got, want, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

// A call that must throw (misuse of the engine interface).
inline void expect_throw(const char* what, const std::function<void()>& fn) {
  bool threw = false;
  try {
    fn();
  } catch (const std::exception& e) {
    threw = true;
    std::printf("%-56s threw: %s\n", what, e.what());
  }
  if (!threw) {
    std::printf("%-56s did not throw: FAILED\n", what);
    ++failures;
  }
}

}  // namespace ompisim::engine_test
