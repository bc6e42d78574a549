#include "protocols/register.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim {

bool ComponentInfo::runs_on(const std::string& nic_kind) const {
  return nic_kinds.empty() || std::find(nic_kinds.begin(), nic_kinds.end(), nic_kind) != nic_kinds.end();
}

ParamList ComponentInfo::param_list(McaParams& mca) const {
  ParamList out;
  if (params) params(mca, [&](Sourced& s, ParamInfo info) { out.push_back({std::move(info), &s}); });
  return out;
}

std::vector<std::string> ComponentInfo::param_names() const {
  McaParams defaults;
  return ompisim::param_names(param_list(defaults));
}

void ComponentRegistry::add(ComponentInfo info) {
  if (info.name.empty() || info.framework.empty()) throw std::invalid_argument("component: empty name or framework");
  if (find(info.framework, info.name)) throw std::invalid_argument("component '" + info.id() + "' registered twice");
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

void register_components(ComponentRegistry& reg) {
  reg.add({"pml", "ob1", "point-to-point over BTLs (bml/r2 picks them): matching in the host, eager/RNDV/RGET protocols",
           {"gemini", "seastar"}});
  reg.add({"pml", "cm", "point-to-point over one MTL: matching done by the MTL (Portals on the SeaStar, libfabric)",
           {"seastar", "cxi"}});
  reg.add({"btl", "self", "loop-back to the sending rank", {"gemini", "seastar"}});
  reg.add({"btl", "vader", "on-node shared memory: fast boxes, copy in/out, XPMEM single copy", {"gemini"},
           [](McaParams& m, const ParamVisitor& v) { m.btl_vader.visit(v); }});
  reg.add({"btl", "ugni", "Cray uGNI (Gemini): SMSG, eager-get, FMA/BTE RDMA", {"gemini"},
           [](McaParams& m, const ParamVisitor& v) { m.btl_ugni.visit(v); }});
  reg.add({"btl", "portals", "Portals 3 BTL (SeaStar): every peer, on-node ones included on Catamount", {"seastar"},
           [](McaParams& m, const ParamVisitor& v) { m.btl_portals.visit(v); }});
  reg.add({"mtl", "portals", "Portals 3 MTL (SeaStar): matching by Portals, short/long protocol", {"seastar"},
           [](McaParams& m, const ParamVisitor& v) { m.mtl_portals.visit(v); }});
  reg.add({"mtl", "ofi", "libfabric MTL (Open MPI v5.0): fi_tsend/fi_trecv on the provider named by stack.ofi", {"cxi"}});
  reg.add({"ofi", "cxi", "libfabric CXI provider (Cassini): hardware matching alone, software matching under LINKx",
           {"cxi"}});
  reg.add({"ofi", "shm", "libfabric shm provider: inject copies, CMA/XPMEM single copy, GPU IPC with a handle cache",
           {"cxi"}});
  reg.add({"ofi", "linkx", "libfabric LINKx: shm+cxi under one endpoint, shared CQ and receive queue, software matching",
           {"cxi"}});
  reg.add({"native", "mpich_gni",
           "Cray MPT: MPICH2 CH3/Nemesis with the uGNI netmod (same hardware, different protocol)", {"gemini"},
           [](McaParams& m, const ParamVisitor& v) { m.native_mpich_gni.visit(v); }});
  reg.add({"native", "mpich_portals",
           "Cray MPI (XT MPT, MPICH2 over Portals): eager up to MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above",
           {"seastar"}, [](McaParams& m, const ParamVisitor& v) { m.native_mpich_portals.visit(v); }});
  reg.add({"native", "mpich_cxi",
           "Cray MPICH over libfabric CXI (hardware matching) with its own shared-memory path (XPMEM/CMA, GPU IPC)",
           {"cxi"}});
  reg.add({"model", "loggp", "LogGOPS reference stack (closed-form checks)", {"loggp"}});
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

void McaParams::visit_registered(const ParamVisitor& v) {
  for (auto& c : component_registry().all())
    if (c.params) c.params(*this, v);
}

}  // namespace ompisim
