#include "platform/node/mapping.hpp"

#include "core/enum_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <stdexcept>

namespace ompisim::platform {

namespace {
constexpr std::array<const char*, 5> kMapByNames{"slot", "core", "socket", "numa", "node"};
constexpr std::array<const char*, 4> kBindToNames{"none", "core", "numa", "socket"};
constexpr std::array<const char*, 5> kRankByNames{"slot", "core", "numa", "socket", "node"};
}  // namespace

const char* to_string(MapBy m) { return name_of<MapBy::Node>(m, kMapByNames); }
const char* to_string(BindTo b) { return name_of<BindTo::Socket>(b, kBindToNames); }
const char* to_string(RankBy r) { return name_of<RankBy::Node>(r, kRankByNames); }

// Open MPI v1.8.8 orte/mca/rmaps/base/rmaps_base_map_job.c:119-141: "mapping not given - using bycore" when
// nprocs <= 2 (and cpus_per_rank == 1, no hwthreads-as-cpus), else "using bysocket".
MapBy default_map_by(long long np) { return np <= 2 ? MapBy::Core : MapBy::Socket; }

// Same file, lines 251-334: an explicit map-by core/socket/numa (ORTE_MAPPING_BYBOARD < policy < BYSLOT) binds to that
// object; map-by node (or board) binds to none; otherwise "binding not given": np <= 2 -> core, np > 2 -> socket.
BindTo default_bind_to(std::optional<MapBy> m, long long np) {
  if (m) {
    switch (*m) {
      case MapBy::Core: return BindTo::Core;
      case MapBy::Socket: return BindTo::Socket;
      case MapBy::Numa: return BindTo::Numa;
      case MapBy::Node: return BindTo::None;
      case MapBy::Slot: break;  // ORTE_MAPPING_BYSLOT is outside the object range: falls to the np rule
    }
  }
  return np <= 2 ? BindTo::Core : BindTo::Socket;
}

MapBy MappingPolicy::effective_map_by(long long np) const {
  if (map_by) return *map_by;
  if (!cpu_list.empty()) return MapBy::Core;  // the model's reading of a cpu list: ranks fill the listed cores in order
  return default_map_by(np);
}

BindTo MappingPolicy::effective_bind_to(long long np) const { return bind_to ? *bind_to : default_bind_to(map_by, np); }

// rmaps_base_frame.c (v1.8.8) orte_rmaps_base_set_ranking_policy: no --rank-by -> the ranking follows an explicit
// --map-by object (slot, node, core, numa, socket), else by slot. A cpu_list is the model's srun --cpu-bind=map_cpu:
// local rank k on the k-th listed core, so without an explicit rank_by it keeps the list's order (by slot).
RankBy MappingPolicy::effective_rank_by() const {
  if (rank_by) return *rank_by;
  if (!map_by || !cpu_list.empty()) return RankBy::Slot;
  switch (*map_by) {
    case MapBy::Slot: return RankBy::Slot;
    case MapBy::Core: return RankBy::Core;
    case MapBy::Socket: return RankBy::Socket;
    case MapBy::Numa: return RankBy::Numa;
    case MapBy::Node: return RankBy::Node;
  }
  return RankBy::Slot;
}

namespace {

// mpirun spellings v1.8 accepts that this model does not (orterun.1 v1.8.8, --map-by / --bind-to).
const std::vector<std::string> kUnsupportedMap = {"hwthread", "l1cache", "l2cache", "l3cache", "board",
                                                  "sequential", "seq", "distance", "dist", "ppr"};
const std::vector<std::string> kUnsupportedBind = {"hwthread", "l1cache", "l2cache", "l3cache", "board", "slot"};
const std::vector<std::string> kUnsupportedRank = {"hwthread", "l1cache", "l2cache", "l3cache", "board"};

// The enumerator of `choices` whose to_string is the key's value (any case); `choices` is the order the error lists.
template <class E>
E parse_choice(ObjectReader& r, const std::string& key, const std::vector<E>& choices,
               const std::vector<std::string>& unsupported) {
  std::string v = r.str(key);
  std::string lower = v;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  std::vector<std::string> names;
  for (E e : choices) {
    if (lower == to_string(e)) return e;
    names.emplace_back(to_string(e));
  }
  std::string list = fmt::format("{}", fmt::join(names, ", "));
  if (std::find(unsupported.begin(), unsupported.end(), lower) != unsupported.end())
    r.fail(key, fmt::format("'{}' is an mpirun policy this model does not support (supported: {})", v, list));
  std::string hint = did_you_mean(lower, names);
  r.fail(key, fmt::format("unknown policy '{}'{} (supported: {})", v,
                          hint.empty() ? std::string() : " (did you mean '" + hint + "'?)", list));
}

}  // namespace

MappingPolicy read_mapping_policy(ObjectReader& r, const NodeType& node) {
  MappingPolicy p;
  if (r.has("map_by"))
    p.map_by = parse_choice<MapBy>(r, "map_by", {MapBy::Slot, MapBy::Core, MapBy::Socket, MapBy::Numa, MapBy::Node},
                                   kUnsupportedMap);
  if (r.has("bind_to"))
    p.bind_to = parse_choice<BindTo>(r, "bind_to", {BindTo::None, BindTo::Core, BindTo::Numa, BindTo::Socket},
                                     kUnsupportedBind);
  if (r.has("rank_by"))
    p.rank_by = parse_choice<RankBy>(r, "rank_by",
                                     {RankBy::Slot, RankBy::Core, RankBy::Socket, RankBy::Numa, RankBy::Node},
                                     kUnsupportedRank);
  if (r.has("cpu_list")) {
    auto list = r.int_list("cpu_list", 0, 1 << 20);
    if (list.empty()) r.fail("cpu_list", "an empty cpu_list places no rank (omit the key to use the mapping policy)");
    std::set<long long> seen;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string key = "cpu_list[" + std::to_string(i) + "]";
      if (list[i] >= node.cores())
        r.fail(key, fmt::format("core {} does not exist: the node type has {} cores (0..{})", list[i], node.cores(),
                                node.cores() - 1));
      if (!seen.insert(list[i]).second) r.fail(key, fmt::format("core {} is listed twice", list[i]));
      p.cpu_list.push_back(static_cast<int>(list[i]));
    }
    if (p.map_by && *p.map_by != MapBy::Core && *p.map_by != MapBy::Slot)
      r.fail("cpu_list", fmt::format("a cpu_list fills its cores in order: it needs map_by 'core' or 'slot', not '{}'",
                                     to_string(*p.map_by)));
  }
  return p;
}

