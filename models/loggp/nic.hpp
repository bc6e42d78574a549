// The "loggp" NIC kind: the LogGOPS reference machine's network (flat, no routers). A small message takes
// L + (s-1)G on the wire (the first byte is in L); bulk data leaves through the sender's transmit side and enters
// through the receiver's receive side, each a resource of rate 1/G: LogGP's G and g are per processor and per
// direction (Alexandrov et al., SPAA 1995; LogGOPSim's nextgs / nextgr, Hoefler et al., HPDC 2010), so a node's
// sends and receives do not share one resource.
#pragma once
#include "models/loggp/loggp_params.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"

#include <algorithm>

namespace ompisim::loggp {

class LogGPNic final : public NicModel {
public:
  LogGPParams p;

  std::string kind() const override { return "loggp"; }
  std::vector<std::pair<std::string, ParamList>> sections() override { return {{"nic", param_list(p)}}; }
  double injection_bandwidth() const override { return p.G_bandwidth; }
  double nic_latency() const override { return p.L; }
  // A flat network has no router links; on another topology a link runs at 1/G with no hop latency.
  NicLinks links() const override { return uniform_links({&p.G_bandwidth}, nullptr); }
  double wire_time(const PathCost&, double bytes) const override {
    return p.L + std::max(0.0, bytes - 1) / p.G_bandwidth;
  }
  std::vector<NicResource> node_resources() const override {
    return {{"nic-tx", p.G_bandwidth.value, {&p.G_bandwidth}}, {"nic-rx", p.G_bandwidth.value, {&p.G_bandwidth}}};
  }
  BulkPath bulk_path() const override { return {{{End::Src, "nic-tx"}}, {{End::Dst, "nic-rx"}}}; }
};

inline const LogGPNic& nic(const Machine& m) { return nic_as<LogGPNic>(m.nic("loggp"), "loggp"); }
inline LogGPNic& nic(Machine& m) { return nic_as<LogGPNic>(m.nic("loggp"), "loggp"); }

}  // namespace ompisim::loggp
