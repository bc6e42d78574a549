#include "engine/engine_base.hpp"

#include "core/trace.hpp"

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

void EngineBase::stream(const std::vector<ResourceId>& path) {
  if (!shares_bandwidth()) Simulator::stream(path);  // throws: nothing to share
  check_path(path, "stream");
  ++streams;
  stream_paths_.push_back(path);
}

}  // namespace ompisim::engine
