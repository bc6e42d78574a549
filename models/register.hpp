// Registration of every NIC kind of models/ (explicit, called once by the runner; no static constructors).
#pragma once
#include "platform/nic.hpp"

namespace ompisim::models {

void register_nic_kinds(NicKindRegistry& reg);

}  // namespace ompisim::models
