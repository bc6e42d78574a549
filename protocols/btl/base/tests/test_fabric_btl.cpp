// The commodity-NIC BTL (FabricBtl: btl/openib, btl/gm, btl/tcp of Open MPI 1.1): the channels of a connection.
#include "tests/test_helpers.hpp"
#include "protocols/btl/base/fabric_btl.hpp"
#include "protocols/btl/gm/btl_gm_mca.hpp"
#include "protocols/btl/openib/btl_openib_mca.hpp"
#include "protocols/btl/tcp/btl_tcp_mca.hpp"

#include <catch2/catch.hpp>

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
