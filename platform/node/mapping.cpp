#include "platform/node/mapping.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <stdexcept>

namespace ompisim::platform {

const char* to_string(MapBy m) {
  switch (m) {
    case MapBy::Slot: return "slot";
    case MapBy::Core: return "core";
    case MapBy::Socket: return "socket";
    case MapBy::Numa: return "numa";
    case MapBy::Node: return "node";
  }
  return "?";
}

const char* to_string(BindTo b) {
  switch (b) {
    case BindTo::None: return "none";
    case BindTo::Core: return "core";
    case BindTo::Numa: return "numa";
    case BindTo::Socket: return "socket";
  }
  return "?";
}

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

namespace {

// mpirun spellings v1.8 accepts that this model does not (orterun.1 v1.8.8, --map-by / --bind-to).
const std::vector<std::string> kUnsupportedMap = {"hwthread", "l1cache", "l2cache", "l3cache", "board",
                                                  "sequential", "seq", "distance", "dist", "ppr"};
const std::vector<std::string> kUnsupportedBind = {"hwthread", "l1cache", "l2cache", "l3cache", "board", "slot"};

template <class E>
E parse_choice(ObjectReader& r, const std::string& key, const std::vector<std::pair<std::string, E>>& choices,
               const std::vector<std::string>& unsupported) {
  std::string v = r.str(key);
  std::string lower = v;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  std::vector<std::string> names;
  for (auto& [name, e] : choices) {
    if (name == lower) return e;
    names.push_back(name);
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
    p.map_by = parse_choice<MapBy>(r, "map_by",
                                   {{"slot", MapBy::Slot},
                                    {"core", MapBy::Core},
                                    {"socket", MapBy::Socket},
                                    {"numa", MapBy::Numa},
                                    {"node", MapBy::Node}},
                                   kUnsupportedMap);
  if (r.has("bind_to"))
    p.bind_to = parse_choice<BindTo>(
        r, "bind_to", {{"none", BindTo::None}, {"core", BindTo::Core}, {"numa", BindTo::Numa}, {"socket", BindTo::Socket}},
        kUnsupportedBind);
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
}

long long RankMap::nodes_used() const {
  if (map_by_ == MapBy::Node) return std::min(ranks_, nodes_);
  return (ranks_ + rpn_ - 1) / rpn_;
}

// orte_rmaps_rr_bynode balances the counts (the first ranks % nodes nodes take one more) and rank-by node numbers
// the procs round-robin over the nodes: rank i is on node i % nodes. Every other mapping fills a node's slots before
// the next node (orte_rmaps_rr_byslot / _byobj, no-span mode).
long long RankMap::ranks_on_node(long long n) const {
  if (n < 0 || n >= nodes_) return 0;
  if (map_by_ == MapBy::Node) return ranks_ / nodes_ + (n < ranks_ % nodes_ ? 1 : 0);
  return std::clamp<long long>(ranks_ - n * rpn_, 0, rpn_);
}

int RankMap::local_rank(long long rank) const {
  if (rank < 0 || rank >= ranks_) throw std::out_of_range(fmt::format("rank {} of {}", rank, ranks_));
  if (map_by_ == MapBy::Node) return static_cast<int>(rank / nodes_);
  return static_cast<int>(rank % rpn_);
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
  int k = local_rank(rank);
  RankLocation loc;
  loc.node_index = map_by_ == MapBy::Node ? rank % nodes_ : rank / rpn_;
  loc.core = core_of_local(k);
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
