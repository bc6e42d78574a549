// btl/vader (Gemini paper §III): shared memory between the ranks of a node.
//  - header + data below btl_vader_max_inline_send (256 B): lock-free per-peer fast box: the sender copies the
//    message in, the receiver sees it one cache-line hand-off later and its PML copies it out;
//  - every other fragment goes through the receiver's lock-free FIFO of fragment headers: the receiver reads the
//    FIFO's head and then the header it points to, two cache-line transfers (vader_fifo_read);
//  - larger sends the PML allows in place (desc_flag::InPlace, ob1's MATCH) from a contiguous buffer: only a pointer to the user buffer is passed; the receiver maps the sender's pages
//    with XPMEM (attach at least 2 MiB at a time, attachments cached) and copies once; the sender's buffer is free when
//    the receiver signals back;
//  - any other larger data (ob1 RNDV/FRAG fragments, non-contiguous buffers): copy-in / copy-out through a shared-memory fragment;
//  - RDMA GET (pml/ob1 RGET above the eager limit): XPMEM single copy by the receiver;
//  - atomics (MCA_BTL_FLAGS_ATOMIC_OPS): an atomic on a cache line both ranks map, seen by the target's polling core
//    one cache-line transfer later (Cheetah's BASESMUMA-style on-node flags).
// LIMITATIONS: fast-box ring capacity and fragment free lists are not modelled (no back-pressure on node).
#pragma once
#include "core/statistics.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/base/xpmem.hpp"
#include "protocols/btl/btl.hpp"
#include "protocols/btl/vader/btl_vader_mca.hpp"

#include <array>
#include <set>
#include <unordered_map>

namespace ompisim::btl::vader {

// MCA_BTL_FLAGS_* of btl/vader: RDMA | SEND_INPLACE (v1.8.8; v4.1.6 adds SEND), and ATOMIC_OPS for the model's
// on-node atomics on shared cache lines (v1.8.8 has no btl_atomic_op; v3.0 on sets the flag).
constexpr std::uint32_t kFlags = flag::Send | flag::Rdma | flag::SendInplace | flag::AtomicOps;

// btl/vader's statistics, declared once (add_counters reports all of them; the registry entry and
// `ompisim describe btl/vader` list them).
enum class VaderStat : std::uint8_t { FboxSends, CopySends, SingleCopySends, XpmemAttaches };
inline constexpr std::array<StatisticInfo, 4> kVaderStatistics{{
    {"vader_fbox_sends", "fragments", "fragments below btl_vader_max_inline_send sent through a fast box"},
    {"vader_copy_sends", "fragments", "fragments copied in and out through a shared-memory fragment and the FIFO"},
    {"vader_single_copy_sends", "fragments", "in-place sends: the receiver attaches the sender's pages and copies once"},
    {"vader_xpmem_attaches", "attachments", "XPMEM attachments made (missing the attachment cache)"},
}};

class BtlVader final : public Btl {
public:
  // The parts of the platform it uses: the engine (cache-line hand-offs), where ranks run (core distances, memory,
  // the node's XPMEM attach cost) and their CPU timelines (copies, polls).
  BtlVader(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const VaderMca& mca);
  std::string name() const override { return "vader"; }
  const BtlCaps& caps() const override { return caps_; }
  // Ranks of the same node other than oneself (btl_vader_add_procs: OPAL_PROC_ON_LOCAL_NODE and not my_proc).
  bool reaches(const Contexts& contexts, int rank, int peer) const override {
    return rank != peer && contexts.node_of(rank) == contexts.node_of(peer);
  }
  void send(const Descriptor& d, Completion local_done) override;
  void get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) override;
  void payload_consumed(const Descriptor& d) override;
  void atomic_add(int rank, int target, Completion local_done, Completion at_target) override;
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;
  std::uint64_t count(VaderStat s) const { return s == VaderStat::XpmemAttaches ? attaches() : counters_[s]; }
  // Time from the sender posting a fragment to its FIFO until the receiver's poll has read the fragment header:
  // two dependent cache-line transfers (fifo_head, then the header it points to).
  double fifo_latency(int from, int to) const;
  std::uint64_t attaches() const { return xpmem_.attaches; }

private:
  // Cost of making [addr, addr+bytes) of `peer` visible to `rank` (xpmem_attach per uncached 2 MiB region).
  double attach_cost(int rank, int peer, std::uint64_t addr, std::uint64_t bytes);
  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  const VaderMca& mca_;
  BtlCaps caps_;
  host::XpmemAttachCache xpmem_;
  std::unordered_map<std::uint64_t, Completion> inplace_;  // rx_buffer of a single-copy receive -> sender's completion
  std::uint64_t next_rx_ = 1;
  Statistics<VaderStat, kVaderStatistics.size()> counters_{kVaderStatistics};  // XpmemAttaches: the cache's count
};

}  // namespace ompisim::btl::vader
