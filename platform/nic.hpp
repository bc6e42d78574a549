// NIC kinds: what the platform needs from a network interface family, declared once per kind in models/<nic>/ and
// looked up by name in a registry (no family string tested in shared code). Each network of a machine file names its
// NIC kind in "networks": {"<net>": {"nic": {"kind": "gemini", ...}}}; the kind reads its parameter sections (of that
// network: "networks.<net>.nic", "networks.<net>.software"), prices the wire for small packets, and says
// which node-side resources a bulk transfer crosses at each end, so that the platform's fabric can build flow paths
// for any kind the same way.
#pragma once
#include "core/params.hpp"
#include "core/registry.hpp"
#include "platform/topology/topology.hpp"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ompisim {

// One-way cost of a path between two nodes: latency of a small packet and the slowest rate on the way.
struct PathCost {
  double latency = 0, bandwidth = 0;
  double time(double bytes) const { return latency + bytes / bandwidth; }
};

// A node-side resource a bulk transfer crosses (a host interface, a DMA engine), named per node.
struct NicResource {
  std::string name;  // "ht", "bte", "ht-tx", ...
  double capacity = 0;  // bytes/s
  // The parameters the capacity is computed from. A NIC kind's node_resources() takes their values without reading
  // them (Sourced::value): declaring the resource reads nothing, and the fabric reads them when a flow of the run
  // first crosses the resource, so a --set of one that no flow crossed is reported as changing nothing.
  std::vector<const Sourced*> params = {};
};
// The network's links as the NIC kind's router parameters give them: a link class's bandwidth is the product of its
// factors in order (a raw rate, then a payload efficiency), the per-hop router latency one parameter (none: 0).
// link_params() computes from their values without reading them (Sourced::value); the fabric reads a class's factors
// and the hop latency when a route of the run first crosses a link of that class, so a --set of a link parameter on
// a run whose messages cross no link of it (every rank on one node) is reported as changing nothing.
struct NicLinks {
  std::map<topology::LinkClass, std::vector<const Sourced*>> bandwidth;
  const Sourced* hop_latency = nullptr;
};
// Every link class with the same factors.
NicLinks uniform_links(const std::vector<const Sourced*>& factors, const Sourced* hop_latency);
// Which node's copy of a resource a bulk transfer takes: the sending node's, the receiving node's, or the node whose
// engine drives the transfer (the sender for a PUT, the receiver for a GET).
enum class End : std::uint8_t { Src, Dst, Initiator };
struct BulkPath {
  std::vector<std::pair<End, std::string>> before_route;  // resources before the network links, in order
  std::vector<std::pair<End, std::string>> after_route;
  bool initiator_dependent() const;  // a pulled transfer takes a different path than a pushed one
};

class NicModel {
public:
  virtual ~NicModel() = default;
  virtual std::string kind() const = 0;
  // Sections of its network in the machine file this kind reads ("nic" first; "software" for the per-message software
  // costs measured on this kind's machines), each with its parameter list (`param_list` of a visit()ed struct).
  virtual std::vector<std::pair<std::string, ParamList>> sections() = 0;
  virtual double injection_bandwidth() const = 0;  // host interface rate of one port
  virtual double nic_latency() const = 0;          // NIC to NIC for a small packet, excluding router hops
  // Link bandwidth per link class (torus X/Y/Z, fat-tree Up/Down, dragonfly Local/Global) and the per-hop router
  // latency: the network's links are built from the NIC kind's router parameters, whatever the topology.
  virtual NicLinks links() const = 0;
  topology::LinkParams link_params() const;  // links()' values, none of them read
  // One-way time of a small packet of `bytes` over `path` (analytic, no sharing).
  virtual double wire_time(const PathCost& path, double bytes) const { return path.time(bytes); }
  virtual std::vector<NicResource> node_resources() const = 0;
  virtual BulkPath bulk_path() const = 0;
  // The node-side resources of a transfer the host CPU drives through the NIC without its DMA engine (Gemini's FMA:
  // PIO writes for a PUT, NIC-issued reads for a GET): bulk_path() unless the kind has such a path. Its transfers do
  // not wait for a DMA engine (max_active_transfers).
  virtual BulkPath pio_path() const { return bulk_path(); }
  // Bulk transfers one port works on at once (its DMA engine: PUTs it sends, GETs it pulls); further ones wait in FIFO
  // order and start as one ends. 0: any number (every transfer becomes a flow at once).
  virtual int max_active_transfers() const { return 0; }
  // The network's topology, once built from the machine file (before node_resources and the paths are read): a kind
  // whose NIC is the router adds the link by which a node reaches its router where the topology has one
  // (Topology::router_on_node).
  virtual void attach(const topology::Topology&) {}
};

// A NIC kind that is its node's router on a torus (Gemini, SeaStar): on a topology whose nodes reach their router over
// a link of their own (Topology::router_on_node false: a what-if fat tree or dragonfly), every transfer crosses that
// link, one each way ("link-tx" on the sending node, "link-rx" on the receiving one), at the rate the kind gives it
// (add_node_link); its paths gain them by with_node_link. On a torus nothing is added.
class RouterNic : public NicModel {
public:
  void attach(const topology::Topology& t) override { node_link_ = !t.router_on_node(); }

protected:
  // The node link's two directions at `capacity` (from `params`), when the topology has it.
  void add_node_link(std::vector<NicResource>& r, double capacity, const std::vector<const Sourced*>& params) const {
    if (!node_link_) return;
    r.push_back({"link-tx", capacity, params});
    r.push_back({"link-rx", capacity, params});
  }
  // `b` with the node link after the sender's resources and before the receiver's, when the topology has it.
  BulkPath with_node_link(BulkPath b) const {
    if (node_link_) {
      b.before_route.push_back({End::Src, "link-tx"});
      b.after_route.insert(b.after_route.begin(), {End::Dst, "link-rx"});
    }
    return b;
  }

private:
  bool node_link_ = false;  // set by attach
};

struct NicKindInfo {
  std::string name, description, source;
  std::function<std::unique_ptr<NicModel>()> make;
};

class NicKindRegistry : public NamedRegistry<NicKindInfo, &NicKindInfo::make> {};

// A NIC model of a given C++ type, or a std::logic_error naming both kinds (a component built for one NIC kind was
// asked to run on another: the stack registry prevents this for user input).
template <class T>
T& nic_as(NicModel& n, const std::string& want) {
  if (auto* p = dynamic_cast<T*>(&n)) return *p;
  throw std::logic_error("NIC kind '" + n.kind() + "' is not '" + want + "'");
}
template <class T>
const T& nic_as(const NicModel& n, const std::string& want) {
  if (auto* p = dynamic_cast<const T*>(&n)) return *p;
  throw std::logic_error("NIC kind '" + n.kind() + "' is not '" + want + "'");
}

}  // namespace ompisim
