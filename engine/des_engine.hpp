// A plain C++ discrete-event engine: the shared event queue (event_queue.hpp), and flows whose duration is bytes /
// (smallest capacity on their path), without bandwidth sharing. Used by unit tests (SimGrid allows one engine per
// process) and as a cross-check of the SimGrid engine on uncontended runs, where both must give identical times.
#pragma once
#include "engine/engine_base.hpp"

#include <vector>

namespace ompisim::engine {

class DesEngine final : public EngineBase {
public:
  DesEngine() : EngineBase("DesEngine") {}
  void run() override;
  std::string name() const override { return "des"; }

private:
  void declare(ResourceId, const std::string&, double capacity) override { capacity_.push_back(capacity); }
  void start(const std::vector<ResourceId>& path, double bytes, Callback done) override;
  std::vector<double> capacity_;
};

}  // namespace ompisim::engine
