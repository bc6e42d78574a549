#include "platform/torus/torus.hpp"

#include <cstdlib>
#include <stdexcept>

namespace ompisim::topology {

Torus::Torus(Coord dims, int nodes_per_router, std::array<double, 3> bw, double hop_latency, std::array<bool, 3> wrap)
    : dims_(dims), nodes_per_router_(nodes_per_router), wrap_(wrap), g_(dims[0] * dims[1] * dims[2]) {
  for (int d = 0; d < 3; ++d)
    if (dims_[d] < 1) throw std::invalid_argument("torus dimension must be >= 1");
  if (nodes_per_router < 1) throw std::invalid_argument("nodes_per_router must be >= 1");
  out_.assign(routers(), {-1, -1, -1, -1, -1, -1});
  for (int r = 0; r < routers(); ++r) {
    Coord c = coord(r);
    for (int d = 0; d < 3; ++d) {
      if (dims_[d] == 1) continue;
      for (int dir : {-1, +1}) {
        int x = c[d] + dir;
        if (x < 0 || x >= dims_[d]) {
          if (!wrap_[d]) continue;
          x = (x + dims_[d]) % dims_[d];
        }
        if (dims_[d] == 2 && dir < 0 && wrap_[d]) continue;  // a 2-long ring has a single link each way
        Coord n = c;
        n[d] = x;
        LinkProps p{d, dir, bw[d], hop_latency, static_cast<std::uint32_t>(links_.size())};
        boost::add_edge(r, router_at(n), p, g_);
        out_[r][2 * d + (dir > 0)] = static_cast<std::int32_t>(p.id);
        links_.push_back(p);
      }
    }
  }
}

Torus::Coord Torus::coord(int r) const { return {r % dims_[0], (r / dims_[0]) % dims_[1], r / (dims_[0] * dims_[1])}; }

int Torus::router_at(Coord c) const { return c[0] + dims_[0] * (c[1] + dims_[1] * c[2]); }

int Torus::step(int from, int to, int d) const {
  if (from == to) return 0;
  if (!wrap_[d]) return to > from ? +1 : -1;
  int fwd = ((to - from) % dims_[d] + dims_[d]) % dims_[d];
  int back = dims_[d] - fwd;
  if (dims_[d] == 2) return +1;
  return fwd <= back ? +1 : -1;
}

int Torus::distance(int a, int b) const {
  Coord ca = coord(a), cb = coord(b);
  int sum = 0;
  for (int d = 0; d < 3; ++d) {
    int diff = std::abs(ca[d] - cb[d]);
    sum += wrap_[d] ? std::min(diff, dims_[d] - diff) : diff;
  }
  return sum;
}

int Torus::hops(int a, int b) const { return distance(a, b); }

std::vector<std::uint32_t> Torus::route(int a, int b) const {
  std::vector<std::uint32_t> out;
  Coord c = coord(a), t = coord(b);
  for (int d = 0; d < 3; ++d) {
    while (c[d] != t[d]) {
      int s = step(c[d], t[d], d);
      int r = router_at(c);
      out.push_back(static_cast<std::uint32_t>(out_[r][2 * d + (s > 0)]));
      c[d] = ((c[d] + s) % dims_[d] + dims_[d]) % dims_[d];
    }
  }
  return out;
}

std::string Torus::link_name(std::uint32_t id) const {
  static const char* dn = "XYZ";
  const auto& l = links_.at(id);
  // find the source router of this edge
  for (int r = 0; r < routers(); ++r)
    if (out_[r][2 * l.dim + (l.dir > 0)] == static_cast<std::int32_t>(id))
      return "r" + std::to_string(r) + (l.dir > 0 ? "+" : "-") + dn[l.dim];
  return "link" + std::to_string(id);
}

}  // namespace ompisim::topology
