// The part the three bandwidth-sharing engines (SimGrid, lmm, fluid) share: their state and flow arithmetic live in
// a separate type `Impl`, defined in the engine's .cpp (so a header that names an engine does not see SimGrid or the
// solver's containers), and the engine forwards the resource declarations and flow starts of EngineBase to it.
// `Impl` has:
//  - a constructor from the engine (called by the engine's constructor, once EngineBase is built);
//  - declare(id, name, capacity) and start(path, bytes, done), called by EngineBase::add_resource and ::flow after
//    their checks.
// `Impl` is a friend: it reads the clock, the event queue and the streams' paths of EngineBase through the engine.
// The members that need `Impl` whole are defined in sharing_engine_defs.hpp, which the engine's .cpp includes after
// defining `Impl`, followed by `template class SharingEngine<Impl>;`.
#pragma once
#include "engine/engine_base.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ompisim::engine {

template <class ImplT>
class SharingEngine : public EngineBase {
public:
  // Completion dates this close (seconds) to the date the run advances to end at that date: SimGrid's surf/precision,
  // which the SimGrid engine sets to this value and the lmm and fluid engines repeat.
  static constexpr double kTimingPrecision = 1e-12;

  ~SharingEngine() override;
  bool shares_bandwidth() const final { return true; }

protected:
  using Impl = ImplT;
  // `owner` is the engine under construction (EngineBase is built; the Impl keeps a reference to it).
  template <class Owner>
  SharingEngine(const char* type, Owner& owner) : EngineBase(type), impl_(std::make_unique<Impl>(owner)) {}
  void declare(ResourceId id, const std::string& name, double capacity) final;
  void start(const std::vector<ResourceId>& path, double bytes, Callback done) final;
  // For tests: the rate of every model flow in flight (bytes/s), in start order, after solving what changed; for an
  // Impl with `dirty`, `solve()` and `flows` (items with `live`, `stream`, `seq`); `rate_of(flow)` gives a flow's
  // rate.
  template <class RateOf>
  std::vector<double> flow_rates(RateOf&& rate_of) {
    Impl& m = *impl_;
    if (m.dirty) m.solve();
    std::vector<std::pair<std::uint64_t, double>> live;
    for (const auto& f : m.flows)
      if (f.live && !f.stream) live.emplace_back(f.seq, rate_of(f));
    std::sort(live.begin(), live.end());
    std::vector<double> out;
    for (auto& [s, r] : live) out.push_back(r);
    return out;
  }

  std::unique_ptr<Impl> impl_;

private:
  friend Impl;
};

}  // namespace ompisim::engine
