// Network topologies behind one interface: routers joined by directed links, nodes attached to routers, a closed-form
// minimal hop count, a deterministic minimal route, candidate minimal routes for adaptive policies, and a Valiant
// (through an intermediate router) route. Every shape is also held as a Boost.Graph (one edge per link direction) so
// that tests can check routes and hop counts against a BFS.
// Sources: the shapes cite their papers in their own headers (torus.hpp: Alverson et al., HOTI 2010; fat_tree.hpp:
// Petrini & Vanneschi, IPPS 1997; dragonfly.hpp: Kim, Dally, Scott, Abts, ISCA 2008); the layout follows SimGrid's
// routing zones (one class per shape, a factory that validates its shape) and SST merlin's topology components.
// LIMITATIONS:
//  - Routes are lists of router-to-router links. The link from a node to its router (injection/ejection) is not a
//    link here: it is the NIC's resource (models/<nic>/). min_hops() therefore counts switch-to-switch links only.
//  - Routing is only defined between "endpoint routers", those that nodes attach to: [0, endpoint_routers()).
//    (All routers of a torus or dragonfly; only the leaf switches of a fat tree.)
//  - Routers have no internal model (no crossbar contention, no virtual channels, no deadlock avoidance); every link
//    has latency = hop_latency, the per-hop router latency of the NIC kind.
//  - Link bandwidth and latency come from LinkParams (the NIC kind's parameters in the machine file); a link class
//    missing from LinkParams::bandwidth gets bandwidth 0 ("not set yet"); link_classes() lists the classes a shape
//    uses, so the caller can check that every one is set.
#pragma once
#include <boost/graph/adjacency_list.hpp>
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ompisim::topology {

// Default key path under which shape factories report keys ("topology.dims"); a machine file's network passes its own
// ("networks.gemini.topology").
inline constexpr const char* kShapePath = "topology";
// The inline namespace keeps these symbols apart from models/topology/ (which also defines topology::Torus and
// topology::LinkProps) while both are linked into the same library. Callers write topology::Torus as usual. Remove it
// when models/topology/ is deleted.

using RouterId = int;
using LinkId = std::uint32_t;
using Route = std::vector<LinkId>;  // links from the source router to the destination router, in order

enum class LinkClass : std::uint8_t { X, Y, Z, Up, Down, Local, Global };
inline constexpr std::size_t kLinkClassCount = 7;
const char* to_string(LinkClass c);  // "X", "Y", "Z", "up", "down", "local", "global"
std::optional<LinkClass> link_class_from_string(const std::string& s);

struct LinkProps {
  RouterId from = -1, to = -1;
  LinkClass cls = LinkClass::Local;
  int dim = -1;    // torus: 0 = X, 1 = Y, 2 = Z; fat tree: the port index (0..k-1) at the link's source switch
  int dir = 0;     // torus: +1 / -1; fat tree: +1 up, -1 down; otherwise 0
  int level = -1;  // fat tree: level of the lower switch of the link (0 = leaf); otherwise -1
  double bandwidth = 0;  // bytes/s
  double latency = 0;    // s (per-hop router latency)
  LinkId id = 0;         // dense index, 0..link_count()-1
};

// Bandwidth per link class and the per-hop latency, from the NIC kind's parameters (the machine file), never from the
// shape. A class absent from `bandwidth` is "not set" (bandwidth 0).
struct LinkParams {
  std::map<LinkClass, double> bandwidth;
  double hop_latency = 0;  // per-hop router latency, s
};

// What an adaptive route policy may ask about current traffic, e.g. the number of flows routed over a link and not yet
// finished (SimGrid's Link::get_usage() misses flows in their latency phase: simgrid-3.32-notes.md §6).
class LinkLoad {
public:
  virtual ~LinkLoad() = default;
  virtual double load(LinkId) const = 0;
};

// The load of a route: the load of its most loaded link (0 for an empty route or a null LinkLoad).
double route_load(const Route& r, const LinkLoad* load);

struct LinkRef {
  LinkId id = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, LinkRef>;

class Topology {
public:
  virtual ~Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  virtual std::string kind() const = 0;  // "torus", "fat_tree", "dragonfly", "flat"
  // A node sits on its router (a torus of Gemini or SeaStar chips, the router being the node's NIC); elsewhere a node
  // reaches its router over a link of its own, which a NIC kind that is itself a router adds (NicModel::attach).
  virtual bool router_on_node() const { return false; }
  virtual long long node_slots() const = 0;  // how many nodes it can attach
  long long compute_nodes() const { return compute_nodes_; }  // nodes in use (<= node_slots()), numbered from 0
  virtual RouterId router_of_node(long long node) const = 0;
  virtual int routers() const = 0;
  // Routers [0, endpoint_routers()) carry nodes; routes are defined between them only.
  virtual int endpoint_routers() const { return routers(); }

  std::size_t link_count() const { return links_.size(); }
  const LinkProps& link(LinkId id) const { return links_.at(id); }
  // link(id).bandwidth and .latency read from a byte per link and a table per class (every link of a class has its
  // class's bandwidth and the hop latency), so a route's cost reads no LinkProps. `id` must be a link of this topology.
  double link_bandwidth(LinkId id) const { return class_bandwidth_[link_cls_[id]]; }
  double link_latency(LinkId) const { return params_.hop_latency; }
  LinkClass link_class(LinkId id) const { return static_cast<LinkClass>(link_cls_[id]); }
  virtual std::string link_name(LinkId id) const;  // default "r<from>-><to>:<class>"
  std::vector<LinkClass> link_classes() const;     // classes used by at least one link, ascending

  // Closed-form minimal hop count (router-to-router links; see LIMITATIONS).
  virtual int min_hops(RouterId a, RouterId b) const = 0;
  // The deterministic minimal route; its length is min_hops(a, b). Empty when a == b.
  virtual Route default_route(RouterId a, RouterId b) const = 0;
  // At most `max` candidate minimal routes, default_route(a, b) first, each distinct; always at least one.
  virtual std::vector<Route> minimal_routes(RouterId a, RouterId b, std::size_t max) const = 0;
  // A non-minimal route through router `via`: default_route(a, via) followed by default_route(via, b).
  virtual Route route_via(RouterId a, RouterId via, RouterId b) const;

  // Rebuild every link's bandwidth and latency (e.g. after --set overrides); the shape and link ids do not change.
  virtual void set_link_params(const LinkParams& p);
  const LinkParams& link_params() const { return params_; }
  // The shape, for provenance: {"kind": ..., shape keys..., "routers": ..., "links": ..., "node_slots": ...}.
  virtual nlohmann::json describe() const = 0;

  const Graph& graph() const { return g_; }

protected:
  explicit Topology(int routers) : g_(static_cast<std::size_t>(routers)) {}
  LinkId add_link(LinkProps p);  // sets p.id, bandwidth and latency from params_; adds the graph edge
  void check_endpoint(RouterId r, const char* what) const;  // throws std::out_of_range
  void set_compute_nodes(long long n);                        // throws std::invalid_argument when > node_slots()
  nlohmann::json describe_common() const;                      // routers, links, node_slots, compute_nodes

  LinkParams params_;

private:
  void set_class_bandwidth();  // class_bandwidth_ from params_
  Graph g_;
  std::vector<LinkProps> links_;
  std::vector<std::uint8_t> link_cls_;                      // links_[id].cls
  std::array<double, kLinkClassCount> class_bandwidth_{};  // params_.bandwidth by class (0 when not set)
  long long compute_nodes_ = 0;
};

}  // namespace ompisim::topology
