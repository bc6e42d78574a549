// pml/ob1 early completion (Open MPI v1.1, v1.2 and the trunk until e361bcb64c of 2008-05-30; MCA
// pml_ob1_use_early_completion): an eager send packed into a BTL fragment by start_copy is complete at the MPI level
// when the send call returns; the fragment's completion (btl/portals: its ACK) only frees the descriptor and releases
// the request. State machine, then ob1 + btl/portals on red-storm (DES engine), then the stack presets that set it.
#include "tests/test_helpers.hpp"
#include "core/errors.hpp"
#include "protocols/btl/portals/btl_portals_mca.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"
#include "protocols/pml/ob1/pml_ob1_mca.hpp"
#include "protocols/pml/ob1/requests.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;
using pml::ob1::SendEvent;
using pml::ob1::SendState;

// Configuration: an eager send (100 B and 0 B) over a BTL with and without SEND_INPLACE, early completion on and off;
// a 64 KiB send (RGET). Expected: early completion only for start_copy (no SEND_INPLACE, or 0 B) with the option on;
// PACKED marks the request MPI-complete and leaves it in MATCH_SENT (the descriptor still with the BTL); BTL_DONE ends
// it; a second PACKED, PACKED after the end, and PACKED to an RGET are protocol errors.
TEST_CASE("ob1 early completion: PACKED completes the MPI request, BTL_DONE releases it", "[unit][protocol][ob1]") {
  btl::BtlCaps copy, inplace;
  copy.eager_limit = copy.rndv_eager_limit = copy.max_send_size = 32768;
  copy.flags = btl::flag::Get;
  inplace = copy;
  inplace.flags |= btl::flag::SendInplace;
  auto make = [](std::uint64_t bytes) {
    pml::ob1::SendRequest r;
    r.bytes = bytes;
    return r;
  };
  {
    auto r = make(100);
    const pml::Hdr h = pml::ob1::start(r, copy);
    CHECK(h == pml::Hdr::Match);
    CHECK(pml::ob1::early_completion(r, h, copy, true));
    CHECK_FALSE(pml::ob1::early_completion(r, h, copy, false));   // v1.3 on: completion on the fragment's callback
    CHECK_FALSE(pml::ob1::early_completion(r, h, inplace, true));  // start_prepare: completion on the callback
    CHECK_FALSE(r.mpi_complete);
    pml::ob1::on_event(r, SendEvent::Packed);
    CHECK(r.mpi_complete);
    CHECK(r.state == SendState::MatchSent);  // the descriptor is not freed yet: the request lives on
    CHECK_THROWS_AS(pml::ob1::on_event(r, SendEvent::Packed), ProtocolError);
    pml::ob1::on_event(r, SendEvent::BtlDone);
    CHECK(r.state == SendState::Complete);
    CHECK(r.mpi_complete);
    CHECK_THROWS_AS(pml::ob1::on_event(r, SendEvent::Packed), ProtocolError);
  }
  {
    auto r = make(0);  // zero bytes: start_copy even on a BTL that sends in place
    const pml::Hdr h = pml::ob1::start(r, inplace);
    CHECK(pml::ob1::early_completion(r, h, inplace, true));
  }
  {
    auto r = make(100);  // without early completion BTL_DONE completes both at once
    pml::ob1::start(r, copy);
    pml::ob1::on_event(r, SendEvent::BtlDone);
    CHECK(r.state == SendState::Complete);
    CHECK(r.mpi_complete);
  }
  {
    auto r = make(65536);
    r.buf.contiguous = true;
    const pml::Hdr h = pml::ob1::start(r, copy);
    CHECK(h == pml::Hdr::Rget);
    CHECK_FALSE(pml::ob1::early_completion(r, h, copy, true));
    CHECK_THROWS_AS(pml::ob1::on_event(r, SendEvent::Packed), ProtocolError);
  }
}

