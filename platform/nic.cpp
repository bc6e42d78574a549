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
  NicLinks l;
  for (std::size_t c = 0; c < topology::kLinkClassCount; ++c) l.bandwidth[static_cast<topology::LinkClass>(c)] = factors;
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
