// See topology.hpp.
#include "platform/topology/topology.hpp"

#include "core/enum_names.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

namespace ompisim::topology {

namespace {
constexpr std::array<const char*, kLinkClassCount> kLinkClassNames{"X", "Y", "Z", "up", "down", "local", "global"};
}  // namespace

const char* to_string(LinkClass c) { return name_of<LinkClass::Global>(c, kLinkClassNames); }

std::optional<LinkClass> link_class_from_string(const std::string& s) {
  for (std::size_t i = 0; i < kLinkClassNames.size(); ++i)
    if (s == kLinkClassNames[i]) return static_cast<LinkClass>(i);
  return std::nullopt;
}

double route_load(const Route& r, const LinkLoad* load) {
  if (load == nullptr) return 0;
  double m = 0;
  for (LinkId l : r) m = std::max(m, load->load(l));
  return m;
}

std::string Topology::link_name(LinkId id) const {
  const auto& l = link(id);
  return "r" + std::to_string(l.from) + "->r" + std::to_string(l.to) + ":" + to_string(l.cls);
}

std::vector<LinkClass> Topology::link_classes() const {
  std::set<LinkClass> s;
  for (const auto& l : links_) s.insert(l.cls);
  return {s.begin(), s.end()};
}

Route Topology::route_via(RouterId a, RouterId via, RouterId b) const {
  Route r = default_route(a, via);
  Route s = default_route(via, b);
  r.insert(r.end(), s.begin(), s.end());
  return r;
}

void Topology::set_link_params(const LinkParams& p) {
  params_ = p;
  for (auto& l : links_) {
    auto it = params_.bandwidth.find(l.cls);
    l.bandwidth = it == params_.bandwidth.end() ? 0.0 : it->second;
    l.latency = params_.hop_latency;
  }
  set_class_bandwidth();
}

void Topology::set_class_bandwidth() {
  class_bandwidth_.fill(0.0);
  for (auto [cls, bw] : params_.bandwidth) class_bandwidth_[static_cast<std::size_t>(cls)] = bw;
}

LinkId Topology::add_link(LinkProps p) {
  p.id = static_cast<LinkId>(links_.size());
  auto it = params_.bandwidth.find(p.cls);
  p.bandwidth = it == params_.bandwidth.end() ? 0.0 : it->second;
  p.latency = params_.hop_latency;
  boost::add_edge(static_cast<std::size_t>(p.from), static_cast<std::size_t>(p.to), LinkRef{p.id}, g_);
  links_.push_back(p);
  link_cls_.push_back(static_cast<std::uint8_t>(p.cls));
  class_bandwidth_[static_cast<std::size_t>(p.cls)] = p.bandwidth;
  return p.id;
}

void Topology::check_endpoint(RouterId r, const char* what) const {
  if (r < 0 || r >= endpoint_routers())
    throw std::out_of_range(kind() + ": " + what + " router " + std::to_string(r) + " is not an endpoint router [0, " +
                            std::to_string(endpoint_routers()) + ")");
}

void Topology::set_compute_nodes(long long n) {
  if (n < 1 || n > node_slots())
    throw std::invalid_argument(kind() + ": compute_nodes " + std::to_string(n) + " is outside [1, " +
                                std::to_string(node_slots()) + "]");
  compute_nodes_ = n;
}

nlohmann::json Topology::describe_common() const {
  return {{"routers", routers()},
          {"links", link_count()},
          {"node_slots", node_slots()},
          {"compute_nodes", compute_nodes()}};
}

}  // namespace ompisim::topology