namespace {
struct OneSend {
  double send_done = -1, recv_done = -1;
  std::uint64_t acks_at_send_done = 0, unlinks_at_send_done = 0, sends_released_at_send_done = 0;
  std::size_t live_at_send_done = 0;
  StackStats end;
};
// One 8 B send 0 -> 1 into a pre-posted receive, openmpi-ob1 on red-storm, every fragment a max-size one
// (eager_frag_limit 0: its MD is unlinked when the descriptor is freed, which makes the free visible).
OneSend one_send(bool early) {
  test::Fixture f("red-storm", 2, 1, "");
  f.mca_.get<pml::ob1::Ob1Mca>().pml_ob1_use_early_completion.value = early ? 1 : 0;
  f.mca_.get<btl::portals::BtlPortalsMca>().btl_portals_eager_frag_limit.value = 0;
  f.stack = make_stack(*f.world, f.mca_, "openmpi-ob1", "test");
  OneSend o;
  f.stack->irecv(1, 0, 3, 8, Buffer{0x20000, true}, [&] { o.recv_done = f.sim.now(); });
  f.stack->isend(0, 1, 3, 8, Buffer{0x10000, true}, [&] {
    o.send_done = f.sim.now();
    StackStats s = f.stack->stats();
    o.acks_at_send_done = s.counters["seastar_acks"];
    o.unlinks_at_send_done = s.counters["btl_portals_md_unlinks"];
    o.sends_released_at_send_done = s.sends_completed;
    o.live_at_send_done = s.live_requests;
  });
  f.sim.run();
  o.end = f.stack->stats();
  return o;
}
}  // namespace

// Configuration: one 8 B eager send over btl/portals (needs_ack 1), pml_ob1_use_early_completion 1 and 0.
// Expected with early completion: the MPI request completes before the ACK exists and before the data is received;
// at that moment the descriptor is not freed (no MD unlink) and the send request is still live (not released); the
// ACK later frees the descriptor and releases the request (none left at the end: no leak). Without it (v1.3.4): the
// send completes after its ACK, its request released (the BTL frees the descriptor after ob1's callback, as v1.3.4's
// MCA_BTL_DES_FLAGS_BTL_OWNERSHIP does), and later than with it.
TEST_CASE("ob1 early completion over btl/portals: MPI-complete before the ACK, descriptor freed on the ACK",
          "[unit][protocol][ob1][portals]") {
  const OneSend e = one_send(true), l = one_send(false);
  REQUIRE(e.send_done > 0);
  REQUIRE(l.send_done > 0);
  CHECK(e.send_done < e.recv_done);
  CHECK(e.acks_at_send_done == 0);
  CHECK(e.unlinks_at_send_done == 0);        // the descriptor is still the BTL's
  CHECK(e.sends_released_at_send_done == 0);  // the request lives until the ACK
  CHECK(e.live_at_send_done == 2);            // the send, and the receive still waiting for its data
  CHECK(e.end.counters.at("ob1_early_completions") == 1);
  CHECK(l.acks_at_send_done == 1);
  CHECK(l.sends_released_at_send_done == 1);
  CHECK(l.end.counters.count("ob1_early_completions") == 0);
  CHECK(e.send_done < l.send_done);
  for (const OneSend* o : {&e, &l}) {
    CHECK(o->end.counters.at("seastar_acks") == 1);
    CHECK(o->end.counters.at("btl_portals_md_unlinks") == 1);
    CHECK(o->end.sends_posted == 1);
    CHECK(o->end.sends_completed == 1);
    CHECK(o->end.recvs_completed == 1);
    CHECK(o->end.live_requests == 0);
  }
}

