// A registry of entries looked up by name (explicit registration, each entry declared once with its
// name, description and provenance). `Entry` is the entry's callable member (factory or function) that must be set.
// Used by the NIC-kind, topology and route-policy registries; registries keyed by more than a name (stack presets by
// name and NIC kind, components by framework and name, collectives by collective and algorithm) keep their own.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace ompisim {

template <class Info, auto Entry>
class NamedRegistry {
public:
  // Throws std::invalid_argument for an empty name, an unset entry point or a duplicate name.
  void add(Info info) {
    if (info.name.empty()) throw std::invalid_argument("registry: an entry has an empty name");
    if (!(info.*Entry)) throw std::invalid_argument("registry: '" + info.name + "' has no factory or function");
    if (find(info.name)) throw std::invalid_argument("registry: '" + info.name + "' is already registered");
    entries_.push_back(std::move(info));
  }
  const Info* find(const std::string& name) const {  // nullptr when not registered
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  const std::vector<Info>& all() const { return entries_; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.name);
    return out;
  }

protected:
  std::vector<Info> entries_;
};

}  // namespace ompisim
