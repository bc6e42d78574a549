// A communicator as the matching layer sees it: its context id (ompi_communicator_t::c_contextid). Messages on
// different communicators never match each other, whatever their source and tag: ob1 carries the context id in its
// match header (hdr_ctx, 16 bits), the Portals MTL in 12 match bits (see protocols/mtl/portals/mpi_bits.hpp).
// LIMITATIONS: ranks are world ranks on every communicator (no group, no rank translation here: collectives map
// their group ranks to world ranks before calling the stack); no communicator creation protocol (context ids are
// given by the caller).
#pragma once
#include <cstdint>

namespace ompisim::mpi {

struct Comm {
  std::uint32_t context_id = 0;
  bool operator==(const Comm&) const = default;
};

// Open MPI's predefined communicators (ompi/communicator/comm_init.c: MPI_COMM_WORLD gets context id 0,
// MPI_COMM_SELF 1).
inline constexpr Comm kCommWorld{0};
inline constexpr Comm kCommSelf{1};

}  // namespace ompisim::mpi