// Configuration: red-storm, openmpi-ob1 with early completion, 4 ranks on 2 nodes (2 per node: on-node peers also go
// through btl/portals on Catamount), each rank sends 24 messages to every other rank (0 B, 8 B, 1 KiB, 16 KiB eager;
// 40 KiB and 100 KiB RGET), half of the receives posted after the sends, each receive posted with its message's own
// size (a reordering would be a truncation). Expected: every send and receive completes once, the early completions
// are exactly the eager sends, no request or queue entry is left, no truncation.
TEST_CASE("ob1 early completion: message conservation and order over btl/portals", "[unit][protocol][ob1][portals]") {
  test::Fixture f("red-storm", 4, 2, "");
  f.mca_.get<pml::ob1::Ob1Mca>().pml_ob1_use_early_completion.value = 1;
  f.stack = make_stack(*f.world, f.mca_, "openmpi-ob1", "test");
  const std::uint64_t sizes[] = {0, 8, 1024, 16384, 40960, 102400};
  int sends = 0, recvs = 0, eager = 0;
  const int per_pair = 24;
  auto size_of = [&](int i) { return sizes[i % 6] + static_cast<std::uint64_t>(i / 6); };
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      for (int i = 0; i < per_pair / 2; ++i) f.stack->irecv(d, s, 7, size_of(i), Buffer{0x100000, true}, [&] { ++recvs; });
      for (int i = 0; i < per_pair; ++i) {
        if (size_of(i) + 32 <= 32768) ++eager;
        f.stack->isend(s, d, 7, size_of(i), Buffer{0x200000, true}, [&] { ++sends; });
      }
    }
  f.sim.run();
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      for (int i = per_pair / 2; i < per_pair; ++i)
        f.stack->irecv(d, s, 7, size_of(i), Buffer{0x100000, true}, [&] { ++recvs; });
    }
  f.sim.run();
  const StackStats st = f.stack->stats();
  CHECK(sends == 12 * per_pair);
  CHECK(recvs == 12 * per_pair);
  CHECK(st.sends_completed == static_cast<std::uint64_t>(12 * per_pair));
  CHECK(st.recvs_completed == static_cast<std::uint64_t>(12 * per_pair));
  CHECK(st.counters.at("ob1_early_completions") == static_cast<std::uint64_t>(eager));
  CHECK(st.counters.at("mpi_truncate_errors") == 0);
  CHECK(st.live_requests == 0);
  CHECK(st.unexpected_now == 0);
  CHECK(st.posted_now == 0);
}

// Configuration: the stack presets. Expected: the SeaStar paper's openmpi-ob1 (trunk of 2007) and the heterogeneous
// paper's Open MPI 1.1 presets set pml_ob1_use_early_completion 1 with a source, and a run's MCA set starts from it;
// the Gemini openmpi preset (no such version default) keeps ob1's code default 0 (v1.3 on); every preset's MCA
// defaults are parameters of its own components.
TEST_CASE("stack presets carry their Open MPI version's MCA defaults", "[unit][runner][ob1]") {
  const StackInfo* ob1 = stack_preset(resolve_stack(Json("openmpi-ob1"), "seastar", "red-storm", "test"), {"seastar"});
  REQUIRE(ob1 != nullptr);
  CHECK(ob1->mca.at("pml_ob1_use_early_completion").at("value") == 1);
  CHECK_FALSE(ob1->version.empty());
  auto m = load_machine("red-storm");
  McaParams with = machine_mca(*m, &ob1->mca), without = machine_mca(*m);
  CHECK(with.get<pml::ob1::Ob1Mca>().pml_ob1_use_early_completion.value == 1);
  CHECK(with.get<pml::ob1::Ob1Mca>().pml_ob1_use_early_completion.source.find("e361bcb64c") != std::string::npos);
  CHECK(without.get<pml::ob1::Ob1Mca>().pml_ob1_use_early_completion.value == 0);
  const StackInfo* gem = stack_preset(resolve_stack(Json("openmpi"), "gemini", "cielo", "test"), {"gemini"});
  REQUIRE(gem != nullptr);
  CHECK(gem->mca.empty());
  const StackInfo* v11 = stack_preset(resolve_stack(Json("openmpi"), "gige", "hetero-cpu", "test"), {"gige"});
  REQUIRE(v11 != nullptr);
  CHECK(v11->mca.at("pml_ob1_use_early_completion").at("value") == 1);
  for (const StackInfo& p : stack_registry().all()) {
    std::vector<std::string> keys;
    for (auto it = p.mca.begin(); it != p.mca.end(); ++it) keys.push_back(it.key());
    CHECK_NOTHROW(check_mca_keys(keys, p.spec, p.name, p.nic_kind, "test"));
  }
}
