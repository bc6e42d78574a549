// What every component instance of a stack has in common (↔ mca_base_module_t, with the statistics Open MPI exposes
// through its pvars): a name and its counters. BTL modules (protocols/btl/btl.hpp) and MTL modules
// (protocols/mtl/mtl.hpp) derive from it; runner/stacks.cpp collects every module's counters into the stack's
// statistics, so no stack copies another component's counters by hand.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace ompisim {

class McaModule {
public:
  virtual ~McaModule() = default;
  virtual std::string name() const = 0;
  // This module's statistics, each under a name prefixed by its component ("ugni_smsg", "vader_fbox_sends", ...).
  // Assigns (never adds), so collecting twice gives the same map.
  virtual void add_counters(std::map<std::string, std::uint64_t>& c) const { (void)c; }
};

}  // namespace ompisim
