// A flow engine of our own that gives the bandwidth allocation the SimGrid engine gives (CM02 with crosstraffic off,
// TCP-gamma 0, zero-latency links and equal weights: plain max-min fairness, progressive filling over the resources'
// capacities) without SimGrid, so several can live in one process and a completion does not walk every flow in
// flight.
//  - at()     -> the shared event queue (EngineBase), as in the other engines;
//  - flow()   -> a flow over its path. The solver's variables are paths: the flows in flight over one path (the same
//               resources in the same order; weights are equal) always get one max-min rate, so they are one
//               variable whose usage of each resource is its flow count times the per-flow rate; a flow's end comes
//               from its path's virtual clock (bytes delivered per flow since the path variable was made: the flow
//               ends when the clock reaches its finish tag, the clock at its start plus its bytes; a min-heap of
//               tags per path); the path variables one resource bottlenecks form that resource's class, with one
//               per-flow rate and one class clock (a member's clock is the class clock less its offset, so a rate
//               change moves the class, not each member) and one entry in the completion heap; an empty path
//               variable is removed. When flows start or end, max-min is solved again
//               locally, at most once per simulated instant: over the path variables whose count changed and the
//               variables crossing a resource where an end freed capacity under some variable's bottleneck, with
//               the resources around them offering only what the other variables leave; the set grows where the
//               result would change a resource that bottlenecks variables outside it, and after kMaxRounds rounds
//               the whole connected component is solved. Only variables whose rate or count moved get their clock
//               brought up to date and a new next completion in the indexed heap (per class). A solve first
//               tries the class fast path:
//               when every change lies in the class of one resource R (the variables R bottlenecks, one per-flow
//               rate), the class takes R's capacity less the others' load, if a guard shows that this is still
//               max-min (no one crossing R faster, no other bottleneck's load moved, no resource over capacity);
//               a lone new variable on resources that bottleneck no one takes the least room its path leaves;
//               the fast path reads each class's flow crossings per resource it crosses (kept as flows start, end
//               and change class) instead of walking the members and their hops;
//  - stream() -> an endless flow started when run() begins with work and stopped when the model's events and flows
//               are done, as in the SimGrid engine.
// Same-date semantics follow the SimGrid engine: flows whose completion dates lie within kTimingPrecision of the
// date the run advances to end there together (SimGrid's surf/precision as the SimGrid engine sets it); the model's
// events at that date run before the completions' callbacks; completions at one date run in flow start order (both
// engines).
// With a solve window (set_window, the scenario's "engine_window"; off by default) starts and ends are solved at
// most once per window, approximately: a start or end waits up to the width before it changes any rate; every flow
// is then a path variable of its own (a started flow has no rate until its solve).
// LIMITATIONS: exact max-min has a ripple: a start or end changes the rates of every flow linked to it through
// resources that bottleneck someone, and in an alltoall that is most flows in flight (measured: the local solve
// re-solves about 70 % of the flows in flight at 256 ranks, 97 % of them with a new rate; its flows mostly follow
// distinct paths, so path variables shrink that little), so its cost per event still grows with the flows in
// flight; a path's virtual clock grows over the path variable's life, so a flow's remaining bytes (tag - clock)
// lose precision as it grows; SimGrid's work-amount precision (a resource whose remaining capacity falls below 1e-5
// of its capacity during a solve is dropped) is not reproduced.
#pragma once
#include "engine/sharing_engine.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ompisim::engine {

struct FluidEngineImpl;  // its state and flow arithmetic (fluid_engine.cpp)

class FluidEngine final : public SharingEngine<FluidEngineImpl> {
public:
  FluidEngine();
  // A solve window of `seconds` (> 0; 0 = exact, the default): starts and ends are solved at the first date at
  // least `seconds` after the previous solve, together; until then a started flow has no rate and freed capacity
  // stays unused. The provenance figures say how long starts waited.
  void set_window(double seconds);
  // What the window did in the run, for the result's provenance (name, value in SI units); empty when exact.
  std::vector<std::pair<std::string, double>> window_figures() const;
  void run() override;
  std::string name() const override { return "fluid"; }
  // For tests and measurements: max-min solves run, and the path variables they re-solved in total.
  std::uint64_t solves() const;
  std::uint64_t flows_resolved() const;
  // For tests and measurements: solves that fell back to the whole connected component.
  std::uint64_t fallbacks() const;
  // For tests and measurements: solves the class fast path served, and solves where it had a candidate class but
  // its guard refused (the local solve ran instead).
  std::uint64_t class_hits() const;
  std::uint64_t class_refusals() const;
  // For tests and measurements: class entries whose load the class fast path moved without reading the resource
  // (deferred: the class's members are all the resource's flow crossings and it bottlenecks no one).
  std::uint64_t deferred_skips() const;
  // Why the fast path did not serve a solve, for measurements: no_candidate (the changes span several classes; not
  // in class_refusals()), removed_elsewhere (a removed variable crossed another resource that bottlenecks someone),
  // outside_class (a changed variable is not in R's class), faster_on_r (condition 1), bottleneck_rises /
  // bottleneck_falls (condition 2: the class's load moves on another bottleneck Q, and Q would go over its capacity /
  // stay within it), over_capacity (condition 3), solo_no_room / solo_faster (the lone new variable's conditions).
  enum class ClassRefusal {
    no_candidate,
    removed_elsewhere,
    outside_class,
    faster_on_r,
    bottleneck_rises,
    bottleneck_falls,
    over_capacity,
    solo_no_room,
    solo_faster,
    chain_too_long,
    chain_loop
  };
  static constexpr int kClassRefusalKinds = 11;
  std::uint64_t class_refusals(ClassRefusal why) const;
  // The class fast path (on by default; only without a solve window). Off: every solve is the local solve.
  void set_class_path(bool on);
  // For tests and measurements: path variables created (one per path in flight; with a window, one per flow).
  std::uint64_t path_variables() const;
  // For tests: the current rate of every model flow in flight (bytes/s), in start order, after solving.
  std::vector<double> rates();
};

}  // namespace ompisim::engine
