// replay: runs a SimGrid SMPI time-independent trace (smpirun -trace-ti; format in ti_trace.hpp, reader in
// ti_reader.hpp) on the scenario's machine and stack. Every rank reads its own action file lazily, one action at a
// time, and runs it:
//   compute flops    World::compute for flops / flop_rate on the rank's core (NIC interrupts lengthen it; no MPI
//                    progress meanwhile), counted as compute time; sleep: simulated time passes, counted as compute.
//   send/isend/recv/irecv/sendRecv   the stack's start_send / start_recv (pml/ob1 over its BTLs, pml/cm over its MTL,
//                    a native or the loggp stack): MPI_BYTE payloads of count x datatype size on MPI_COMM_WORLD with
//                    the trace's tag (sendRecv: tag 0, as SMPI's replay). Blocking calls wait for their request.
//   wait/test/waitall   the requests of isend/irecv are kept per rank and found by (src, dst, tag), first posted
//                    first, as SMPI's replay does: wait blocks on the first match (none: nothing to wait for); test
//                    removes it if complete (it costs no time); waitall blocks on every request kept.
//   collectives      a schedule of the collectives registry over the stack's point-to-point path (ScheduleExec), on
//                    MPI_COMM_WORLD with an internal (negative) tag. The algorithm: the benchmark's per-collective
//                    choice ("algorithms"), else the decision library's ("collectives": tuned = coll/tuned v5.0.x,
//                    mpich; by default the stack preset's where it is one of them, else tuned) for the collective,
//                    communicator and message size, else the fallback of the collective
//                    (replay_tables.cpp fallback(): the one coll/base algorithm this project has, or coll/tuned's fixed rule for
//                    the barrier). An algorithm the decision names but this project lacks falls back too, and is
//                    reported. The communicator is node-aware when some node holds two or more ranks (the placement's
//                    nodes, split as MPICH's MPIR_Comm_create_subcomms does: coll::NodeLayout), so "mpich" runs its
//                    node-aware bcast, allreduce and reduce compositions with the stages its table picks, as osu_coll
//                    does.
//                    Collectives no library table covers are built (replay_collectives.cpp) as coll/base's basic ones:
//                    alltoallv, gatherv and scatterv linear (every request at once, ompi_coll_base_*_intra_basic_
//                    linear), allgatherv a ring, reducescatter a reduce to rank 0 then a linear scatterv (coll/basic),
//                    scan and exscan a linear chain (coll/basic). A reduction's flops (the trace's comp_size) run on the
//                    rank's core after its data moved, inside the MPI call (as SMPI's replay does).
// Measured: per rank the end time (its last action), compute time and MPI time = end - compute (what an MPI
// profiler reports as time inside MPI); the replay's time is the last rank's end. Per collective: calls (summed over
// ranks), mean time per call, bytes; per message size (powers of two): point-to-point sends and bytes. Every rank's
// point-to-point sends and receives completed, with bytes (checked against the trace by tests/e2e/replay.sh). The
// protocol counters are the run's stats, as for every benchmark.
// LIMITATIONS: ranks start together at time 0 (SMPI starts its clock at MPI_Init); no communicator other than
// MPI_COMM_WORLD (the TI format records none); typed data is sent as bytes (no conversion between
// architectures); the v-collectives and scans are the basic algorithms named above whatever the library.
// This header: the run's state (per rank, per request, per collective call), shared by the interpreter
// (replay_run.cpp), the collectives' checks and schedules (replay_collectives.cpp) and the result's points
// (replay_result.cpp).
#pragma once
#include "benchmarks/coll_choice.hpp"
#include "benchmarks/replay/replay_run.hpp"
#include "benchmarks/replay/sends_in_flight.hpp"
#include "benchmarks/replay/ti_reader.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "collectives/registry.hpp"

#include <coroutine>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ompisim::bench::replay {

