#include "platform/cpu_timeline.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <iterator>

namespace ompisim {

CpuTimeline::CpuTimeline(Simulator& sim, const Contexts& contexts, MemoryCopies& copies, const Sourced& switch_cost)
    : sim_(sim), ctx_(contexts), copies_(copies), switch_cost_(switch_cost),
      cpu_free_(static_cast<std::size_t>(contexts.count()), 0.0),
      copying_(static_cast<std::size_t>(contexts.count()), 0) {}

void CpuTimeline::add_context(int ctx, int rank, int core) {
  cpu_free_.push_back(0.0);
  copying_.push_back(0);
  if (!stolen_.empty()) stolen_.push_back(0.0);
  // The core's contexts: the main thread of the rank bound there (ranks never share a core) and earlier threads.
  auto key = [](long long node, int c) { return (static_cast<std::uint64_t>(node) << 20) | static_cast<std::uint64_t>(c); };
  if (ctx_shared_.empty()) {
    ctx_shared_.assign(static_cast<std::size_t>(ctx), -1);
    rank_at_core_.reserve(static_cast<std::size_t>(ctx_.ranks()));
    for (long long r = 0; r < ctx_.ranks(); ++r)
      rank_at_core_.emplace(key(ctx_.node_of(static_cast<int>(r)), ctx_.core_of(static_cast<int>(r))), static_cast<int>(r));
  }
  auto [it, fresh] = shared_core_index_.try_emplace(key(ctx_.node_of(rank), core), static_cast<int>(shared_cores_.size()));
  if (fresh) {
    shared_cores_.push_back({});
    if (auto m = rank_at_core_.find(key(ctx_.node_of(rank), core)); m != rank_at_core_.end())
      ctx_shared_[static_cast<std::size_t>(m->second)] = it->second;
  }
  ctx_shared_.push_back(it->second);
}

double CpuTimeline::core_start(int ctx, SharedCore& c, double ready) {
  double start = std::max(ready, c.free);
  if (c.last >= 0 && c.last != ctx) {
    const double sw = switch_cost_.get();
    if (TraceSink* t = sim_.trace; t && sw > 0) t->cpu(ctx, start, start + sw, "context switch");
    start += sw;
    ++context_switches;
  }
  c.last = ctx;
  return start;
}

void CpuTimeline::cpu(int rank, double cost, Callback fn, const char* what) {
  if (copying_[rank]) {
    waiting_[rank].push_back({false, cost, std::move(fn), {}, {}, what});
    return;
  }
  double& f = cpu_free_[rank];
  double start = std::max(f, sim_.now());
  SharedCore* c = shared_core(rank);
  if (c) start = core_start(rank, *c, start);
  f = start + cost;
  if (c) c->free = f;
  if (TraceSink* t = sim_.trace; t && cost > 0) t->cpu(rank, start, f, what);
  sim_.at(f, std::move(fn));
}

void CpuTimeline::cpu_copy(int rank, double bytes, Callback fn, MemSpace src, MemSpace dst) {
  if (copying_[rank]) {
    waiting_[rank].push_back({true, bytes, std::move(fn), src, dst});
    return;
  }
  if (bytes <= 0) {
    // Nothing to copy: no CPU time, and no event when the core is not busy.
    if (cpu_free_[rank] <= sim_.now()) fn();
    else cpu(rank, 0, std::move(fn));
    return;
  }
  if (auto t = copies_.cache_copy(rank, bytes, src, dst)) {
    // Within the cache the copy is CPU time of known length, not a flow through the shared memory bus.
    cpu(rank, *t, std::move(fn), "memcpy");
    return;
  }
  copying_[rank] = 1;
  double start = std::max(cpu_free_[rank], sim_.now());
  // On a shared core the copy starts when the core is free (LIMITATION: while it runs, the core's other contexts are
  // not held back: its length is known only at its end).
  if (SharedCore* c = shared_core(rank)) start = c->free = core_start(rank, *c, start);
  sim_.at(start, [this, rank, bytes, src, dst, start, fn = std::move(fn)]() mutable {
    double stolen_before = stolen_.empty() ? 0.0 : stolen_[rank];
    copies_.copy(rank, bytes, [this, rank, stolen_before, start, fn = std::move(fn)]() mutable {
      if (TraceSink* t = sim_.trace) t->cpu(rank, start, sim_.now(), "memcpy");
      copying_[rank] = 0;
      // Interrupts taken during the copy (CpuTimeline::steal) delay what the core does next, as after a CPU step.
      double stolen = (stolen_.empty() ? 0.0 : stolen_[rank]) - stolen_before;
      cpu_free_[rank] = sim_.now() + stolen;
      if (SharedCore* c = shared_core(rank)) c->free = std::max(c->free, cpu_free_[rank]);
      drain(rank);  // work queued behind the copy keeps its place ahead of what fn starts
      fn();
    }, src, dst);
  });
}

void CpuTimeline::drain(int rank) {
  auto it = waiting_.find(rank);
  if (it == waiting_.end()) return;
  std::vector<CpuTask> tasks = std::move(it->second);
  waiting_.erase(it);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (copying_[rank]) {  // a copy started again: requeue the rest in order
      auto& w = waiting_[rank];
      w.insert(w.begin(), std::make_move_iterator(tasks.begin() + static_cast<long>(i)), std::make_move_iterator(tasks.end()));
      return;
    }
    // A queued zero-byte copy becomes a zero-length step, never the inline path: it keeps its place behind the
    // tasks queued before it and behind the finished copy's own continuation.
    if (tasks[i].is_copy && tasks[i].amount > 0)
      cpu_copy(rank, tasks[i].amount, std::move(tasks[i].fn), tasks[i].src, tasks[i].dst);
    else cpu(rank, tasks[i].is_copy ? 0.0 : tasks[i].amount, std::move(tasks[i].fn), tasks[i].what);
  }
}

