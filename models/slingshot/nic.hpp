// The "cxi" NIC kind (HPE Slingshot-11: Cassini NIC, Rosetta switches): its parameters (nic and software sections of
// the machine file) and what the platform's fabric needs from it. A bulk transfer (eager payload, rendezvous Get)
// leaves the source node through its NIC's host interface (transmit direction), crosses the dragonfly links, and
// enters the destination node through the target NIC's host interface (receive direction). The two directions of a
// host interface are separate resources (PCIe is full duplex), so osu_bibw reaches twice osu_bw.
// The NIC latency includes the edge switch: two nodes on one switch, or one node talking to itself through its NIC
// (the CXI provider has no on-node path), pay nic_latency; each switch-to-switch link adds switch_port_latency.
#pragma once
#include "models/slingshot/cassini_params.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"

#include <algorithm>

namespace ompisim::slingshot {

class CassiniNic final : public NicModel {
public:
  CassiniParams p;
  SoftwareParams software;

  std::string kind() const override { return "cxi"; }
  std::vector<std::pair<std::string, ParamList>> sections() override {
    return {{"nic", param_list(p)}, {"software", param_list(software)}};
  }
  double link_rate() const { return p.link_bandwidth * p.packet_payload_efficiency; }
  double injection_bandwidth() const override { return std::min<double>(p.host_interface_bandwidth, link_rate()); }
  double nic_latency() const override { return p.nic_latency; }
  // The NIC's link and a group's local links at link_bandwidth, the global links at global_link_bandwidth (both
  // 200 Gb/s on Crusher and Frontier: every Rosetta port runs at that rate).
  NicLinks links() const override {
    NicLinks l = uniform_links({&p.link_bandwidth, &p.packet_payload_efficiency}, &p.switch_port_latency);
    l.bandwidth[topology::LinkClass::Global] = {&p.global_link_bandwidth, &p.packet_payload_efficiency};
    return l;
  }
  // injection_bandwidth() of the values, unread (NicResource::params)
  std::vector<NicResource> node_resources() const override {
    const double c = std::min(p.host_interface_bandwidth.value, p.link_bandwidth.value * p.packet_payload_efficiency.value);
    const std::vector<const Sourced*> from = {&p.host_interface_bandwidth, &p.link_bandwidth, &p.packet_payload_efficiency};
    return {{"hif-tx", c, from}, {"hif-rx", c, from}};
  }
  BulkPath bulk_path() const override { return {{{End::Src, "hif-tx"}}, {{End::Dst, "hif-rx"}}}; }
  int max_active_transfers() const override { return static_cast<int>(p.max_active_transfers.get()); }
};

inline const CassiniNic& nic(const Machine& m) { return nic_as<CassiniNic>(m.nic("cxi"), "cxi"); }
inline CassiniNic& nic(Machine& m) { return nic_as<CassiniNic>(m.nic("cxi"), "cxi"); }

}  // namespace ompisim::slingshot
