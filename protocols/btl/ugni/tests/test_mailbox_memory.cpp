// Tests of the mailbox-memory what-if (protocols/btl/ugni/mailbox_memory.hpp): per-peer SMSG mailboxes vs MSGQ queues.
#include "benchmarks/benchmarks.hpp"
#include "protocols/btl/ugni/mailbox_memory.hpp"
#include "protocols/register.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using namespace ompisim::btl::ugni;

// Configuration: msg_maxsize 256 B, 32 credits (the automatic limit above 16k ranks, btl_ugni_smsg_max_credits default); and
// msg_maxsize 1000 B, 4 credits (not a multiple of 64).
// Expected, by hand: slot = align64(256 + 16) = 320; mailbox = align64(32 x 320 + 64) = 10304.
//                    slot = align64(1000 + 16) = 1024; mailbox = align64(4 x 1024 + 64) = 4160.
// How validated: exact integers.
TEST_CASE("mailbox memory: one SMSG mailbox, formula by hand", "[unit][gemini][mailbox]") {
  CHECK(smsg_mailbox_bytes(256, 32) == 10304);
  CHECK(smsg_mailbox_bytes(1000, 4) == 4160);
  CHECK(smsg_mailbox_bytes(8192, 32) == 32 * (8192 + 64) + 64);
  CHECK(smsg_mailbox_bytes(256, 32) % kOmpiMboxAlignBytes == 0);
  CHECK_THROWS_AS(smsg_mailbox_bytes(0, 32), std::invalid_argument);
  CHECK_THROWS_AS(smsg_mailbox_bytes(256, 0), std::invalid_argument);
}

// Configuration: 8 ranks, 2 per node, 4 nodes; msg_maxsize 1000 B, 4 credits; 10 connected endpoints; MSGQ queues of
// 8 messages. Expected, by hand: mailbox 4160 B; a rank has 6 off-node peers, so all-peers = 2 x 6 x 4160 = 49920 B
// per node; connected = 10 x 4160 / 4 = 10400 B per node (20800 if every connection were one-way); MSGQ queue =
// align64(8 x 1024 + 64) = 8256 B, 3 remote nodes -> 24768 B per node. Allocation: 8 mailboxes fit in 2 MiB, so a
// rank's block is all 8 (33280 B); a mean of ceil(10/8) = 2 mailboxes per rank -> one block -> 2 x 33280 per node.
// How validated: exact values.
TEST_CASE("mailbox memory: a small job by hand", "[unit][gemini][mailbox]") {
  MailboxMemory m = mailbox_memory({8, 2, 4}, 1000, 4, 10, 8);
  CHECK(m.mailbox_bytes == 4160);
  CHECK(m.off_node_peers == 6);
  CHECK(m.smsg_all_peers == 49920);
  CHECK(m.smsg_connected == Approx(10400.0));
  CHECK(m.smsg_connected_max == Approx(20800.0));
  CHECK(m.msgq_queue_bytes == 8256);
  CHECK(m.msgq_per_node == 24768);
  CHECK(mailboxes_per_block(8, 4160) == 8);
  CHECK(m.smsg_connected_allocated == Approx(2.0 * 8 * 4160));
  CHECK_THROWS_AS(mailbox_memory({9, 2, 4}, 1000, 4, 0, 4), std::invalid_argument);  // 9 ranks on 4 x 2 slots
  CHECK_THROWS_AS(mailbox_memory({8, 0, 4}, 1000, 4, 0, 4), std::invalid_argument);
}

// Configuration: Open MPI 1.7's block rule with 10304-byte mailboxes. Expected: 2 MiB / 10304 = 203 mailboxes per
// block when nprocs of them exceed 2 MiB, all nprocs otherwise; a rank with 1 mailbox allocates a whole block, with
// 204 two blocks; never more than nprocs. How validated: exact values.
TEST_CASE("mailbox memory: Open MPI allocates mailboxes in blocks of at most 2 MiB", "[unit][gemini][mailbox]") {
  CHECK(mailboxes_per_block(299008, 10304) == 203);
  CHECK(mailboxes_per_block(100, 10304) == 100);
  CHECK(smsg_allocated_bytes(0, 299008, 10304) == 0);
  CHECK(smsg_allocated_bytes(1, 299008, 10304) == 203u * 10304u);
  CHECK(smsg_allocated_bytes(204, 299008, 10304) == 406u * 10304u);
  CHECK(smsg_allocated_bytes(250, 300, 10304) == 300u * 10304u);  // capped at nprocs
  CHECK(smsg_allocated_bytes(203, 299008, 10304) <= kOmpiMboxBlockBytes);
}

