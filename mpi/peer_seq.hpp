// Per-peer sequence numbers of one rank (core/peer_seq.hpp; the uGNI model below mpi/ uses the same table).
#pragma once
#include "core/peer_seq.hpp"

namespace ompisim::mpi {
using ompisim::PeerSeq;
}  // namespace ompisim::mpi
