// A pure, zero-time executor of collective schedules, for tests (no engine, no clock). Not an Open MPI mirror; it
// implements the execution contract written in schedule.hpp, with MPI's point-to-point matching order (messages
// between one ordered pair of ranks are matched first-in first-out, MPI-3.1 §3.5 "non-overtaking").
//
// Semantics: each rank runs its rounds in order; all operations of a round are started together and the round ends
// when all have completed.
//   - Send: eager; the message is available to the receiver as soon as the round starts (0-time), the op completes.
//   - Recv(peer): completes when a message from `peer` to this rank is available (FIFO per ordered pair). A size
//     mismatch between the matched Send and the Recv is an error.
//   - Amo(peer): increments peer's counter when the round starts and completes.
//   - WaitCounter(v): completes when this rank's own counter is >= v.
//   - Reduce(bytes): local arithmetic, completes at once (no peer).
//   - PostRecv(peer): completes at once for its round; it matches the first message from `peer` that no receive posted
//     before it took, before any receive posted after it. Wait: completes when the oldest PostRecv not yet waited for
//     has matched. A rank that ends with a PostRecv not waited for, or a Wait without one, is an error.
// Ranks are progressed until nothing can progress. Every round start and every rank exit is an *event* numbered by
// a global step counter (strictly increasing), so a causal order can be asserted: e.g. for a fan-in/fan-out tree,
// every rank's finish_step must be greater than the step at which rank 0 started its fan-out (last) round.
//
// LIMITATIONS: no wildcard receives, no tags (one barrier call at a time), no synchronous sends; a Send never blocks,
// so a schedule that relies on rendezvous back-pressure cannot deadlock here even if it would on a real stack.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "collectives/schedule.hpp"

namespace ompisim::coll {

struct CheckResult {
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  bool completed = false;           // every rank finished, no message left unreceived, no error
  std::vector<int> releases;        // per rank: how many times it finished its schedule (must be exactly 1)
  std::uint64_t sends = 0, recvs = 0, amos = 0, waits = 0, reduces = 0;  // operations posted (all ranks)
  std::uint64_t unmatched_sends = 0;  // messages never received
  std::uint64_t unmatched_recvs = 0;  // receives still pending in blocked ranks' current rounds
  std::string error;                  // empty when completed; else what went wrong (first blocked ranks, bad peers)

  // Causality record. Steps are global event indices (round starts and rank exits), strictly increasing.
  std::vector<std::vector<std::uint64_t>> round_start_step;  // [rank][round]; kNever if the round never started
  std::vector<std::uint64_t> finish_step;                     // [rank]; kNever if the rank never finished
  std::vector<std::uint32_t> counters;                        // [rank] final counter value
  std::vector<std::uint32_t> final_wait_value;                // [rank] value of its last WaitCounter op, 0 if none

  // Step at which rank 0 started its last round (its fan-out in a tree barrier); kNever if it has no rounds or
  // never got there.
  std::uint64_t root_last_round_step() const;
};

// Generates the schedule of every rank (generator exceptions propagate) and executes them as described above.
CheckResult run_schedules(int nranks, Generator gen, const AlgoParams& params);

// Same, on already generated schedules (scheds.size() ranks).
CheckResult run_schedules(const std::vector<Schedule>& scheds);

}  // namespace ompisim::coll
