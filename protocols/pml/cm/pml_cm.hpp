// pml/cm: MPI request management over one MTL, which does matching and data movement (seastar-portals paper §2.1,
// "CM"). No matching, no fragments, no BTLs here: a send or receive costs pml/cm's own request handling, then is the
// MTL's. Completion comes from the MTL, which also fills the receive's status. The requests are the shared MPI
// library skeleton's (mpi::Library without matching).
#pragma once
#include "mpi/library.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/mtl/mtl.hpp"

namespace ompisim::pml::cm {

class PmlCm final : public Stack {
public:
  // It needs only the ranks' CPU timelines (its own request handling, `overhead` per call, on the calling rank's core).
  PmlCm(CpuTimeline& cpus, double overhead, mtl::Mtl& mtl, std::string name);
  std::string name() const override { return name_; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  StackStats stats() const override;
  std::uint32_t max_contextid() const override { return mtl_.max_contextid(); }  // as pml/cm takes the MTL's
  std::vector<std::string> idle_components() const override { return mtl_.idle_components(); }

private:
  CpuTimeline& cpus_;
  double overhead_;
  mtl::Mtl& mtl_;
  std::string name_;
  // A send request keeps the call's MPI_Send / MPI_Isend mark; with it a request holds everything the MTL is handed
  // (the datatype is folded into the size and the buffer's contiguity), so the step after pml/cm's own cost captures
  // only the request's id.
  struct SendRequest : mpi::Request {
    bool blocking = false;
  };
  static mpi::P2P call_of(const mpi::Request& r, bool blocking);
  mpi::Library<SendRequest, mpi::Request> lib_;  // mca_pml_cm_thin_send_request_t / _recv_request_t
};

}  // namespace ompisim::pml::cm
