// A collective algorithm is a schedule generated per rank: data, not engine code. The run-time executes a rank's rounds
// in order; the operations of one round are started together and the round ends when all of them have completed.
//  - Send/Recv: MPI point-to-point messages through the rank's stack (pml/ob1 over ugni/vader, or another stack);
//    a Send marked `blocking` is the algorithm's MPI_Send (MCA_PML_CALL(send) / MPIC_Send, the send half of
//    ompi_coll_base_sendrecv_actual), unmarked its MPI_Isend: the round still waits for its completion either way,
//    the mark tells a stack that completes blocking sends differently (mtl/ofi's fi_tinject, mtl_ofi.hpp);
//  - Amo: a remote atomic add of 1 on `peer`'s barrier counter (Gemini FMA AMO through GNI_PostFMA; on-node peers:
//    an atomic on a shared cache line, unless the op asks for the NIC, as the uGNI BCOL does for every peer). It
//    completes locally when the NIC reports it done; the target CPU is not used;
//  - WaitCounter: poll the rank's own counter until it reaches `value` (cumulative within one collective call);
//  - Reduce: the local reduction (ompi_op_reduce) of `value` bytes of received data into the rank's accumulator, on
//    the rank's own processor (the executor charges its architecture's cost per element);
//  - PostRecv / Wait: a receive whose wait comes in a later round (MCA_PML_CALL(irecv) into one of two inbufs, then
//    ompi_request_wait a step later, as Open MPI's ring allreduce does). PostRecv posts it and is complete for its
//    own round at once; a Wait completes when the oldest PostRecv of the schedule not yet waited for has received.
//    Every PostRecv is waited for before the schedule ends; at most kMaxPosted are outstanding at once.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ompisim::coll {

enum class OpKind : std::uint8_t { Send, Recv, Amo, WaitCounter, Reduce, PostRecv, Wait };
inline constexpr int kMaxPosted = 8;
inline constexpr std::uint32_t kAmoTransport = 0, kAmoNic = 1;  // an Amo's path (Stack::amo_add's AmoVia)  // PostRecv operations of one schedule not yet waited for, at most
const char* to_string(OpKind k);

struct Op {
  OpKind kind;
  std::int32_t peer;    // -1 for WaitCounter, Reduce and Wait
  std::uint32_t value;  // bytes for Send/Recv/PostRecv/Reduce, target count for WaitCounter, the path for Amo
                        // (kAmoTransport, kAmoNic: mpi::AmoVia's values), 0 for Wait
  bool blocking = false;  // Send: MPI_Send rather than MPI_Isend (in the padding: Op stays 12 bytes)
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
  Schedule& send(int peer, std::uint32_t bytes = 0) { return add({OpKind::Send, peer, bytes}); }  // MPI_Isend
  Schedule& send_blocking(int peer, std::uint32_t bytes = 0) { return add({OpKind::Send, peer, bytes, true}); }
  Schedule& recv(int peer, std::uint32_t bytes = 0) { return add({OpKind::Recv, peer, bytes}); }
  // ompi_coll_base_sendrecv_actual (coll_base_util.c): irecv, then a blocking send, then wait (MPICH's MPIC_Sendrecv
  // alike: irecv, isend, waitall); in that order in the round, so the receive is posted (and its CPU cost paid) before
  // the send starts. sendrecv_to for distinct send and receive peers.
  Schedule& sendrecv(int peer, std::uint32_t bytes = 0) { return sendrecv_to(peer, bytes, peer, bytes); }
  Schedule& sendrecv_to(int to, std::uint32_t sbytes, int from, std::uint32_t rbytes) {
    return recv(from, rbytes).send_blocking(to, sbytes);
  }
  Schedule& amo(int peer) { return add({OpKind::Amo, peer, kAmoTransport}); }  // through the peer's transport
  Schedule& amo_nic(int peer) { return add({OpKind::Amo, peer, kAmoNic}); }    // through the NIC, on-node peers too
  Schedule& wait_counter(std::uint32_t value) { return add({OpKind::WaitCounter, -1, value}); }
  Schedule& reduce(std::uint32_t bytes) { return add({OpKind::Reduce, -1, bytes}); }
  Schedule& post_recv(int peer, std::uint32_t bytes = 0) { return add({OpKind::PostRecv, peer, bytes}); }  // irecv
  Schedule& wait() { return add({OpKind::Wait, -1, 0}); }  // ompi_request_wait on the oldest PostRecv not waited for

private:
  Schedule& add(Op op) {
    if (rounds.empty()) rounds.emplace_back();
    rounds.back().ops.push_back(op);
    return *this;
  }
};

class NodeLayout;
struct AlgoParams;

