// The "gemini" NIC kind (Cray XE6/XK6/XK7): its parameters (the nic and software sections of a network of this kind
// in the machine file) and what the platform's fabric needs from it. A bulk transfer is driven by the DMA engine (BTE)
// of the node that initiates it (the sender for a PUT, the receiver for a GET) and crosses the HyperTransport host
// interface of both nodes; the host interface of a node is one resource shared by its transmit and receive streams
// (README.md, "Design", BTE RDMA). On a torus the Gemini is the node's router; on a what-if topology whose nodes reach
// their router over a link (fat tree, dragonfly), that link is one Gemini X/Z link each way ("link-tx" on the sending
// node, "link-rx" on the receiving one, RouterNic), which every transfer crosses besides the route's links.
#pragma once
#include "models/gemini/gemini_params.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"

namespace ompisim::gemini {

class GeminiNic final : public RouterNic {
public:
  GeminiParams p;
  SoftwareParams software;

  std::string kind() const override { return "gemini"; }
  std::vector<std::pair<std::string, ParamList>> sections() override {
    return {{"nic", param_list(p)}, {"software", param_list(software)}};
  }
  double injection_bandwidth() const override { return p.nic_ht_capacity; }
  double nic_latency() const override { return p.nic_latency; }
  // Torus links by dimension. On other topologies (what-ifs), a link is a Gemini X/Z link (two link channels).
  NicLinks links() const override {
    using C = topology::LinkClass;
    const Sourced* eff = &p.packet_payload_efficiency;
    NicLinks l = uniform_links({&p.link_bandwidth_x, eff}, &p.router_hop_latency);
    l.bandwidth[C::Y] = {&p.link_bandwidth_y, eff};
    l.bandwidth[C::Z] = {&p.link_bandwidth_z, eff};
    return l;
  }
  std::vector<NicResource> node_resources() const override {
    std::vector<NicResource> r = {{"ht", p.nic_ht_capacity.value, {&p.nic_ht_capacity}},
                                  {"bte", p.bte_bandwidth.value, {&p.bte_bandwidth}}};
    add_node_link(r, p.link_bandwidth_x.value * p.packet_payload_efficiency.value,
                  {&p.link_bandwidth_x, &p.packet_payload_efficiency});
    return r;
  }
  BulkPath bulk_path() const override {
    return with_node_link({{{End::Initiator, "bte"}, {End::Src, "ht"}}, {{End::Dst, "ht"}}});
  }
  // FMA transfers: the host interfaces and links, no BTE.
  BulkPath pio_path() const override { return with_node_link({{{End::Src, "ht"}}, {{End::Dst, "ht"}}}); }
};

inline const GeminiNic& nic(const Machine& m) { return nic_as<GeminiNic>(m.nic("gemini"), "gemini"); }
// The NIC of one network of that kind (a fabric's: Fabric::network()).
inline const GeminiNic& nic(const Network& n) { return nic_as<GeminiNic>(*n.nic, "gemini"); }
inline GeminiNic& nic(Machine& m) { return nic_as<GeminiNic>(m.nic("gemini"), "gemini"); }

}  // namespace ompisim::gemini
