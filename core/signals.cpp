#include "core/signals.hpp"

#include <csignal>
#include <cstring>
#include <string>
#include <vector>
#include <sys/prctl.h>
#include <unistd.h>

namespace ompisim {

namespace {
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_interrupt(int sig) {
  if (g_signal == 0) g_signal = sig;
}
}  // namespace

Interrupted::Interrupted(int sig)
    : std::runtime_error(std::string("interrupted by ") + (sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"))
    , sig_(sig) {}

void install_interrupt_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and the caller looks at the flag
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return g_signal; }

void throw_if_interrupted() {
  if (g_signal) throw Interrupted(g_signal);
}

namespace {
std::vector<std::string>& child_temporaries() {
  static std::vector<std::string> v;
  return v;
}
}  // namespace

void add_child_temporary(const std::string& path) { child_temporaries().push_back(path); }

void remove_child_temporaries(long child_pid) {
  for (const auto& p : child_temporaries()) ::unlink((p + ".tmp." + std::to_string(child_pid)).c_str());
}

void setup_child_process(int parent_pid) {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent_pid) _exit(137);  // the parent died before prctl took effect
}

namespace {
// The temporaries' names the handler unlinks (filled before the handler is installed, not touched while it is).
std::vector<std::string>& in_process_temporaries() {
  static std::vector<std::string> v;
  return v;
}
std::vector<std::string>& created_folders() {
  static std::vector<std::string> v;
  return v;
}
volatile std::sig_atomic_t g_in_process = 0;
extern "C" void on_in_process_interrupt(int sig) {
  if (g_in_process)
    for (const auto& p : in_process_temporaries()) ::unlink(p.c_str());
  if (g_in_process)
    for (const auto& d : created_folders())
      if (::rmdir(d.c_str()) != 0) break;  // not empty (or gone): it and its parents stay
  std::signal(sig, SIG_DFL);
  ::raise(sig);
}
}  // namespace

void add_created_folders(const std::vector<std::string>& folders) {
  created_folders().insert(created_folders().end(), folders.begin(), folders.end());
}

InProcessInterrupts::InProcessInterrupts() {
  auto& names = in_process_temporaries();
  names.clear();
  for (const auto& p : child_temporaries()) names.push_back(p + ".tmp." + std::to_string(::getpid()));
  g_in_process = 1;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_in_process_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

InProcessInterrupts::~InProcessInterrupts() {
  install_interrupt_handlers();
  g_in_process = 0;
}

}  // namespace ompisim
