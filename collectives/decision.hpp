// Tuned decision rules as data (collectives/decision/*.json, each naming the Open MPI version it mirrors).
// Mirrors ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, ompi_coll_tuned_barrier_intra_dec_fixed (v1.7–v4.0);
// the rule itself lives in collectives/decision/barrier_tuned.json.
//
// Rule format: an object with "rules": an ordered list of {"when": <condition>, "algorithm": <coll/tuned name>};
// the first rule whose condition holds wins. Conditions:
//   "always"        always true;
//   "pow2"          nranks is a power of two (exactly one bit set; 1 counts, as in Open MPI's bit loop);
//   "node_aware"    the communicator is node-aware (MPIR_Comm_is_node_aware: size tables only, CommShape below;
//                   false for the barrier rule and for the sub-communicators of a composition's stages);
//   "nranks == N", "nranks < N", "nranks <= N", "nranks > N", "nranks >= N"   integer comparisons;
//   "tunable NAME"  the stack declares the library tunable NAME (Stack::coll_tunables, e.g. Cray MPICH's
//                   MPICH_BCAST_ONLY_TREE as mpich_bcast_only_tree) and its value is not 0; false when the stack
//                   declares no such tunable (the library's upstream default then applies: the rows after it).
// Anything else, a missing field, or no matching rule is an error (std::invalid_argument naming the rule index and
// the offending value).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/registry.hpp"
#include "collectives/schedule.hpp"

namespace ompisim::coll {

// Reads and parses a decision file (bounded as every input file); an InputError naming the path if it cannot be opened
// or parsed.
nlohmann::json load_decision(const std::string& path);

// Evaluates the rule for a communicator of `nranks` (>= 1) and returns the algorithm name.
std::string tuned_barrier_algorithm(int nranks, const nlohmann::json& rule);

// Size-table decisions of a whole library (decision/ompi_v5_tuned.json: coll/tuned v5.0.x; decision/mpich_default.json:
// MPICH's defaults): lib[coll]["table"] is tried in order, the first row whose "when" holds (the conditions above)
// gives "sizes", tried in order: {"below": N} holds for bytes < N, {"at_most": N} for bytes <= N, {"total_below": N}
// for bytes * nranks < N, {"per_rank_at_most": N} for bytes <= N * nranks, {"count_below_pof2": B} when having fewer
// elements (count = bytes / elem_bytes) than the largest power of two <= nranks (MPICH's count < pof2) is B,
// {"count_above_ranks": B} when count > nranks is B (coll/tuned v1.3's allreduce), {"ranks_below": N} for nranks < N,
// {"ranks_below_line": [a, b]} for nranks < a x bytes + b and {"ranks_above_line": [a, b]} for nranks > a x bytes + b
// (coll/tuned v1.3's bcast and reduce, in double), no bound always. An entry may give "segsize" (bytes; coll/tuned's
// segment size, 0 or absent: one segment). std::invalid_argument naming the collective for a missing collective, a
// malformed row or no match.
struct CommShape {
  int nranks = 1;
  bool node_aware = false;
};
// A library's documented tunables as its stack declares them (name -> value; Stack::coll_tunables): what the "tunable
// NAME" conditions and a composition's stage radices (stage_radix) read. Empty: the library's upstream defaults.
using Tunables = std::map<std::string, double>;
// One size entry's choice: the algorithm and its segment size (bytes; 0 when the entry gives none).
struct Decision {
  std::string algorithm;
  std::uint32_t segsize = 0;
};
// The decision for a communicator whose node-awareness is known (NodeLayout::node_aware). `elem_bytes`: the size of
// the caller's datatype (osu_allreduce: MPI_FLOAT, 4), for the entries that count elements.
Decision decide(const nlohmann::json& lib, const std::string& coll, const CommShape& comm, std::uint64_t bytes,
                const Tunables& tunables = {}, std::uint32_t elem_bytes = 1);
// Its algorithm alone; the first overload is a communicator that is not node-aware.
std::string decide_algorithm(const nlohmann::json& lib, const std::string& coll, int nranks, std::uint64_t bytes);
std::string decide_algorithm(const nlohmann::json& lib, const std::string& coll, const CommShape& comm,
                             std::uint64_t bytes, const Tunables& tunables = {}, std::uint32_t elem_bytes = 1);
// The tree radix of a composition's stage: lib[coll]["stages"]["radix"][roots | node] names a tunable, whose value is
// returned when the stack declares it; 0 when the table names none or the stack does not declare it (the generator
// then takes the table's "radix"). std::invalid_argument naming the collective for a name that is not a string.
int stage_radix(const nlohmann::json& lib, const std::string& coll, Stage stage, const Tunables& tunables);
// The collective whose table picks a node-aware composition's stage (lib[coll]["stages"]["roots" | "node"]), evaluated
// for the sub-communicator (never node-aware, as MPICH's node_comm and node_roots_comm are not);
// std::invalid_argument naming the collective when missing.
std::string stage_table(const nlohmann::json& lib, const std::string& coll, Stage stage);
// Whether a composition's stage tables read the stack's tunables (lib[coll]["stages"]["library_tunables"], default
// true): false where the library documents its tunables for another call only (Cray MPICH's MPICH_BCAST_* act on
// MPI_Bcast, not on the bcast inside MPI_Allreduce), so the stages take the upstream rows.
bool stage_tunables(const nlohmann::json& lib, const std::string& coll);
// The stages a composition's table names (lib[coll]["stages"]: "roots", "node", "node_after", "comm", "comm_after"),
// in that order.
std::vector<Stage> stage_list(const nlohmann::json& lib, const std::string& coll);
// A composition's stages as library `lib` chooses them for `coll` at `bytes` (each stage's table, stage_table, decided
// for the sub-communicator's size with `tunables` and `elem_bytes`, its segment size included). The chooser throws
// std::invalid_argument naming the stage when a table picks an algorithm that is not a flat one of `registry` (not
// implemented here, or itself a composition). `lib`, `tunables` and `registry` must outlive it.
StageChooser library_stages(const nlohmann::json& lib, const std::string& coll, std::uint64_t bytes,
                            const Tunables& tunables, std::uint32_t elem_bytes, const CollRegistry& registry);
// The library files by the names a scenario uses ("tuned", "mpich", "tuned-v1.1", "tuned-v1.3", "tuned-r26242",
// "mpich2-1.0"); empty for any other name.
std::string decision_file(const std::string& name);
// The decision table `name` read from the data folder `data`: its file, and where it names a "base" table, every
// collective of the base that it does not give itself (one level: a base has no base). InputError naming the file
// and "base" for a base that is not another table's name; std::invalid_argument for an unknown `name`.
nlohmann::json load_library(const std::string& data, const std::string& name);

}  // namespace ompisim::coll
