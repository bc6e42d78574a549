#include "platform/neighbour_job.hpp"

#include <stdexcept>

namespace ompisim {

namespace {
using Pairs = std::vector<std::pair<long long, long long>>;
Pairs halves(const NeighbourJob& j) {
  Pairs out;
  const std::size_t h = j.nodes.size() / 2;
  for (std::size_t i = 0; i < h; ++i) {
    out.emplace_back(j.nodes[i], j.nodes[i + h]);
    out.emplace_back(j.nodes[i + h], j.nodes[i]);
  }
  return out;
}
Pairs shifted(const NeighbourJob& j) {
  Pairs out;
  const std::size_t n = j.nodes.size();
  for (std::size_t i = 0; i < n; ++i) out.emplace_back(j.nodes[i], j.nodes[(i + static_cast<std::size_t>(j.shift)) % n]);
  return out;
}
Pairs everyone(const NeighbourJob& j) {
  Pairs out;
  for (long long a : j.nodes)
    for (long long b : j.nodes)
      if (a != b) out.emplace_back(a, b);
  return out;
}
}  // namespace

const std::vector<NeighbourPattern>& neighbour_patterns() {
  static const std::vector<NeighbourPattern> p = {
      {"pairs", "node i and node i + n/2 exchange in both directions (n even): a bisection-heavy exchange", halves,
       [](std::size_t n) { return n; }, true, false},
      {"shift", "node i sends to node i + shift (mod n): one step of a ring or halo exchange", shifted,
       [](std::size_t n) { return n; }, false, true},
      {"alltoall", "every node sends to every other node at once", everyone,
       [](std::size_t n) { return n * (n - 1); }, false, false},
  };
  return p;
}

const NeighbourPattern* find_neighbour_pattern(const std::string& name) {
  for (auto& p : neighbour_patterns())
    if (name == p.name) return &p;
  return nullptr;
}

std::vector<std::pair<long long, long long>> NeighbourJob::pairs() const {
  const NeighbourPattern* p = find_neighbour_pattern(pattern);
  if (!p) throw std::logic_error("NeighbourJob: unknown pattern '" + pattern + "' (the scenario check should refuse it)");
  return p->pairs(*this);
}

}  // namespace ompisim
