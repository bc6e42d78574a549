// A collective algorithm is a schedule generated per rank: data, not engine code. The run-time executes a rank's rounds
// in order; the operations of one round are started together and the round ends when all of them have completed.
//  - Send/Recv: MPI point-to-point messages through the rank's stack (pml/ob1 over ugni/vader, or another stack);
//  - Amo: a remote atomic add of 1 on `peer`'s barrier counter (Gemini FMA AMO through GNI_PostFMA; on-node peers:
//    an atomic on a shared cache line). It completes locally when the NIC reports it done; the target CPU is not used;
//  - WaitCounter: poll the rank's own counter until it reaches `value` (cumulative within one collective call);
//  - Reduce: the local reduction (ompi_op_reduce) of `value` bytes of received data into the rank's accumulator, on
//    the rank's own processor (the executor charges its architecture's cost per element).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::coll {

enum class OpKind : std::uint8_t { Send, Recv, Amo, WaitCounter, Reduce };
const char* to_string(OpKind k);

struct Op {
  OpKind kind;
  std::int32_t peer;    // -1 for WaitCounter
  std::uint32_t value;  // bytes for Send/Recv/Reduce, target count for WaitCounter, 0 for Amo
  bool operator==(const Op&) const = default;
};

struct Round {
  std::vector<Op> ops;
};

struct Schedule {
  std::vector<Round> rounds;
  Schedule& round() {
    rounds.emplace_back();
    return *this;
  }
  Schedule& send(int peer, std::uint32_t bytes = 0) { return add({OpKind::Send, peer, bytes}); }
  Schedule& recv(int peer, std::uint32_t bytes = 0) { return add({OpKind::Recv, peer, bytes}); }
  Schedule& sendrecv(int peer, std::uint32_t bytes = 0) { return send(peer, bytes).recv(peer, bytes); }
  Schedule& amo(int peer) { return add({OpKind::Amo, peer, 0}); }
  Schedule& wait_counter(std::uint32_t value) { return add({OpKind::WaitCounter, -1, value}); }
  Schedule& reduce(std::uint32_t bytes) { return add({OpKind::Reduce, -1, bytes}); }

private:
  Schedule& add(Op op) {
    if (rounds.empty()) rounds.emplace_back();
    rounds.back().ops.push_back(op);
    return *this;
  }
};

namespace detail {
// Throws std::invalid_argument("<coll_algo>: ...") unless nranks >= 1 and 0 <= me < nranks.
void check_rank_args(const std::string& coll_algo, int me, int nranks);
// Largest power of two <= n (n >= 1): opal_next_poweroftwo(n) >> 1 in coll_base_barrier.c / coll_base_allreduce.c.
int floor_pow2(int n);
}  // namespace detail

struct AlgoParams {
  int radix = 4;           // tree radix (Cheetah fan-in/fan-out, tuned tree)
  int ranks_per_node = 1;  // block placement: rank r is on node r / ranks_per_node (hierarchical algorithms)
  std::uint32_t bytes = 0; // data-carrying collectives: the message (allreduce, bcast) or per-peer block (alltoall)
  int root = 0;            // rooted collectives (bcast, gather, scatter, reduce)
};

using Generator = Schedule (*)(int me, int nranks, const AlgoParams& params);

struct AlgoInfo {
  std::string coll;         // "barrier", "allreduce", "alltoall", "bcast"
  std::string algo;         // "recursive_doubling", "cheetah-atomic", ...
  std::string description;  // one line
  std::string mirrors;      // Open MPI file and version it mirrors
  Generator make = nullptr;
  bool uses_amo = false;
};

}  // namespace ompisim::coll
