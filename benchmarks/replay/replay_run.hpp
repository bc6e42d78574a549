// The replay interpreter's input and entry: replay_run runs a parsed SMPI time-independent trace (ti_trace.hpp) on a
// World and Stack and returns the result's points (replay_result.cpp). The benchmark's keys, their parsing into a
// ReplayConfig and the driver's registration are in replay_driver.cpp; what each action does is described in
// replay_state.hpp.
#pragma once
#include "core/json_input.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <map>
#include <string>
#include <vector>

namespace ompisim::bench::replay {

struct ReplayConfig {
  std::string index;                // resolved path of the index file
  std::vector<std::string> files;   // per rank
  double flop_rate = 0;             // flop/s
  std::string collectives = "tuned";
  bool collectives_named = false;   // the block names them; else the stack's library where it is tuned or mpich
  std::string stack_library;        // the stack's own library (Driver::with_stack_collectives), when it is not that
  Json lib, barrier_rule;           // decision library ({} for "fixed"), coll/tuned's barrier rule
  std::map<std::string, std::string> algorithms;  // per-collective choice
};

// Runs the trace on the World and Stack. InputError for a trace of another rank count than the run's, a trace MPI would
// refuse (a send never received, a receive never matched nor waited, collectives that differ across ranks, a wait on
// a request never posted) or a deadlock, naming the action file and line.
Json replay_run(World& w, Stack& s, const ReplayConfig& c);

}  // namespace ompisim::bench::replay
