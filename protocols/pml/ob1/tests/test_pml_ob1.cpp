// pml/ob1: send request transitions and the RGET -> RNDV fallback.
#include "tests/test_helpers.hpp"
#include "core/errors.hpp"
#include "protocols/pml/ob1/requests.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Table-driven transitions of ob1 send requests. Expected: legal sequences end COMPLETE; illegal ones throw.
TEST_CASE("ob1 send request transitions", "[unit][protocol][ob1]") {
  btl::BtlCaps caps;
  caps.eager_limit = 4096, caps.rndv_eager_limit = 4096, caps.max_send_size = 4096, caps.flags = btl::flag::Get;
  struct Row { std::uint64_t bytes; bool contiguous; pml::Hdr hdr; std::vector<pml::ob1::SendEvent> events; };
  using E = pml::ob1::SendEvent;
  std::vector<Row> rows{{100, true, pml::Hdr::Match, {E::BtlDone}},
                        {65536, true, pml::Hdr::Rget, {E::Fin}},
                        {65536, true, pml::Hdr::Rget, {E::Ack, E::FragsDone}},  // RGET fell back to RNDV
                        {65536, false, pml::Hdr::Rndv, {E::Ack, E::FragsDone}}};
  for (auto& row : rows) {
    pml::ob1::SendRequest r;
    r.bytes = row.bytes;
    r.buf.contiguous = row.contiguous;
    CHECK(pml::ob1::start(r, caps) == row.hdr);
    CHECK_THROWS_AS(pml::ob1::start(r, caps), ProtocolError);
    for (auto e : row.events) {
      if (e == E::FragsDone) {  // the FRAGs after an ACK that asked for no RDMA are done
        CHECK_THROWS_AS(pml::ob1::on_event(r, e), ProtocolError);
        r.rdma_offset = r.bytes, r.frags_done = true;
      }
      pml::ob1::on_event(r, e);
    }
    CHECK(r.state == pml::ob1::SendState::Complete);
    CHECK_THROWS_AS(pml::ob1::on_event(r, E::Fin), ProtocolError);
  }
  pml::ob1::SendRequest r;
  r.bytes = 100;
  pml::ob1::start(r, caps);
  CHECK_THROWS_AS(pml::ob1::on_event(r, E::Fin), ProtocolError);  // FIN is never the answer to MATCH
}

// Configuration: openmpi on 2 Cielo nodes; a 64 KiB message from a contiguous buffer (the sender chooses RGET) into a
// non-contiguous receive buffer. Expected: the receiver cannot GET into it and answers ACK; the sender pipelines
// FRAGs (RGET -> RNDV fallback, mca_pml_ob1_recv_request_progress_rget); no RDMA GET is issued; both complete.
TEST_CASE("ob1 RGET falls back to RNDV when the receive buffer is not contiguous", "[protocol][ob1]") {
  test::Fixture f("cielo", 2, 1, "openmpi");
  int done = 0;
  f.stack->irecv(1, 0, 5, 65536, Buffer{1 << 20, false}, [&] { ++done; });
  f.stack->isend(0, 1, 5, 65536, Buffer{4096, true}, [&] { ++done; });
  f.sim.run();
  CHECK(done == 2);
  auto st = f.stack->stats();
  CHECK(st.counters["ob1_RGET"] == 1);
  CHECK(st.counters["ob1_rget_fallbacks"] == 1);
  CHECK(st.counters["ob1_ACK"] == 1);
  CHECK(st.counters["ob1_FRAG"] == (65536 + 8160 - 1) / 8160);  // fragments of the 8 KiB eager limit minus the header
  CHECK(st.counters["ugni_long_gets"] == 0);
  CHECK(st.live_requests == 0);
}

namespace {
// A BTL with PUT only, 4 KiB eager limit and fragments.
btl::BtlCaps put_only_caps() {
  btl::BtlCaps caps;
  caps.eager_limit = 4096, caps.rndv_eager_limit = 4096, caps.max_send_size = 4096, caps.flags = btl::flag::Put;
  return caps;
}
// A contiguous 1 MiB send started over `caps`: RNDV_SENT.
pml::ob1::SendRequest rndv_1mib(const btl::BtlCaps& caps) {
  pml::ob1::SendRequest s;
  s.bytes = 1 << 20;
  s.buf.contiguous = true;
  REQUIRE(pml::ob1::start(s, caps, false) == pml::Hdr::Rndv);
  return s;
}
}  // namespace

