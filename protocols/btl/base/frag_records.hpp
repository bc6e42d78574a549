// What a BTL's per-operation records hold whatever the BTL (the commodity-NIC BTL of btl/base, btl/ugni, btl/portals):
// a send fragment is the PML's descriptor and its local completion, an RDMA operation is the PML's transfer between
// two ranks and its completion; each carries the state of its BTL's own machine (transition_table.hpp). A BTL's
// record derives from one of these and adds what its protocol needs.
#pragma once
#include "protocols/btl/btl.hpp"

#include <cstdint>

namespace ompisim::btl {

template <class State>
struct SendRecord {
  State state = State::Idle;
  Descriptor d;
  Completion local_done;  // the PML's callback once the user buffer may be reused (when, the BTL says)
};

template <class State>
struct RdmaRecord {
  State state = State::Idle;
  int initiator = 0, peer = 0;
  std::uint64_t bytes = 0;
  Completion done;
};

}  // namespace ompisim::btl
