// Executes collective schedules (collectives/schedule.hpp) on a Stack, one rank at a time: the operations of a round
// start together (in schedule order), the round ends when all have completed, and `done` runs after the last round.
// Send/Recv are the stack's isend/irecv on `tag`; PostRecv is an irecv that a Wait in a later round waits for; peers are schedule ranks, mapped to world ranks through a Group
// (a sub-communicator given as base + local * stride, e.g. a row or a column of a 2-D process grid). Amo and
// WaitCounter are handed to the caller's hooks (the barrier loop implements them with counters); so is Reduce (the
// local reduction: the caller charges its processor's cost, e.g. the IMB driver at the rank's architecture's cost per
// element). Send/Recv carry `datatype` (default MPI_BYTE; a reduction's vectors are typed, so a receiver of another
// architecture converts them): the op's bytes must be a whole number of its elements. Shared by the
// barrier loop (benchmarks/barrier.cpp) and the application skeletons (benchmarks/app_skeleton.cpp).
// Not an Open MPI mirror: it plays the role of coll/base's blocking point-to-point helpers (MCA_PML_CALL(isend/irecv)
// followed by ompi_request_wait_all per round).
#pragma once
#include "collectives/schedule.hpp"
#include "mpi/datatype.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <coroutine>
#include <functional>
#include <vector>

namespace ompisim::bench {

struct Group {
  int base = 0, stride = 1, size = 0;  // world rank of local rank i: base + i * stride
  int world(int local) const { return base + local * stride; }
};

class ScheduleExec {
public:
  using OpHook = std::function<void(int rank, const coll::Op& op, Completion done)>;
  ScheduleExec(Stack& s, int nranks) : s_(s), runs_(static_cast<std::size_t>(nranks)) {}
  OpHook amo, wait_counter, reduce;  // required only when schedules contain Amo / WaitCounter / Reduce
  MemKind buffer = MemKind::Host;  // where Send/Recv buffers live (device: each rank's GPU)
  bool registered = false;         // Send/Recv buffers allocated by MPI_Alloc_mem (platform/alloc_mem.hpp)
  mpi::Datatype datatype = mpi::kByte;  // the element type of Send/Recv data
  // Called for every Send as it is posted (world ranks), e.g. to count messages by size.
  std::function<void(int rank, int peer, std::uint64_t bytes)> on_send;
  // Starts world rank `rank`'s schedule (one at a time per rank). `g` maps the schedule's ranks to world ranks.
  void start(int rank, coll::Schedule sched, int tag, Group g, Completion done);

private:
  // The running schedule, flattened into one exact-size array of packed operations, 8 bytes each (a
  // 300,000-rank barrier holds every rank's schedule at once, a 4,096-rank pairwise alltoall 4,095 rounds of two
  // operations per rank): head = (peer + 1) << 5 | kind << 2 | blocking << 1 | last of its round, then the value.
  // A round is read from one array (no separate array of round ends); empty rounds, which do nothing, are dropped.
  struct Packed {
    std::uint32_t head, value;
  };
  static Packed pack(const coll::Op& op, bool last);
  static coll::Op unpack(Packed p);
  struct Run {
    std::vector<Packed> ops;
    std::size_t next = 0;  // the first operation of the next round
    int outstanding = 0, tag = 0;
    Group g;
    // PostRecv / Wait: receives posted (`posted`) and waited for (`waited`), counted modulo 256; slot = count %
    // kMaxPosted; a bit of `received` per slot whose receive completed before its Wait; `waiting`: a Wait is pending.
    std::uint8_t posted = 0, waited = 0, received = 0;
    bool waiting = false;
    Completion done;
  };
  void start_round(int rank);
  void issue(int rank, const coll::Op& op);
  Completion op_done(int rank);
  void post_recv(int rank, const coll::Op& op);
  void wait(int rank);
  std::uint64_t count(const coll::Op& op) const;  // elements of `datatype` in op.value bytes
  Stack& s_;
  std::vector<Run> runs_;
};

// The job's nodes as a communicator's layout (coll::NodeLayout): which node each rank of the placement is on.
coll::NodeLayout placement_layout(const Contexts& contexts);

// The Reduce hook that charges a reduction's arithmetic (ompi_op_reduce, MPIR_Reduce_local) on the reducing rank's
// processor: op.value / elem_bytes elements (whole ones) x the rank's node type's arch.reduce_cost_per_element
// (machine file), read when a rank first reduces. A rank whose node type gives no such cost reduces at no cost, unless
// `required` names the benchmark that needs it (IMB Reduce): then such a node type is an InputError naming the machine
// file and the key, decided when the hook is made.
ScheduleExec::OpHook reduce_arithmetic(World& w, std::uint32_t elem_bytes, const std::string& required = {},
                                       const std::string& scenario = {});

// co_await runs one rank's schedule on `ex` (tag, group) and resumes when it completes. Trivially destructible on
// purpose (the schedule lives in the coroutine frame): GCC 12 mishandles co_await operands that own heap memory.
struct CollAwait {
  ScheduleExec* ex;
  int rank;
  coll::Schedule* sched;
  int tag;
  Group g;
  bool suspended = false, finished = false;
  bool await_ready() const noexcept { return sched->rounds.empty(); }
  // Does not suspend when the schedule completes while it is being started (then there is nothing to resume).
  bool await_suspend(std::coroutine_handle<> h) {
    ex->start(rank, std::move(*sched), tag, g, [this, h] {
      if (suspended) h.resume();
      else finished = true;
    });
    suspended = !finished;
    return suspended;
  }
  void await_resume() const noexcept {}
};

}  // namespace ompisim::bench
