#include "engine/des_engine.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ompisim::engine {

void DesEngine::at(double t, Callback cb) {
  ++events_scheduled;
  q_.push(std::max(t, now_), std::move(cb));
}

ResourceId DesEngine::add_resource(const std::string&, double capacity) {
  capacity_.push_back(capacity);
  return static_cast<ResourceId>(capacity_.size() - 1);
}

EndpointId DesEngine::add_endpoint(const std::string&) { return next_ep_++; }

void DesEngine::add_path(EndpointId src, EndpointId dst, const std::vector<ResourceId>& resources) {
  double c = std::numeric_limits<double>::infinity();
  for (auto r : resources) c = std::min(c, capacity_.at(r));
  paths_[{src, dst}] = c;
}

void DesEngine::flow(EndpointId src, EndpointId dst, double bytes, Callback done) {
  auto it = paths_.find({src, dst});
  if (it == paths_.end()) throw std::logic_error("DesEngine: flow on an undeclared path");
  ++flows_started;
  at(now_ + bytes / it->second, std::move(done));
}

void DesEngine::run() {
  while (!q_.empty()) {
    auto [t, cb] = q_.pop();
    now_ = t;
    cb();
  }
}

}  // namespace ompisim::engine
