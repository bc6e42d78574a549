#include "runner/estimate.hpp"

#include "benchmarks/driver.hpp"
#include "runner/registries.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <optional>

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
// The largest of the scenario's rank counts.
double max_ranks(const Scenario& s) {
  double ranks = 0;
  for (long long r : s.ranks) ranks = std::max(ranks, static_cast<double>(r));
  return ranks;
}
// The benchmark's declared count of messages per rank and iteration (the default's for a name not registered: the
// scenario's own checks refuse it).
const bench::MessageCount& message_count(const Scenario& s) {
  static const bench::MessageCount none{};
  const bench::DriverInfo* d = bench::driver_registry().find(s.benchmark);
  return d ? d->messages : none;
}
// The run's messages counted from the benchmark's input (bench::MessageCount::from_input), when the benchmark declares
// such a count and its input could be read. The last count is kept for the driver it was made for (alive, so the same
// object): a run's notice and its --max-events check ask again without reading the input again.
std::optional<bench::InputMessages> input_messages(const Scenario& s) {
  const bench::MessageCount& c = message_count(s);
  if (!c.from_input || !s.driver) return std::nullopt;
  static std::mutex mutex;
  static std::weak_ptr<const bench::Driver> counted;
  static std::optional<bench::InputMessages> count;
  const std::lock_guard lock(mutex);
  if (counted.lock() == s.driver) return count;
  count = c.from_input(*s.driver, max_ranks(s));
  counted = s.driver;
  return count;
}
// The calls per size a steady-state cutoff simulates at the fewest (bench::DriverInfo::steady_state), when it is on;
// otherwise no bound.
double cutoff_calls(const Scenario& s) {
  const bench::DriverInfo* d = bench::driver_registry().find(s.benchmark);
  if (!d || !d->steady_state) return HUGE_VAL;
  const std::string& key = d->steady_state->key;
  double tol = 0;
  if (s.benchmark_block.contains(key) && s.benchmark_block.at(key).is_number())
    tol = s.benchmark_block.at(key).get<double>();
  else
    for (const auto& p : d->params)
      if (p.name == key) tol = std::strtod(p.default_value.c_str(), nullptr);
  return tol > 0 ? d->steady_state->calls : HUGE_VAL;
}
// The values of the benchmark's own axis (a barrier's radix list), each run once per rank count: 1 without one.
double axis_runs(const Scenario& s) {
  return s.driver ? static_cast<double>(std::max<std::size_t>(1, s.driver->axis_values().size())) : 1.0;
}
// iterations: the calls per size the estimate counts (the steady-state cutoff's fewest where it is on); all_calls:
// every call, warm-up included, which a series that never settles simulates.
// calls: the calls over all sizes (iterations x sizes, or the driver's count where its loop differs by size, said by
// calls_how).
// messages_how: how the driver counted the messages per rank and call where its input sets them ("" : registered).
struct Parts {
  double ranks, iterations, sizes, messages, all_calls, calls;
  std::string calls_how, messages_how;
};
Parts parts(const Scenario& s) {
  const double ranks = max_ranks(s);
  const double all_calls = loop_count(s, "iterations", 1) + loop_count(s, "skip", 0);
  const double iterations = std::min(all_calls, cutoff_calls(s));
  const double sizes = std::max(1.0, loop_count(s, "sizes", 1));
  Parts p{ranks, iterations, sizes, message_count(s).at(ranks), all_calls, iterations * sizes, "", ""};
  if (s.driver) {
    if (auto c = s.driver->calls_over_sizes(cutoff_calls(s))) p.calls = c->calls, p.calls_how = c->how;
    if (auto m = s.driver->messages_per_call()) p.messages = m->messages, p.messages_how = m->how;
  }
  return p;
}
// "about 12 s", "about 3 min", ...; "under 1 s" for what would round to 0 s.
std::string duration(double seconds) {
  if (seconds < 0.5) return "under 1 s";
  if (seconds < 120) return fmt::format("about {:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("about {:.0f} min", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("about {:.0f} h", seconds / 3600);
  return fmt::format("about {:.0f} days", seconds / 86400);
}
}  // namespace

double estimate_events(const Scenario& s) {
  if (const auto in = input_messages(s)) return in->messages;
  const Parts p = parts(s);
  return p.ranks * p.calls * p.messages * static_cast<double>(std::max<std::size_t>(1, s.ranks.size())) * axis_runs(s);
}

