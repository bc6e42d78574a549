// Rank mapping and binding as Open MPI's mpirun does it (ORTE rmaps, v1.8 series): which node and which core each
// MPI_COMM_WORLD rank runs on, computed arithmetically (O(1) per rank, no per-rank table: runs have 300,000 ranks).
//
// Source: Open MPI v1.8.8, orte/mca/rmaps/base/rmaps_base_map_job.c (default mapping and binding, lines 118-141 and
// 251-334), orte/mca/rmaps/round_robin/rmaps_rr_mappers.c (orte_rmaps_rr_byobj: fill a node's slots cycling over its
// objects, then move to the next node; orte_rmaps_rr_bynode: balance procs over nodes), orte/mca/rmaps/base/
// rmaps_base_frame.c (orte_rmaps_base_set_ranking_policy: ranking follows an explicit map-by, else by slot) and the
// v1.8.8 orterun.1 man page ("mpirun automatically binds processes as of the start of the v1.8 series").
//
// Open MPI v1.8 defaults, modelled here (np = number of ranks in the job):
//   no map_by given: np <= 2 -> map by core, np > 2 -> map by socket   (rmaps_base_map_job.c:119-141)
//   no bind_to given: an explicit map_by core|socket|numa binds to that object, map_by node binds to none,
//     otherwise np <= 2 -> bind to core, np > 2 -> bind to socket      (rmaps_base_map_job.c:251-334)
//   no rank_by given: by slot when no map_by is given, else by the mapped object (rmaps_base_frame.c:785-832); for
//     every mapping modelled here that numbers the ranks in the order the mapper placed them.
// --rank-by (scenario key "rank_by": slot|core|numa|socket|node), orte/mca/rmaps/base/rmaps_base_ranking.c:
//   slot: node after node, the procs of a node in the order the mapper placed them (orte_rmaps_base_compute_vpids);
//   node: round robin over the job's nodes, one proc per node per pass, skipping nodes whose procs are all ranked;
//   core|numa|socket (rank_by()): node after node; within a node cycle over the objects of that type, giving the next
//     rank to the next unranked proc (in placement order) on each object, skipping objects with none left.
//   The ranking decides which rank sits where (and so local ranks, which number a node's ranks in rank order:
//   orte_rmaps_base_compute_local_ranks); it never moves a proc: the mapper decides nodes, counts and cores.
//
// LIMITATIONS: no PE=n / cpus-per-proc, :SPAN / :FILL ranking modifiers, ppr, rankfiles, hardware threads or
// oversubscription; rank_by() in v1.8 stops after as many object visits as the node has procs, which can leave
// procs unranked when the objects are unevenly loaded (e.g. rank-by core after map-by socket on a half-full node);
// the model ranks them all (the documented intent) instead of failing;
// every node of the job has the same NodeType and the same slot count (ranks_per_node); a rank bound to a socket, a
// NUMA node or nothing is modelled on the core the mapper's order gives it (the k-th rank placed on an object runs on
// that object's k-th core: a busy rank stays where the OS first put it, and no two ranks share a core because a node
// never holds more ranks than cores). The binding is kept for the integrator (allowed_cores), not used for timing.
#pragma once
#include "core/json_input.hpp"
#include "platform/node/node_type.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ompisim::platform {

enum class MapBy : std::uint8_t { Slot, Core, Socket, Numa, Node };
enum class BindTo : std::uint8_t { None, Core, Numa, Socket };
enum class RankBy : std::uint8_t { Slot, Core, Numa, Socket, Node };
const char* to_string(MapBy m);   // mpirun spelling: "slot", "core", "socket", "numa", "node"
const char* to_string(BindTo b);  // "none", "core", "numa", "socket"
const char* to_string(RankBy r);  // "slot", "core", "numa", "socket", "node"

// The Open MPI v1.8 defaults (see the header comment for the source lines).
MapBy default_map_by(long long np);
BindTo default_bind_to(std::optional<MapBy> explicit_map_by, long long np);

