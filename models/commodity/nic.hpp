// Commodity cluster NICs of about 2006, each a NIC kind of its own (registered in models/register.cpp), sharing one
// model: a NIC on an I/O bus (PCIe or PCI-X) attached to a single crossbar switch.
//   "ib-sdr-pcie"   InfiniBand 4X SDR HCA on PCI Express (Mellanox InfiniHost III class, mVAPI / verbs)
//   "myrinet-2000"  Myrinet 2000 NIC on PCI-X (LANai, GM)
//   "gige"          gigabit Ethernet NIC (TCP/IP through the kernel)
// A fragment leaves the sending node through its NIC's host interface (the bus DMA, transmit direction), crosses the
// link, and enters the receiving node through the receiver's host interface (receive direction); the two directions
// are separate resources (both buses are full duplex), so flows from several BTLs on different NICs add up and flows
// on one NIC share it. `latency` is NIC to NIC through one switch for a small packet; `frag_overhead` is the host
// CPU's cost per fragment per side in the driver/user library (GM's or VAPI's post and poll, the kernel's TCP path).
// Values: the machine file (models/commodity/machines/*.json), each with its source (hardware-sources.md §5).
// LIMITATIONS: one switch (flat topology: no link contention between node pairs); no credit or token flow control
// in the NIC; no memory-registration cost (Fig. 2 uses MPI_Alloc_mem buffers, registered once).
#pragma once
#include "core/params.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"

#include <algorithm>
#include <string>

namespace ompisim::commodity {

struct CommodityNicParams {
  Sourced latency;           // NIC to NIC small packet, one switch
  Sourced host_bandwidth;    // bus DMA rate per direction as the NIC reaches it (payload)
  Sourced link_bandwidth;    // link payload rate per direction
  Sourced frag_overhead;     // host CPU per fragment per side (user library / driver / kernel stack)

  template <class V>
  void visit(V&& v) {
    v(latency, {"latency", Dim::Time, "NIC to NIC small-packet latency through one switch", 0, 1e-3});
    v(host_bandwidth, {"host_bandwidth", Dim::Rate, "host interface (I/O bus DMA) payload rate per direction", 1e6, 1e12});
    v(link_bandwidth, {"link_bandwidth", Dim::Rate, "link payload rate per direction", 1e6, 1e12});
    v(frag_overhead, {"frag_overhead", Dim::Time, "host CPU cost per fragment per side in the NIC's library/driver", 0, 1e-3});
  }
};

// The host's per-message MPI software cost on this machine (the stack reads it with Machine::software_cost; two
// networks of one machine give the same value).
struct CommoditySoftware {
  Sourced pml_ob1_overhead;
  template <class V>
  void visit(V&& v) {
    v(pml_ob1_overhead, {"pml_ob1_overhead", Dim::Time, "pml/ob1 software cost per message per side", 0, 1e-3});
  }
};

class CommodityNic final : public NicModel {
public:
  explicit CommodityNic(std::string kind) : kind_(std::move(kind)) {}
  CommodityNicParams p;
  CommoditySoftware software;

  std::string kind() const override { return kind_; }
  std::vector<std::pair<std::string, ParamList>> sections() override { return {{"nic", param_list(p)}, {"software", param_list(software)}};
  }
  double injection_bandwidth() const override { return std::min<double>(p.host_bandwidth, p.link_bandwidth); }
  double nic_latency() const override { return p.latency; }
  NicLinks links() const override { return uniform_links({&p.link_bandwidth}, nullptr); }
  // injection_bandwidth() of the values, unread (NicResource::params)
  std::vector<NicResource> node_resources() const override {
    const double c = std::min(p.host_bandwidth.value, p.link_bandwidth.value);
    return {{"hif-tx", c, {&p.host_bandwidth, &p.link_bandwidth}}, {"hif-rx", c, {&p.host_bandwidth, &p.link_bandwidth}}};
  }
  BulkPath bulk_path() const override { return {{{End::Src, "hif-tx"}}, {{End::Dst, "hif-rx"}}}; }

private:
  std::string kind_;
};

}  // namespace ompisim::commodity
