// Running a helper program (gnuplot) so that an interrupt stays an interrupt. std::system ignores SIGINT in the caller
// while the child runs and waits out a SIGTERM, so a Ctrl-C that kills the child looked like the child's failure and a
// SIGTERM waited for the child to finish. run_program forks and execs, waits, and on SIGINT / SIGTERM (core/signals.hpp)
// kills the child, reaps it and throws Interrupted.
#pragma once
#include <string>
#include <vector>

namespace ompisim {

// Runs argv[0] (looked up in PATH) in the folder `dir` with stdout and stderr to /dev/null; true when it exits 0.
// Throws Interrupted when SIGINT or SIGTERM arrives before or while it runs (the child killed and reaped).
bool run_program(const std::vector<std::string>& argv, const std::string& dir);

}  // namespace ompisim