struct MappingPolicy {
  std::optional<MapBy> map_by;    // unset: Open MPI's default for the job size
  std::optional<BindTo> bind_to;  // unset: Open MPI's default for map_by and the job size
  std::vector<int> cpu_list;      // like --cpu-set: local rank k runs on cpu_list[k] (map by core over this list)
  std::optional<RankBy> rank_by;  // unset: Open MPI's default for map_by
  MapBy effective_map_by(long long np) const;
  BindTo effective_bind_to(long long np) const;
  RankBy effective_rank_by() const;
};

// Reads the optional scenario keys "map_by", "bind_to", "rank_by" and "cpu_list" from `section` (e.g. the scenario's "placement"
// object); marks them read, does not call finish(). Unknown spellings are InputErrors with a did-you-mean; mpirun
// spellings this model does not support (hwthread, l3cache, board, ppr, ...) are InputErrors saying so; a cpu_list
// naming a core `node` lacks, or naming one twice, is an InputError on "cpu_list[i]".
MappingPolicy read_mapping_policy(ObjectReader& section, const NodeType& node);

struct RankLocation {
  long long node_index = 0;  // index into the job's node list (0 .. nodes-1), not a machine node id
  int core = 0;
  int numa = 0;
  int package = 0;
  bool operator==(const RankLocation&) const = default;
};

// Cores a rank may run on: [first, first + count), contiguous in the regular tree.
struct CoreRange {
  int first = 0;
  int count = 0;
  bool operator==(const CoreRange&) const = default;
};

class RankMap {
public:
  // `ranks` over `nodes` nodes of type `node`, at most `ranks_per_node` on a node (mpirun's slot count, which mpirun
  // takes from the resource manager; at most the node's cores here). Errors are InputErrors on `file` and the key "<path>.ranks",
  // "<path>.ranks_per_node" or "<path>.cpu_list" (path "" gives bare keys).
  RankMap(const NodeType& node, long long ranks, long long nodes, int ranks_per_node, const MappingPolicy& policy,
          const std::string& file = "", const std::string& path = "");

  long long ranks() const { return ranks_; }
  long long nodes() const { return nodes_; }
  int ranks_per_node() const { return rpn_; }
  MapBy map_by() const { return map_by_; }
  BindTo bind_to() const { return bind_to_; }
  RankBy rank_by() const { return rank_by_; }
  // Nodes that hold at least one rank (block mappings use the first ceil(ranks / ranks_per_node) nodes).
  long long nodes_used() const;

  RankLocation locate(long long rank) const;
  // The node index of a rank (hot: inline, O(1)). The job's used nodes hold `hi_` ranks each for the first `a_` of them
  // and `lo_` for the next `b_` (block mappings: full nodes then one partial; map-by node: balanced counts).
  long long node_index(long long rank) const {
    if (!rr_nodes_) {
      long long big = a_ * hi_;
      return rank < big ? rank / hi_ : a_ + (rank - big) / lo_;
    }
    long long all = lo_ * (a_ + b_);
    return rank < all ? rank % (a_ + b_) : (rank - all) % a_;
  }
  int local_rank(long long rank) const;            // 0 .. ranks_on_node - 1, in rank order on the node
  long long ranks_on_node(long long node_index) const;
  CoreRange allowed_cores(long long rank) const;   // from the binding: one core, the NUMA node, the package, the node

private:
  int core_of_local(int local) const;          // core of the k-th proc the mapper placed on a node
  int placed_of_local(int local, long long count) const;  // local rank -> placement index on a node of `count` ranks
  std::vector<int> ranking_order(int count) const;        // placement index of each local rank (rank_by)
  const NodeType* node_;
  long long ranks_ = 0, nodes_ = 0;
  int rpn_ = 1;
  MapBy map_by_ = MapBy::Core;
  BindTo bind_to_ = BindTo::Core;
  RankBy rank_by_ = RankBy::Slot;
  std::vector<int> cpu_list_;
  // Node counts (see node_index): a_ nodes of hi_ ranks, then b_ nodes of lo_ ranks; rr_nodes_: rank-by node.
  long long a_ = 1, hi_ = 1, b_ = 0, lo_ = 0;
  bool rr_nodes_ = false;
  // Local rank -> placement index for nodes holding hi_ / lo_ ranks; empty where the ranking is the placement order.
  std::vector<int> order_hi_, order_lo_;
};

}  // namespace ompisim::platform