// Configuration: Open MPI 1.1's registered path on plain requests: a 1 MiB RNDV without data (start_rdma, first 0);
// no ACK comes, the receiver's PUTs are flagged ACK. Expected: PUT_ACK moves RNDV_SENT to PIPELINING with the rdma
// offset 0 and no FRAG range; a second flagged PUT is ignored; FRAGS_DONE is refused until every byte is PUT, then
// COMPLETE; PUT_ACK is refused on a RNDV that carried data, on a MATCH and on a completed request. How validated:
// v1.1.1 mca_pml_ob1_recv_request_ack (no ACK when the RNDV is flagged PIN and the buffer registered),
// mca_pml_ob1_send_request_put (req_got_put_ack) and mca_pml_ob1_put_completion (ADVANCE_NO_SCHEDULE, then complete).
TEST_CASE("ob1 PUT flagged ACK transitions (Open MPI 1.1 registered path)", "[unit][protocol][ob1]") {
  using E = pml::ob1::SendEvent;
  const btl::BtlCaps caps = put_only_caps();
  pml::ob1::SendRequest s = rndv_1mib(caps);
  pml::ob1::SendRequest with_data = s;
  with_data.first = pml::ob1::first_payload(with_data, pml::Hdr::Rndv, caps);
  CHECK_THROWS_AS(pml::ob1::on_event(with_data, E::PutAck), ProtocolError);  // its receiver sends an ACK
  s.first = 0;  // start_rdma: the RNDV carries no data
  pml::ob1::on_event(s, E::PutAck);
  CHECK(s.state == pml::ob1::SendState::Pipelining);
  CHECK(s.rdma_offset == 0);
  CHECK(s.frags_done);
  pml::ob1::on_event(s, E::PutAck);  // the PUT on the other BTL is flagged too
  pml::ob1::on_event(s, E::PutDone, s.bytes / 2);
  CHECK_FALSE(pml::ob1::rest_done(s));
  CHECK_THROWS_AS(pml::ob1::on_event(s, E::FragsDone), ProtocolError);
  pml::ob1::on_event(s, E::PutDone, s.bytes - s.bytes / 2);
  REQUIRE(pml::ob1::rest_done(s));
  pml::ob1::on_event(s, E::FragsDone);
  CHECK(s.state == pml::ob1::SendState::Complete);
  CHECK_THROWS_AS(pml::ob1::on_event(s, E::PutAck), ProtocolError);
  pml::ob1::SendRequest m;
  m.bytes = 100;
  REQUIRE(pml::ob1::start(m, caps, false) == pml::Hdr::Match);
  CHECK_THROWS_AS(pml::ob1::on_event(m, E::PutAck), ProtocolError);
}

// Configuration: the RDMA PUT pipeline's transitions on plain requests (no engine). A 1 MiB RNDV whose first fragment
// carried 4064 bytes: the receiver's ACK says RDMA from 4064 (no FRAGs), one PUT of 100000 B is written before the ACK
// arrives (its PUT came on another BTL), the rest after. Receive side: the RNDV's 4064 bytes, then FINs of PUT
// fragments. Expected: PUT_DONE legal in RNDV_SENT and PIPELINING only and never beyond the message; FRAGS_DONE refused
// until every byte from the rdma offset on is PUT and the FRAGs are done, then COMPLETE (MPI complete); PUT_FIN legal
// in AWAIT_FRAGS only, COMPLETE with the last byte. How validated: the conditions of mca_pml_ob1_put_completion
// (sender: req_bytes_delivered >= req_bytes_packed) and mca_pml_ob1_recv_request_progress (v1.1.0).
TEST_CASE("ob1 RDMA PUT pipeline transitions", "[unit][protocol][ob1]") {
  using E = pml::ob1::SendEvent;
  using RE = pml::ob1::RecvEvent;
  const btl::BtlCaps caps = put_only_caps();
  pml::ob1::SendRequest s = rndv_1mib(caps);
  s.first = pml::ob1::first_payload(s, pml::Hdr::Rndv, caps);
  CHECK(s.first == 4064);
  pml::ob1::on_event(s, E::PutDone, 100000);  // before the ACK
  CHECK(s.state == pml::ob1::SendState::RndvSent);
  pml::ob1::on_event(s, E::Ack);
  s.rdma_offset = s.first, s.frags_done = true;  // the ACK's rdma offset: no FRAG range
  CHECK_FALSE(pml::ob1::rest_done(s));
  CHECK_THROWS_AS(pml::ob1::on_event(s, E::FragsDone), ProtocolError);
  CHECK_THROWS_AS(pml::ob1::on_event(s, E::PutDone, s.bytes), ProtocolError);  // more than the message
  pml::ob1::SendRequest s2 = s;
  pml::ob1::on_event(s, E::PutDone, s.bytes - s.first - 100000);
  CHECK(pml::ob1::rest_done(s));
  CHECK_FALSE(s.mpi_complete);
  pml::ob1::on_event(s, E::FragsDone);
  CHECK(s.state == pml::ob1::SendState::Complete);
  CHECK(s.mpi_complete);
  CHECK_THROWS_AS(pml::ob1::on_event(s, E::PutDone, 1), ProtocolError);
  s2.frags_done = false;  // FRAGs of [first, rdma offset) still out: not done even with every PUT written
  pml::ob1::on_event(s2, E::PutDone, s2.bytes - s2.first - 100000);
  CHECK_FALSE(pml::ob1::rest_done(s2));
  pml::ob1::SendRequest m;
  m.bytes = 100;
  REQUIRE(pml::ob1::start(m, caps, false) == pml::Hdr::Match);
  CHECK_THROWS_AS(pml::ob1::on_event(m, E::PutDone, 10), ProtocolError);

  pml::ob1::RecvRequest r;
  r.msg_bytes = 1 << 20;
  CHECK_THROWS_AS(pml::ob1::on_event(r, RE::PutFin, 10), ProtocolError);  // not matched yet
  pml::ob1::on_event(r, RE::MatchedRndv, 4064);
  CHECK(r.state == pml::ob1::RecvState::AwaitFrags);
  pml::ob1::on_event(r, RE::PutFin, 1000000);
  CHECK(r.state == pml::ob1::RecvState::AwaitFrags);
  pml::ob1::on_event(r, RE::PutFin, (1 << 20) - 4064 - 1000000);
  CHECK(r.state == pml::ob1::RecvState::Complete);
  CHECK(r.received == r.msg_bytes);
  CHECK_THROWS_AS(pml::ob1::on_event(r, RE::PutFin, 1), ProtocolError);
}

