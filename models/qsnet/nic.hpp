// The "qsnet" NIC kind (Quadrics QsNetII: Elan4 QM-500 on PCI-X, Elite-4 switches in a k-ary n-tree): its parameters
// and what the platform's fabric needs from it. PCI-X is a shared bus, not a pair of directions: a node's outgoing and
// incoming DMA streams take turns on one "pcix" resource (unlike SeaStar's HyperTransport, which is full duplex). The
// node's own Elite-4 link to its switch is full duplex, one resource a direction ("link-tx", "link-rx"): the topology's
// links join switches only, so a payload leaving or entering a node crosses its PCI-X bus and its link, and neither
// rate can be passed (on the paper's nodes PCI-X is the slower: 0.912 against 1.17 GB/s of payload).
#pragma once
#include <algorithm>

#include "models/qsnet/qsnet_params.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"

namespace ompisim::qsnet {

class QsnetNic final : public NicModel {
public:
  Elan4Params p;
  SoftwareParams software;

  std::string kind() const override { return "qsnet"; }
  std::vector<std::pair<std::string, ParamList>> sections() override {
    return {{"nic", param_list(p)}, {"software", param_list(software)}};
  }
  double injection_bandwidth() const override { return std::min(p.dma_bandwidth(), p.link_bandwidth * p.link_efficiency); }
  double nic_latency() const override { return p.nic_latency; }
  NicLinks links() const override {
    return uniform_links({&p.link_bandwidth, &p.link_efficiency}, &p.switch_hop_latency);
  }
  // dma_bandwidth() and the link's payload rate of the values, unread (NicResource::params)
  std::vector<NicResource> node_resources() const override {
    const double link = p.link_bandwidth.value * p.link_efficiency.value;
    return {{"pcix", p.pcix_bandwidth.value * p.pcix_efficiency.value, {&p.pcix_bandwidth, &p.pcix_efficiency}},
            {"link-tx", link, {&p.link_bandwidth, &p.link_efficiency}},
            {"link-rx", link, {&p.link_bandwidth, &p.link_efficiency}}};
  }
  BulkPath bulk_path() const override {
    return {{{End::Src, "pcix"}, {End::Src, "link-tx"}}, {{End::Dst, "link-rx"}, {End::Dst, "pcix"}}};
  }
};

inline const QsnetNic& nic(const Machine& m) { return nic_as<QsnetNic>(m.nic("qsnet"), "qsnet"); }
// The NIC of one network of that kind (a fabric's: Fabric::network()).
inline const QsnetNic& nic(const Network& n) { return nic_as<QsnetNic>(*n.nic, "qsnet"); }
inline QsnetNic& nic(Machine& m) { return nic_as<QsnetNic>(m.nic("qsnet"), "qsnet"); }

}  // namespace ompisim::qsnet
