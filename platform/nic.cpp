#include "platform/nic.hpp"

#include <stdexcept>

namespace ompisim {

bool BulkPath::initiator_dependent() const {
  for (auto* v : {&before_route, &after_route})
    for (auto& [end, name] : *v)
      if (end == End::Initiator) return true;
  return false;
}

NicLinks uniform_links(const std::vector<const Sourced*>& factors, const Sourced* hop_latency) {
  using C = topology::LinkClass;
  NicLinks l;
  for (C c : {C::X, C::Y, C::Z, C::Up, C::Down, C::Local, C::Global}) l.bandwidth[c] = factors;
  l.hop_latency = hop_latency;
  return l;
}

topology::LinkParams NicModel::link_params() const {
  const NicLinks l = links();
  topology::LinkParams p;
  for (const auto& [c, factors] : l.bandwidth) {
    double v = 1;
    for (const Sourced* f : factors) v *= f->value;
    p.bandwidth[c] = v;
  }
  p.hop_latency = l.hop_latency != nullptr ? l.hop_latency->value : 0.0;
  return p;
}

}  // namespace ompisim
