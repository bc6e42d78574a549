// Running work in a child process (the runner's "isolate" concern): SimGrid allows one engine per process, and a
// child keeps the parent free of simulation state and able to handle SIGINT / SIGTERM (core/signals.hpp).
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

namespace ompisim {

// An error another process of the command has printed already, on its one line (a sweep point's process, runner/sweep.cpp): the command
// exits with `status` and prints nothing more.
class AlreadyReported : public std::runtime_error {
public:
  explicit AlreadyReported(int status) : std::runtime_error("reported by a point's process"), status_(status) {}
  int status() const { return status_; }

private:
  int status_;
};

// Runs fn in a child process and returns what it printed. Rethrows the child's InputError as an InputError (same
// file, key and reason) and any other error's text as std::runtime_error; a child that dies is a runtime_error. On
// SIGINT / SIGTERM the child is killed and Interrupted is thrown.
std::string run_isolated(const std::function<std::string()>& fn);

// Runs fn(0) .. fn(n - 1), each in a child process as run_isolated runs one, at most `jobs` at once, in index order:
// calls started(i) in this process as child i starts and done(i, text) as it finishes (in the order they finish; with
// jobs 1, or OMPISIM_NO_FORK=1, one after the other). The first error (as run_isolated rethrows it) kills the children
// still running and is rethrown; SIGINT / SIGTERM kill them all and throw Interrupted. An exception from `done` does
// the same.
void run_isolated_each(std::size_t n, const std::function<std::string(std::size_t)>& fn, int jobs,
                       const std::function<void(std::size_t)>& started,
                       const std::function<void(std::size_t, const std::string&)>& done);

// The error text of a process that ran out of memory (std::bad_alloc), said as such with this process's peak memory,
// in place of the bare "std::bad_alloc": a run too large for the memory it could get (exit status 3, as a simulation
// process that died; the input was not refused because its memory need is not known before it runs).
std::string out_of_memory_text();

// A child forked at construction that waits for its input, then runs fn(input) and hands back what fn returns (errors
// and interrupts as run_isolated). For work whose input is known only after something the child must not inherit: an
// MPI sweep forks its point runner before MPI_Init, so no process that initialised MPI ever forks (tools/ompisim/
// mpi_launch.hpp). It always forks (OMPISIM_NO_FORK does not apply). A worker never run is killed and reaped.
class IsolatedWorker {
public:
  explicit IsolatedWorker(std::function<std::string(const std::string&)> fn);
  IsolatedWorker(const IsolatedWorker&) = delete;
  IsolatedWorker& operator=(const IsolatedWorker&) = delete;
  ~IsolatedWorker();
  std::string run(const std::string& input);  // once
  int pid() const { return pid_; }

private:
  int pid_ = -1, to_child_ = -1, from_child_ = -1;
};

}  // namespace ompisim
