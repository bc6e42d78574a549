#include "engine/engine_base.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace ompisim::engine {

void EngineBase::at(double t, Callback cb) {
  ++events_scheduled;
  q_.push(std::max(t, now_), std::move(cb));
}

ResourceId EngineBase::add_resource(const std::string& name, double capacity) {
  if (sealed_) throw std::logic_error(std::string(type_) + ": add_resource '" + name + "' after seal");
  if (!(capacity > 0))
    throw std::invalid_argument(std::string(type_) + ": resource '" + name + "' needs a capacity > 0");
  const auto id = static_cast<ResourceId>(resources_);
  declare(id, name, capacity);
  ++resources_;
  if (trace) trace->resource(id, name);
  return id;
}

void EngineBase::check_path(const std::vector<ResourceId>& path, const char* what) const {
  if (path.empty()) throw std::logic_error(std::string(type_) + ": " + what + " on an empty path");
  for (auto r : path)
    if (r >= resources_) throw std::logic_error(std::string(type_) + ": " + what + " over an undeclared resource");
}

void EngineBase::flow(const std::vector<ResourceId>& path, double bytes, Callback done) {
  if (!sealed_) throw std::logic_error(std::string(type_) + ": flow before seal");
  check_path(path, "flow");
  ++flows_started;
  if (trace) done = traced_flow(*this, path, bytes, std::move(done));
  start(path, bytes, std::move(done));
}

void EngineBase::set_completion_grid(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    throw std::invalid_argument(std::string(type_) + ": a completion grid must be a finite time >= 0");
  grid_ = seconds;
}

namespace {
struct Later {
  template <class D>
  bool operator()(const D& a, const D& b) const {
    return a.t != b.t ? a.t > b.t : a.seq > b.seq;
  }
};
}  // namespace

void EngineBase::deliver(double date, std::uint64_t seq, Callback done) {
  double t = std::ceil(date / grid_) * grid_;
  if (t < date) t = std::nextafter(t, kNever);  // never before the flow's end (the division rounded down)
  deliveries_.push_back({t, seq, std::move(done)});
  std::push_heap(deliveries_.begin(), deliveries_.end(), Later{});
}

void EngineBase::deliver_due_now() {
  while (!deliveries_.empty() && deliveries_.front().t <= now_) {
    std::pop_heap(deliveries_.begin(), deliveries_.end(), Later{});
    q_.push(now_, std::move(deliveries_.back().done));
    deliveries_.pop_back();
  }
}

void EngineBase::stream(const std::vector<ResourceId>& path) {
  if (!shares_bandwidth()) Simulator::stream(path);  // throws: nothing to share
  check_path(path, "stream");
  ++streams;
  stream_paths_.push_back(path);
}

}  // namespace ompisim::engine
