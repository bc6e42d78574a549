// Names of the schedule operation kinds and of the node-aware stages (see schedule.hpp). Not an Open MPI mirror: the
// alphabet is ompisim's own (Send/Recv ↔ MCA_PML_CALL(isend/irecv), Amo ↔ GNI_PostFMA with an AMO descriptor,
// WaitCounter ↔ polling a counter).
#include "collectives/schedule.hpp"

#include "core/enum_names.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ompisim::coll {

namespace detail {
void check_rank_args(const std::string& coll_algo, int me, int nranks) {
  if (nranks < 1) throw std::invalid_argument(coll_algo + ": nranks = " + std::to_string(nranks) + " (must be >= 1)");
  if (me < 0 || me >= nranks)
    throw std::invalid_argument(coll_algo + ": me = " + std::to_string(me) + " outside [0, " + std::to_string(nranks) + ")");
}
void check_root(const std::string& coll_algo, int root, int nranks) {
  if (root < 0 || root >= nranks)
    throw std::invalid_argument(coll_algo + ": root = " + std::to_string(root) + " outside [0, " + std::to_string(nranks) + ")");
}

Schedule root_isends_to_all(int me, int nranks, int root, std::uint32_t bytes) {
  Schedule s;
  if (me != root) {
    s.round().recv(root, bytes);
    return s;
  }
  s.round();
  for (int r = 0; r < nranks; ++r)
    if (r != root) s.send(r, bytes);
  return s;
}

std::uint32_t segment_bytes(std::uint32_t bytes, std::uint32_t segsize, std::uint32_t elem_bytes) {
  const std::uint32_t e = std::max<std::uint32_t>(elem_bytes, 1);
  if (segsize < e || segsize >= bytes) return bytes;
  std::uint32_t count = segsize / e;
  if (segsize - count * e > e / 2) ++count;
  return count * e;
}

int floor_pow2(int n) {
  int p = 1;
  while (p <= n / 2) p <<= 1;
  return p;
}

void allgather_mirroring(Schedule& s, const std::vector<HalvingStep>& steps) {
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) s.round().sendrecv_to(it->peer, it->kept, it->peer, it->sent);
}
}  // namespace detail

NodeLayout::NodeLayout(const std::vector<long long>& node_key) {
  const std::size_t n = node_key.size();
  node_.resize(n);
  local_.resize(n);
  std::unordered_map<long long, int> index;  // node id -> node number, by first appearance (the lowest rank)
  std::vector<int> count;
  for (std::size_t r = 0; r < n; ++r) {
    auto [it, fresh] = index.try_emplace(node_key[r], static_cast<int>(count.size()));
    if (fresh) count.push_back(0);
    node_[r] = it->second;
    local_[r] = count[static_cast<std::size_t>(it->second)]++;
  }
  first_.assign(count.size() + 1, 0);
  for (std::size_t k = 0; k < count.size(); ++k) first_[k + 1] = first_[k] + count[k];
  members_.resize(n);
  for (std::size_t r = 0; r < n; ++r)
    members_[static_cast<std::size_t>(first_[static_cast<std::size_t>(node_[r])] + local_[r])] = static_cast<int>(r);
}

NodeLayout NodeLayout::block(int nranks, int ranks_per_node) {
  if (nranks < 1 || ranks_per_node < 1)
    throw std::invalid_argument("NodeLayout::block: nranks = " + std::to_string(nranks) +
                                ", ranks_per_node = " + std::to_string(ranks_per_node) + " (both must be >= 1)");
  std::vector<long long> key(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) key[static_cast<std::size_t>(r)] = r / ranks_per_node;
  return NodeLayout(key);
}

const NodeLayout& detail::composition_layout(const std::string& coll_algo, int nranks, const AlgoParams& p) {
  if (p.layout == nullptr || p.stages == nullptr || !*p.stages)
    throw std::invalid_argument(coll_algo + ": needs the communicator's node layout and the stages' decision");
  if (p.layout->nranks() != nranks)
    throw std::invalid_argument(coll_algo + ": the node layout has " + std::to_string(p.layout->nranks()) +
                                " ranks, the communicator " + std::to_string(nranks));
  return *p.layout;
}

const NodeLayout& detail::rooted_composition_layout(const std::string& coll_algo, int me, int nranks,
                                                   const AlgoParams& p) {
  check_rank_args(coll_algo, me, nranks);
  check_root(coll_algo, p.root, nranks);
  return composition_layout(coll_algo, nranks, p);
}

void detail::append_node_stage(Schedule& s, Stage st, int me, const AlgoParams& q) {
  const NodeLayout& L = *q.layout;
  const int node = L.node(me), n = L.node_size(node);
  append_mapped(s, run_stage(st, L.local(me), n, q), [&](int i) { return L.member(node, i); });
}

void detail::append_roots_stage(Schedule& s, Stage st, int me, const AlgoParams& q) {
  const NodeLayout& L = *q.layout;
  append_mapped(s, run_stage(st, L.node(me), L.nnodes(), q), [&](int k) { return L.leader(k); });
}

Schedule detail::run_stage(Stage st, int me, int nranks, const AlgoParams& q) {
  const StageChoice c = (*q.stages)(st, nranks);
  AlgoParams p = q;
  p.segsize = c.segsize;
  return c.make(me, nranks, p);
}

StageChooser memoise_stages(StageChooser chooser, const NodeLayout& layout, const std::vector<Stage>& stages) {
  auto table = std::make_shared<std::map<std::pair<Stage, int>, StageChoice>>();
  auto ask = [&](Stage st, int n) {
    if (!table->contains({st, n})) table->emplace(std::pair{st, n}, chooser(st, n));
  };
  for (Stage st : stages) {
    if (st == Stage::Roots) ask(st, layout.nnodes());
    else if (st == Stage::Comm || st == Stage::CommAfter) ask(st, layout.nranks());
    else
      for (int k = 0; k < layout.nnodes(); ++k) ask(st, layout.node_size(k));
  }
  return [table = std::shared_ptr<const std::map<std::pair<Stage, int>, StageChoice>>(std::move(table)),
          chooser = std::move(chooser)](Stage st, int n) -> StageChoice {
    if (auto it = table->find({st, n}); it != table->end()) return it->second;
    return chooser(st, n);
  };
}

namespace {
constexpr std::array<const char*, 7> kOpKindNames{"Send", "Recv", "Amo", "WaitCounter", "Reduce", "PostRecv", "Wait"};
constexpr std::array<const char*, 5> kStageNames{"roots", "node", "node_after", "comm", "comm_after"};
}  // namespace

std::string ranks_rule_violation(const AlgoInfo& info, int nranks) {
  switch (info.ranks) {
    case RankRule::Any: return {};
    case RankRule::PowerOfTwo:
      if (nranks > 0 && (nranks & (nranks - 1)) == 0) return {};
      return info.coll + " '" + info.algo + "' runs on a power-of-two number of ranks only, not on " +
             std::to_string(nranks) + " (" + info.mirrors + ")";
    case RankRule::Two:
      if (nranks == 2) return {};
      return info.coll + " '" + info.algo + "' runs on exactly 2 ranks, not on " + std::to_string(nranks) + " (" +
             info.mirrors + ")";
  }
  return {};
}

const char* to_string(OpKind k) { return name_of<OpKind::Wait>(k, kOpKindNames); }
const char* to_string(Stage s) { return name_of<Stage::CommAfter>(s, kStageNames); }

}  // namespace ompisim::coll
