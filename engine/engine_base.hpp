// What the four engines share of the Simulator interface (core/sim.hpp): the model's clock and event queue
// (event_queue.hpp: by time, same-time events in insertion order; at() clamps to now), resource declaration before
// seal() with its checks, a flow's checks and trace wrapping before the engine starts it, and the paths of another
// job's streams. Each engine adds only how it declares a resource (declare), how it moves a flow's bytes (start) and
// its run(). Misuse throws std::logic_error (std::invalid_argument for a capacity <= 0) naming the engine's class:
// add_resource after seal, a flow before seal, an empty path, an undeclared resource, a stream on an engine that
// does not share bandwidth.
// The completion grid (set_completion_grid, the scenario's "engine_grid"; 0 = exact, the engines' own default): with
// a grid of width q > 0 a flow still ends, and leaves the resources it shares, at its own date t, but its callback is
// delivered at ceil(t / q) x q, and the callbacks delivered at one grid date run in start order, after the model's
// events of that date. Two engines whose completion dates differ in the last bits (lmm and fluid round differently)
// then deliver the same callbacks at the same dates in the same order, unless a date falls within that difference of
// a grid line (engine/README.md, "The completion grid").
// LIMITATIONS: one event queue and one clock per engine; an engine whose clock runs elsewhere (SimGrid's) keeps
// `now_` as the model's time and moves it itself.
#pragma once
#include "core/progress.hpp"
#include "core/sim.hpp"
#include "engine/event_queue.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ompisim::engine {

class EngineBase : public Simulator {
public:
  double now() const final { return now_; }
  void at(double t, Callback cb) override;
  ResourceId add_resource(const std::string& name, double capacity) final;
  void seal() override { sealed_ = true; }
  void flow(const std::vector<ResourceId>& path, double bytes, Callback done) final;
  void stream(const std::vector<ResourceId>& path) override;
  // The completion grid's width in seconds (0: callbacks at the flows' own dates). Before run(); finite and >= 0.
  void set_completion_grid(double seconds);
  double completion_grid() const { return grid_; }

protected:
  explicit EngineBase(const char* type) : type_(type) {}
  // A resource `id` of `capacity` (> 0) is declared (before seal).
  virtual void declare(ResourceId id, const std::string& name, double capacity) = 0;
  // Starts a checked flow (sealed, non-empty path of declared resources) at now_.
  virtual void start(const std::vector<ResourceId>& path, double bytes, Callback done) = 0;
  void check_path(const std::vector<ResourceId>& path, const char* what) const;
  // Counts one model event run (the progress line every 65,536 events).
  void ran_event() {
    if ((++events_run_ & 0xFFFF) == 0 && progress::enabled()) progress::sim_tick(now_, events_run_);
  }
  // Runs the model's events due at now_, then `wake()` (which may queue more at now_), until none is due.
  template <class Wake>
  void run_due(Wake&& wake) {
    bool again;
    do {
      again = !q_.empty() && q_.top_time() <= now_;
      while (!q_.empty() && q_.top_time() <= now_) {
        q_.run_top();
        ran_event();
      }
      wake();
    } while (again);
  }
  // The flows in `ended` (indices into `flows`, whose items have `seq`, the start order, and `done`) ended at now_:
  // their callbacks are handed to complete() in start order (the order of completions at one date in every
  // engine); then each is freed by `remove(id)` in the order they ended, and `ended` is
  // emptied. Then the deliveries due are queued (deliver_due).
  template <class Flows, class Remove>
  void wake_ended(std::vector<std::uint32_t>& ended, Flows& flows, Remove&& remove) {
    if (!ended.empty()) {
      by_seq_.assign(ended.begin(), ended.end());
      std::sort(by_seq_.begin(), by_seq_.end(),
                [&flows](std::uint32_t a, std::uint32_t b) { return flows[a].seq < flows[b].seq; });
      for (auto id : by_seq_) complete(now_, flows[id].seq, std::move(flows[id].done));
      for (auto id : ended) remove(id);
      ended.clear();
    }
    deliver_due();
  }
  // The callback of flow `seq`, which ended at `date`, goes to the event queue at the later of `date` and now_, or,
  // with a completion grid, waits for its grid date (deliver). Every engine that shares bandwidth hands its ended
  // flows here, in start order.
  void complete(double date, std::uint64_t seq, Callback done) {
    if (grid_ > 0) deliver(date, seq, std::move(done));
    else q_.push(std::max(date, now_), std::move(done));
  }
  // With a completion grid: the callback of flow `seq`, ended at `date`, waits for its grid date.
  void deliver(double date, std::uint64_t seq, Callback done);
  // The earliest grid date a callback waits for (infinity when none does).
  double next_delivery() const {
    return deliveries_.empty() ? std::numeric_limits<double>::infinity() : deliveries_.front().t;
  }
  bool deliveries_pending() const { return !deliveries_.empty(); }
  // Queues, at now_, every callback whose grid date is at most now_, by (grid date, start order). The engines call it
  // when no model event is due at now_ (their events of a date run before the deliveries of that date).
  void deliver_due() {
    if (!deliveries_.empty() && deliveries_.front().t <= now_) deliver_due_now();  // the common case: none due
  }
  // The earliest date the model has work at: its next event or its next delivery.
  double next_model_time() const { return std::min(q_.empty() ? kNever : q_.top_time(), next_delivery()); }
  bool model_idle() const { return q_.empty() && deliveries_.empty(); }
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  const char* type_;  // the engine's class name, for messages
  EventQueue q_;
  double now_ = 0;
  bool sealed_ = false;
  std::size_t resources_ = 0;  // declared so far
  std::uint64_t events_run_ = 0;
  std::vector<std::vector<ResourceId>> stream_paths_;  // another job's streams (stream())
  std::vector<std::uint32_t> by_seq_;                  // wake_ended's scratch

private:
  void deliver_due_now();  // deliver_due's work once one is due
  struct Delivery {
    double t;           // the grid date
    std::uint64_t seq;  // the flow's start order
    Callback done;
  };
  double grid_ = 0;
  std::vector<Delivery> deliveries_;  // a min-heap by (t, seq)
};

}  // namespace ompisim::engine