struct RankState;
struct Req {
  int src, dst, tag;
  bool done = false, waited = false;
  RankState* rs;
  mpi::Status status{};
  std::uint64_t line = 0;  // the action file's line that posted it
  std::uint64_t bytes = 0;  // the bytes it sends, or the receive buffer's size
};

struct RankState {
  ti::RankReader reader;
  std::vector<std::unique_ptr<Req>> reqs{};  // isend/irecv requests not yet waited, in posting order
  int blocked = 0;
  std::coroutine_handle<> waiter{};
  double compute = 0, end = -1;
  std::uint64_t sends = 0, send_bytes = 0, recvs = 0, recv_bytes = 0, actions = 0;
  ti::Kind last = ti::Kind::Init;
  std::uint64_t last_line = 0;
  std::uint64_t coll_next = 0;  // the index of the rank's next collective call
  std::map<std::tuple<int, int, int>, std::uint64_t> tested{};  // (src, dst, tag) of requests a test completed
};

// The first rank's call of one collective (by its index in every rank's sequence), checked against the others'.
struct CollCall {
  ti::Kind kind;
  int root, rank;
  std::uint64_t send_bytes, recv_bytes, line;
  std::vector<std::uint64_t> counts;  // allgatherv, reducescatter: the counts every rank gives alike
  int seen;                           // ranks that reached it
};

struct CollStat {
  std::uint64_t calls = 0, bytes = 0;
  double time = 0;
};

struct Run {
  World& w;
  Stack& s;
  const ReplayConfig& c;
  int n;
  ScheduleExec exec;
  std::vector<RankState> ranks;
  std::map<std::string, CollStat> colls;              // by collective
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> sizes;  // p2p sends by size class: (messages, bytes)
  // A collective's algorithm for one size; a node-aware composition also carries its stages' choice.
  struct Choice {
    const coll::AlgoInfo* info = nullptr;
    coll::StageChooser stages;
    std::uint32_t segsize = 0;  // the library's segment size at this size (0: one segment)
  };
  std::map<std::pair<std::string, std::uint64_t>, Choice> algo_cache;
  std::map<std::string, std::uint64_t> used;          // "allreduce recursive_doubling" -> calls on rank 0
  std::uint64_t fallbacks = 0;
  std::exception_ptr error;  // the first rank's input error: every rank stops at its next action, then it is thrown
  std::optional<coll::NodeLayout> layout;  // MPI_COMM_WORLD's nodes (set before the run)
  std::map<std::string, CollChoice> choices;  // per collective: the decision table that picks a composition's stages
  SendsInFlight inflight;  // sends not yet received
  std::deque<CollCall> coll_calls;  // collectives some rank called and not every rank reached yet
  std::uint64_t coll_first = 0;     // the index of coll_calls.front()

  // MPI's rule, checked as each rank reaches a collective (replay_collectives.cpp).
  void check_collective(int me, const ti::Action& a);
  // A collective's algorithm for one size, and the rank's schedule of one collective action (replay_collectives.cpp).
  const Choice& algorithm(const std::string& coll, std::uint64_t bytes);
  coll::Schedule schedule(int me, const ti::Action& a);
  // Point-to-point requests and their completion (replay_run.cpp).
  void check_blocked() const;  // a rank that never completed: the deadlock's likeliest cause
  void check_unmatched() const;
  // After every rank ended: a receive no send matched (posted by irecv and never waited) is an error of the trace.
  void check_unreceived() const;
  void received(Req* r);
  static void done(Req* r);
  void block_on(RankState& rs, Req* r);
  Req* post_send(int me, int dst, int tag, std::uint64_t bytes, bool blocking);
  Req* post_recv(int me, int src, int tag, std::uint64_t bytes);
};

// The result's points: the totals, per collective, per algorithm, per size class and per rank (replay_result.cpp).
// `total` is the last rank's end.
Json replay_points(const Run& x, double total);

}  // namespace ompisim::bench::replay
