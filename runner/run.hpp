// Running a scenario (the runner's "run" concern): resolve its machine, MCA parameters, placement, route policy and
// stack, build the World, and let the benchmark's driver run on it; a sweep runs each point in its own process.
#pragma once
#include "runner/scenario.hpp"

namespace ompisim {

// Runs every rank count of the scenario (and every value of its driver's axis; a sweep runs each in its own process)
// and returns the result.
Json run_scenario(const Scenario& s, const Overrides& sets);
// Runs one rank count in this process (one SimGrid engine per process).
Json run_one(const Scenario& s, long long ranks, const Overrides& sets);
// Everything a run decides from its input before simulating, for every rank count (machine, stack, MCA keys, --set
// parameters, placement, route policy): the InputErrors run_one would raise, without running.
void check_run_input(const Scenario& s, const Overrides& sets);

}  // namespace ompisim
