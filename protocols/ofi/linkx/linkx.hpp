// libfabric's LINKx provider (slingshot-ex §III; fi_lnx(7), FI_LNX_PROV_LINKS "shm+cxi"): one endpoint over core
// providers. At start-up it concatenates the core providers' addresses (address()) and inserts a peer's concatenated
// address into each core provider; per message it picks the provider by locality (a peer on the same node: shm,
// else cxi; the first core provider that reaches the peer, in link order). It owns
//   - the shared completion queue: core providers write completions through the owner callbacks it gives them
//     (fi_ops_cq_owner.write); the log keeps every entry in completion order (cq_log, for tests);
//   - the shared receive queue (SharedRxQueue): software tag matching for all core providers, ANY_SOURCE resolved
//     by whichever provider calls get_tag first.
// Its cost, software.linkx_overhead, is paid per LINKx call on the calling rank's CPU: each fi_tsend / fi_tinject /
// fi_trecv (lnx_tsend, lnx_tinject, lnx_trecv: the peer table lookup, lnx_select_send_pathway /
// lnx_select_recv_pathway, the unexpected-queue search and the receive entry's allocation and insertion), and, for a
// received message, the owner work at its arrival on the target's CPU before the completion reaches the consumer: the
// core provider's get_tag into the shared receive queue (lnx_get_tag: lock, queue walk with lnx_match_common and
// the core provider's address match) and the completion through the shared CQ (lnx_peer_cq_write -> ofi_cq_write
// into LINKx's util CQ, read back by the consumer's fi_cq_read, whose util-CQ progress, lnx_cq_progress, reads
// every core provider's CQ: shm's, empty, as well as cxi's). Sources: libfabric prov/lnx (lnx_ops.c, lnx_cq.c of
// 0fbf4f40c, the first upstream commit; the paper's ornl-branch SHA 38df9f668 is not public, its December 2022
// predecessor amirshehataornl/libfabric ornl prov/linkx has the same structure: linkx_cq.c lnx_cq_progress,
// linkx_ep.c lnx_match_common).
// LIMITATIONS: tagged operations only (as fi_lnx(7)); one link (no multi-rail selection); no address vector sizes.
#pragma once
#include "core/slab.hpp"
#include "protocols/ofi/cxi/cxi_provider.hpp"
#include "protocols/ofi/base/shared_rx_queue.hpp"
#include "protocols/ofi/linkx/linkx_statistics.hpp"
#include "protocols/ofi/shm/shm_provider.hpp"

#include <vector>

namespace ompisim::ofi::linkx {

class Linkx final : public Endpoint {
public:
  // The parts of the platform it uses: the engine (CQ log times), where ranks run (locality) and their CPU timelines
  // (its per-message cost).
  Linkx(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, double overhead, shm::ShmProvider& shm,
        cxi::CxiProvider& cxi);
  std::string name() const override { return "shm+cxi:linkx"; }
  void set_cq(CqOwnerOps ops) override { consumer_ = std::move(ops); }
  void tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) override;
  void trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) override;
  // The LINKx endpoint's tx_attr->inject_size is the linked non-shm provider's (lnx_generate_link_info copies the cxi
  // fi_info for the link, its inject_size untouched: "TODO: What should we do with inject_size?"), so a send may be
  // injected up to the CXI inject size, from host memory; fi_tinject goes to the core provider of the peer (shm on the
  // node, where shm_inject_size is larger, else cxi), after LINKx's own cost.
  bool can_inject(int rank, int dst, std::uint64_t bytes, const Buffer& buf) const override;
  void tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) override;
  std::uint64_t posted_now() const override { return srx_.posted_now(); }
  std::uint64_t unexpected_now() const override { return srx_.unexpected_now(); }
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;
  // shm when no send went to a peer on its node, cxi when none left one (the ViaShm / ViaCxi counters).
  std::vector<std::string> idle_providers() const override;
  // fi_getname: the core providers' addresses concatenated, in link order.
  std::string address(int rank) const;
  const SharedRxQueue& srx() const { return srx_; }
  SharedRxQueue& srx() { return srx_; }
  bool keep_cq_log = false;  // tests: record every CQ entry
  const std::vector<CqEntry>& cq_log() const { return cq_log_; }
  const std::vector<double>& cq_log_times() const { return cq_times_; }

private:
  // A call while the host pays LINKx's cost: the step after it captures (this, index) (std::function's inline buffer)
  // instead of a heap copy of the call's arguments.
  struct Call {
    int rank = 0, peer = 0, tag = 0;
    std::uint64_t bytes = 0;
    Buffer buf{};
    std::uint64_t context = 0;
    Callback injected;
  };
  void on_send(std::uint32_t i, bool inject);
  void on_recv(std::uint32_t i);
  // A core provider's completion in the shared CQ: logged, then a receive's reaches the consumer after LINKx's
  // arrival work on the target's CPU (see above); a send's at once.
  void on_cq_write(const CqEntry& e);

  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  double overhead_;
  shm::ShmProvider& shm_;
  cxi::CxiProvider& cxi_;
  SharedRxQueue srx_;
  Slab<Call> calls_;
  Slab<CqEntry> arriving_;  // receive completions while the target pays LINKx's arrival work
  int shm_index_ = 0, cxi_index_ = 0;
  CqOwnerOps consumer_;
  std::vector<CqEntry> cq_log_;
  std::vector<double> cq_times_;
  Statistics<LinkxStat, kLinkxStatistics.size()> counters_{kLinkxStatistics};  // Matched*: the queue's, at report
};

}  // namespace ompisim::ofi::linkx
