// The CPU timeline of every execution context (platform/contexts.hpp): software costs run in order on a context's
// core (a rank's protocol handlers never overlap), copies keep the core busy until they end, interrupts steal time
// from whatever the core is doing, application work is lengthened by the interrupts taken while it runs.
// Contexts that share a core (a progress thread on the core of a rank's main thread or of another progress thread)
// take turns on it: a context's work starts when the core is free, and when the core last ran another context it
// first pays os.context_switch_cost (the kernel's switch and the incoming thread's refill of its cache state). A
// context alone on its core (every rank's main thread without progress threads: ranks never share a core) pays none.
#pragma once
#include "core/params.hpp"
#include "core/sim.hpp"
#include "platform/contexts.hpp"
#include "platform/memory_copies.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ompisim {

class CpuTimeline {
public:
  // `switch_cost`: os.context_switch_cost of the machine, read at each switch (a change after construction counts).
  CpuTimeline(Simulator& sim, const Contexts& contexts, MemoryCopies& copies, const Sourced& switch_cost);
  // Context `ctx` (just added to the contexts, a progress thread on `core` of `rank`'s node) gets its timeline and
  // shares its core with the contexts already bound there.
  void add_context(int ctx, int rank, int core);

  // Runs fn on ctx's CPU after `cost` seconds of work that starts when the CPU is free (and not before now).
  // `what`: the Open MPI or library function the work models (a string literal), the span's name in a trace.
  void cpu(int ctx, double cost, Callback fn, const char* what = nullptr);
  // The context's CPU copies `bytes` (a memcpy: the CPU is busy until the copy ends, DRAM part shared); then fn.
  // A zero-byte copy on an idle core runs fn before cpu_copy returns: callers must not rely on fn running later.
  void cpu_copy(int ctx, double bytes, Callback fn, MemSpace src = {}, MemSpace dst = {});
  double cpu_free_at(int ctx) const { return cpu_free_[static_cast<std::size_t>(ctx)]; }
  // An asynchronous interrupt takes `cost` of ctx's core now: whatever the core is doing (application work or MPI
  // handlers) ends that much later. Does not wait for the core.
  void steal(int ctx, double cost);
  // Application work of `seconds` on ctx's core, lengthened by the interrupts taken while it runs. It starts after
  // the work queued before it and after every step due at this very instant (the rest of the MPI call that returned:
  // a step queued to end now whose event has not fired yet may queue the call's next step); MPI handlers queued
  // later wait for it (no asynchronous progress).
  void compute(int ctx, double seconds, Callback done);
  std::uint64_t context_switches = 0;  // turns of a shared core from one context to another

private:
  struct CpuTask {
    bool is_copy;
    double amount;  // seconds of work, or bytes to copy
    Callback fn;
    MemSpace src{}, dst{};
    const char* what = nullptr;
  };
  // Cores shared by several contexts: when each is free and which context ran last. ctx_shared_: per context, the
  // index of its shared core or -1 (empty while no progress thread exists: per-rank state only when threads are used).
  struct SharedCore {
    double free = 0;
    int last = -1;
  };
  SharedCore* shared_core(int ctx) {
    return ctx_shared_.empty() || ctx_shared_[static_cast<std::size_t>(ctx)] < 0
               ? nullptr
               : &shared_cores_[static_cast<std::size_t>(ctx_shared_[static_cast<std::size_t>(ctx)])];
  }
  // When ctx's next work may start on its shared core (not before `ready`), the switch included; marks ctx as the
  // core's last context. The caller sets the core's `free` to the work's end.
  double core_start(int ctx, SharedCore& c, double ready);
  void drain(int ctx);
  void compute_when_free(int ctx, double seconds, Callback done, bool settled);
  void extend_compute(int ctx, double end, double stolen_before, Callback done);

  Simulator& sim_;
  const Contexts& ctx_;
  MemoryCopies& copies_;
  const Sourced& switch_cost_;
  std::vector<SharedCore> shared_cores_;
  std::vector<int> ctx_shared_;
  std::unordered_map<std::uint64_t, int> shared_core_index_;  // (node, core) -> shared_cores_
  std::unordered_map<std::uint64_t, int> rank_at_core_;        // (node, core) -> rank, built on the first thread
  std::vector<double> stolen_;  // interrupt time taken per context (allocated on first steal)
  std::vector<double> cpu_free_;
  std::vector<std::uint8_t> copying_;                       // the CPU is inside an open-ended copy
  std::unordered_map<int, std::vector<CpuTask>> waiting_;  // work queued behind that copy, in order
};

}  // namespace ompisim
