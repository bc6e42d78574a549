#include "platform/nic.hpp"

#include <stdexcept>

namespace ompisim {

bool BulkPath::initiator_dependent() const {
  for (auto* v : {&before_route, &after_route})
    for (auto& [end, name] : *v)
      if (end == End::Initiator) return true;
  return false;
}

void NicKindRegistry::add(NicKindInfo info) {
  if (info.name.empty() || !info.make) throw std::invalid_argument("NIC kind: empty name or no factory");
  if (find(info.name)) throw std::invalid_argument("NIC kind '" + info.name + "' registered twice");
  entries_.push_back(std::move(info));
}

const NicKindInfo* NicKindRegistry::find(const std::string& name) const {
  for (auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> NicKindRegistry::names() const {
  std::vector<std::string> out;
  for (auto& e : entries_) out.push_back(e.name);
  return out;
}

}  // namespace ompisim
