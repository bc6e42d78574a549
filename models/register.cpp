#include "models/register.hpp"

#include "models/commodity/nic.hpp"
#include "models/gemini/nic.hpp"
#include "models/loggp/nic.hpp"
#include "models/qsnet/nic.hpp"
#include "models/seastar/nic.hpp"
#include "models/slingshot/nic.hpp"

namespace ompisim::models {

void register_nic_kinds(NicKindRegistry& reg) {
  reg.add({"gemini", "Cray Gemini (XE6/XK6/XK7): uGNI SMSG, FMA/BTE RDMA, AMOs; 3-D torus router",
           "Alverson et al., HOTI 2010; Cray S-2446; models/gemini/README.md",
           [] { return std::make_unique<gemini::GeminiNic>(); }});
  reg.add({"seastar", "Cray SeaStar / SeaStar 2.1 (XT3/XT4): Portals 3.3 firmware on a PowerPC, HyperTransport DMA",
           "Brightwell et al., IEEE Micro 2006; models/seastar/README.md",
           [] { return std::make_unique<seastar::SeaStarNic>(); }});
  reg.add({"qsnet", "Quadrics QsNetII: Elan4 QM-500 (QDMA slot queues, RDMA read/write via the NIC MMU, chained events, "
                    "thread processor) on PCI-X; Elite-4 quaternary fat tree",
           "Yu, Woodall, Graham, Panda, OSU-CISRC-10/04-TR54; Beecroft et al., IEEE Micro 2005; models/qsnet/README.md",
           [] { return std::make_unique<qsnet::QsnetNic>(); }});
  reg.add({"cxi", "HPE Slingshot-11 Cassini NIC (libfabric CXI): hardware tag matching, inline commands, offloaded "
           "rendezvous Get, overflow buffers; Rosetta dragonfly switches",
           "hardware-sources.md \u00a72; fi_cxi(7); models/slingshot/README.md",
           [] { return std::make_unique<slingshot::CassiniNic>(); }});
  reg.add({"ib-sdr-pcie", "InfiniBand 4X SDR HCA on PCI Express (Mellanox InfiniHost III class, mVAPI/verbs era, 2006)",
           "hardware-sources.md \u00a75 (Liu et al., HOTI 2004); models/commodity/README.md",
           [] { return std::make_unique<commodity::CommodityNic>("ib-sdr-pcie"); }});
  reg.add({"myrinet-2000", "Myrinet 2000 NIC on PCI-X (LANai, GM), 2 Gb/s links",
           "hardware-sources.md \u00a75 (Myricom pages); models/commodity/README.md",
           [] { return std::make_unique<commodity::CommodityNic>("myrinet-2000"); }});
  reg.add({"gige", "gigabit Ethernet NIC (TCP/IP through the kernel)",
           "hardware-sources.md \u00a75 (status M/D: typical 2006 values); models/commodity/README.md",
           [] { return std::make_unique<commodity::CommodityNic>("gige"); }});
  reg.add({"loggp", "LogGOPS reference network (flat; closed-form checks)", "Hoefler et al., LogGOPSim, HPDC 2010",
           [] { return std::make_unique<loggp::LogGPNic>(); }});
}

}  // namespace ompisim::models
