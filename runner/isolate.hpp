// Running work in a child process (the runner's "isolate" concern): SimGrid allows one engine per process, and a
// child keeps the parent free of simulation state and able to handle SIGINT / SIGTERM (core/signals.hpp).
#pragma once
#include <functional>
#include <string>

namespace ompisim {

// Runs fn in a child process and returns what it printed. Rethrows the child's InputError as an InputError (same
// file, key and reason) and any other error's text as std::runtime_error; a child that dies is a runtime_error. On
// SIGINT / SIGTERM the child is killed and Interrupted is thrown.
std::string run_isolated(const std::function<std::string()>& fn);

}  // namespace ompisim
