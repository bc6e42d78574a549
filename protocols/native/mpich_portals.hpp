// The native comparator on the SeaStar: Cray MPI (XT MPT, MPICH2 over Portals). MPICH2's request layer (ADI3 requests
// play pml/cm's role) over a Portals device with Cray's protocol choices: the seastar-portals paper says the protocols
// are "generally similar" to Open MPI's MTL, so the differences are data (mtl::portals::Protocol): eager up to
// MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above, two event queues polled, the unexpected buffer in two halves.
// LIMITATIONS: as mtl/portals and pml/cm (4,096 communicators in its match bits, no probe); Cray's progress engine is not public.
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
  void start_send(const mpi::P2P& m, Completion c) override { pml_.start_send(m, std::move(c)); }
  void start_recv(const mpi::P2P& m, Completion c) override { pml_.start_recv(m, std::move(c)); }
  std::uint32_t max_contextid() const override { return pml_.max_contextid(); }
  StackStats stats() const override { return pml_.stats(); }

private:
  mtl::portals::MtlPortals mtl_;
  pml::cm::PmlCm pml_;
};

}  // namespace ompisim::native
