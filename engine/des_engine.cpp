#include "engine/des_engine.hpp"

#include "core/progress.hpp"
#include "core/trace.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ompisim::engine {

void DesEngine::at(double t, Callback cb) {
  ++events_scheduled;
  q_.push(std::max(t, now_), std::move(cb));
}

ResourceId DesEngine::add_resource(const std::string& name, double capacity) {
  if (sealed_) throw std::logic_error("DesEngine: add_resource '" + name + "' after seal");
  if (!(capacity > 0)) throw std::invalid_argument("DesEngine: resource '" + name + "' needs a capacity > 0");
  capacity_.push_back(capacity);
  if (trace) trace->resource(static_cast<ResourceId>(capacity_.size() - 1), name);
  return static_cast<ResourceId>(capacity_.size() - 1);
}

void DesEngine::flow(const std::vector<ResourceId>& path, double bytes, Callback done) {
  if (path.empty()) throw std::logic_error("DesEngine: flow on an empty path");
  double c = std::numeric_limits<double>::infinity();
  for (auto r : path) {
    if (r >= capacity_.size()) throw std::logic_error("DesEngine: flow over an undeclared resource");
    c = std::min(c, capacity_[r]);
  }
  ++flows_started;
  if (trace) done = traced_flow(*this, path, bytes, std::move(done));
  at(now_ + bytes / c, std::move(done));
}

void DesEngine::run() {
  while (!q_.empty()) {
    now_ = q_.top_time();
    q_.run_top();
    if ((++run_ & 0xFFFF) == 0 && progress::enabled()) progress::sim_tick(now_, run_);
  }
}

}  // namespace ompisim::engine
