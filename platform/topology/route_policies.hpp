// Route policies: which route a flow from router a to router b takes, given the current link loads (may be null) and
// a 64-bit flow key (the caller's identifier of the flow, e.g. a hash of source node, destination node and message
// sequence number). Every policy is deterministic: same topology, routers, loads and key, same route.
// Sources: dimension order: Alverson et al., HOTI 2010 (Gemini); up/down adaptive: Petrini & Vanneschi, IPPS 1997
// (any up port is minimal in a k-ary n-tree) with d-mod-k ties (Gomez et al. 2007, Zahavi 2010); Valiant and UGAL:
// Kim, Dally, Scott, Abts, ISCA 2008 §4 and SST merlin topo_dragonfly (algorithms "valiant", "ugal", and
// route_adaptive_local for a packet that stays in its group).
// LIMITATIONS: routes are chosen once, when the flow starts (source routing; SimGrid calls get_local_route at
// communication start: simgrid-3.32-notes.md §6), not hop by hop as routers do; a LinkLoad sees every link of the
// network, which a router does not (see ugal_route for what this changes).
#pragma once
#include "platform/topology/topology.hpp"

#include <cstdint>

namespace ompisim::topology {

// splitmix64 finaliser (Steele, Lea, Flood, OOPSLA 2014): the deterministic "random" choices of the policies.
std::uint64_t mix_flow_key(std::uint64_t key);

// "dimension_order" (torus) and "minimal" (any topology): t.default_route(a, b); the load and key are ignored.
Route default_route_policy(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t key);

// "updown_adaptive" (fat_tree): up to the nearest common ancestor level taking, at each up step, the up link with the
// smallest load (ties, and a null LinkLoad: the d-mod-k port, i.e. the default route's link); then the unique down
// path. Greedy per step, as a switch choosing among its own up ports.
Route updown_adaptive_route(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t key);

// "valiant" (dragonfly): between different groups, through an intermediate group c != group(a), group(b) chosen by
// h = mix_flow_key(key): c = the (h mod (g-2))-th other group in ascending order, leaving by global slice
// (h div (g-2)) mod slices; then minimally from the landing router to b (2 global links). Within a group, or with
// fewer than 3 groups, the default (minimal) route.
Route valiant_route(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t key);

// "ugal" (dragonfly), UGAL-L style: M = the minimal candidate (among minimal_routes(a, b), the smallest
// route_load(r) * hops(r), ties to the earlier, so to default_route with no load); V = the valiant_route candidate for
// the same key. Take V if route_load(V) * hops(V) < route_load(M) * hops(M), else M (ties and a null LinkLoad:
// minimal). route_load is the most loaded link on the route. Kim et al. (UGAL-L) and merlin's "ugal" compare the
// source router's output queues (merlin: direct queue vs 2 x valiant queue + bias); here the load of the whole route
// is visible, which is closer to Kim et al.'s UGAL-G. Within a group (routers a != b), the same rule between the
// direct local link (1 hop) and the two local links through an intermediate router of the group chosen by
// h = mix_flow_key(key) (the (h mod (routers_per_group-2))-th router other than a and b, ascending): SST merlin's
// topo_dragonfly route_adaptive_local, which weighs the direct port against the port to a random intermediate router
// when a packet stays in its group. Slingshot routes packets by the load of the output ports (De Sensi et al.,
// SC20); which candidates a Rosetta switch weighs inside a group is not published, so this rule is merlin's. Under
// "minimal" every flow between two switches of a group takes their one local link.
Route ugal_route(const Topology& t, RouterId a, RouterId b, const LinkLoad* load, std::uint64_t key);

}  // namespace ompisim::topology
