// The only code that includes SimGrid. Binds the Simulator interface to SimGrid 3.32:
//  - at()   -> our own event queue (engine/event_queue.hpp); SimGrid sees one kernel timer at a time, set at the next
//              event's date while flows are in flight (no actors, so memory does not grow with ranks);
//  - flow() -> s4u::Comm::sendto_init from the path's own host to a common sink in a StarZone, the host's up links
//              being the declared resource path; completion through Activity::on_completion_cb. Network model CM02 with crosstraffic off and TCP-gamma 0:
//              a flow alone on its path takes exactly bytes / min(capacity), the same as the DES engine.
// LIMITATIONS: paths must be declared before seal(); SimGrid 3.32 keeps in-flight comms in a list
// (O(in-flight) per completion), so the callers bound concurrency by sending only bulk data as flows.
// One engine per process (SimGrid's Engine is a singleton).
#pragma once
#include "core/sim.hpp"

#include <memory>

namespace ompisim::engine {

class SimGridEngine final : public Simulator {
public:
  SimGridEngine();
  ~SimGridEngine() override;
  double now() const override;
  void at(double t, Callback cb) override;
  ResourceId add_resource(const std::string& name, double capacity) override;
  EndpointId add_endpoint(const std::string& name) override;
  void add_path(EndpointId src, EndpointId dst, const std::vector<ResourceId>& resources) override;
  bool has_path(EndpointId src, EndpointId dst) const override;
  void seal() override;
  void flow(EndpointId src, EndpointId dst, double bytes, Callback done) override;
  void run() override;
  std::string name() const override { return "simgrid"; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ompisim::engine
