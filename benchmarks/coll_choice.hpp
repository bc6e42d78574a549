#pragma once
// A collective driver's "algorithm" (osu_coll.cpp, imb.cpp): one algorithm of the collectives registry for every size,
// or the name of a library's decision table (collectives/decision/*.json: "tuned", "mpich", "tuned-v1.1") that picks
// an algorithm per (ranks, size).
#include "collectives/decision.hpp"
#include "collectives/registry.hpp"
#include "core/json_input.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::bench {

struct CollChoice {
  std::string coll;       // the registry's collective ("reduce", "alltoall", ...)
  std::string algorithm;  // the scenario's value
  std::string rules;      // = algorithm when it names a decision table, else empty
  Json lib;               // that decision table
  coll::Tunables tunables;  // the library's documented tunables as the run's stack declares them (Stack::coll_tunables)
  std::uint32_t elem_bytes = 1;  // the size of the caller's datatype (osu_allreduce: MPI_FLOAT), for counts of elements

  // Reads "algorithm" from `b` (default `deflt`): a registered algorithm of `coll` or one of `tables`, whose decision
  // file is loaded; anything else fails on key "algorithm" with a did-you-mean and the known names.
  static CollChoice read(ObjectReader& b, const std::string& coll, const std::string& deflt,
                         const std::vector<std::string>& tables);
  // The choice of a block that names no algorithm: the stack's collective library (DriverContext::stack_collectives)
  // when it is one of `tables` and has a table for `coll`, else `deflt` (a registered algorithm or one of `tables`).
  static CollChoice stack_default(const std::string& coll, const std::string& stack_lib, const std::string& deflt,
                                  const std::vector<std::string>& tables);
  // Whether decision table `lib` is one of `tables` and has a table for `coll`.
  static bool offers(const std::string& lib, const std::string& coll, const std::vector<std::string>& tables);
  // The algorithm of one size and its segment size: the scenario's (segment size 0), or the decision table's for
  // (collective, ranks, size) on a communicator that is node-aware or not (NodeLayout::node_aware).
  coll::Decision decide(int nranks, std::uint64_t bytes, bool node_aware = false) const;
  // Its registered generator; InputError(file, "benchmark.algorithm") when the decision names one this project does
  // not implement (a decision table's "not_implemented").
  const coll::AlgoInfo* find(int nranks, std::uint64_t bytes, const std::string& file, bool node_aware = false) const;
  // For a composition (AlgoInfo::composition) at `bytes`: each stage's generator and segment size, chosen by the
  // decision table the collective's "stages" names for the sub-communicator's size (coll::library_stages); it throws
  // InputError(file, "benchmark.algorithm") when the table has no stages or picks an algorithm not implemented here.
  // The CollChoice must outlive it.
  coll::StageChooser stages_for(std::uint64_t bytes, const std::string& file) const;
  // The algorithm and segment size a stage runs on a sub-communicator of `nranks` (for the results).
  coll::Decision stage_decision(coll::Stage stage, int nranks, std::uint64_t bytes) const;
  // A stage's tree radix from the library's tunables (coll::stage_radix); 0 when none.
  int stage_radix(coll::Stage stage) const;
  // The stages the collective's composition runs (coll::stage_list), for coll::memoise_stages.
  std::vector<coll::Stage> stages() const;

private:
  // The tunables a stage's table reads: none where the table says its stages take the upstream rows
  // (coll::stage_tunables).
  const coll::Tunables& stage_tunables() const;
};

// A benchmark's collective library when its block names none: the stack's (DriverContext::stack_collectives) where
// the benchmark offers it, else `fallback`.
std::string stack_library_or(const std::string& stack_lib, const std::vector<std::string>& offered,
                             const std::string& fallback);

}  // namespace ompisim::bench
