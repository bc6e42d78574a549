// See registry.hpp (mirrors the role of coll/tuned's per-collective algorithm tables, Open MPI v1.7–v4.1).
#include "collectives/registry.hpp"

#include "collectives/gather_scatter.hpp"

#include "collectives/barrier/barriers.hpp"
#include "collectives/data_colls.hpp"
#include "collectives/reduce/reduce.hpp"
#include "collectives/tuned_colls.hpp"

#include <stdexcept>

namespace ompisim::coll {

void CollRegistry::add(AlgoInfo info) {
  if (info.coll.empty() || info.algo.empty())
    throw std::invalid_argument("CollRegistry::add: empty collective or algorithm name (coll='" + info.coll +
                                "', algo='" + info.algo + "')");
  if (info.make == nullptr)
    throw std::invalid_argument("CollRegistry::add: " + info.coll + "/" + info.algo + " has no generator");
  if (find(info.coll, info.algo) != nullptr)
    throw std::invalid_argument("CollRegistry::add: " + info.coll + "/" + info.algo + " is already registered");
  entries_.push_back(std::move(info));
}

const AlgoInfo* CollRegistry::find(const std::string& coll, const std::string& algo) const {
  for (const auto& e : entries_)
    if (e.coll == coll && e.algo == algo) return &e;
  return nullptr;
}

const CollRegistry& default_registry() {
  static const CollRegistry reg = [] {
    CollRegistry r;
    register_barriers(r);
    register_data_collectives(r);
    register_gather_scatter(r);
    register_tuned_collectives(r);
    register_reduce(r);
    return r;
  }();
  return reg;
}

std::vector<std::string> CollRegistry::names(const std::string& coll) const {
  std::vector<std::string> out;
  for (const auto& e : entries_)
    if (e.coll == coll) out.push_back(e.algo);
  return out;
}

std::vector<std::string> CollRegistry::nameable(const std::string& coll) const {
  std::vector<std::string> out;
  for (const auto& e : entries_)
    if (e.coll == coll && !e.composition) out.push_back(e.algo);
  return out;
}

}  // namespace ompisim::coll
