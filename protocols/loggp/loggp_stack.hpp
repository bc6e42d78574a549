// The `loggp` stack on the `loggp` reference machine: LogGOPS semantics as LogGOPSim implements them (Hoefler,
// Schneider, Lumsdaine, HPDC 2010; LogGOPSim.cpp OP_SEND / OP_MSG). A send of s bytes starts when the rank's CPU and
// its gap are free, holds the CPU for o + (s-1)O and the NIC for g + (s-1)G; its first byte leaves after o and arrives
// L later (the LogGP wire term L + (s-1)G of Alexandrov et al. 1995 for the last byte). The receiver's CPU pays
// o + max((s-1)O, (s-1)G) from the first byte. Uncontended one-way time: 2o + L + max((s-1)O, (s-1)G).
// Messages above S use a rendezvous (RTS, CTS, then the data). Matching follows MPI order.
// Its closed forms (e.g. a dissemination barrier in ceil(log2 P)(2o + L)) check the drivers and the schedules.
#pragma once
#include "models/loggp/nic.hpp"
#include "mpi/library.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

namespace ompisim::loggp {

class LogGPStack final : public Stack {
public:
  explicit LogGPStack(World& w);
  std::string name() const override { return "loggp"; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  void amo_add(int rank, int target, Completion local_done, Completion at_target) override;
  StackStats stats() const override;
  std::uint32_t max_contextid() const override { return 0xFFFFFFFF; }  // a model: no header field limits it

private:
  struct Msg {
    int src, tag;
    std::uint64_t bytes, sid;
    bool rndv;
  };

  // Injects a message of `bytes` from rank (after its CPU work) and runs `arrived` at the destination.
  void wire(int rank, int dst, std::uint64_t bytes, Completion injected, Completion arrived);
  void deliver(std::uint64_t rid, int dst, const Msg& m);
  // The receiver's CPU time for a message of `bytes`: o + max((s-1)O, (s-1)G) (LogGOPSim charges the per-byte receive
  // overhead and the per-byte gap overlapped, from the first byte's arrival).
  double recv_overhead(double bytes) const;

  World& w_;
  const LogGPParams& p_;
  mpi::Library<mpi::Request, mpi::Request, Msg> lib_;
  std::vector<double> next_inject_;  // per rank: the earliest time of its next injection (gap g)
  std::uint64_t amos_ = 0;
};

}  // namespace ompisim::loggp
