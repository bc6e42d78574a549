// A stack of pml/teg over PTL modules: the 2004 composition {"pml": "teg", "ptl": ["elan4"]}. Each PTL brings the NIC
// model it drives (ptl/elan4: models/qsnet's Elan4).
#pragma once
#include "mpi/stack.hpp"
#include "platform/platform_parts.hpp"
#include "protocols/register.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ompisim::pml::teg {

// InputError (file "", key "mca.<name>", reason) for contradicting MCA choices; std::logic_error for a PTL without
// a factory.
std::unique_ptr<Stack> make_teg_stack(const PlatformParts& parts, const McaParams& mca,
                                      const std::vector<std::string>& ptls, const std::string& name);

}  // namespace ompisim::pml::teg
