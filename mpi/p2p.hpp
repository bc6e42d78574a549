// One point-to-point call as a stack receives it (MPI_Isend / MPI_Irecv's arguments, or MPI_Send's: `blocking`): the calling rank, the peer
// (destination of a send; source of a receive, or kAnySource), the tag (or kAnyTag for a receive), `count` elements
// of `type`, the communicator and the user buffer. `status`, when given, is filled before a receive's completion
// runs (MPI_Status: the matched source and tag and the message's length).
#pragma once
#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"
#include "platform/buffer.hpp"

#include <cstdint>

namespace ompisim {

constexpr int kAnySource = -1;  // MPI_ANY_SOURCE
constexpr int kAnyTag = -1;     // MPI_ANY_TAG: matches every tag >= 0 (negative tags are internal, as in Open MPI)

namespace mpi {

struct Status {
  int source = kAnySource, tag = kAnyTag;
  std::uint64_t bytes = 0;  // the message's length; above the receive's size it is MPI_ERR_TRUNCATE
  bool truncated = false;
};

struct P2P {
  int rank = 0, peer = 0, tag = 0;
  std::uint64_t count = 0;
  Datatype type = kByte;
  Comm comm = kCommWorld;
  Buffer buf{};
  Status* status = nullptr;
  // A send issued by MPI_Send (blocking: the call returns when the buffer may be reused), not MPI_Isend. The model's
  // calls are all non-blocking underneath (done runs at completion either way); a stack that completes a blocking
  // send differently reads this (mtl/ofi: fi_tinject, mtl_ofi.hpp).
  bool blocking = false;
  std::uint64_t bytes() const { return type.bytes(count); }
  // The buffer as the protocols see it: contiguous only when the memory and the datatype both are.
  Buffer buffer() const {
    Buffer b = buf;
    b.contiguous = buf.contiguous && type.contiguous;
    return b;
  }
};

// MPI matching of a receive's (source, tag) against a message's: MPI_ANY_SOURCE matches any source; MPI_ANY_TAG any
// tag >= 0 (other negative tags are internal ones, e.g. a collective's, matched exactly).
inline bool matches(int want_src, int want_tag, int src, int tag) {
  return (want_src == kAnySource || want_src == src) && (want_tag == kAnyTag ? tag >= 0 : want_tag == tag);
}

}  // namespace mpi
}  // namespace ompisim
