// The cost of a run, estimated before it starts: a terminal user is told when a run will be long, and --max-events
// stops one (exit status 2, nothing written) whose estimate is above a bound, for sweeps and scripts.
// Events = ranks x benchmark loop iterations (timed + warm-up, per message size) x messages per rank per iteration,
// with 1 + ceil(log2(ranks)) messages per rank per iteration: a ping-pong's two, a tree or dissemination
// collective's log2(P) rounds. Loop counts are the benchmark block's "iterations", "skip" and "sizes", else the leading
// number of the defaults the benchmark registry documents for them (an upper bound where the default varies by
// size). LIMITATIONS: an order of magnitude, not a prediction: a benchmark without loop keys (replay, app skeletons)
// counts one iteration.
#pragma once
#include "runner/scenario.hpp"

#include <string>

namespace ompisim {

double estimate_events(const Scenario& s);
// Messages simulated per second, measured: Titan p2p barrier (cheetah-p2p), 65,536 ranks x 20 iterations, estimate
// 2.23e7, 20,971,520 sends, 201.7 s wall on a 2-core machine shared with other builds (load about 9): 1.0e5 per
// second. An idle machine is faster: the time shown is an upper figure.
constexpr double kEventsPerSecond = 1e5;
// Above this many events (about 100 s at that rate) a run on a terminal prints its estimate first.
constexpr double kEventsWorthSaying = 1e7;
// "about 2.1e+12 events (messages: 1048576 ranks x 1000010 iterations x 21 per rank and iteration), at most about
// 243 days (at 1e+05 messages/s, ...)": the rate is a loaded machine's, so the time is an upper figure.
std::string estimate_text(const Scenario& s, double events);
// Throws InputError("--max-events", given, ...) when the estimate is above max_events (0: no bound); given is the
// option's value as the user wrote it ("1e6"), echoed as the key.
void check_max_events(const Scenario& s, double max_events, const std::string& what, const std::string& given = "");

}  // namespace ompisim
