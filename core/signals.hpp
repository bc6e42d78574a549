// Clean interruption. SIGINT and SIGTERM only set a flag (no work in the handler); the code that waits on a simulation
// process checks it, kills that process (and its own children), and throws Interrupted, which `main` turns into exit
// status 128 + signal (130, 143) after every finished result has been written whole. Simulations run in child
// processes in their own process group, so a terminal's Ctrl-C reaches only this process: SimGrid's own SIGINT handler,
// which exits from inside the engine (a Boost.Intrusive assertion at exit), never runs.
#pragma once
#include <stdexcept>
#include <string>

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

}  // namespace ompisim
