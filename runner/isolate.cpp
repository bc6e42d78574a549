#include "runner/isolate.hpp"

#include "core/errors.hpp"
#include "core/signals.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <new>
#include <string>
#include <poll.h>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ompisim {

namespace {

std::string outcome(const std::string& out);

void write_all(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t k = write(fd, s.data() + off, s.size() - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    off += static_cast<std::size_t>(k);
  }
}

// In the child: runs fn, writes its tagged outcome to fd and exits (_exit: no atexit handlers, no static destructors).
[[noreturn]] void child_report(int fd, const std::function<std::string()>& fn) {
  std::string out;
  int code = 0;
  try {
    out = "OK" + fn();
  } catch (const InputError& e) {
    // rebuilt as it was by the parent ("IA": an argument's error, InputError::of_argument)
    out = std::string(e.argument() ? "IA" : "IE") + e.file() + '\0' + e.key() + '\0' + e.reason();
    code = 2;
  } catch (const std::bad_alloc&) {
    out = "ER" + out_of_memory_text();
    code = 3;
  } catch (const std::exception& e) {
    out = std::string("ER") + e.what();
    code = 3;
  }
  write_all(fd, out);
  close(fd);
  _exit(code);
}

// In the parent: reads the child's outcome until it closes the pipe, looking at the interrupt flag at least every
// 100 ms (SIGINT / SIGTERM): on a signal the child is killed (nothing of it is written anywhere but this pipe) and
// Interrupted propagates to main. Reaps the child, closes fd, and returns fn's text or rethrows its error.
std::string collect(pid_t pid, int fd) {
  std::string out;
  char buf[65536];
  while (true) {
    if (interrupt_signal()) {
      kill(pid, SIGKILL);
      close(fd);
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      remove_child_temporaries(pid);
      throw_if_interrupted();
    }
    pollfd pfd{fd, POLLIN, 0};
    int pr = poll(&pfd, 1, 100);
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) continue;
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    out.append(buf, static_cast<std::size_t>(k));
  }
  close(fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  remove_child_temporaries(pid);  // a child that renamed its temporaries left none; one that died leaves nothing
  throw_if_interrupted();
  return outcome(out);
}

// Fork a child that runs fn and reports on a pipe; returns its pid and the pipe's read end.
std::pair<pid_t, int> start_child(const std::function<std::string()>& fn) {
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
    child_report(fd[1], fn);
  }
  close(fd[1]);
  return {pid, fd[0]};
}

void kill_and_reap(pid_t pid) {
  kill(pid, SIGKILL);
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  remove_child_temporaries(pid);
}

// What a child reported: fn's text, or its error rethrown as the child threw it (a child that reported nothing died).
std::string outcome(const std::string& out) {
  if (out.size() < 2) throw std::runtime_error("simulation process died (signal or crash)");
  std::string tag = out.substr(0, 2), body = out.substr(2);
  if (tag == "OK") return body;
  if (tag == "IE" || tag == "IA") {
    std::size_t a = body.find('\0'), b = a == std::string::npos ? a : body.find('\0', a + 1);
    if (b == std::string::npos) throw InputError("", "", body);
    std::string file = body.substr(0, a), key = body.substr(a + 1, b - a - 1), reason = body.substr(b + 1);
    if (tag == "IA") throw InputError::of_argument(std::move(file), std::move(key), std::move(reason));
    throw InputError(std::move(file), std::move(key), std::move(reason));
  }
  throw std::runtime_error(body);
}

}  // namespace

std::string out_of_memory_text() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return fmt::format("out of memory (std::bad_alloc) at {:.0f} MiB of peak memory: the run needs more memory than "
                     "the process could get (fewer ranks or a smaller machine, or more memory: ulimit -v, the host's)",
                     static_cast<double>(u.ru_maxrss) / 1024.0);
}

std::string run_isolated(const std::function<std::string()>& fn) {
  // OMPISIM_NO_FORK=1: run in this process (for heap profilers and debuggers, which follow one process); a crash or
  // an interrupt then ends the whole command (InProcessInterrupts: SIGINT / SIGTERM end it by the signal).
  if (const char* nf = std::getenv("OMPISIM_NO_FORK"); nf && std::string(nf) == "1") {
    throw_if_interrupted();
    const InProcessInterrupts ends_on_signal;
    return fn();
  }
  const auto [pid, fd] = start_child(fn);
  return collect(pid, fd);
}