void CpuTimeline::steal(int rank, double cost) {
  double& f = cpu_free_[rank];
  if (TraceSink* t = sim_.trace) t->cpu(rank, std::max(f, sim_.now()), std::max(f, sim_.now()) + cost, "interrupt");
  f = std::max(f, sim_.now()) + cost;
  if (stolen_.empty()) stolen_.assign(cpu_free_.size(), 0.0);
  stolen_[rank] += cost;
}

void CpuTimeline::compute(int rank, double seconds, Callback done) { compute_when_free(rank, seconds, std::move(done), false); }

void CpuTimeline::compute_when_free(int rank, double seconds, Callback done, bool settled) {
  // The work starts when the MPI calls before it have returned: once the core has no queued MPI work left (the chain
  // of protocol steps an MPI call performs runs before control returns to the application).
  if (copying_[rank]) {  // behind the copy in progress
    waiting_[rank].push_back({false, 0.0, [this, rank, seconds, done = std::move(done)]() mutable {
                                compute(rank, seconds, std::move(done));
                              }});
    return;
  }
  // A core free only from now on may still owe steps due now: work queued to end now (a zero-cost step, such as the
  // send of a FIN after a GET's completion handler) whose event has not fired yet, and which queues the next step of
  // the same MPI call when it does. The application waits for the events due now first (`settled`), then looks again.
  SharedCore* c = shared_core(rank);
  if (double busy = std::max(cpu_free_[rank], c ? c->free : 0.0); busy > sim_.now() || (busy == sim_.now() && !settled)) {
    sim_.at(busy, [this, rank, seconds, done = std::move(done)]() mutable {
      sim_.after(0, [this, rank, seconds, done = std::move(done)]() mutable {
        compute_when_free(rank, seconds, std::move(done), true);
      });
    });
    return;
  }
  double before = stolen_.empty() ? 0.0 : stolen_[rank];
  double end = (c ? core_start(rank, *c, sim_.now()) : sim_.now()) + seconds;
  if (c) c->free = end;
  if (TraceSink* t = sim_.trace; t && seconds > 0) t->cpu(rank, end - seconds, end, "compute");
  cpu_free_[rank] = std::max(cpu_free_[rank], end);
  extend_compute(rank, end, before, std::move(done));
}

void CpuTimeline::extend_compute(int rank, double end, double stolen_before, Callback done) {
  sim_.at(end, [this, rank, stolen_before, done = std::move(done)]() mutable {
    double now_stolen = stolen_.empty() ? 0.0 : stolen_[rank];
    if (now_stolen > stolen_before) {  // interrupts ran during the work: it ends that much later
      extend_compute(rank, sim_.now() + (now_stolen - stolen_before), now_stolen, std::move(done));
      return;
    }
    done();
  });
}

}  // namespace ompisim
