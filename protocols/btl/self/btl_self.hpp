// btl/self: messages a rank sends to itself: one copy through a fragment, delivered on the same CPU.
#pragma once
#include "core/statistics.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/btl/btl.hpp"

#include <array>

namespace ompisim::btl::self {

// btl/self's statistics, declared once (add_counters reports them; the registry entry and `ompisim describe btl/self`
// list them). Absent from a run's counters while zero: most runs send nothing to themselves.
enum class SelfStat : std::uint8_t { Sends, Bytes, Gets };
inline constexpr std::array<StatisticInfo, 3> kSelfStatistics{{
    {"self_sends", "fragments", "descriptors a rank sent to itself (one copy, delivered on its own CPU)", true},
    {"self_bytes", "bytes", "data bytes those descriptors copied", true},
    {"self_gets", "transfers", "RDMA reads of a rank's own buffer (one copy)", true},
}};

// MCA_BTL_FLAGS_* of btl/self (see the capability record below).
constexpr std::uint32_t kFlags = flag::Send | flag::Put | flag::Get | flag::SendInplace;

class BtlSelf final : public Btl {
public:
  // It needs only the ranks' CPU timelines: the copy runs on the sending (or, for a GET, the initiating) rank's core.
  explicit BtlSelf(CpuTimeline& cpus) : cpus_(cpus) {
    // Open MPI v1.8.8 ompi/mca/btl/self/btl_self_component.c: eager 128 KiB, rndv_eager 128 KiB, max_send 256 KiB,
    // pipeline send length and frag size INT_MAX, min pipeline 0, flags PUT | SEND_INPLACE, bandwidth 100, latency 0,
    // exclusivity MCA_BTL_EXCLUSIVITY_HIGH. (v4.1.6 opal/mca/btl/self/btl_self_component.c: eager 1 KiB, rndv 128 KiB,
    // max_send 16 KiB, flags RDMA | SEND_INPLACE | SEND.)
    // Kept from the model, not Open MPI: the three sizes (1 MiB each) and GET (RGET above 1 MiB, as v4.1.6's RDMA
    // flag allows), so that simulated values are unchanged.
    caps_.eager_limit = caps_.rndv_eager_limit = caps_.max_send_size = 1 << 20;
    caps_.rdma_pipeline_send_length = caps_.rdma_pipeline_frag_size = 0x7fffffff;
    caps_.min_rdma_pipeline_size = 0;
    caps_.exclusivity = kExclusivityHigh;
    caps_.latency = 0;
    caps_.bandwidth = 100;
    caps_.flags = kFlags;
  }
  std::string name() const override { return "self"; }
  const BtlCaps& caps() const override { return caps_; }
  bool reaches(const Contexts&, int rank, int peer) const override { return rank == peer; }
  void send(const Descriptor& d, Completion local_done) override {
    stats_.add(SelfStat::Sends);
    stats_.add(SelfStat::Bytes, d.data.length);
    cpus_.cpu_copy(d.src, static_cast<double>(d.data.length), [this, d, local_done = std::move(local_done)] {
      if (local_done) local_done();
      deliver_landed(d, MemSpace{});
    });
  }
  void get(int initiator, int, std::uint64_t bytes, Buffer, Buffer, Completion done) override {
    stats_.add(SelfStat::Gets);
    cpus_.cpu_copy(initiator, static_cast<double>(bytes), std::move(done));
  }

  void add_counters(std::map<std::string, std::uint64_t>& c) const override { stats_.report(c); }
  std::uint64_t count(SelfStat s) const { return stats_[s]; }

private:
  CpuTimeline& cpus_;
  BtlCaps caps_;
  Statistics<SelfStat, kSelfStatistics.size()> stats_{kSelfStatistics};
};

}  // namespace ompisim::btl::self
