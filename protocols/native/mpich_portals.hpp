// The native comparator on the SeaStar: Cray MPI (XT MPT, MPICH2 over Portals). MPICH2's request layer (ADI3 requests
// play pml/cm's role) over a Portals device with Cray's protocol choices: the seastar-portals paper says the protocols
// are "generally similar" to Open MPI's MTL, so the differences are data (mtl::portals::Protocol): eager up to
// MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above, two event queues polled, the unexpected buffer in two halves.
// LIMITATIONS: as mtl/portals and pml/cm (one communicator, no probe); Cray's progress engine is not public.
#pragma once
#include "protocols/mtl/portals/mtl_portals.hpp"
#include "protocols/native/mpich_portals_mca.hpp"
#include "protocols/pml/cm/pml_cm.hpp"

namespace ompisim::native {

mtl::portals::Protocol cray_mpi_protocol(const MpichPortalsMca& mca);

class MpichPortals final : public Stack {
public:
  MpichPortals(World& w, const MpichPortalsMca& mca, const std::string& name);
  std::string name() const override { return pml_.name(); }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override {
    pml_.isend(r, d, t, b, buf, std::move(c));
  }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override {
    pml_.irecv(r, s, t, b, buf, std::move(c));
  }
  StackStats stats() const override { return pml_.stats(); }

private:
  mtl::portals::MtlPortals mtl_;
  pml::cm::PmlCm pml_;
};

}  // namespace ompisim::native
