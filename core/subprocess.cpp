#include "core/subprocess.hpp"

#include "core/signals.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ompisim {

// posix_spawn, not fork: a sweep rank under mpirun has called MPI_Init, after which fork() is unsafe with registered
// memory (tests/e2e/param_sweep.sh checks that no such process forks); glibc spawns with vfork semantics.
bool run_program(const std::vector<std::string>& argv, const std::string& dir) {
  throw_if_interrupted();
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  posix_spawnattr_t attr;  // the child starts with SIGINT / SIGTERM at their defaults, whatever this process does
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return false;
  int status = 0;
  bool killed = false;
  for (;;) {
    if (interrupt_signal() && !killed) {  // e.g. a SIGTERM sent to this process alone: the child goes too
      ::kill(pid, SIGKILL);
      killed = true;
    }
    if (::waitpid(pid, &status, 0) >= 0) break;
    if (errno != EINTR) return false;
  }
  throw_if_interrupted();  // also when the same Ctrl-C reached the child and it died of it
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace ompisim