RankMap::RankMap(const NodeType& node, long long ranks, long long nodes, int rpn, const MappingPolicy& policy,
                 const std::string& file, const std::string& path)
    : node_(&node), ranks_(ranks), nodes_(nodes), rpn_(rpn), cpu_list_(policy.cpu_list) {
  auto key = [&](const char* k) { return path.empty() ? std::string(k) : path + "." + k; };
  if (ranks < 1) throw InputError(file, key("ranks"), "must be at least 1");
  if (nodes < 1) throw InputError(file, key("nodes"), "must be at least 1");
  if (rpn < 1) throw InputError(file, key("ranks_per_node"), "must be at least 1");
  if (rpn > node.cores())
    throw InputError(file, key("ranks_per_node"),
                     fmt::format("{} ranks per node, but the node type has {} cores (one rank per core; "
                                 "oversubscription is not modelled)",
                                 rpn, node.cores()));
  if (ranks > nodes * rpn)
    throw InputError(file, key("ranks"), fmt::format("{} ranks do not fit on {} nodes at {} per node ({} slots)",
                                                     ranks, nodes, rpn, nodes * rpn));
  map_by_ = policy.effective_map_by(ranks);
  bind_to_ = policy.effective_bind_to(ranks);
  rank_by_ = policy.effective_rank_by();
  // Node counts. Block mappings (every map_by but node) fill ranks_per_node slots a node; map-by node balances the
  // counts (orte_rmaps_rr_bynode: the first ranks % nodes nodes take one more).
  if (map_by_ == MapBy::Node) {
    long long q = ranks / nodes, rem = ranks % nodes;
    if (q == 0) a_ = rem, hi_ = 1, b_ = 0, lo_ = 0;
    else if (rem == 0) a_ = nodes, hi_ = q, b_ = 0, lo_ = 0;
    else a_ = rem, hi_ = q + 1, b_ = nodes - rem, lo_ = q;
  } else {
    long long used = (ranks + rpn - 1) / rpn, last = ranks - (used - 1) * rpn;
    if (last == rpn) a_ = used, hi_ = rpn, b_ = 0, lo_ = 0;
    else if (used == 1) a_ = 1, hi_ = last, b_ = 0, lo_ = 0;
    else a_ = used - 1, hi_ = rpn, b_ = 1, lo_ = last;
  }
  rr_nodes_ = rank_by_ == RankBy::Node;
  if (!cpu_list_.empty()) {
    long long most = 0;
    for (long long n = 0; n < std::min<long long>(nodes, 2); ++n) most = std::max(most, ranks_on_node(n));
    if (static_cast<long long>(cpu_list_.size()) < most)
      throw InputError(file, key("cpu_list"), fmt::format("{} cores listed, but a node holds up to {} ranks",
                                                          cpu_list_.size(), most));
    for (int c : cpu_list_)
      if (c < 0 || c >= node.cores())
        throw InputError(file, key("cpu_list"), fmt::format("core {} does not exist: the node type has {} cores", c,
                                                            node.cores()));
  }
  order_hi_ = ranking_order(static_cast<int>(hi_));
  if (lo_ > 0) order_lo_ = ranking_order(static_cast<int>(lo_));
}