// Configuration: 16 ranks per node, 2..4096 nodes, same limit and credits throughout (limit fixed at 256 so the automatic rule
// does not change the slot). Expected: SMSG all-peers per node is (ranks per node) x (off-node ranks) x mailbox, so
// it is linear in the number of peers (the ratio to the peer count is constant); MSGQ per node is (nodes - 1) x
// queue whatever the ranks per node (16 per node and 1 per node give the same MSGQ memory on the same nodes).
// How validated: exact ratios.
TEST_CASE("mailbox memory: SMSG grows with peers, MSGQ with nodes only", "[unit][gemini][mailbox]") {
  const std::uint64_t mb = smsg_mailbox_bytes(256, 32);
  for (long long nodes : {2LL, 16LL, 1024LL, 4096LL}) {
    MailboxMemory m16 = mailbox_memory({nodes * 16, 16, nodes}, 256, 32, 0, 32);
    MailboxMemory m1 = mailbox_memory({nodes, 1, nodes}, 256, 32, 0, 32);
    INFO("nodes = " << nodes);
    CHECK(m16.off_node_peers == nodes * 16 - 16);
    CHECK(m16.smsg_all_peers == 16u * static_cast<std::uint64_t>(m16.off_node_peers) * mb);
    CHECK(m16.smsg_all_peers / static_cast<std::uint64_t>(m16.off_node_peers) == 16u * mb);  // linear in peers
    CHECK(m16.msgq_per_node == static_cast<std::uint64_t>(nodes - 1) * mb);
    CHECK(m1.msgq_per_node == m16.msgq_per_node);  // per node pair, not per rank pair
    CHECK(m16.smsg_all_peers == 16u * 16u * m1.smsg_all_peers);
  }
  // Doubling the peers doubles SMSG per node (up to the node's own ranks) but MSGQ only follows the node count.
  MailboxMemory a = mailbox_memory({1024 * 16, 16, 1024}, 256, 32, 0, 32);
  MailboxMemory b = mailbox_memory({2048 * 16, 16, 2048}, 256, 32, 0, 32);
  CHECK(static_cast<double>(b.smsg_all_peers) / static_cast<double>(a.smsg_all_peers) ==
        Approx((2048.0 * 16 - 16) / (1024.0 * 16 - 16)));
  CHECK(static_cast<double>(b.msgq_per_node) / static_cast<double>(a.msgq_per_node) == Approx(2047.0 / 1023.0));
}

// Configuration: MCA defaults (btl_ugni_smsg_limit = 0: the automatic rule of the btl/ugni revision the model follows,
// Open MPI trunk r26242), 16,384 and 16,385 ranks; then the override. Expected: 1024 B up to 1,024 ranks, 512 B up to
// 16,384 and 256 B above, and the per-peer mailbox shrinks with it (10304 B vs 18496 B); btl_ugni_smsg_limit, when
// set, wins. How validated: exact values.
TEST_CASE("mailbox memory: the automatic 256 B above 16k ranks shrinks the per-peer mailbox", "[unit][gemini][mailbox]") {
  UgniMca mca;
  CHECK(effective_smsg_limit(mca, 2) == 1024);
  CHECK(effective_smsg_limit(mca, 1024) == 1024);
  CHECK(effective_smsg_limit(mca, 1025) == 512);
  CHECK(effective_smsg_limit(mca, 16384) == 512);
  CHECK(effective_smsg_limit(mca, 16385) == 256);
  CHECK(effective_smsg_limit(mca, 299008) == 256);
  const auto cr = static_cast<std::uint64_t>(mca.btl_ugni_smsg_max_credits.value);
  MailboxMemory below = mailbox_memory({16384, 16, 1024}, effective_smsg_limit(mca, 16384), cr, 0, cr);
  MailboxMemory above = mailbox_memory({16400, 16, 1025}, effective_smsg_limit(mca, 16400), cr, 0, cr);
  CHECK(below.mailbox_bytes == 18496);
  CHECK(above.mailbox_bytes == 10304);
  CHECK(above.mailbox_bytes < below.mailbox_bytes);
  CHECK(above.smsg_all_peers < below.smsg_all_peers);  // one more peer, yet less memory
  mca.btl_ugni_smsg_limit.value = 1024;
  CHECK(effective_smsg_limit(mca, 299008) == 1024);
}

