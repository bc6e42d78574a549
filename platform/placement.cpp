#include "platform/placement.hpp"

#include "core/errors.hpp"

#include <fmt/format.h>
#include <set>

namespace ompisim {

Placement make_placement(const Machine& m, long long ranks, int rpn, const std::vector<long long>& nodes,
                         const std::string& file, const Json& mapping) {
  if (ranks < 1) throw InputError(file, "ranks", "must be at least 1");
  if (rpn < 1) throw InputError(file, "ranks_per_node", "must be at least 1");
  // The node type of the job's first node (all of the job's nodes must have its shape: checked below).
  const platform::NodeType& first =
      m.node_type(!nodes.empty() && nodes[0] >= 0 && nodes[0] < m.nodes ? nodes[0] : 0);
  if (rpn > first.cores())
    throw InputError(file, "ranks_per_node",
                     fmt::format("{} ranks per node, but a {} node has {} cores (one rank per core)", rpn, m.name,
                                 first.cores()));
  long long need = (ranks + rpn - 1) / rpn;
  if (ranks > m.total_cores())
    throw InputError(file, "ranks",
                     m.node_types().size() == 1
                         ? fmt::format("{} ranks do not fit on {} ({} nodes x {} cores = {} cores)", ranks, m.name,
                                       m.nodes, first.cores(), m.total_cores())
                         : fmt::format("{} ranks do not fit on {} ({} nodes, {} cores in all)", ranks, m.name, m.nodes,
                                       m.total_cores()));
  if (need > m.nodes)
    throw InputError(file, "ranks",
                     fmt::format("{} ranks at {} per node need {} nodes, but {} has {}: set \"ranks_per_node\" (at "
                                 "least {}, at most its {} cores a node; its default is 1)",
                                 ranks, rpn, need, m.name, m.nodes, (ranks + m.nodes - 1) / m.nodes, first.cores()));
  Placement p;
  p.ranks = ranks;
  p.ranks_per_node = rpn;
  if (!nodes.empty()) {
    if (static_cast<long long>(nodes.size()) < need)
      throw InputError(file, "nodes", fmt::format("{} nodes listed, {} needed for {} ranks at {} per node",
                                                  nodes.size(), need, ranks, rpn));
    std::set<long long> seen;
    for (auto n : nodes) {
      if (n < 0 || n >= m.nodes)
        throw InputError(file, "nodes", fmt::format("node {} does not exist on {} (0..{})", n, m.name, m.nodes - 1));
      if (!seen.insert(n).second) throw InputError(file, "nodes", fmt::format("node {} is listed twice", n));
    }
    p.nodes.assign(nodes.begin(), nodes.begin() + need);
  } else {
    p.nodes.resize(static_cast<std::size_t>(need));
    for (long long i = 0; i < need; ++i) p.nodes[static_cast<std::size_t>(i)] = i;
  }
  // One rank map serves the job: its nodes must share one node shape (they may be of different types).
  for (long long n : p.nodes) {
    const auto& s = m.node_type(n).shape();
    const auto& f = first.shape();
    if (s.packages != f.packages || s.numa_per_package != f.numa_per_package || s.cores_per_numa != f.cores_per_numa)
      throw InputError(file, "nodes",
                       fmt::format("the job spans node types '{}' and '{}' of different shapes (nodes {} and {}): a "
                                   "job's nodes must share one shape",
                                   m.node_type_def(p.nodes[0]).name, m.node_type_def(n).name, p.nodes[0], n));
  }
  ObjectReader mr(mapping, file, "");
  if (mr.has("gpu_list")) {
    auto list = mr.int_list("gpu_list", 0, 1 << 20);
    for (long long n : p.nodes) {  // every node of the job must have the GPUs listed
      const auto ngpu = static_cast<long long>(m.node_type(n).gpus().size());
      for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i] >= ngpu)
          throw InputError(file, fmt::format("gpu_list[{}]", i),
                           ngpu == 0 ? fmt::format("GPU {} does not exist: a {} node has no GPU", list[i], m.name)
                                     : fmt::format("GPU {} does not exist: a {} node has {} (0..{})", list[i], m.name,
                                                   ngpu, ngpu - 1));
    }
    if (static_cast<long long>(list.size()) < rpn)
      throw InputError(file, "gpu_list", fmt::format("{} GPUs listed for {} ranks per node (one per local rank)",
                                                     list.size(), rpn));
    for (auto g : list) p.gpu_list.push_back(static_cast<int>(g));
  }
  platform::MappingPolicy policy = platform::read_mapping_policy(mr, first);
  p.map = std::make_shared<const platform::RankMap>(first, ranks, need, rpn, policy, file, "");
  return p;
}

}  // namespace ompisim
