#include "runner/mca_owners.hpp"

#include "core/errors.hpp"
#include "core/json_input.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ompisim {

const std::vector<McaOwner>& mca_owners() {
  static const std::vector<McaOwner> t{
      {"btl_ugni_", "gemini", "openmpi", "btl/ugni"},
      {"btl_vader_", "gemini", "openmpi", "btl/vader"},
      {"mpich_gni_", "gemini", "native", "Cray MPT uGNI netmod"},
      {"mpich_smp_", "gemini", "native", "Cray MPT Nemesis shared memory"},
      {"mtl_portals_", "seastar", "openmpi-cm", "mtl/portals"},
      {"btl_portals_", "seastar", "openmpi-ob1", "btl/portals"},
      {"mpich_max_short_msg_size", "seastar", "native", "Cray MPI over Portals"},
      {"mpich_unex_buffer_size", "seastar", "native", "Cray MPI over Portals"},
  };
  return t;
}

namespace {
const McaOwner* owner_of(const std::string& key) {
  for (auto& o : mca_owners())
    if (key.rfind(o.prefix, 0) == 0) return &o;
  return nullptr;
}
}  // namespace

void check_mca_keys(const std::vector<std::string>& keys, const std::vector<std::string>& all_names,
                    const std::string& family, const std::string& stack, const std::string& file) {
  std::vector<std::string> own;  // the parameters this stack reads
  for (auto& n : all_names) {
    const McaOwner* o = owner_of(n);
    if (o && o->family == family && o->stack == stack) own.push_back(n);
  }
  for (auto& k : keys) {
    const std::string path = "mca." + k;
    if (std::find(all_names.begin(), all_names.end(), k) == all_names.end()) {
      std::string hint = did_you_mean(k, own.empty() ? all_names : own);
      throw InputError(file, path,
                       "unknown MCA parameter" + (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)") +
                           (own.empty() ? fmt::format("; stack '{}' on {} takes no MCA parameters", stack, family)
                                        : fmt::format(" (stack '{}' reads: {})", stack, fmt::join(own, ", "))));
    }
    const McaOwner* o = owner_of(k);
    if (!o || (o->family == family && o->stack == stack)) continue;
    throw InputError(file, path,
                     fmt::format("parameter of {} (stack '{}' on {} machines); stack '{}' on this {} machine does not "
                                 "read it, so it would be ignored",
                                 o->component, o->stack, o->family, stack, family));
  }
}

void check_mca_family(const std::string& key, const std::string& family, const std::string& source) {
  const McaOwner* o = owner_of(key);
  if (!o || o->family == family) return;
  throw InputError(source, key,
                   fmt::format("parameter of {} on {} machines; this machine is {}, so it would be ignored",
                               o->component, o->family, family));
}

}  // namespace ompisim
