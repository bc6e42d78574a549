#include "protocols/pml/ob1/stripe.hpp"
#include "protocols/base/transition_table.hpp"

namespace ompisim::pml::ob1 {

namespace {
constexpr std::array<const char*, 2> kStripePolicyNames{"weighted_rr", "stripe_above"};

std::size_t fastest(const bml::r2::Endpoint& ep) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < ep.send.size(); ++i)
    if (ep.send[i].btl->path_bandwidth() > ep.send[best].btl->path_bandwidth()) best = i;
  return best;
}
}  // namespace

const char* to_string(StripePolicy p) { return name_of<StripePolicy::StripeAbove>(p, kStripePolicyNames); }

bool striped(const bml::r2::Endpoint& ep, StripePolicy p, std::uint64_t bytes, std::uint64_t stripe_min_size) {
  if (ep.send.size() < 2) return false;
  return p == StripePolicy::WeightedRoundRobin || bytes >= stripe_min_size;
}

btl::Btl* fastest_btl(const bml::r2::Endpoint& ep) { return ep.send[fastest(ep)].btl; }

btl::Btl* first_fragment_btl(const bml::r2::Endpoint& ep, StripePolicy p, std::uint32_t& rr) {
  if (p == StripePolicy::WeightedRoundRobin || ep.send.size() == 1) {
    if (ep.eager.size() == 1) return ep.eager.front().btl;
    return ep.eager[rr++ % ep.eager.size()].btl;
  }
  btl::Btl* best = ep.send.front().btl;
  for (const auto& s : ep.send) {
    const double l = s.btl->path_latency(), lb = best->path_latency();
    if (l < lb || (l == lb && s.btl->path_bandwidth() > best->path_bandwidth())) best = s.btl;
  }
  return best;
}

std::vector<double> stripe_weights(const bml::r2::Endpoint& ep, StripePolicy p, std::uint64_t left,
                                   std::uint64_t stripe_min_size) {
  std::vector<double> out(ep.send.size(), 0.0);
  if (out.empty()) return out;
  if (p == StripePolicy::WeightedRoundRobin) {
    for (std::size_t i = 0; i < ep.send.size(); ++i) out[i] = ep.send[i].weight;
    return out;
  }
  if (ep.send.size() == 1 || left < stripe_min_size) {
    out[fastest(ep)] = 1.0;
    return out;
  }
  double total = 0;
  for (const auto& s : ep.send) total += s.btl->path_bandwidth();
  for (std::size_t i = 0; i < ep.send.size(); ++i) out[i] = ep.send[i].btl->path_bandwidth() / total;
  return out;
}

}  // namespace ompisim::pml::ob1
