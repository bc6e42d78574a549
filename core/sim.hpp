// The narrow interface between the models and the event engine. Models schedule callbacks at absolute times and start
// bulk flows, each over a path of shared resources (links, memory buses) given when the flow starts, so that a route
// policy can choose it per flow. Resources are declared before seal(); paths are not declared at all. Nothing here
// knows SimGrid: engine/simgrid_engine binds it to SimGrid timers and comms (flow-level bandwidth sharing, CM02),
// engine/des_engine is a plain C++ event queue (no sharing) used by unit tests.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ompisim {

using Callback = std::function<void()>;
class TraceSink;  // core/trace.hpp
using ResourceId = std::uint32_t;

class Simulator {
public:
  virtual ~Simulator() = default;
  virtual double now() const = 0;
  // Runs cb at absolute simulated time t (t >= now()).
  virtual void at(double t, Callback cb) = 0;
  void after(double dt, Callback cb) { at(now() + dt, std::move(cb)); }

  // Platform declaration, before seal(): the shared resources (capacity in bytes/s, > 0). Names are for diagnostics
  // and must be unique.
  virtual ResourceId add_resource(const std::string& name, double capacity) = 0;
  virtual void seal() = 0;

  // Moves `bytes` over `path` (the shared resources it crosses, in order; non-empty), sharing bandwidth with
  // concurrent flows; `done` runs when the last byte arrives. Latency is not added here: the caller starts the flow
  // after its latency.
  virtual void flow(const std::vector<ResourceId>& path, double bytes, Callback done) = 0;

  // Another job's traffic over `path` (a neighbour job sharing the network's links): a flow with an endless backlog,
  // started at the beginning of every run() that has work and stopped when the model's own events and flows are done
  // (so run() still returns, and the next run() meets the same congestion). It shares bandwidth like any flow and
  // never completes. Declared like resources, before the first run(). Only engines that share bandwidth have it.
  virtual bool shares_bandwidth() const { return false; }
  virtual void stream(const std::vector<ResourceId>& path) {
    (void)path;
    throw std::logic_error("engine '" + name() + "' does not share bandwidth: it cannot carry another job's traffic");
  }

  virtual void run() = 0;
  virtual std::string name() const = 0;
  std::uint64_t flows_started = 0, events_scheduled = 0, streams = 0;
  // The run's protocol timeline (core/trace.hpp), null unless --trace: every report site tests it first. Set before
  // the platform declares its resources; the engines report resource names and flows to it.
  TraceSink* trace = nullptr;
};

}  // namespace ompisim
