// What pml/cm asks of a matching transport layer (mirrors mca_mtl_base_module_t): send and receive with MPI matching
// done by the transport. The MTL owns matching, protocols and data movement; pml/cm owns requests.
#pragma once
#include "mpi/stack.hpp"
#include "platform/world.hpp"
#include "protocols/base/mca_module.hpp"

namespace ompisim::mtl {

class Mtl : public McaModule {
public:
  // Called on the rank's CPU after pml/cm's own cost; `done` when the MPI request is complete.
  virtual void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) = 0;
  virtual void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) = 0;
  virtual std::uint64_t unexpected_now() const = 0;
  virtual std::uint64_t posted_now() const = 0;
};

}  // namespace ompisim::mtl
