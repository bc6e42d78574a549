// What pml/cm asks of a matching transport layer (mirrors mca_mtl_base_module_t): send and receive with MPI matching
// done by the transport. The MTL owns matching, protocols and data movement; pml/cm owns requests.
#pragma once
#include "mpi/stack.hpp"
#include "protocols/base/mca_module.hpp"

namespace ompisim::mtl {

class Mtl : public McaModule {
public:
  // Called on the rank's CPU after pml/cm's own cost; `done` when the MPI request is complete (a receive fills
  // m.status first, as an MTL fills its request's ompi_status).
  virtual void isend(const mpi::P2P& m, Completion done) = 0;
  virtual void irecv(const mpi::P2P& m, Completion done) = 0;
  // The largest context id its matching can carry (mca_mtl_base_module_t::mtl_max_contextid).
  virtual std::uint32_t max_contextid() const = 0;
  virtual std::uint64_t unexpected_now() const = 0;
  virtual std::uint64_t posted_now() const = 0;
  // The components under the MTL that carried no message of the run (Stack::idle_components); none by default.
  virtual std::vector<std::string> idle_components() const { return {}; }
};

}  // namespace ompisim::mtl
