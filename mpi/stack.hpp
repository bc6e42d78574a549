// The MPI interface every stack implements (pml/ob1 over BTLs, pml/cm over an MTL, the native comparators, loggp):
// nonblocking point-to-point calls (`start_send` / `start_recv` with a P2P record: rank, peer, tag, count, datatype,
// communicator, buffer) with completion callbacks, remote atomics for the collective components that use them, and the
// statistics every stack reports. Benchmark drivers and collectives use only `Stack`; `isend` / `irecv` are the
// byte-count shorthand (MPI_BYTE on MPI_COMM_WORLD) the drivers use.
#pragma once
#include "core/sim.hpp"
#include "core/statistics.hpp"
#include "mpi/p2p.hpp"
#include "mpi/request.hpp"
#include "platform/buffer.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ompisim {

struct StackStats {
  std::uint64_t sends_posted = 0, sends_completed = 0, recvs_posted = 0, recvs_completed = 0;
  std::uint64_t live_requests = 0, unexpected_now = 0, posted_now = 0;
  std::uint64_t amos = 0;
  std::map<std::string, std::uint64_t> counters;  // protocol counters, each under its component's declared name
  // A counter read by its declaration (an entry of a component's table, `statistic(kTable, Enum::X)`), never by a
  // string: the value the stack reports, or nullopt when it reports none under that name (a stack without the
  // component, or a `when_counted` one still zero).
  std::optional<std::uint64_t> find(const StatisticInfo& s) const {
    auto it = counters.find(s.name);
    return it == counters.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
  }
  // As find, 0 when not reported.
  std::uint64_t value(const StatisticInfo& s) const { return find(s).value_or(0); }
};

// How a remote atomic reaches its target: through the transport the library uses for the peer (pml/ob1: the first
// BTL with atomics that bml/r2 lists, an atomic on a shared cache line for a peer on the node), or through the NIC
// for every peer, the node's own included (the uGNI BCOL: GNI_PostFMA over the P2P subgroup of all processes).
enum class AmoVia : std::uint8_t { Transport = 0, Nic = 1 };

class Stack {
public:
  virtual ~Stack() = default;
  virtual std::string name() const = 0;
  // MPI_Isend / MPI_Irecv: `done` runs when the request is complete (for a receive, after m.status is filled).
  virtual void start_send(const mpi::P2P& m, Completion done) = 0;
  virtual void start_recv(const mpi::P2P& m, Completion done) = 0;
  // `bytes` of MPI_BYTE on MPI_COMM_WORLD.
  void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
    start_send(mpi::P2P{rank, dst, tag, bytes, mpi::kByte, mpi::kCommWorld, buf, nullptr}, std::move(done));
  }
  void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
    start_recv(mpi::P2P{rank, src, tag, bytes, mpi::kByte, mpi::kCommWorld, buf, nullptr}, std::move(done));
  }
  // Remote atomic add on `target`'s collective counter; `local_done` when the initiator sees completion,
  // `at_target` when the counter is updated (the target CPU is not involved). `via` (AmoVia): the peer's transport
  // (an atomic on a shared cache line on the node) or the NIC for every peer.
  virtual void amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia via);
  virtual StackStats stats() const = 0;
  // The largest communicator context id the stack can carry (mca_pml_base_module_t::pml_max_contextid).
  virtual std::uint32_t max_contextid() const = 0;
  // The collective cut-offs and radices the library documents as tunable (name -> value), which its decision table
  // may name (collectives/decision.hpp, "tunable NAME"); none by default (Open MPI's decisions name none).
  virtual std::map<std::string, double> coll_tunables() const { return {}; }
  // Whether any path of the stack depends on how the user's buffers were allocated (MPI_Alloc_mem or malloc): Open
  // MPI 1.1's ob1 without mpi_leave_pinned, whose RDMA protocols need a registered buffer. False by default (a stack
  // that registers on demand, or never).
  virtual bool reads_buffer_allocation() const { return false; }
  // The components of the stack ("btl/vader") that carried no message of the run so far (no pair of ranks it
  // reached): a parameter of one changed nothing. None by default (a stack that cannot tell).
  virtual std::vector<std::string> idle_components() const { return {}; }
};

}  // namespace ompisim
