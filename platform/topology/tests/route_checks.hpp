// Checks on routes shared by the topology and route-policy tests.
#pragma once
#include "platform/topology/topology.hpp"

#include <algorithm>
#include <cstddef>

namespace ompisim::topology::test {

// The route is a connected chain of links from a to b (empty iff a == b).
inline bool is_chain(const Topology& t, const Route& r, RouterId a, RouterId b) {
  if (r.empty()) return a == b;
  if (t.link(r.front()).from != a || t.link(r.back()).to != b) return false;
  for (std::size_t i = 0; i + 1 < r.size(); ++i)
    if (t.link(r[i]).to != t.link(r[i + 1]).from) return false;
  return true;
}

// How many of the route's links are of class `c`.
inline int count_class(const Topology& t, const Route& r, LinkClass c) {
  return static_cast<int>(std::count_if(r.begin(), r.end(), [&](LinkId l) { return t.link(l).cls == c; }));
}

}  // namespace ompisim::topology::test
