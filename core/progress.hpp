// Progress on stderr for long work (reproduce, a sweep's points, compare --against, a long simulation): one line,
// rewritten in place, with the points done and left, the time elapsed and an estimate of the time left, and, while a
// simulation runs, the simulated time reached and the events per second. Only when stderr is a terminal and the user
// did not ask for --quiet (tools/ompisim decides once, set_enabled); never on a pipe or a file, so logs and tests see
// nothing of it. The state is per process and inherited by the simulation processes the runner forks, so a point's
// simulation shows its point's place in the sweep.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ompisim::progress {

extern bool g_enabled, g_quiet;
inline bool enabled() { return g_enabled; }
void set_enabled(bool on);
// The user asked for --quiet: no progress of any kind, not even the plain lines a log gets when stderr is no terminal.
inline bool quiet() { return g_quiet; }
void set_quiet(bool on);
// `done` of `total` points are finished; `what` is the one starting now. Prints the line (when enabled).
void points(std::size_t done, std::size_t total, const std::string& what);
// From the engines, every few thousand events: the simulated time reached and the events run so far. Prints at most
// every half second, and only once the simulation has run for 2 s.
void sim_tick(double sim_now, std::uint64_t events);
// Erases the line (before printing something else, and at the end).
void clear();
// The line for the given state (for tests; no terminal needed).
std::string line(std::size_t done, std::size_t total, double elapsed_s, const std::string& what, double sim_now = -1,
                 double events_per_s = -1);

}  // namespace ompisim::progress
