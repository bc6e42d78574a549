// The component registry of protocols/: every component a stack can be composed of, with its framework ("pml", "btl",
// "mtl", "native", "model"), name, one-line description, the NIC kinds it runs on, and its software parameters (the
// struct declared beside it, e.g. protocols/btl/ugni/btl_ugni_mca.hpp). Registration is explicit
// (register_components, STYLE.md §3); runner/stacks.cpp composes stacks from these entries.
#pragma once
#include "core/params.hpp"
#include "protocols/btl/portals/btl_portals_mca.hpp"
#include "protocols/btl/ugni/btl_ugni_mca.hpp"
#include "protocols/btl/vader/btl_vader_mca.hpp"
#include "protocols/mtl/portals/mtl_portals_mca.hpp"
#include "protocols/native/mpich_gni_mca.hpp"
#include "protocols/native/mpich_portals_mca.hpp"
#include "protocols/native/qsnet/mpich_qsnet_mca.hpp"
#include "protocols/ptl/elan4/ptl_elan4_mca.hpp"

#include <functional>
#include <string>
#include <vector>

namespace ompisim {

using ParamVisitor = std::function<void(Sourced&, ParamInfo)>;
struct McaParams;

struct ComponentInfo {
  std::string framework, name, description;
  std::vector<std::string> nic_kinds;  // empty: runs on any NIC kind
  // Visits this component's parameters inside the run's McaParams (nullptr: the component has none).
  std::function<void(McaParams&, const ParamVisitor&)> params = nullptr;
  std::string id() const { return framework + "/" + name; }
  bool runs_on(const std::string& nic_kind) const;
  ParamList param_list(McaParams& mca) const;
  std::vector<std::string> param_names() const;  // of the defaults
};

class ComponentRegistry {
public:
  void add(ComponentInfo info);  // std::invalid_argument on an empty name or framework, or a duplicate
  const ComponentInfo* find(const std::string& framework, const std::string& name) const;
  const std::vector<ComponentInfo>& all() const { return entries_; }
  std::vector<std::string> frameworks() const;  // in registration order, once each
  std::vector<std::string> names(const std::string& framework) const;

private:
  std::vector<ComponentInfo> entries_;
};
void register_components(ComponentRegistry& reg);
const ComponentRegistry& component_registry();
// The component whose parameter this is (nullptr: none).
const ComponentInfo* mca_owner(const std::string& key);

// A run's software parameters: one struct per component, each component receiving only its own. The aggregate's
// parameter list is built from the registry (visit() walks the registered components in order).
struct McaParams {
  btl::ugni::UgniMca btl_ugni;
  btl::vader::VaderMca btl_vader;
  btl::portals::BtlPortalsMca btl_portals;
  mtl::portals::MtlPortalsMca mtl_portals;
  native::MpichGniMca native_mpich_gni;
  native::MpichPortalsMca native_mpich_portals;
  ptl::elan4::PtlElan4Mca ptl_elan4;
  native::MpichQsnetMca native_mpich_qsnet;
  native::Elan4QdmaMca native_elan4_qdma;

  template <class V>
  void visit(V&& v) {
    visit_registered(ParamVisitor(std::ref(v)));
  }
  void visit_registered(const ParamVisitor& v);
};

}  // namespace ompisim
