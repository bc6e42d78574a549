#include "protocols/native/mpich_portals.hpp"

namespace ompisim::native {

mtl::portals::Protocol cray_mpi_protocol(const MpichPortalsMca& mca, double unex_cost, double unex_rate,
                                         double post_cost) {
  mtl::portals::Protocol p;
  p.name = "cray-portals";
  p.eager_limit = static_cast<std::uint64_t>(mca.mpich_max_short_msg_size.get());
  p.long_rendezvous = true;          // rendezvous by default above the eager limit (paper §3)
  p.eqs_polled = 2;                  // unexpected EQ and "other" EQ polled on every progress call
  p.unexpected_start_events = true;  // two events per unexpected message (Pritchard & Pagel)
  p.blocks = 2;  // the unexpected buffer in two halves, so one serves while the other is re-posted
  p.block_size = static_cast<std::uint64_t>(mca.mpich_unex_buffer_size.get()) / 2;
  p.block_share = 2;
  p.eager_key = "mca.mpich_max_short_msg_size";
  p.block_key = "mca.mpich_unex_buffer_size";
  p.unexpected_cost = unex_cost;
  p.unexpected_rate = unex_rate;
  p.posted_cost = post_cost;
  return p;
}

namespace {
// Cray MPI's protocol with its fitted per-path costs taken without reading them (Machine::software_params): the
// unexpected short path reads its two at its first message, the pre-posted path its one at its first receive.
mtl::portals::Protocol cray_mpi_protocol_of(const Machine& m, const MpichPortalsMca& mca) {
  const auto unex_cost = m.software_params("craympi_unex_cost"), unex_rate = m.software_params("craympi_unex_rate"),
             post_cost = m.software_params("craympi_post_cost");
  mtl::portals::Protocol p =
      cray_mpi_protocol(mca, unex_cost.front()->value, unex_rate.front()->value, post_cost.front()->value);
  p.unexpected_params.params = unex_cost;
  p.unexpected_params.params.insert(p.unexpected_params.params.end(), unex_rate.begin(), unex_rate.end());
  p.posted_params.params = post_cost;
  return p;
}
}  // namespace

MpichPortals::MpichPortals(const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies,
                           seastar::SeaStar& nic, const MpichPortalsMca& mca, const std::string& name)
    : cpus_(cpus),
      eager_limit_(static_cast<std::uint64_t>(mca.mpich_max_short_msg_size.get())),
      eager_rate_(contexts.machine().software_cost("craympi_eager_rate")),
      mtl_(contexts, cpus, copies, nic, cray_mpi_protocol_of(contexts.machine(), mca)),
      pml_(cpus, contexts.machine().software_cost("mpich_overhead"), mtl_, name) {}

double MpichPortals::eager_path_cost(std::uint64_t bytes) const {
  if (bytes > eager_limit_ || eager_rate_ <= 0) return 0.0;
  return static_cast<double>(bytes) / eager_rate_;
}

// The eager path's cost is queued on the sender's CPU before the request layer's work. Every send goes through the
// CPU queue (a rendezvous send with no cost too), so sends stay in their order (one CPU queue per rank) and Portals
// sees the puts in the order they were posted: MPI's matching order holds.
void MpichPortals::start_send(const mpi::P2P& m, Completion c) {
  cpus_.cpu(m.rank, eager_path_cost(m.bytes()), [this, m, c = std::move(c)]() mutable { pml_.start_send(m, std::move(c)); },
         "Cray MPI send path (fitted per-path cost)");
}

}  // namespace ompisim::native
