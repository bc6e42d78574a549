// See flat.hpp.
#include "platform/topology/flat.hpp"

#include "core/json_input.hpp"
#include "platform/topology/topology_registry.hpp"

#include <stdexcept>

namespace ompisim::topology {

Flat::Flat(long long compute_nodes, const LinkParams& params) : Topology(1), slots_(compute_nodes) {
  if (compute_nodes < 1) throw std::invalid_argument("flat: compute_nodes must be >= 1");
  params_ = params;
  set_compute_nodes(compute_nodes);
}

std::unique_ptr<Topology> Flat::from_shape(const nlohmann::json& shape, const LinkParams& params,
                                           const std::string& file, const std::string& path) {
  ObjectReader t(shape, file, path);
  long long nodes = t.integer("compute_nodes", 1, 100000000);
  t.finish(caller_shape_keys());
  return std::make_unique<Flat>(nodes, params);
}

int Flat::min_hops(RouterId a, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  return 0;
}

Route Flat::default_route(RouterId a, RouterId b) const {
  check_endpoint(a, "source");
  check_endpoint(b, "destination");
  return {};
}

std::vector<Route> Flat::minimal_routes(RouterId a, RouterId b, std::size_t) const { return {default_route(a, b)}; }

nlohmann::json Flat::describe() const {
  nlohmann::json j = describe_common();
  j["kind"] = kind();
  return j;
}

}  // namespace ompisim::topology
