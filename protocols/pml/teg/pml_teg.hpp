// pml/teg: Open MPI's 2004 point-to-point management layer over PTLs (Woodall et al., EuroPVM/MPI 2004; qsnet-elan4
// paper §2.2). It is the shared MPI-library skeleton (mpi/library.hpp: request tables, posted and unexpected queues
// per communicator, per-peer sequence numbers) matching in the host, as ob1 does; the communicator's context id
// travels in the match header (hdr_contextid). It schedules the first fragment of every message to the PTL (eager up to the PTL's
// first_frag_size, else a rendezvous with or without inlined data), copies inlined data into the receive buffer,
// calls ptl_matched for a rendezvous, and completes requests from the PTL's progress reports.
// Layer timing (paper §6.3, Fig. 9): per rank, the time from the PTL handing a fragment up for matching to the
// PML's next ptl_send is accumulated as "PML and above" (counters layer_pml_ns, layer_pml_count).
// LIMITATIONS: one PTL (no multi-PTL scheduling of the rest of a message); the per-message software cost is one
// machine parameter (software.pml_teg_overhead) per send, receive post and match.
#pragma once
#include "core/statistics.hpp"
#include "mpi/library.hpp"
#include "mpi/stack.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/ptl/ptl.hpp"

#include <array>
#include <string>
#include <vector>

namespace ompisim::pml::teg {

// pml/teg's statistics, declared once (stats() reports all three; the registry entry and `ompisim describe pml/teg`
// list them). The PTL's own counters follow them in a run's counters.
enum class TegStat : std::uint8_t { Unexpected, LayerPmlNs, LayerPmlCount };
inline constexpr std::array<StatisticInfo, 3> kTegStatistics{{
    {"teg_unexpected", "messages", "first fragments that arrived before their receive: inlined data held in a buffer"},
    {"layer_pml_ns", "ns", "PML and above (paper Fig. 9): summed time from a fragment's hand-up to the next ptl_send"},
    {"layer_pml_count", "intervals", "hand-up to ptl_send intervals summed in layer_pml_ns"},
}};

class PmlTeg final : public Stack, public ptl::PmlUpcalls {
public:
  // The parts of the platform it uses: the engine (layer times), where ranks run (the job size) and the CPU timelines
  // of their contexts (matching, copies of inlined data).
  PmlTeg(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, ptl::Ptl& ptl, double overhead, std::string name);
  std::string name() const override { return name_; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  StackStats stats() const override;
  // The 2004 match header's hdr_contextid is 32 bits.
  std::uint32_t max_contextid() const override { return 0xFFFFFFFFu; }
  std::function<void(std::map<std::string, std::uint64_t>&)> extra_counters;  // the PTL's

  void match(int ctx, int rank, const ptl::MatchHeader& h) override;
  void send_progress(int ctx, int rank, std::uint64_t send_req, std::uint64_t bytes) override;
  void recv_progress(int ctx, int rank, std::uint64_t recv_req, std::uint64_t bytes) override;

private:
  struct Req : mpi::Request {
    std::uint64_t left = 0;  // bytes still to move (a receive: counted once matched)
  };
  struct Msg {
    int src, tag;
    ptl::MatchHeader h;
  };
  void on_matched(int ctx, int rank, mpi::RequestId rid, const Msg& m);
  // The PML's request is complete: counted and freed now, the user's completion handed to the PTL (it runs on the
  // rank's main thread).
  void finish(Completion done, int ctx, int rank);

  Simulator& sim_;
  CpuTimeline& cpus_;
  ptl::Ptl& ptl_;
  double overhead_;
  std::string name_;
  mpi::Library<Req, Req, Msg> lib_;
  std::vector<double> up_at_;  // per rank: when a fragment went up to the PML (-1: none pending)
  double layer_pml_s_ = 0;  // reported in ns (TegStat::LayerPmlNs)
  Statistics<TegStat, kTegStatistics.size()> counters_{kTegStatistics};
};

}  // namespace ompisim::pml::teg
