#include "protocols/register.hpp"
#include "core/enum_names.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim {

// Each component's register function, defined in its folder's *_component.cpp.
namespace pml::ob1 {
void register_component(ComponentRegistry& reg);
}
namespace pml::cm {
void register_component(ComponentRegistry& reg);
}
namespace btl::self {
void register_component(ComponentRegistry& reg);
}
namespace btl::vader {
void register_component(ComponentRegistry& reg);
}
namespace btl::ugni {
void register_component(ComponentRegistry& reg);
}
namespace btl::portals {
void register_component(ComponentRegistry& reg);
}
namespace btl::openib {
void register_component(ComponentRegistry& reg);
}
namespace btl::gm {
void register_component(ComponentRegistry& reg);
}
namespace btl::tcp {
void register_component(ComponentRegistry& reg);
}
namespace mtl::portals {
void register_component(ComponentRegistry& reg);
}
namespace mtl::ofi {
void register_component(ComponentRegistry& reg);
}
namespace ofi::cxi {
void register_component(ComponentRegistry& reg);
}
namespace ofi::shm {
void register_component(ComponentRegistry& reg);
}
namespace ofi::linkx {
void register_component(ComponentRegistry& reg);
}
namespace native {
void register_mpich_gni(ComponentRegistry& reg);
void register_mpich_portals(ComponentRegistry& reg);
void register_mpich_cxi(ComponentRegistry& reg);
void register_mpich_qsnet(ComponentRegistry& reg);
void register_elan4_qdma(ComponentRegistry& reg);
}  // namespace native
namespace pml::teg {
void register_component(ComponentRegistry& reg);
}
namespace ptl::elan4 {
void register_component(ComponentRegistry& reg);
}
namespace loggp {
void register_component(ComponentRegistry& reg);
}

namespace {
constexpr std::array<const char*, 3> kReachNames{"self", "node", "network"};
}  // namespace

const char* to_string(Reach r) { return name_of<Reach::Network>(r, kReachNames); }

bool ComponentInfo::runs_on(const std::string& nic_kind) const {
  return nic_kinds.empty() || std::find(nic_kinds.begin(), nic_kinds.end(), nic_kind) != nic_kinds.end();
}

ParamList ComponentInfo::param_list(McaParams& mca) const {
  ParamList out;
  if (params) params.visit(mca, [&](Sourced& s, ParamInfo info) { out.push_back({std::move(info), &s}); });
  return out;
}

std::vector<std::string> ComponentInfo::param_names() const {
  McaParams own;
  if (params) params.declare(own);
  return ompisim::param_names(param_list(own));
}

Json ComponentInfo::describe_params() const {
  McaParams own;
  if (params) params.declare(own);
  return describe(param_list(own));
}

void ComponentRegistry::add(ComponentInfo info) {
  if (info.name.empty() || info.framework.empty()) throw std::invalid_argument("component: empty name or framework");
  if (info.description.empty()) throw std::invalid_argument("component '" + info.id() + "' has no description");
  if (find(info.framework, info.name)) throw std::invalid_argument("component '" + info.id() + "' registered twice");
  const int factories = !!info.make_btl + !!info.make_mtl + !!info.make_pml + !!info.make_stack;
  if (factories != (info.part_of.empty() ? 1 : 0))
    throw std::invalid_argument("component '" + info.id() + "' must have " +
                                (info.part_of.empty() ? "exactly one factory" : "no factory (its parent builds it)") +
                                " (has " + std::to_string(factories) + ")");
  entries_.push_back(std::move(info));
}

const ComponentInfo* ComponentRegistry::find(const std::string& framework, const std::string& name) const {
  for (auto& e : entries_)
    if (e.framework == framework && e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> ComponentRegistry::frameworks() const {
  std::vector<std::string> out;
  for (auto& e : entries_)
    if (std::find(out.begin(), out.end(), e.framework) == out.end()) out.push_back(e.framework);
  return out;
}

std::vector<std::string> ComponentRegistry::names(const std::string& framework) const {
  std::vector<std::string> out;
  for (auto& e : entries_)
    if (e.framework == framework) out.push_back(e.name);
  return out;
}

McaParams ComponentRegistry::defaults() const {
  McaParams m;
  for (auto& e : entries_)
    if (e.params) e.params.declare(m);
  return m;
}

void register_components(ComponentRegistry& reg) {
  pml::ob1::register_component(reg);
  pml::cm::register_component(reg);
  btl::self::register_component(reg);
  btl::vader::register_component(reg);
  btl::ugni::register_component(reg);
  btl::portals::register_component(reg);
  btl::openib::register_component(reg);
  btl::gm::register_component(reg);
  btl::tcp::register_component(reg);
  mtl::portals::register_component(reg);
  mtl::ofi::register_component(reg);
  ofi::cxi::register_component(reg);
  ofi::shm::register_component(reg);
  ofi::linkx::register_component(reg);
  native::register_mpich_gni(reg);
  native::register_mpich_portals(reg);
  native::register_mpich_cxi(reg);
  pml::teg::register_component(reg);
  ptl::elan4::register_component(reg);
  native::register_mpich_qsnet(reg);
  native::register_elan4_qdma(reg);
  loggp::register_component(reg);
}

const ComponentRegistry& component_registry() {
  static const ComponentRegistry reg = [] {
    ComponentRegistry r;
    register_components(r);
    return r;
  }();
  return reg;
}

const ComponentInfo* mca_owner(const std::string& key) {
  for (auto& c : component_registry().all()) {
    auto names = c.param_names();
    if (std::find(names.begin(), names.end(), key) != names.end()) return &c;
  }
  return nullptr;
}

}  // namespace ompisim