// Placement index of each local rank on a node holding `count` ranks; empty when they are equal (slot and node
// ranking number a node's procs in placement order; so does ranking by the object the mapper cycled over).
std::vector<int> RankMap::ranking_order(int count) const {
  std::vector<int> order(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) order[static_cast<std::size_t>(k)] = k;
  if (rank_by_ == RankBy::Slot || rank_by_ == RankBy::Node) return {};
  // The object (core, NUMA node, package) of each placed proc, and rank_by()'s cycle over the objects: one proc per
  // object per pass, in placement order within an object, skipping objects with no unranked proc left.
  auto object_of = [&](int k) {
    int core = core_of_local(k);
    switch (rank_by_) {
      case RankBy::Numa: return node_->numa_of(core);
      case RankBy::Socket: return node_->package_of(core);
      default: return core;
    }
  };
  int objects = rank_by_ == RankBy::Numa ? node_->numa_count()
                : rank_by_ == RankBy::Socket ? node_->shape().packages : node_->cores();
  std::vector<std::vector<int>> on(static_cast<std::size_t>(objects));
  for (int k = 0; k < count; ++k) on[static_cast<std::size_t>(object_of(k))].push_back(k);
  std::vector<std::size_t> next(on.size(), 0);
  std::vector<int> result;
  result.reserve(static_cast<std::size_t>(count));
  while (static_cast<int>(result.size()) < count)
    for (std::size_t o = 0; o < on.size(); ++o)
      if (next[o] < on[o].size()) result.push_back(on[o][next[o]++]);
  return result == order ? std::vector<int>{} : result;
}

int RankMap::placed_of_local(int j, long long count) const {
  const auto& order = count == hi_ ? order_hi_ : order_lo_;
  return order.empty() ? j : order[static_cast<std::size_t>(j)];
}

long long RankMap::nodes_used() const { return a_ + b_; }

// orte_rmaps_rr_bynode balances the counts (the first ranks % nodes nodes take one more); every other mapping fills
// a node's slots before the next node (orte_rmaps_rr_byslot / _byobj, no-span mode).
long long RankMap::ranks_on_node(long long n) const {
  if (n < 0) return 0;
  if (n < a_) return hi_;
  if (n < a_ + b_) return lo_;
  return 0;
}

// Local ranks number a node's ranks in rank order. Rank-by node deals one rank per node per pass (pass p gives
// every node holding more than p ranks its p-th); every other ranking numbers a node's ranks contiguously.
int RankMap::local_rank(long long rank) const {
  if (rank < 0 || rank >= ranks_) throw std::out_of_range(fmt::format("rank {} of {}", rank, ranks_));
  if (rr_nodes_) {
    long long all = lo_ * (a_ + b_);
    return static_cast<int>(rank < all ? rank / (a_ + b_) : lo_ + (rank - all) / a_);
  }
  long long n = node_index(rank);
  long long start = n < a_ ? n * hi_ : a_ * hi_ + (n - a_) * lo_;
  return static_cast<int>(rank - start);
}

// The core of the k-th rank placed on a node. orte_rmaps_rr_byobj cycles over the node's objects of the mapped type
// (object k % objects), so the rank is the (k / objects)-th placed on its object and takes that object's
// (k / objects)-th core. By core / by slot: core k. By node: the rank's locale is the whole node; modelled on core k.
int RankMap::core_of_local(int k) const {
  if (!cpu_list_.empty()) return cpu_list_[static_cast<std::size_t>(k)];
  const NodeShape& s = node_->shape();
  switch (map_by_) {
    case MapBy::Slot:
    case MapBy::Core:
    case MapBy::Node: return k;
    case MapBy::Socket: return node_->first_core_of_package(k % s.packages) + k / s.packages;
    case MapBy::Numa: {
      int n = node_->numa_count();
      return node_->first_core_of_numa(k % n) + k / n;
    }
  }
  return k;
}

RankLocation RankMap::locate(long long rank) const {
  RankLocation loc;
  loc.node_index = node_index(rank);
  loc.core = core_of_local(placed_of_local(local_rank(rank), ranks_on_node(loc.node_index)));
  loc.numa = node_->numa_of(loc.core);
  loc.package = node_->package_of(loc.core);
  return loc;
}

CoreRange RankMap::allowed_cores(long long rank) const {
  RankLocation loc = locate(rank);
  switch (bind_to_) {
    case BindTo::Core: return {loc.core, 1};
    case BindTo::Numa: return {node_->first_core_of_numa(loc.numa), node_->shape().cores_per_numa};
    case BindTo::Socket: return {node_->first_core_of_package(loc.package), node_->cores_per_package()};
    case BindTo::None: return {0, node_->cores()};
  }
  return {0, node_->cores()};
}

}  // namespace ompisim::platform