std::string events_duration(double events) { return duration(events / kEventsPerSecond); }

std::string estimate_text(const Scenario& s, double events) {
  const std::string cpu = fmt::format("{} of CPU time (at {:.0e} messages per CPU second; measured runs took 1/13 "
                                      "to 36 times the estimate: runner/estimate.hpp)",
                                      duration(events / kEventsPerSecond), kEventsPerSecond);
  if (const auto in = input_messages(s)) return fmt::format("about {:.2g} messages ({}), {}", events, in->source, cpu);
  const Parts p = parts(s);
  const bench::MessageCount& c = message_count(s);
  const double axis = axis_runs(s);
  // A steady-state cutoff stops a size once its calls agree: the estimate counts its fewest calls, and says how many
  // a series that never settles (contention that differs from call to call) simulates.
  const bool cut = p.iterations < p.all_calls;
  const std::string unsettled =
      cut ? fmt::format("; where the calls never agree, all {:g} calls: about {:.2g} messages, {}", p.all_calls,
                        events * p.all_calls / p.iterations,
                        duration(events * p.all_calls / p.iterations / kEventsPerSecond))
          : "";
  const std::string calls =
      !p.calls_how.empty() ? fmt::format("{:g} calls over {:g} size{} ({})", p.calls, p.sizes, p.sizes == 1 ? "" : "s",
                                               p.calls_how)
                           : fmt::format("{} iterations{}{}", p.iterations,
                                         cut ? " (the fewest a steady-state cutoff simulates)" : "",
                                         p.sizes > 1 ? fmt::format(" x {} sizes", p.sizes) : "");
  return fmt::format("about {:.2g} messages ({} ranks x {} x {} per rank and iteration{}{}), {}{}", events, p.ranks,
                     calls,
                     fmt::format("{:g}{}", p.messages,
                                 !p.messages_how.empty()                    ? " (" + p.messages_how + ")"
                                 : c.per_round != 0 || c.per_peer != 0 ? " (" + c.formula() + ")"
                                                                       : ""),
                     s.ranks.size() > 1 ? fmt::format(" x {} rank counts", s.ranks.size()) : "",
                     axis > 1 ? fmt::format(" x {:g} {} values", axis, s.driver->axis()) : "", cpu, unsettled);
}

std::string estimate_caveat(const Scenario& s) {
  for (long long n : s.ranks)
    if (std::string c = s.driver->estimate_caveat(n); !c.empty())
      return s.packet_trains > 0 ? c
                                 : c + "; the scenario key \"packet_trains\" (a size, approximate) times its transfers "
                                       "up to that size FIFO per link instead of as shared flows (bench/README.md, "
                                       "\"Packet trains\": 512 ranks of 64 KiB, 23.3 s of CPU as flows, 0.7 s as trains)";
  return {};
}

bool engine_hint_applies(const Scenario& s, double events) {
  const bench::MessageCount& c = message_count(s);
  const EngineInfo* e = engines().find(s.engine);
  return e && e->resolves_whole_component && events > kEventsWorthSaying &&
         (c.all_pairs() || !c.fluid_measured.empty());
}

std::string engine_hint(const Scenario& s, double events) {
  if (!engine_hint_applies(s, events)) return {};
  const bench::MessageCount& c = message_count(s);
  if (!c.fluid_measured.empty())
    return fmt::format("{} on the '{}' engine, which re-solves every flow in flight at each flow start and end: the "
                       "fluid engine (the default; --engine fluid) {}",
                       s.benchmark, s.engine, c.fluid_measured);
  return fmt::format("{} sends a block to every rank: the fluid engine (the default; --engine fluid) runs its flows in "
                     "far less CPU time than '{}', which re-solves every flow in flight at each flow start and end "
                     "(bench/README.md, Targets), with the same values (engine/README.md, the completion grid)",
                     s.benchmark, s.engine);
}

void check_max_events(const Scenario& s, double max_events, const std::string& what, const std::string& given) {
  if (max_events <= 0) return;
  const double e = estimate_events(s);
  if (e > max_events)
    throw InputError("--max-events", given.empty() ? fmt::format("{:.0f}", max_events) : given,
                     fmt::format("{} would take {}: above the bound, not started", what, estimate_text(s, e)));
}

}  // namespace ompisim
