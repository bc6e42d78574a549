#include "platform/nic.hpp"

#include <stdexcept>

namespace ompisim {

bool BulkPath::initiator_dependent() const {
  for (auto* v : {&before_route, &after_route})
    for (auto& [end, name] : *v)
      if (end == End::Initiator) return true;
  return false;
}

}  // namespace ompisim