namespace detail {
// Throws std::invalid_argument("<coll_algo>: ...") unless nranks >= 1 and 0 <= me < nranks.
void check_rank_args(const std::string& coll_algo, int me, int nranks);
// Throws std::invalid_argument("<coll_algo>: root = R outside [0, nranks)") unless 0 <= root < nranks.
void check_root(const std::string& coll_algo, int root, int nranks);
// The linear fan-out of coll/base's basic_linear bcast and linear_nb scatter: the root isends `bytes` to every other
// rank in rank order in one round (then waits for all); every other rank receives `bytes` from the root.
Schedule root_isends_to_all(int me, int nranks, int root, std::uint32_t bytes);
// Largest power of two <= n (n >= 1): opal_next_poweroftwo(n) >> 1 in coll_base_barrier.c / coll_base_allreduce.c.
int floor_pow2(int n);
// The bytes of one segment of a `bytes` message of `elem_bytes`-byte elements cut at `segsize` bytes:
// COLL_TUNED_COMPUTED_SEGCOUNT (coll_tuned.h v1.3.0, coll_base_util.h v5.0): segsize / elem_bytes elements, one more
// when the remainder is above half an element, when segsize holds an element and is below the message; else the whole
// message (one segment).
std::uint32_t segment_bytes(std::uint32_t bytes, std::uint32_t segsize, std::uint32_t elem_bytes);
// One step of a reduce-scatter by recursive halving: the partner, the bytes sent to it and the bytes kept (received
// from it and reduced).
struct HalvingStep {
  int peer;
  std::uint32_t sent, kept;
};
// The allgather by recursive doubling that mirrors a reduce-scatter by recursive halving (Rabenseifner's second half,
// in Open MPI's redscat_allgather and MPICH's MPIR_Allreduce alike): its steps in reverse order, each with the same
// partner, sending the part it kept and receiving the part it sent.
void allgather_mirroring(Schedule& s, const std::vector<HalvingStep>& steps);
// A node-aware composition's layout (AlgoParams::layout, checked to hold `nranks` ranks) once AlgoParams::stages is
// set too; std::invalid_argument naming `coll_algo` otherwise.
const NodeLayout& composition_layout(const std::string& coll_algo, int nranks, const AlgoParams& params);
// A rooted composition's checks in one: check_rank_args, check_root (params.root), composition_layout.
const NodeLayout& rooted_composition_layout(const std::string& coll_algo, int me, int nranks, const AlgoParams& params);
// Appends a sub-communicator's schedule `sub` to `s`, its peers mapped to the communicator's ranks by `to_comm` (a
// composition's stage, generated in the stage's own ranks).
template <typename Map>
void append_mapped(Schedule& s, Schedule sub, Map to_comm) {
  for (auto& r : sub.rounds) {
    for (auto& op : r.ops)
      if (op.peer >= 0) op.peer = to_comm(op.peer);
    s.rounds.push_back(std::move(r));
  }
}
}  // namespace detail

struct AlgoParams;
using Generator = Schedule (*)(int me, int nranks, const AlgoParams& params);

// Which node each rank of a communicator is on, as MPICH's MPIR_Comm_create_subcomms (src/mpi/comm/commutil.c, v3.4a2)
// splits it: node_comm = the ranks of one node in rank order (local rank = position), node_roots_comm = the lowest
// rank of every node, nodes numbered by their lowest rank. Built once per run from the placement and shared by every
// rank (O(P) in all, O(1) per rank).
class NodeLayout {
public:
  // `node_key[r]`: any id of rank r's node (equal ids = same node).
  explicit NodeLayout(const std::vector<long long>& node_key);
  // Block placement: rank r on node r / ranks_per_node (ranks_per_node >= 1).
  static NodeLayout block(int nranks, int ranks_per_node);
  int nranks() const { return static_cast<int>(node_.size()); }
  int nnodes() const { return static_cast<int>(first_.size()) - 1; }
  int node(int r) const { return node_[static_cast<std::size_t>(r)]; }
  int local(int r) const { return local_[static_cast<std::size_t>(r)]; }
  int node_size(int k) const { return first_[static_cast<std::size_t>(k) + 1] - first_[static_cast<std::size_t>(k)]; }
  // The rank of node k's local rank i; leader(k) = member(k, 0).
  int member(int k, int i) const { return members_[static_cast<std::size_t>(first_[static_cast<std::size_t>(k)] + i)]; }
  int leader(int k) const { return member(k, 0); }
  // MPIR_Comm_is_node_aware after MPIR_Comm_create_subcomms: false when every rank is alone on its node (or P = 1).
  bool node_aware() const { return nnodes() < nranks(); }

private:
  std::vector<int> node_, local_, first_, members_;
};

