// The commodity-NIC BTL (FabricBtl: btl/openib, btl/gm, btl/tcp of Open MPI 1.1): the channels of a connection.
#include "tests/test_helpers.hpp"
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"
#include "protocols/btl/tcp/btl_tcp_mca.hpp"
#include "protocols/register.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

using namespace ompisim;

namespace {
// Sends four 60 KiB RDMA PUT fragments (no PRIORITY flag, no copy in) from rank 0 to rank 1, then at once a 40-byte
// control message with `ctl_flags` (and, when `ctl_data` > 0, that many data bytes). Returns the order in which the
// five arrived at rank 1 (0-3 the data fragments, 4 the control message).
std::vector<int> arrival_order(btl::Connection conn, std::uint8_t ctl_flags, std::uint64_t ctl_data) {
  test::Fixture f("lanl-multi-nic", 2, 1);
  Fabric& fabric = f.world->fabric(btl::FabricBtl::network_of(*f.machine, "openib", "ib-sdr-pcie"));
  btl::FabricBtl ib(f.world->contexts(), f.world->cpus(), fabric, "openib", btl::openib::OpenibMca{}.caps(), conn);
  std::vector<int> order;
  ib.register_tag(btl::kTagPml + 1, [&](const btl::Descriptor& d) { order.push_back(static_cast<int>(d.cookie)); });
  for (int i = 0; i < 5; ++i) {
    btl::Descriptor d;
    d.tag = btl::kTagPml + 1;
    d.src = 0, d.dst = 1;
    d.hdr.len = 40;
    d.cookie = static_cast<std::uint64_t>(i);
    if (i < 4) {
      d.flags = btl::desc_flag::Put;
      d.data = btl::DataSegment{static_cast<std::uint64_t>(i) * 61440, 61440, Buffer{1 << 20, true}};
    } else {
      d.flags = ctl_flags;
      d.data = btl::DataSegment{0, ctl_data, Buffer{1 << 24, true}};
    }
    ib.send(d, nullptr);
  }
  f.sim.run();
  return order;
}
}  // namespace

// Configuration: lanl-multi-nic, 2 ranks on 2 nodes, btl/openib (mVAPI defaults: 12 KiB eager limit); four 60 KiB
// RDMA PUT fragments to the peer, then a PRIORITY control message of 40 bytes. Expected: with the connection of
// btl/mvapi (a high-priority QP beside the low-priority one: Open MPI v1.1 btl_mvapi_endpoint.c
// mca_btl_mvapi_endpoint_post_send) the control message goes on the high-priority channel and arrives first, while the
// first data fragment is still on the wire; with one FIFO (btl/tcp's socket) it arrives last, behind all four. A
// PRIORITY descriptor that does not fit an eager fragment (16 KiB of data, copied in first) goes on the low-priority QP
// and arrives last; a control message without the flag too. btl/openib and btl/gm declare the priority channel,
// btl/tcp does not. How validated: by hand from the v1.1 sources named in fabric_btl.hpp.
TEST_CASE("btl fabric: PRIORITY eager fragments pass queued data on a priority channel", "[unit][protocol][btl]") {
  using btl::Connection;
  const std::vector<int> fifo{0, 1, 2, 3, 4};
  const auto prio = arrival_order(Connection::PriorityChannel, btl::desc_flag::Priority, 0);
  CHECK(prio.front() == 4);
  CHECK(prio == std::vector<int>{4, 0, 1, 2, 3});
  CHECK(arrival_order(Connection::SingleFifo, btl::desc_flag::Priority, 0) == fifo);
  CHECK(arrival_order(Connection::PriorityChannel, btl::desc_flag::Priority, 16384) == fifo);
  CHECK(arrival_order(Connection::PriorityChannel, 0, 0) == fifo);
  CHECK(btl::openib::OpenibMca::kComponent.connection == Connection::PriorityChannel);
  CHECK(btl::gm::GmMca::kComponent.connection == Connection::PriorityChannel);
  CHECK(btl::tcp::TcpMca::kComponent.connection == Connection::SingleFifo);
}

