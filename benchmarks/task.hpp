// Minimal C++20 coroutine support for benchmark drivers: a rank's program is a fire-and-forget coroutine that
// co_awaits sets of MPI requests (Pending) or a driver-level synchronisation (GlobalSync, used only where the
// benchmark itself does not time the synchronisation, e.g. OSU's barrier between message sizes).
#pragma once
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <algorithm>
#include <coroutine>
#include <exception>
#include <functional>
#include <vector>

namespace ompisim {

struct Task {
  struct promise_type {
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    // An exception in a rank's program (bad input found while simulating: a size the stack cannot send) goes on to
    // whoever resumed it, out of the engine's run to the run's error path (exit 2 for an InputError), instead of
    // std::terminate. The frame is left suspended at its end, not destroyed: the run is over.
    void unhandled_exception() { throw; }
  };
};

// Outstanding requests of one rank; co_await resumes when all have completed.
struct Pending {
  int outstanding = 0;
  std::coroutine_handle<> waiter;
  Completion add() {
    ++outstanding;
    return [this] {
      if (--outstanding == 0 && waiter) {
        auto h = waiter;
        waiter = nullptr;
        h.resume();
      }
    };
  }
  bool await_ready() const noexcept { return outstanding == 0; }
  void await_suspend(std::coroutine_handle<> h) { waiter = h; }
  void await_resume() const noexcept {}
};

// The rank's core computes for `seconds` (World::compute), then the coroutine resumes. With `acc`, the time the
// computation took is added to *acc: the work starts when the MPI software costs queued on the rank's core before it
// (the posts of its requests, the handlers of arrivals) are done, and those are MPI time, not computation.
struct Work {
  World& w;
  int rank;
  double seconds;
  double* acc = nullptr;
  double t0 = 0;
  bool await_ready() const noexcept { return seconds <= 0; }
  void await_suspend(std::coroutine_handle<> h) {
    if (acc) t0 = std::max(w.sim().now(), w.cpus().cpu_free_at(rank));
    w.cpus().compute(rank, seconds, [h] { h.resume(); });
  }
  void await_resume() {
    if (acc && seconds > 0) *acc += w.sim().now() - t0;
  }
};

// All `n` participants arrive, then all resume at the arrival time of the last one (zero simulated cost).
// `on_release`, when set, runs as the last one arrives, before any resumes (a driver's snapshot between two phases).
class GlobalSync {
public:
  explicit GlobalSync(Simulator& sim, int n) : sim_(sim), n_(n) {}
  std::function<void()> on_release;
  struct Awaiter {
    GlobalSync& s;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) {
      s.waiting_.push_back(h);
      if (static_cast<int>(s.waiting_.size()) == s.n_) {
        auto all = std::move(s.waiting_);
        s.waiting_.clear();
        if (s.on_release) s.on_release();
        for (auto w : all) s.sim_.after(0, [w] { w.resume(); });
      }
    }
    void await_resume() const noexcept {}
  };
  Awaiter arrive() { return Awaiter{*this}; }

private:
  Simulator& sim_;
  int n_;
  std::vector<std::coroutine_handle<>> waiting_;
};

}  // namespace ompisim
