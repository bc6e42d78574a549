// A plain C++ discrete-event engine: the shared event queue (event_queue.hpp), and flows whose duration is bytes / (smallest capacity
// on their path), without bandwidth sharing. Used by unit tests (SimGrid allows one engine per process) and as a
// cross-check of the SimGrid engine on uncontended runs, where both must give identical times.
#pragma once
#include "core/sim.hpp"
#include "engine/event_queue.hpp"

#include <map>
#include <utility>

namespace ompisim::engine {

class DesEngine final : public Simulator {
public:
  double now() const override { return now_; }
  void at(double t, Callback cb) override;
  ResourceId add_resource(const std::string& name, double capacity) override;
  EndpointId add_endpoint(const std::string& name) override;
  void add_path(EndpointId src, EndpointId dst, const std::vector<ResourceId>& resources) override;
  bool has_path(EndpointId src, EndpointId dst) const override { return paths_.count({src, dst}) != 0; }
  void seal() override {}
  void flow(EndpointId src, EndpointId dst, double bytes, Callback done) override;
  void run() override;
  std::string name() const override { return "des"; }

private:
  EventQueue q_;
  double now_ = 0;
  std::vector<double> capacity_;
  EndpointId next_ep_ = 0;
  std::map<std::pair<EndpointId, EndpointId>, double> paths_;  // min capacity
};

}  // namespace ompisim::engine
