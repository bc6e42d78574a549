#include "protocols/bml/r2/bml_r2.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::bml::r2 {

Endpoint add_proc(const std::vector<btl::Btl*>& btls, const Contexts& contexts, int rank, int peer,
                  bool same_arch) {
  // mca_bml_r2_add_btls sorts the modules by decreasing exclusivity (qsort; a stable sort keeps the given order
  // among equals here).
  std::vector<btl::Btl*> order = btls;
  std::stable_sort(order.begin(), order.end(),
                   [](btl::Btl* a, btl::Btl* b) { return a->caps().exclusivity > b->caps().exclusivity; });
  Endpoint ep;
  for (btl::Btl* b : order) {
    if (!b->reaches(contexts, rank, peer)) continue;
    // "dont allow an additional BTL with a lower exclusivity ranking"
    if (!ep.send.empty() && ep.send.back().btl->caps().exclusivity > b->caps().exclusivity) continue;
    ep.send.push_back({b, 0});
    ep.flags_or |= b->caps().flags;
  }
  if (ep.send.empty()) return ep;
  std::stable_sort(ep.send.begin(), ep.send.end(),
                   [](const BmlBtl& a, const BmlBtl& b) { return a.btl->caps().bandwidth > b.btl->caps().bandwidth; });
  double total = 0;
  std::uint32_t latency = 0xffffffffu;
  for (auto& s : ep.send) {
    total += s.btl->caps().bandwidth;
    latency = std::min(latency, s.btl->caps().latency);
  }
  ep.max_send_size = ~std::uint64_t{0};
  const double n = static_cast<double>(ep.send.size());
  for (auto& s : ep.send) {
    const btl::BtlCaps& c = s.btl->caps();
    s.weight = c.bandwidth > 0 ? c.bandwidth / total : 1.0 / n;
    if (c.latency == latency) ep.eager.push_back(s);
    ep.max_send_size = std::min(ep.max_send_size, c.max_send_size);
    if ((c.flags & btl::flag::Rdma) && (same_arch || (c.flags & btl::flag::HeterogeneousRdma))) {
      ep.rdma.push_back(s);
      ep.pipeline_send_length = std::max(ep.pipeline_send_length, c.rdma_pipeline_send_length);
      ep.send_limit = std::max(ep.send_limit, c.min_rdma_pipeline_size);
    }
  }
  return ep;
}

BmlR2::BmlR2(const Contexts& contexts, std::vector<btl::Btl*> btls)
    : ctx_(contexts), btls_(std::move(btls)), peers_(static_cast<std::size_t>(contexts.ranks())) {
  btls_.erase(std::remove(btls_.begin(), btls_.end(), nullptr), btls_.end());
  if (btls_.empty()) throw std::invalid_argument("bml/r2: no BTL");
}

void BmlR2::set_arch(int rank, std::uint32_t arch) {
  if (arch_.empty()) {
    if (arch == 0) return;
    arch_.assign(static_cast<std::size_t>(ctx_.ranks()), 0);
  }
  arch_.at(static_cast<std::size_t>(rank)) = arch;
}

std::size_t BmlR2::contacts(int rank) const { return peers_[static_cast<std::size_t>(rank)].size(); }

bool BmlR2::selected(const btl::Btl* b) const {
  auto in = [b](const std::vector<BmlBtl>& a) {
    return std::any_of(a.begin(), a.end(), [b](const BmlBtl& x) { return x.btl == b; });
  };
  return std::any_of(records_.begin(), records_.end(),
                     [&](const Endpoint& ep) { return in(ep.eager) || in(ep.send) || in(ep.rdma); });
}

const Endpoint& BmlR2::endpoint(int rank, int peer) {
  std::uint32_t& slot = peers_[static_cast<std::size_t>(rank)][peer];
  if (slot) return records_[slot - 1];
  const bool same_arch = arch(rank) == arch(peer);
  std::uint64_t key = same_arch ? std::uint64_t{1} << 63 : 0;
  const bool keyed = btls_.size() < 63;
  if (keyed) {
    for (std::size_t i = 0; i < btls_.size(); ++i)
      if (btls_[i]->reaches(ctx_, rank, peer)) key |= std::uint64_t{1} << i;
    for (const auto& [k, record] : by_reach_) {
      if (k != key) continue;
      slot = record + 1;
      return records_[record];
    }
  }
  Endpoint ep = add_proc(btls_, ctx_, rank, peer, same_arch);
  if (ep.send.empty())
    // the stack's input (a BTL list without one that reaches this pair) decides it: an input error, named by the run
    throw InputError("", "stack",
                     "bml/r2: rank " + std::to_string(rank) + " cannot reach rank " + std::to_string(peer) +
                         " with any BTL of the stack (unreachable proc): list a BTL that reaches it (on one node: "
                         "self and a shared-memory BTL; between nodes: the network's)");
  auto it = std::find(records_.begin(), records_.end(), ep);
  if (it == records_.end()) it = records_.insert(records_.end(), std::move(ep));
  slot = static_cast<std::uint32_t>(it - records_.begin()) + 1;
  if (keyed) by_reach_.emplace_back(key, slot - 1);
  return records_[slot - 1];
}

}  // namespace ompisim::bml::r2
