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
// Estimated messages simulated per second of CPU time (user time of the run and its child processes), fitted as the
// geometric mean of estimate / measured CPU seconds over 17 runs of 2 to 299,008 ranks (1.07e6, rounded): ten
// committed scenarios and a Titan p2p barrier of 65,536 ranks x 20 iterations timed with /usr/bin/time at `a6ea5282`
// on the shared 2-core machine (load 5; fig5_latency_2p_inter_openmpi 0.42 s, qsnet whatif_barrier_512_openmpi 0.17 s,
// gemini fig7_barrier_cheetah_p2p 2.45 s, whatif_barrier_titan_hierarchical_radix8 0.92 s,
// fig3_multi_lat_16p_intra_openmpi 1.64 s, seastar fig2_netpipe_openmpi-ob1 0.09 s, slingshot
// fig8_bcast_512p_h2h_native 0.39 s, whatif_routing_minimal_alltoall_64p_8groups 0.18 s,
// fig7_alltoall_512p_h2h_native 20.13 s, Titan p2p 65,536 x 20 53.23 s), and the seven CPU figures of
// bench/README.md's Targets (Titan p2p and atomic barriers of 299,008 ranks 7.53 s and 0.74 s, the Slingshot 512-rank
// alltoall sweep 59.86 s, the qsnet 4,096-node barriers 3.30 s and 2.02 s, the 9,408-rank allreduce what-ifs 2.97 s and
// 10.13 s). Each run took between 1/13 and 15 times the estimate's time (an alltoall, whose P - 1 messages a rank the
// count above takes for log2(P), up to 15 times; a run cut short by a steady-state cutoff, or a hierarchical barrier,
// down to 1/13); wall time on a loaded machine is up to 4 times the CPU time. The rate it replaced, 1e5 messages per
// wall second, was one loaded run's (a Titan p2p barrier at load 9) and made the estimate about 16 times too long over
// these runs. runner/tests (`[estimate]`) checks the Targets' figures against it.
constexpr double kEventsPerSecond = 1e6;
// Above this many events (about 10 s of CPU at that rate) a run on a terminal prints its estimate first.
constexpr double kEventsWorthSaying = 1e7;
// "about 2.1e+12 events (messages: 1048576 ranks x 1000010 iterations x 21 per rank and iteration), about 24 days of
// CPU time (at 1e+06 messages per CPU second, ...)".
std::string estimate_text(const Scenario& s, double events);
// Throws InputError("--max-events", given, ...) when the estimate is above max_events (0: no bound); given is the
// option's value as the user wrote it ("1e6"), echoed as the key.
void check_max_events(const Scenario& s, double max_events, const std::string& what, const std::string& given = "");

}  // namespace ompisim
