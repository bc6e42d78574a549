// The native comparator on the SeaStar: Cray MPI (XT MPT, MPICH2 over Portals). MPICH2's request layer (ADI3 requests
// play pml/cm's role) over a Portals device with Cray's protocol choices: the seastar-portals paper says the protocols
// are "generally similar" to Open MPI's MTL, so the differences are data (mtl::portals::Protocol): eager up to
// MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above, two event queues polled, the unexpected buffer in two halves. Its
// paths have their own free costs, fitted to the paper's numbers about Cray MPI (protocols/native/README.md, "Cray MPI
// on the SeaStar: per-path costs"): the eager path a cost per byte on the sender's CPU at post, before the request
// layer's work (software.craympi_eager_rate); the unexpected short path a cost per message and per byte at the
// receiver's match (software.craympi_unex_cost, craympi_unex_rate); the pre-posted receive path a cost per receive
// posted as a match entry, at the receiver once the entry is linked (software.craympi_post_cost;
// mtl::portals::Protocol carries the receive-side ones).
// LIMITATIONS: as mtl/portals and pml/cm (4,096 communicators in its match bits, no probe); Cray's progress engine is not public.
#pragma once
#include "protocols/mtl/portals/mtl_portals.hpp"
#include "protocols/native/mpich_portals_mca.hpp"
#include "protocols/pml/cm/pml_cm.hpp"

namespace ompisim::native {

// `unex_cost`, `unex_rate`: the unexpected short path's own costs (0, 0: none); `post_cost`: the pre-posted receive
// path's own cost per receive (0: none).
mtl::portals::Protocol cray_mpi_protocol(const MpichPortalsMca& mca, double unex_cost = 0, double unex_rate = 0,
                                         double post_cost = 0);

// Cray MPI's counters: mtl/portals' table (its model counts them), entry by entry, under Cray MPI's own names.
inline constexpr std::array<StatisticInfo, 13> kCrayMpiStatistics{{
    {"craympi_short_sends", "messages", "sends within MPICH_MAX_SHORT_MSG_SIZE (eager: one put of header and data)",
     true},
    {"craympi_long_sends", "messages", "sends above MPICH_MAX_SHORT_MSG_SIZE (a header put; the receiver gets the data)",
     true},
    {"craympi_copy_block_sends", "messages", "short sends copied into a send copy block (complete at once)", true},
    {"craympi_zero_sends", "messages", "zero-byte sends put from the retained zero-length MD", true},
    {"craympi_copy_block_waits", "messages", "sends that waited for a free copy block (or behind one that did)", true},
    {"craympi_unex_blocks_posted", "blocks", "unexpected-buffer halves attached (first and re-posted)", true},
    {"craympi_unexpected_short", "messages", "short messages that landed in the unexpected buffer (no posted receive)",
     true},
    {"craympi_unexpected_long", "messages", "long messages whose header arrived before their receive", true},
    {"craympi_posted_receives", "receives", "receives put on the NIC's match list (no unexpected message matched)",
     true},
    {"craympi_mdupdate_retry", "receives",
     "receives whose PtlMDUpdate found a new unexpected message and searched again", true},
    {"craympi_long_gets", "transfers", "gets pulling a long message after its receive matched", true},
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE)"},
    {"craympi_live_requests", "requests", "requests (sends and receives) not completed at the end of the run", false,
     true},
}};

class MpichPortals final : public Stack {
public:
  // The parts of the platform it uses: where ranks run (the machine's Cray MPI costs), their CPU timelines, the
  // node's memory copies (mtl/portals' copy blocks) and the job's SeaStar.
  MpichPortals(const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies, seastar::SeaStar& nic,
               const MpichPortalsMca& mca, const std::string& name);
  std::string name() const override { return pml_.name(); }
  void start_send(const mpi::P2P& m, Completion c) override;
  void start_recv(const mpi::P2P& m, Completion c) override { pml_.start_recv(m, std::move(c)); }
  std::uint32_t max_contextid() const override { return pml_.max_contextid(); }
  StackStats stats() const override {
    StackStats st = pml_.stats();
    rename_counters(st.counters, mtl::portals::kMtlPortalsStatistics, kCrayMpiStatistics);
    return st;
  }

  // The eager path's own CPU time for a send of `bytes` (0 for a rendezvous send).
  double eager_path_cost(std::uint64_t bytes) const;

private:
  CpuTimeline& cpus_;
  std::uint64_t eager_limit_;
  double eager_rate_;
  mtl::portals::MtlPortals mtl_;
  pml::cm::PmlCm pml_;
};

}  // namespace ompisim::native
