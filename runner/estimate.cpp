#include "runner/estimate.hpp"

#include "benchmarks/driver.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ompisim {

namespace {
// The leading number of a documented default ("10000 up to 8 KiB, 1000 above" -> 10000; "23 sizes, ..." -> 23).
double leading_number(const std::string& text) {
  std::size_t i = 0;
  double v = 0;
  bool any = false;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') v = v * 10 + (text[i++] - '0'), any = true;
  return any ? v : -1;
}
// A loop count of the block: its value, else the registry's documented default, else `absent`.
double loop_count(const Scenario& s, const std::string& key, double absent) {
  const Json& b = s.benchmark_block;
  if (b.contains(key)) {
    const Json& v = b.at(key);
    if (v.is_number()) return std::max(0.0, v.get<double>());
    if (v.is_array()) return static_cast<double>(v.size());
  }
  if (const bench::DriverInfo* d = bench::driver_registry().find(s.benchmark))
    for (const auto& p : d->params)
      if (p.name == key) {
        double n = leading_number(p.default_value);
        return n >= 0 ? n : absent;
      }
  return absent;
}
struct Parts {
  double ranks, iterations, sizes, messages;
};
Parts parts(const Scenario& s) {
  double ranks = 0;
  for (long long r : s.ranks) ranks = std::max(ranks, static_cast<double>(r));
  const double iterations = loop_count(s, "iterations", 1) + loop_count(s, "skip", 0);
  const double sizes = std::max(1.0, loop_count(s, "sizes", 1));
  const double messages = 1 + std::ceil(std::log2(std::max(ranks, 1.0)));
  return {ranks, iterations, sizes, messages};
}
std::string duration(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{:.0f} h", seconds / 3600);
  return fmt::format("{:.0f} days", seconds / 86400);
}
}  // namespace

double estimate_events(const Scenario& s) {
  const Parts p = parts(s);
  return p.ranks * p.iterations * p.sizes * p.messages * static_cast<double>(std::max<std::size_t>(1, s.ranks.size()));
}

std::string estimate_text(const Scenario& s, double events) {
  const Parts p = parts(s);
  return fmt::format("about {:.2g} events (messages: {} ranks x {} iterations{} x {} per rank and iteration{}), about "
                     "{} of CPU time (at {:.0e} messages per CPU second; measured runs took 1/13 to 15 times the "
                     "estimate: runner/estimate.hpp)",
                     events, p.ranks, p.iterations, p.sizes > 1 ? fmt::format(" x {} sizes", p.sizes) : "", p.messages,
                     s.ranks.size() > 1 ? fmt::format(" x {} rank counts", s.ranks.size()) : "",
                     duration(events / kEventsPerSecond), kEventsPerSecond);
}

void check_max_events(const Scenario& s, double max_events, const std::string& what, const std::string& given) {
  if (max_events <= 0) return;
  const double e = estimate_events(s);
  if (e > max_events)
    throw InputError("--max-events", given.empty() ? fmt::format("{:.0f}", max_events) : given,
                     fmt::format("{} would take {}: above the bound, not started", what, estimate_text(s, e)));
}

}  // namespace ompisim
