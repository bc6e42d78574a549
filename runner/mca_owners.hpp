// Which stack owns which MCA (or Cray MPT environment) parameter, by name prefix. A scenario's "mca" key that no
// component of its stack reads would be silently ignored, so it is refused instead (exit 2, naming the stack that
// owns it). A table for now; the platform issue's parameter registry will give the owner of each parameter directly.
#pragma once
#include <string>
#include <vector>

namespace ompisim {

struct McaOwner {
  std::string prefix;  // "btl_ugni_" or a full name
  std::string family;  // NIC family of the machine
  std::string stack;   // stack name (runner/stacks.cpp)
  std::string component;
};

const std::vector<McaOwner>& mca_owners();
// Scenario "mca" keys: each must be a known parameter read by `stack` on `family` (typo: did you mean, among the
// stack's own parameters). InputError(file, "mca.<key>", reason).
void check_mca_keys(const std::vector<std::string>& keys, const std::vector<std::string>& all_names,
                    const std::string& family, const std::string& stack, const std::string& file);
// --set keys that are MCA names: the parameter must belong to the machine's NIC family.
void check_mca_family(const std::string& key, const std::string& family, const std::string& source);

}  // namespace ompisim