// Configuration: Cielo's MCA defaults with btl_ugni_smsg_limit 16384 above btl_ugni_eager_limit, then 0 (auto) on 2
// ranks. Expected: the largest message SMSG carries is the eager limit when the SMSG limit is above it, and the SMSG
// limit otherwise; the value btl/ugni registers as "btl_ugni_smsg_limit (effective)" (shown by describe, written to a
// run's provenance) is that same value, while the mailboxes stay sized by the SMSG limit. How validated: exact values
// through the component registry.
TEST_CASE("btl/ugni's effective SMSG limit is capped by the eager limit in describe and provenance alike",
          "[unit][gemini][mailbox]") {
  McaParams m = machine_mca(*load_machine("cielo"));
  UgniMca& mca = m.get<UgniMca>();
  const auto eager = static_cast<std::uint64_t>(mca.btl_ugni_eager_limit.value);
  const ComponentInfo* c = component_registry().find("btl", "ugni");
  REQUIRE(c != nullptr);
  REQUIRE(c->effective.size() == 2);  // the SMSG limit first, then the eager-get pools' first allocation
  REQUIRE(c->effective[0].name == "btl_ugni_smsg_limit");
  mca.btl_ugni_smsg_limit.value = 16384;
  REQUIRE(eager < 16384);
  CHECK(effective_smsg_limit(mca, 2) == 16384);  // the mailbox's msg_maxsize
  CHECK(smsg_payload_limit(mca, 2) == eager);
  CHECK(c->effective[0].value(m, 2) == static_cast<double>(eager));
  mca.btl_ugni_smsg_limit.value = 0;
  CHECK(smsg_payload_limit(mca, 2) == std::min<std::uint64_t>(1024, eager));
  CHECK(c->effective[0].value(m, 2) == static_cast<double>(smsg_payload_limit(mca, 2)));
  // btl_ugni_eager_num above btl_ugni_eager_max: the pools start at the maximum (Open MPI's free lists cap it).
  REQUIRE(c->effective[1].name == "btl_ugni_eager_num");
  mca.btl_ugni_eager_num.value = 128;
  CHECK(c->effective[1].value(m, 2) == mca.btl_ugni_eager_max.value);
  mca.btl_ugni_eager_num.value = 16;
  CHECK(c->effective[1].value(m, 2) == 16);
}

// Configuration: simulated barriers on the openmpi stack (Cielo, DES engine): cheetah-p2p and recursive doubling on
// 64 ranks at 1 per node, bruck on 48 ranks at 4 per node. Expected: the endpoints the run created give a connected
// mailbox memory no larger than all-peers (two-way or one-way count), and positive. How validated: inequality on the
// model fed with the stack's "ugni_endpoints" counter.
TEST_CASE("mailbox memory: connected endpoints never exceed all peers", "[gemini][mailbox]") {
  struct Case {
    const char* algo;
    int ranks, rpn;
  };
  for (Case c : {Case{"cheetah-p2p", 64, 1}, Case{"recursive_doubling", 64, 1}, Case{"bruck", 48, 4}}) {
    test::Fixture f("cielo", c.ranks, c.rpn, "openmpi");
    bench::BarrierConfig bc;
    bc.algorithm = c.algo;
    bc.iterations = 2;
    bc.skip = 0;
    bench::run_barrier(*f.world, *f.stack, bc, "test");
    auto st = f.stack->stats();
    const std::uint64_t eps = st.counters.at("ugni_endpoints");
    const auto& pl = f.world->contexts().placement();
    const std::uint64_t lim = effective_smsg_limit(f.mca_.get<UgniMca>(), c.ranks);
    MailboxMemory m = mailbox_memory({c.ranks, pl.ranks_per_node, pl.node_count()}, lim, 32, eps, 32);
    INFO(c.algo << " endpoints = " << eps);
    CHECK(eps > 0);
    CHECK(m.smsg_connected > 0);
    CHECK(m.smsg_connected <= static_cast<double>(m.smsg_all_peers));
    CHECK(m.smsg_connected_max <= static_cast<double>(m.smsg_all_peers));
  }
}
