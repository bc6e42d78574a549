#include "engine/des_engine.hpp"

#include <algorithm>
#include <limits>

namespace ompisim::engine {

void DesEngine::start(const std::vector<ResourceId>& path, double bytes, Callback done) {
  double c = std::numeric_limits<double>::infinity();
  for (auto r : path) c = std::min(c, capacity_[r]);
  at(now_ + bytes / c, std::move(done));
}

void DesEngine::run() {
  while (!q_.empty()) {
    now_ = q_.top_time();
    q_.run_top();
    ran_event();
  }
}

}  // namespace ompisim::engine
