// The "seastar" NIC kind (Cray XT3/XT4, Portals 3.3 firmware on an embedded PowerPC): its parameters and what the
// platform's fabric needs from it. Payload moves by HyperTransport DMA out of the source node (its transmit
// direction), over the torus links, and into the target node (its receive direction); the two HT directions are
// separate resources. On a what-if topology whose nodes reach their router over a link (a fat tree, a dragonfly), that
// link is one SeaStar link each way (RouterNic).
#pragma once
#include "models/seastar/seastar_params.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"

namespace ompisim::seastar {

class SeaStarNic final : public RouterNic {
public:
  SeaStarParams p;
  SoftwareParams software;

  std::string kind() const override { return "seastar"; }
  std::vector<std::pair<std::string, ParamList>> sections() override {
    return {{"nic", param_list(p)}, {"software", param_list(software)}};
  }
  double injection_bandwidth() const override { return p.ht_bandwidth; }
  double nic_latency() const override { return p.nic_latency; }
  // Every link class runs at the SeaStar link rate.
  NicLinks links() const override {
    return uniform_links({&p.link_bandwidth, &p.packet_payload_efficiency}, &p.router_hop_latency);
  }
  std::vector<NicResource> node_resources() const override {
    std::vector<NicResource> r = {{"ht-tx", p.ht_bandwidth.value, {&p.ht_bandwidth}},
                                  {"ht-rx", p.ht_bandwidth.value, {&p.ht_bandwidth}}};
    add_node_link(r, p.link_bandwidth.value * p.packet_payload_efficiency.value,
                  {&p.link_bandwidth, &p.packet_payload_efficiency});
    return r;
  }
  BulkPath bulk_path() const override { return with_node_link({{{End::Src, "ht-tx"}}, {{End::Dst, "ht-rx"}}}); }
};

inline const SeaStarNic& nic(const Machine& m) { return nic_as<SeaStarNic>(m.nic("seastar"), "seastar"); }
// The NIC of one network of that kind (a fabric's: Fabric::network()).
inline const SeaStarNic& nic(const Network& n) { return nic_as<SeaStarNic>(*n.nic, "seastar"); }
inline SeaStarNic& nic(Machine& m) { return nic_as<SeaStarNic>(m.nic("seastar"), "seastar"); }

}  // namespace ompisim::seastar