void run_isolated_each(std::size_t n, const std::function<std::string(std::size_t)>& fn, int jobs,
                       const std::function<void(std::size_t)>& started,
                       const std::function<void(std::size_t, const std::string&)>& done) {
  const char* nf = std::getenv("OMPISIM_NO_FORK");
  if (jobs <= 1 || n <= 1 || (nf && std::string(nf) == "1")) {  // one at a time, as run_isolated runs one
    for (std::size_t i = 0; i < n; ++i) {
      started(i);
      done(i, run_isolated([&] { return fn(i); }));
    }
    return;
  }
  struct Running {
    pid_t pid;
    int fd;
    std::size_t index;
    std::string out;
  };
  std::vector<Running> running;
  auto stop_all = [&running] {  // the others, when one failed or on a signal: killed, reaped, their temporaries gone
    for (Running& r : running) {
      close(r.fd);
      kill_and_reap(r.pid);
    }
    running.clear();
  };
  std::size_t next = 0;
  while (next < n || !running.empty()) {
    while (next < n && running.size() < static_cast<std::size_t>(jobs)) {
      const std::size_t i = next++;
      try {  // a fork that fails stops the children already running, as an error of theirs does
        started(i);
        const auto [pid, fd] = start_child([&fn, i] { return fn(i); });
        running.push_back({pid, fd, i, {}});
      } catch (...) {
        stop_all();
        throw;
      }
    }
    if (interrupt_signal()) {
      stop_all();
      throw_if_interrupted();
    }
    std::vector<pollfd> pfds;
    for (const Running& r : running) pfds.push_back({r.fd, POLLIN, 0});
    const int pr = poll(pfds.data(), pfds.size(), 100);
    if (pr <= 0) continue;  // a timeout or EINTR: look at the interrupt flag again
    for (std::size_t k = pfds.size(); k-- > 0;) {
      if (!(pfds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Running& r = running[k];
      char buf[65536];
      const ssize_t got = read(r.fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got > 0) {
        r.out.append(buf, static_cast<std::size_t>(got));
        continue;
      }
      // the child closed its end: reap it, then hand on its text or stop the others and rethrow its error
      Running finished = std::move(r);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      close(finished.fd);
      while (waitpid(finished.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      remove_child_temporaries(finished.pid);
      try {
        done(finished.index, outcome(finished.out));
      } catch (...) {
        stop_all();
        throw;
      }
    }
  }
}

IsolatedWorker::IsolatedWorker(std::function<std::string(const std::string&)> fn) {
  int in[2], out[2];
  if (pipe(in) != 0) throw std::runtime_error("pipe failed");
  if (pipe(out) != 0) {
    close(in[0]), close(in[1]);
    throw std::runtime_error("pipe failed");
  }
  fflush(nullptr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    setup_child_process(parent);
    close(in[1]), close(out[0]);
    // The input: "R" + text, until the parent closes its end (a worker dropped unused sees EOF alone and leaves).
    std::string input;
    char buf[4096];
    while (true) {
      ssize_t k = read(in[0], buf, sizeof buf);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) break;
      input.append(buf, static_cast<std::size_t>(k));
    }
    close(in[0]);
    if (input.empty() || input[0] != 'R') _exit(0);
    child_report(out[1], [&] { return fn(input.substr(1)); });
  }
  close(in[0]), close(out[1]);
  pid_ = pid, to_child_ = in[1], from_child_ = out[0];
}

IsolatedWorker::~IsolatedWorker() {
  if (pid_ < 0) return;
  kill(pid_, SIGKILL);
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::string IsolatedWorker::run(const std::string& input) {
  if (pid_ < 0) throw std::logic_error("IsolatedWorker::run called twice");
  // A worker that died already closed its end: the write fails (EPIPE) instead of killing this process, and collect
  // reports the death.
  struct sigaction ign{}, old{};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ign, &old);
  write_all(to_child_, "R" + input);
  sigaction(SIGPIPE, &old, nullptr);
  close(to_child_);
  to_child_ = -1;
  const pid_t pid = pid_;
  const int fd = from_child_;
  pid_ = -1, from_child_ = -1;  // collect reaps the child and closes fd, whatever happens
  return collect(pid, fd);
}

}  // namespace ompisim
