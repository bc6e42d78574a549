// The cost of a run, estimated before it starts: a terminal user is told when a run will be long, and --max-events
// stops one (exit status 2, nothing written) whose estimate is above a bound, for sweeps and scripts.
// Events = ranks x benchmark loop iterations (timed + warm-up, per message size) x messages per rank per iteration
// (x each rank count and each value of the benchmark's own axis, a barrier's radix list: every one is a run),
// the count the benchmark registry declares (bench::MessageCount): 2 for a point-to-point pair, 1 + ceil(log2 P) for a
// tree or dissemination collective and a barrier, P - 1 for an alltoall or allgather. Loop counts are the benchmark
// block's "iterations", "skip" and "sizes", else the leading number of the defaults the benchmark registry documents
// for them (an upper bound where the default varies by size); a driver with a steady-state cutoff (the OSU
// collectives, unless "steady_state" is 0) counts the fewest calls per size it simulates (2; a series that settles
// only by its block-means rule takes 17 or more, benchmarks/osu_coll.cpp). A benchmark whose length
// is its input declares how to count it (bench::MessageCount::from_input): a trace replay counts its trace, the
// point-to-point sends (send, isend, sendRecv) one message each and every collective call at the counts above (P - 1
// for alltoall(v) and allgather(v), else 1 + ceil(log2 P)), from the action files' text without parsing their
// arguments (benchmarks/replay/ti_reader.hpp count_actions): whole when the files fit in 16 MiB, else the first bytes
// of each (16 MiB over the files, at least 16 KiB; at most 1,024 files, evenly spaced, scaled by the rank count)
// scaled by its size, as the text then says ("about N communication actions in the trace ...; counted in the first
// 16 KiB of each of its 1024 action files, scaled by their sizes"); a trace that cannot be read is left to the
// replay's own reader, and the per-iteration count applies. An app skeleton counts its phases' messages over its steps
// (benchmarks/app_skeleton.cpp skeleton_messages). LIMITATIONS: an order of magnitude, not a prediction: a skeleton's
// fit_compute runs are not counted; a sampled trace's count assumes its files' first bytes hold the same mix of
// actions as the rest.
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
// alltoall sweep 59.86 s, the qsnet 4,096-node barriers 3.30 s and 2.02 s (1.59 s and 0.93 s since barrier_loop's
// cutoff simulates 12 of their 22 calls: the figures runner/tests checks), the 9,408-rank allreduce what-ifs 2.97 s
// and 10.13 s). Counted with the registry's messages per rank and the cutoff's calls, each of these runs took between 1/13
// and 36 times the estimate's time (the 9,408-rank UGAL allreduce, whose series did not settle (5 of 5 calls
// simulated, 2 counted), 36 times; the minimal one 10.5; the alltoalls 5.4 to 7.4 (fig7_alltoall_512p_h2h_native
// 6.4); a hierarchical barrier down to 1/13); the rate is the one fitted with the earlier count (1 + ceil(log2 P)
// messages for every benchmark, every call), kept: the same runs' geometric mean of measured / estimate is now 1.3 (the
// seven Targets runs 2.9). The fluid engine's one-call 64 KiB alltoalls of bench/README.md took 5.9 (2,048 ranks) and
// 9.8 (4,096) times the estimate; the default (lmm) engine's 2,048-rank call (81 us a message) about 81 times, which is
// why the notice names the fluid engine for such runs (engine_hint). Wall time on a loaded machine is up to 4 times
// the CPU time. runner/tests (`[estimate]`) checks these figures against it. The trace replays of bench/replay_gen.py's
// halo exchange, counted from their traces (sampled), fall in the same range: 256 ranks x 1 M actions (estimate
// 4.8e5) took 0.73 s on the loggp stack, 4.70 s on Cielo's openmpi stack and 1.73 s there on the fluid engine (medians
// of paired runs, load 2-3): 1.5, 9.8 and 3.6 times the estimate; bench/replay_bench.sh's 1,024 ranks x 10 M
// (4.9e6; bench/README.md, Trace replay, quiet machine) 8.33 s on loggp, 167.24 s on Cielo and 33.58 s there on fluid:
// 1.7, 34 and 6.9 times. Under kEventsWorthSaying, that 10 M replay gets no terminal notice although it takes
// 167 s on Cielo's default engine; --max-events stops it.
constexpr double kEventsPerSecond = 1e6;
// Above this many events (about 10 s of CPU at that rate) a run on a terminal prints its estimate first.
constexpr double kEventsWorthSaying = 1e7;
// Above this many (about an hour of CPU) it prints it wherever stderr goes (a batch job's log, a pipe), unless --quiet.
constexpr double kEventsAlwaysSaid = 3.6e9;
// "about 2.1e+12 events (messages: 1048576 ranks x 1000010 iterations x 21 per rank and iteration), about 24 days of
// CPU time (at 1e+06 messages per CPU second, ...)".
std::string estimate_text(const Scenario& s, double events);
// "about 3 hours" of CPU time for that many events (at kEventsPerSecond).
std::string events_duration(double events);
// The benchmark's reason why that estimate is low for this scenario (bench::Driver::estimate_caveat, at the first of
// its rank counts that has one: an alltoall whose algorithm posts every request at once), or "".
std::string estimate_caveat(const Scenario& s);
// Whether a run's notice also names the fluid engine: the scenario names an engine that re-solves whole connected sets
// of flows (EngineInfo::resolves_whole_component: lmm, simgrid), the estimate is above
// kEventsWorthSaying and the benchmark sends a block to every rank (bench::MessageCount::all_pairs: an alltoall or
// allgather), where that engine's max-min solves over many concurrent flows cost the most CPU, or declares
// what the fluid engine measured faster on its runs (bench::MessageCount::fluid_measured: replay, 0.36 of the lmm
// engine's CPU on Cielo's openmpi stack, the same on loggp, whose messages in that trace start no flows).
bool engine_hint_applies(const Scenario& s, double events);
// That line ("osu_alltoall sends a block to every rank: the fluid engine (the default; --engine fluid) runs ...",
// "replay on the 'lmm' engine, which re-solves ...: the fluid engine (the default; --engine fluid) took 0.36 of its
// CPU time ..."), or "" when it does not apply.
std::string engine_hint(const Scenario& s, double events);
// Throws InputError("--max-events", given, ...) when the estimate is above max_events (0: no bound); given is the
// option's value as the user wrote it ("1e6"), echoed as the key.
void check_max_events(const Scenario& s, double max_events, const std::string& what, const std::string& given = "");

}  // namespace ompisim
