#include "core/progress.hpp"

#include <chrono>
#include <cstdio>
#include <fmt/format.h>

namespace ompisim::progress {

bool g_enabled = false;
bool g_quiet = false;

namespace {
using Clock = std::chrono::steady_clock;
struct State {
  Clock::time_point start = Clock::now();      // of the points
  std::size_t done = 0, total = 0;
  std::string what;
  bool shown = false;
  Clock::time_point sim_start{}, last_print{};
  std::uint64_t sim_events_at_start = 0;
  bool sim_started = false;
} st;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string clock_text(double s) {
  auto t = static_cast<long long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

void print(const std::string& l) {
  std::fprintf(stderr, "\r\033[K%s", l.c_str());
  std::fflush(stderr);
  st.shown = true;
}
}  // namespace

void set_enabled(bool on) { g_enabled = on; }
void set_quiet(bool on) { g_quiet = on; }

std::string line(std::size_t done, std::size_t total, double elapsed, const std::string& what, double sim_now,
                 double events_per_s) {
  std::string l;
  if (total > 0) {
    l = fmt::format("[{}/{} done, {} left] {} elapsed", done, total, total - done, clock_text(elapsed));
    if (done > 0 && done < total) l += fmt::format(", ~{} left", clock_text(elapsed / static_cast<double>(done) * static_cast<double>(total - done)));
    if (!what.empty()) l += "  " + what;
  }
  if (sim_now >= 0) {
    if (!l.empty()) l += " | ";
    l += fmt::format("simulated {:.6g} us, {:.3g} M events/s", sim_now * 1e6, events_per_s / 1e6);
  }
  return l.size() > 160 ? l.substr(0, 157) + "..." : l;
}

void points(std::size_t done, std::size_t total, const std::string& what) {
  if (done == 0 && (total != st.total || st.done != 0)) st.start = Clock::now();
  st.done = done, st.total = total, st.what = what;
  st.sim_started = false;
  if (!g_enabled) return;
  if (done >= total) {
    clear();
    return;
  }
  print(line(done, total, seconds(Clock::now() - st.start), what));
}

void sim_tick(double sim_now, std::uint64_t events) {
  if (!g_enabled) return;
  const auto now = Clock::now();
  if (!st.sim_started) {
    st.sim_started = true;
    st.sim_start = now;
    st.sim_events_at_start = events;
    st.last_print = now;
    return;
  }
  const double ran = seconds(now - st.sim_start);
  if (ran < 2.0 || seconds(now - st.last_print) < 0.5) return;
  st.last_print = now;
  const double rate = static_cast<double>(events - st.sim_events_at_start) / ran;
  print(line(st.done, st.total, seconds(now - st.start), st.what, sim_now, rate));
}

void clear() {
  if (!g_enabled) return;  // also a line a simulation process (a child) left
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  st.shown = false;
}

}  // namespace ompisim::progress
