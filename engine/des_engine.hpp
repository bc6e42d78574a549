// A plain C++ discrete-event engine: the shared event queue (event_queue.hpp), and flows whose duration is bytes / (smallest capacity
// on their path), without bandwidth sharing. Used by unit tests (SimGrid allows one engine per process) and as a
// cross-check of the SimGrid engine on uncontended runs, where both must give identical times.
#pragma once
#include "core/sim.hpp"
#include "engine/event_queue.hpp"


namespace ompisim::engine {

class DesEngine final : public Simulator {
public:
  double now() const override { return now_; }
  void at(double t, Callback cb) override;
  ResourceId add_resource(const std::string& name, double capacity) override;
  void seal() override { sealed_ = true; }
  void flow(const std::vector<ResourceId>& path, double bytes, Callback done) override;
  void run() override;
  std::string name() const override { return "des"; }

private:
  EventQueue q_;
  double now_ = 0;
  std::vector<double> capacity_;
  bool sealed_ = false;
  std::uint64_t run_ = 0;  // events run (progress)
};

}  // namespace ompisim::engine