// The stages of a composition. Node-aware (MPICH's): among the node leaders (node_roots_comm), within one node
// (node_comm), and within one node again after the leaders' stage (allreduce's bcast of the result on node_comm).
// On the whole communicator (coll/tuned's nonoverlapping allreduce: the module's own reduce, then its own bcast): Comm,
// then CommAfter.
enum class Stage : std::uint8_t { Roots, Node, NodeAfter, Comm, CommAfter };
// "roots", "node", "node_after", "comm", "comm_after": the stage's key in the decision data's "stages"
const char* to_string(Stage s);
// What a stage runs on a sub-communicator of `nranks` ranks (the decision data's choice for it): the generator and the
// segment size the library passes it (AlgoParams::segsize; 0: one segment, and a bare generator converts to that).
struct StageChoice {
  Generator make = nullptr;
  std::uint32_t segsize = 0;
  StageChoice() = default;
  StageChoice(Generator g, std::uint32_t seg = 0) : make(g), segsize(seg) {}  // NOLINT: a generator is a choice
};
using StageChooser = std::function<StageChoice(Stage, int nranks)>;
// `chooser`'s choices for one communicator layout, made once for the composition's `stages`: Stage::Roots for
// layout.nnodes() ranks, Stage::Node and Stage::NodeAfter for every node's size, Stage::Comm and Stage::CommAfter for
// layout.nranks() are asked here (so a choice that throws
// throws here, not mid-run) and looked up afterwards in a read-only table shared by every rank's call (a decision
// table's lookup per rank per call otherwise); any other (stage, size) is passed on to `chooser`. The chooser's own
// captures must outlive the result, as before.
StageChooser memoise_stages(StageChooser chooser, const NodeLayout& layout, const std::vector<Stage>& stages);

struct AlgoParams {
  int radix = 4;           // tree radix (Cheetah fan-in/fan-out, tuned tree)
  int ranks_per_node = 1;  // block placement (rank r on node r / ranks_per_node) where no `layout` says otherwise
  std::uint32_t bytes = 0; // data-carrying collectives: the message (allreduce, bcast) or per-peer block (alltoall)
  // The size of one element of the caller's datatype (osu_allreduce: MPI_FLOAT, 4 B), for an algorithm whose choice
  // of path counts elements (allreduce "rabenseifner": count < pof2); 1 when the caller knows bytes only.
  std::uint32_t elem_bytes = 1;
  int root = 0;            // rooted collectives (bcast, gather, scatter, reduce)
  // coll/tuned's segment size in bytes (COLL_TUNED_COMPUTED_SEGCOUNT on bytes: the caller's elements are bytes), as a
  // library's decision passes it (decision.hpp decide; a composition's stage: its StageChoice); 0: one segment. Read
  // by the segmented bcasts (pipeline, chain, binary_tree, split_binary_tree), the tree reduces and the segmented ring
  // allreduce (which counts elements of elem_bytes).
  std::uint32_t segsize = 0;
  // The communicator's layout (node-aware compositions: MPICH's SMP collectives; cheetah-hierarchical) and, for
  // compositions only, the stages' choice.
  const NodeLayout* layout = nullptr;
  const StageChooser* stages = nullptr;
  // Their stages' tree radices where the library names one (Cray MPICH's MPICH_BCAST_INTERNODE_RADIX and
  // MPICH_BCAST_INTRANODE_RADIX; decision.hpp stage_radix); 0: the stage takes `radix`.
  int roots_radix = 0, node_radix = 0;
};

namespace detail {
// A node-aware composition's stage `st` as rank `me` of the communicator runs it, with `q` (its root a rank of the
// stage's sub-communicator): on its node's node_comm (the generator for the node's size, in local ranks), or, for a
// node leader, on node_roots_comm (for the number of nodes, in node indices); appended to `s` with the peers mapped to
// the communicator's ranks. AlgoParams::layout and ::stages must be set (composition_layout).
void append_node_stage(Schedule& s, Stage st, int me, const AlgoParams& q);
void append_roots_stage(Schedule& s, Stage st, int me, const AlgoParams& q);
// Stage `st` of a composition on a sub-communicator of `nranks` as rank `me` of it runs it: q.stages's choice, with
// its segment size in place of q's.
Schedule run_stage(Stage st, int me, int nranks, const AlgoParams& q);
}  // namespace detail

enum class RankRule { Any, PowerOfTwo, Two };

struct AlgoInfo {
  std::string coll;         // "barrier", "allreduce", "alltoall", "bcast"
  std::string algo;         // "recursive_doubling", "cheetah-atomic", ...
  std::string description;  // one line
  std::string mirrors;      // Open MPI file and version it mirrors
  Generator make = nullptr;
  bool uses_amo = false;
  // A composition (bcast and allreduce "mpich_smp", allreduce "nonoverlapping"): runs only with AlgoParams::stages (and
  // ::layout for the node-aware ones), which a library's
  // decision table provides (its "stages"), so a scenario cannot name it alone.
  bool composition = false;
  // The generator reads AlgoParams::radix (a tree's fan-out); a scenario may set "radix" only for such an algorithm.
  bool reads_radix = false;
  // The rank counts the generator runs on (the library asserts or refuses the others): a scenario that names it on
  // another count is refused before anything runs (ranks_rule_violation).
  RankRule ranks = RankRule::Any;
  // Every send and receive of a call is posted at once (alltoall linear; linear_sync with no request limit): all its
  // flows are in flight together, which a run's estimate by message count does not see (runner/estimate.hpp).
  bool all_at_once = false;
};

// Why `info` cannot run on `nranks` ranks ("" when it can).
std::string ranks_rule_violation(const AlgoInfo& info, int nranks);

}  // namespace ompisim::coll
