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
    for (auto e : row.events) pml::ob1::on_event(r, e);
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
