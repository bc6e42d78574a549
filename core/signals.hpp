// Clean interruption. SIGINT and SIGTERM only set a flag (no work in the handler); the code that waits on a simulation
// process checks it, kills that process (and its own children), and throws Interrupted, which `main` turns into exit
// status 128 + signal (130, 143) after every finished result has been written whole. Simulations run in child
// processes in their own process group, so a terminal's Ctrl-C reaches only this process: SimGrid's own SIGINT handler,
// which exits from inside the engine (a Boost.Intrusive assertion at exit), never runs.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace ompisim {

class Interrupted : public std::runtime_error {
public:
  explicit Interrupted(int sig);
  int signal() const { return sig_; }
  int exit_status() const { return 128 + sig_; }

private:
  int sig_;
};

// Installs the flag-setting handlers for SIGINT and SIGTERM (without SA_RESTART).
void install_interrupt_handlers();
// The signal received (SIGINT or SIGTERM), or 0.
int interrupt_signal();
// Throws Interrupted when a signal was received.
void throw_if_interrupted();
// Files a simulation process writes under a temporary name "<path>.tmp.<its pid>" and renames at the end (a trace,
// core/trace_file.hpp): registered by the parent before it forks; when the child ends without renaming them (killed
// on SIGINT / SIGTERM, crashed), the parent removes them (remove_child_temporaries), so nothing half written stays.
void add_child_temporary(const std::string& path);
void remove_child_temporaries(long child_pid);
// In a freshly forked simulation process: default dispositions, own process group, killed when its parent dies.
void setup_child_process(int parent_pid);

// Folders the command created for its output, innermost first (OutputDir::created_folders): removed when still empty
// by an interrupt that ends the process from its handler (InProcessInterrupts).
void add_created_folders(const std::vector<std::string>& folders);
// A simulation run in this process (OMPISIM_NO_FORK=1): no parent waits on it to kill it, and the engines do not look
// at the flag, so while this object lives SIGINT and SIGTERM end the process at once with the signal's default action
// (exit by the signal, as a terminal shows it), after removing this process's registered temporaries
// ("<path>.tmp.<pid>") and the created output folders that are still empty, as the forked path leaves things (the
// names are built here, so that the handler only calls unlink and rmdir). The flag-setting handlers come back when it
// goes; a signal already received before it was made is left to the flag.
class InProcessInterrupts {
public:
  InProcessInterrupts();
  ~InProcessInterrupts();
  InProcessInterrupts(const InProcessInterrupts&) = delete;
  InProcessInterrupts& operator=(const InProcessInterrupts&) = delete;
};

}  // namespace ompisim
