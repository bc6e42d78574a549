#include "runner/isolate.hpp"

#include "core/errors.hpp"
#include "core/signals.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace ompisim {

std::string run_isolated(const std::function<std::string()>& fn) {
  // OMPISIM_NO_FORK=1: run in this process (for heap profilers and debuggers, which follow one process); a crash or
  // an interrupt then ends the whole command.
  if (const char* nf = std::getenv("OMPISIM_NO_FORK"); nf && std::string(nf) == "1") return fn();
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  fflush(nullptr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]), close(fd[1]);
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    setup_child_process(parent);  // own process group: a terminal's Ctrl-C reaches the parent only, which kills us
    close(fd[0]);
    std::string out;
    int code = 0;
    try {
      out = "OK" + fn();
    } catch (const InputError& e) {
      out = std::string("IE") + e.file() + '\0' + e.key() + '\0' + e.reason();  // rebuilt as it was by the parent
      code = 2;
    } catch (const std::exception& e) {
      out = std::string("ER") + e.what();
      code = 3;
    }
    std::size_t off = 0;
    while (off < out.size()) {
      ssize_t k = write(fd[1], out.data() + off, out.size() - off);
      if (k <= 0) break;
      off += static_cast<std::size_t>(k);
    }
    close(fd[1]);
    _exit(code);
  }
  close(fd[1]);
  std::string out;
  char buf[65536];
  // Wait for the child's result, looking at the interrupt flag at least every 100 ms (SIGINT / SIGTERM): on a signal
  // the child is killed (nothing of it is written anywhere but this pipe) and Interrupted propagates to main.
  while (true) {
    if (interrupt_signal()) {
      kill(pid, SIGKILL);
      close(fd[0]);
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      throw_if_interrupted();
    }
    pollfd pfd{fd[0], POLLIN, 0};
    int pr = poll(&pfd, 1, 100);
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) continue;
    ssize_t k = read(fd[0], buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    out.append(buf, static_cast<std::size_t>(k));
  }
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  throw_if_interrupted();
  if (out.size() < 2) throw std::runtime_error("simulation process died (signal or crash)");
  std::string tag = out.substr(0, 2), body = out.substr(2);
  if (tag == "OK") return body;
  if (tag == "IE") {
    std::size_t a = body.find('\0'), b = a == std::string::npos ? a : body.find('\0', a + 1);
    if (b == std::string::npos) throw InputError("", "", body);
    throw InputError(body.substr(0, a), body.substr(a + 1, b - a - 1), body.substr(b + 1));
  }
  throw std::runtime_error(body);
}

}  // namespace ompisim
