// Registry of collective schedule generators (explicit registration, no static constructors).
// Mirrors the role of the algorithm tables of Open MPI coll/tuned (ompi/mca/coll/tuned/coll_tuned_barrier.c,
// `barrier_algorithms[]`, v1.7–v4.1): an algorithm is looked up by (collective, name), the name being the coll/tuned
// enum string ("recursive_doubling", "bruck", ...) or, for Cheetah, "cheetah-<bcol>".
#pragma once
#include <string>
#include <vector>

#include "collectives/schedule.hpp"

namespace ompisim::coll {

class CollRegistry {
public:
  // Throws std::invalid_argument for an empty coll/algo name, a null generator or a duplicate (coll, algo) pair.
  void add(AlgoInfo info);
  // nullptr when not registered.
  const AlgoInfo* find(const std::string& coll, const std::string& algo) const;
  const std::vector<AlgoInfo>& all() const { return entries_; }
  // Algorithm names registered for `coll`, in registration order.
  std::vector<std::string> names(const std::string& coll) const;
  // The ones a scenario may name: every one but the compositions, which only a library's decision table chooses
  // (AlgoInfo::composition).
  std::vector<std::string> nameable(const std::string& coll) const;

private:
  std::vector<AlgoInfo> entries_;
};

// Every generator of the project (barriers, then allreduce/alltoall/bcast), registered once.
const CollRegistry& default_registry();

}  // namespace ompisim::coll
