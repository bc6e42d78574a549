// The benchmarks' configurations and run functions: the OSU micro-benchmarks (v5.x semantics and defaults), NetPIPE,
// Sandia SMB, an MPI_Barrier loop running the collective schedules of collectives/, application skeletons. Each runs
// the ranks' programs on a Stack and returns result points. The runner reaches them through the driver registry
// (driver.hpp), never by name.
#pragma once
#include "core/json_input.hpp"
#include "mpi/datatype.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <functional>
#include <string>
#include <vector>

namespace ompisim::bench {

struct OsuConfig {
  std::string name;                 // osu_latency, osu_multi_lat, osu_bw, osu_bibw, osu_mbw_mr
  std::vector<std::uint64_t> sizes;
  long long iterations = -1, skip = -1, window = 64;  // -1: OSU's defaults (small / large message)
  std::uint64_t buffer_offset = 0;  // added to buffer addresses (0: page aligned, as OSU allocates)
  // "alloc": how the benchmark allocates its data buffers: malloc (false) or MPI_Alloc_mem (true: registered with
  // every BTL's memory pool, platform/alloc_mem.hpp; NetPIPE's MPI module with its MPI_Alloc_mem option, the heterogeneous
  // paper's Fig. 2).
  bool alloc_mem = false;
  MemKind buffer = MemKind::Host;   // "buffer": "host" | "device" (OSU's -d rocm/cuda D D: each rank's GPU, the one
                                    // nearest its core unless bound otherwise)
  // Ping-pong only: the initiating rank posts the receive for the reply before it sends (true), or after its send
  // has completed (false, as osu_latency's MPI_Send then MPI_Recv). A what-if knob: a reply that arrives before its
  // receive is posted takes the unexpected path (long ones on Portals: truncated, then fetched with a get).
  bool prepost = false;
  // The datatype of the data messages (the modified NetPIPE of the heterogeneous paper's Fig. 3 sends MPI_INTs):
  // every size is a whole number of its elements; MPI_BYTE is never converted, typed data between ranks of different
  // architectures is converted by the receiver.
  mpi::Datatype datatype = mpi::kByte;
  // smb_overhead only
  std::string side = "recv";        // which side's CPU availability is measured: "send" or "recv"
  double threshold_pct = 10;        // work grows until the iteration is this much longer than without work
};

// One phase of an application skeleton step (benchmarks/apps/*.json; see app_skeleton.cpp for the semantics).
struct AppPhase {
  std::string kind;                 // compute, halo, sendrecv, swap, allreduce, alltoall, bcast, gather, barrier
  double share = 0;                 // compute: share of compute_per_step; halo: compute overlapped with the exchange
  std::uint64_t bytes = 0;          // halo, collectives: message (alltoall: per-peer block) size
  std::vector<std::uint64_t> sizes; // sendrecv: the messages exchanged per direction, one MPI_Sendrecv each
  int count = 1, every = 1;         // repetitions per step; run on steps s with (s + 1) % every == 0
  int dims = 0;                     // halo: 2 or 3 (periodic process grid, MPI_Dims_create)
  int axis = -1;                    // halo: only the two neighbours along this dimension (-1: all)
  double late_fraction = 0;         // halo: share of receives posted after the overlapped compute
  std::string comm = "world";       // collectives: world, row or col of a (P / group) x group process grid
  int group = 0;
  int stride = 1, directions = 2;   // sendrecv: ring shift by stride, in 1 or 2 directions
  int root = 0;                     // bcast, gather
  int mask = 0;                     // swap: the partner is rank XOR mask (binary-swap compositing)
  std::string routine;              // the MPI routine mpiP charges the phase's MPI time to (app_skeleton.cpp)
};

// A skeleton input the paper does not fix (a message size, a count), declared in the skeleton's "estimates" as the
// machine files declare theirs: {"value", "source", "status": "estimate", "range": [lo, hi], "range_source"}, and
// used by its phases as "$name". validate's prediction intervals sample the range (validation/intervals.hpp).
struct AppEstimate {
  std::string name;                 // its key in "estimates"
  Dim dim = Dim::Bytes;             // Bytes (a size with its unit, or integer bytes) or Count (a plain integer)
  double value = 0, lo = 0, hi = 0;
  std::string source, range_source;
};

struct AppConfig {
  std::string app, file;            // Table 1 name ("POP"), skeleton file
  long long paper_ranks = 0;        // Table 1 process count
  int steps = 1;
  double compute_per_step = 0;      // seconds of computation per step (mean over ranks): the stored fit; 0: fit now
  double compute_initial = 1e-3;    // the fit's starting point
  double imbalance = 0;             // rank r computes compute_per_step x (1 + imbalance x u_r), u_r in [-1, 1]
  double target_mpi_pct = 0;        // Table 1 "Ave MPI Time %" (the fit's target, with openmpi-cm)
  Json table1;                      // the paper's row, reported next to the simulated values (null: none, e.g. a
                                    // skeleton whose paper gives run times only; then no MPI-share fit)
  std::vector<AppPhase> phases;
  // "alloc" (optional, {"value", "source"}): how the application allocates its message buffers, "malloc" (the
  // default) or "mpi_alloc_mem" (registered with every BTL's memory pool, platform/alloc_mem.hpp).
  bool alloc_mem = false;
  std::vector<AppEstimate> estimates;  // the inputs sampled by the prediction intervals, as resolved (after `set`)
  // The collective library (benchmark "collectives"): empty = the coll/base algorithm named per kind in app_skeleton.cpp
  // at every size; else a decision table's name ("tuned-v1.3", "mpich2-1.0", collectives/decision.hpp) and its data,
  // which picks each collective phase's algorithm by communicator size and bytes.
  std::string coll_library;
  Json coll_lib;
  bool coll_named = false;  // the block names the library; else the stack preset's, where it is one of the above
};

struct BarrierConfig {
  std::string algorithm = "cheetah-atomic";
  // With "tuned": the stack's collective library (DriverContext::stack_collectives), whose "barrier" table decides
  // where it has one (coll/tuned v4.1-v5.0); otherwise, or when empty, the v1.7-v4.0 rule.
  std::string library;
  int radix = 4;
  long long iterations = 100, skip = 10;
  double steady_tol = 0;  // the steady-state cutoff's tolerance (benchmarks/barrier.cpp; the driver's default: its
                          // declared "steady_state"); 0: every call simulated
};

// One member of the OSU-style point-to-point family: its traffic pattern, default sizes, loop counts and what it
// reports. osu.cpp registers one driver per member; run_osu looks its member up by OsuConfig::name in this table, so
// no code tests a member's name.
struct OsuKind {
  enum class Pattern { PingPong, Stream, BiStream };  // ping-pong; windows one way and acknowledged; both ways
  std::string name;
  Pattern pattern;
  bool two_ranks;  // exactly 2 ranks (else N/2 pairs, rank i with i + N/2)
  std::vector<std::uint64_t> (*default_sizes)();
  long long iters_small, iters_large, skip_small, skip_large;  // up to / above 8 KiB (OSU LARGE_MESSAGE_SIZE)
  bool latency_and_bandwidth;  // a ping-pong that reports bandwidth too (NetPIPE)
  bool message_rate;           // reports messages per second (osu_mbw_mr)
  bool barrier_at_skip;        // an MPI_Barrier of all ranks before the timer starts (osu_mbw_mr.c calc_bw: at i == skip)
  std::string description, title;  // title: OMB's own table header ("" for NetPIPE)
};
const std::vector<OsuKind>& osu_kinds();
const OsuKind& osu_kind(const std::string& name);  // std::invalid_argument when not a member
// OSU defaults: iterations and skip for a message size.
void osu_loop(const OsuKind& k, std::uint64_t size, long long& iters, long long& skip);

// Runs the benchmark and returns the points ({"bytes", "latency_us"} or {"bytes", "bandwidth_GBps", ...}).
Json run_osu(World& w, Stack& s, const OsuConfig& c);
// One barrier_loop point: {"ranks", "latency_us", "algorithm"}.
Json run_barrier(World& w, Stack& s, const BarrierConfig& c, const std::string& file);
std::vector<std::string> barrier_algorithm_names();
// Application skeletons (seastar-portals paper §4, Table 1): benchmarks/apps/*.json.
std::vector<std::string> app_names();
// Loads the skeleton named `app` (errors name `file` and `key`, with a did-you-mean for unknown apps). `set`: values of
// its estimates (name without the app, value as text: "128 KiB", "40"), applied in order before the phases are read;
// an unknown name is an InputError naming `file` and "<set_key>.<name>".
AppConfig load_app(const std::string& app, const std::string& file, const std::string& key,
                   const std::vector<std::pair<std::string, std::string>>& set = {},
                   const std::string& set_key = "benchmark.estimates");
// One point: {"app", "stack", "ranks", "runtime_s", "mpi_time_pct", ..., "short_msgs", "long_msgs", "unexpected_long",
// "routine_pct", "top_routines", "table1_lacks"}.
Json run_app(World& w, Stack& s, const AppConfig& c, const std::string& file);
// The fit of compute_per_step: `eval(c)` runs the skeleton with openmpi-cm and returns its point. Fixed-point
// iteration on the MPI time share; returns {"compute_per_step_s", "iterations": [...], "point": last point}.
Json fit_app_compute(const AppConfig& c, const std::function<Json(double)>& eval);
// osu_latency per size with the PML-and-above / PTL split of the stack's layer counters (qsnet-elan4 Fig. 9):
// {"bytes", "latency_us", "pml_us", "ptl_us"}.
Json run_pingpong_layers(World& w, Stack& s, const OsuConfig& c);
// Sandia SMB overhead benchmark (post-work-wait): {"bytes", "side", "availability_pct", "overhead_us", "work_us",
// "iteration_us"} per size.
Json run_smb(World& w, Stack& s, const OsuConfig& c);

}  // namespace ompisim::bench