// Configuration: Open MPI 1.1's registration lookup and the receiver's choice on a matched RNDV (requests.hpp
// v11_rdma_usable, v11_rndv_ack) for the cases the v1.1.1 code distinguishes; lanl-multi-nic-like values (8 MiB,
// btl_rdma_offset 1 MiB, two RDMA BTLs). Expected, from mca_pml_ob1_rdma_btls (pml_ob1_rdma.c) and
// mca_pml_ob1_recv_request_ack (pml_ob1_recvreq.c 160-240): a BTL with a memory pool counts only for a registered
// buffer or with mpi_leave_pinned, one without always; PIN + a registered receive buffer: no ACK, PUTs from the RNDV's
// end over the registrations; an unregistered receive buffer: an ACK with rdma offset max(btl_rdma_offset, received),
// PUTs registered fragment by fragment (a registered one under an unpinned RNDV: the same offset, the PUTs over its
// registrations); a message not longer than btl_rdma_offset, a non-contiguous one, a peer without RDMA BTLs, or one
// whose RNDV carried everything: an ACK at the length (all by copy). How validated: the branches read by hand.
TEST_CASE("ob1 Open MPI 1.1 registration lookup and RNDV ack choice", "[unit][protocol][ob1]") {
  using pml::ob1::RndvAck;
  using pml::ob1::RndvAckIn;
  CHECK(pml::ob1::v11_rdma_usable(false, false, false));
  CHECK_FALSE(pml::ob1::v11_rdma_usable(true, false, false));
  CHECK(pml::ob1::v11_rdma_usable(true, true, false));
  CHECK(pml::ob1::v11_rdma_usable(true, false, true));
  const std::uint64_t mib = 1u << 20, msg = 8 * mib, rcvd = 12256;
  auto ack = [&](RndvAckIn in) { return pml::ob1::v11_rndv_ack(in); };
  struct Row {
    const char* what;
    RndvAckIn in;
    bool send_ack;
    std::uint64_t offset;
    bool registered;
  };
  const std::vector<Row> rows{
      {"both registered", {msg, 0, true, true, 2, 2, mib}, false, 0, true},
      {"malloc", {msg, rcvd, true, false, 0, 2, mib}, true, mib, false},
      {"pinned sender, malloc'ed receiver", {msg, 0, true, true, 0, 2, mib}, true, mib, false},
      {"registered receiver, unpinned RNDV", {msg, rcvd, true, false, 2, 2, mib}, true, mib, true},
      {"message at btl_rdma_offset", {mib, rcvd, true, false, 0, 2, mib}, true, mib, false},
      {"RNDV data past btl_rdma_offset", {msg, 40000, true, false, 0, 1, 32768}, true, 40000, false},
      {"not contiguous", {msg, rcvd, false, false, 0, 2, mib}, true, msg, false},
      {"no RDMA BTL", {msg, rcvd, true, false, 0, 0, 0}, true, msg, false},
      {"everything in the RNDV", {rcvd, rcvd, true, true, 2, 2, mib}, true, rcvd, false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.what);
    const RndvAck a = ack(r.in);
    CHECK(a.send_ack == r.send_ack);
    CHECK(a.rdma_offset == r.offset);
    CHECK(a.registered == r.registered);
  }
}
