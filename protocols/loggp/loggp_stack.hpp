// The `loggp` stack on the `loggp` reference machine: LogGOPS semantics as LogGOPSim implements them (Hoefler,
// Schneider, Lumsdaine, HPDC 2010; LogGOPSim.cpp OP_SEND / OP_MSG). The gap g is LogP's and LogGP's (Alexandrov et
// al., SPAA 1995): the minimum interval between consecutive message transmissions, or between consecutive receptions,
// at a processor. So each rank has two gaps, one for its sends and one for its receives (LogGOPSim's nextgs and
// nextgr), and one CPU (its nexto) that both directions share. A send of s bytes starts when the rank's CPU and its
// send gap are free, holds the CPU for o + (s-1)O and the send gap for g + (s-1)G; while it waits for the gap the CPU
// stays free for other work (receives). Its first byte leaves after o and arrives L later (the LogGP wire term
// L + (s-1)G for the last byte). A message is received when the receiver's CPU and receive gap are both free, from
// the first byte's arrival on: the CPU pays o + max((s-1)O, (s-1)G), the receive gap g + (s-1)G.
// Uncontended one-way time: 2o + L + max((s-1)O, (s-1)G).
// Messages above S use a rendezvous (RTS, CTS, then the data). Matching follows MPI order.
// Its closed forms (e.g. a dissemination barrier in ceil(log2 P)(2o + L)) check the drivers and the schedules.
#pragma once
#include "core/statistics.hpp"
#include "models/loggp/nic.hpp"
#include "mpi/library.hpp"
#include "mpi/stack.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"

#include <array>
#include <functional>
#include <vector>

namespace ompisim::loggp {

// The loggp stack's statistics, declared once (stats() reports all of them; the registry entry and
// `ompisim describe model/loggp` list them).
enum class LogGPStat : std::uint8_t { EagerSends, RndvSends, Bytes, SendGapWaits, RecvGapWaits, TruncateErrors };
inline constexpr std::array<StatisticInfo, 6> kLogGPStatistics{{
    {"loggp_eager_sends", "messages", "sends of at most S bytes: the data at once"},
    {"loggp_rndv_sends", "messages", "sends above S: RTS, CTS, then the data"},
    {"loggp_bytes", "bytes", "payload bytes sent"},
    {"loggp_send_gap_waits", "messages", "messages (data, RTS, CTS) whose start waited for the rank's send gap g"},
    {"loggp_recv_gap_waits", "messages", "messages whose reception waited for the rank's receive gap g"},
    {"mpi_truncate_errors", "receives", "receives whose message was longer than their buffer"},
}};

class LogGPStack final : public Stack {
public:
  // The parts of the platform it uses: the engine (gaps, wire times), where ranks run, their CPU timelines (o, O)
  // and the fabric of the loggp network (L).
  LogGPStack(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const Fabric& fabric);
  std::string name() const override { return "loggp"; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  void amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia via) override;
  StackStats stats() const override;
  std::uint32_t max_contextid() const override { return 0xFFFFFFFF; }  // a model: no header field limits it

private:
  struct Msg {
    int src, tag;
    std::uint64_t bytes, sid;
    bool rndv;
  };

  // One direction's gap at one rank: when the next message may start, and the messages waiting for it (FIFO).
  struct Job {
    double cpu, gap;                      // CPU time and gap the message takes from its start
    Completion cpu_done;                  // runs when its CPU time ends
    std::function<void(double)> started;  // runs at its start, with the start time
  };
  struct Gap {
    double next = 0;
    std::vector<Job> queue;
    std::size_t head = 0;
    bool armed = false;  // an event to retry at `next` is scheduled
  };
  // Whether a message queued on `g` now would wait for it (its gap not over, or messages queued before it).
  bool gap_busy(const Gap& g) const;
  // Queues `j` on rank's gap `g` and starts what can start (LogGOPSim: a message starts when max(nexto, next g) has
  // passed; it is retried at that time otherwise).
  void enqueue(int rank, Gap& g, Job j, const char* what);
  void pump(int rank, Gap& g, const char* what);
  // Injects a message of `bytes` from rank (after its CPU work) and runs `arrived` at the destination.
  void wire(int rank, int dst, std::uint64_t bytes, Completion injected, Completion arrived);
  // Receives a message of `bytes` at rank (its first byte has arrived now): then runs `done`.
  void receive(int rank, double bytes, Completion done);
  void deliver(std::uint64_t rid, int dst, const Msg& m);
  // A rendezvous's CTS has reached the sender `src`: the data goes to `dst` (send `sid`, receive `rid`).
  void on_cts(int src, int dst, std::uint64_t sid, std::uint64_t bytes, std::uint64_t rid);
  // The receiver's CPU time for a message of `bytes`: o + max((s-1)O, (s-1)G) (LogGOPSim charges the per-byte receive
  // overhead and the per-byte gap overlapped, from the first byte's arrival).
  double recv_overhead(double bytes) const;

  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  const Fabric& fabric_;
  const LogGPParams& p_;
  mpi::Library<mpi::Request, mpi::Request, Msg> lib_;
  std::vector<Gap> send_gap_, recv_gap_;  // per rank
  std::uint64_t amos_ = 0;
  Statistics<LogGPStat, kLogGPStatistics.size()> counters_{kLogGPStatistics};  // TruncateErrors: at report
};

}  // namespace ompisim::loggp