// Configuration: 2 ranks on 2 nodes. btl/openib on lanl-multi-nic (12 KiB eager limit, two channels): four 60 KiB
// RDMA PUT data fragments, a 40-byte PRIORITY control message, one 1 MiB RDMA write and one 256 KiB RDMA read.
// btl/tcp on hetero-cpu (64 KiB eager limit, one FIFO, no RDMA): four 60 KiB fragments copied in, the same control
// message. Expected, under the BTL's own names: 5 fragments each; openib: 4 above the eager limit, none copied in,
// 4 x 60 KiB + 1 MiB data bytes, 1 put, 1 get of 256 KiB, the control message on the high-priority channel, 3 data
// fragments and the write waiting behind the first fragment on the low-priority channel (4 waits); tcp: none above
// the eager limit, 4 copied in, 4 x 60 KiB, no RDMA, no priority channel, all but the first to reach the socket
// waiting (4). Every counter is one the component's registry entry declares, and it reports each; no send fragment or
// RDMA record is left. How validated: by hand from fabric_btl.cpp.
TEST_CASE("btl fabric: counts its declared statistics under the BTL's name", "[unit][protocol][btl]") {
  for (const char* name : {"openib", "tcp"}) {
    const bool ib = std::string(name) == "openib";
    test::Fixture f(ib ? "lanl-multi-nic" : "hetero-cpu", 2, 1);
    Fabric& fabric = f.world->fabric(btl::FabricBtl::network_of(*f.machine, name, ib ? "ib-sdr-pcie" : "gige"));
    const btl::BtlCaps caps = ib ? btl::openib::OpenibMca{}.caps() : btl::tcp::TcpMca{}.caps();
    btl::FabricBtl b(f.world->contexts(), f.world->cpus(), fabric, name, caps,
                     ib ? btl::openib::OpenibMca::kComponent.connection : btl::tcp::TcpMca::kComponent.connection);
    int arrived = 0, done = 0;
    b.register_tag(btl::kTagPml + 1, [&](const btl::Descriptor&) { ++arrived; });
    for (int i = 0; i < 5; ++i) {
      btl::Descriptor d;
      d.tag = btl::kTagPml + 1;
      d.src = 0, d.dst = 1;
      d.hdr.len = 40;
      d.flags = i == 4 ? btl::desc_flag::Priority : ib ? btl::desc_flag::Put : std::uint8_t{0};
      if (i < 4) d.data = btl::DataSegment{static_cast<std::uint64_t>(i) * 61440, 61440, Buffer{1 << 20, true}};
      b.send(d, nullptr);
    }
    if (ib) {
      b.put(0, 1, 1 << 20, Buffer{1 << 22, true}, Buffer{1 << 24, true}, [&] { ++done; });
      b.get(1, 0, 1 << 18, Buffer{1 << 26, true}, Buffer{1 << 22, true}, [&] { ++done; });
    }
    f.sim.run();
    REQUIRE(arrived == 5);
    REQUIRE(done == (ib ? 2 : 0));
    CHECK(b.frags_in_flight() == 0);  // every send fragment and RDMA record freed
    using btl::FabricStat;
    CHECK(b.count(FabricStat::Frags) == 5);
    CHECK(b.count(FabricStat::LargeFrags) == (ib ? 4 : 0));
    CHECK(b.count(FabricStat::CopiedFrags) == (ib ? 0 : 4));
    CHECK(b.count(FabricStat::Bytes) == 4 * 61440 + (ib ? 1 << 20 : 0));
    CHECK(b.count(FabricStat::Puts) == (ib ? 1 : 0));
    CHECK(b.count(FabricStat::Gets) == (ib ? 1 : 0));
    CHECK(b.count(FabricStat::GetBytes) == (ib ? 1 << 18 : 0));
    CHECK(b.count(FabricStat::PriorityFrags) == (ib ? 1 : 0));
    CHECK(b.count(FabricStat::ChannelWaits) == 4);
    std::map<std::string, std::uint64_t> counters;
    b.add_counters(counters);
    CHECK(counters.at(std::string(name) + "_frags") == 5);
    const ComponentInfo* c = component_registry().find("btl", name);
    REQUIRE(c);
    REQUIRE(c->statistics.size() == btl::kFabricBtlStatistics.size());
    for (const StatisticInfo& s : c->statistics) CHECK(counters.count(s.name) == 1);
    CHECK(counters.size() == c->statistics.size());
  }
}
