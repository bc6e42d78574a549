// ptl/elan4's send fragment, receive fragment and RDMA operation state machines (elan4_frag.hpp), driven without the
// engine; then every path of the PTL under pml/teg, checking that each frees its records.
#include "models/qsnet/elan4.hpp"
#include "protocols/pml/teg/pml_teg.hpp"
#include "protocols/ptl/elan4/elan4_frag.hpp"
#include "protocols/ptl/elan4/ptl_elan4.hpp"
#include "tests/protocol_paths.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::ptl::elan4;

// Configuration: a send fragment record in IDLE, then the events of an eager fragment (its QDMA's completion noticed by
// the source NIC, or reported into the completion queue with ptl_elan4_cq_qdma) and of a rendezvous answered by a
// FIN_ACK (read scheme) or an ACK (write scheme). Expected: the states of the header's sequence, ending COMPLETE.
// How validated: the state after each step.
TEST_CASE("ptl/elan4 send fragment: eager and rendezvous sequences", "[unit][protocol][ptl]") {
  using S = SendState;
  using E = SendEvent;
  const std::vector<std::pair<E, S>> head = {{E::Start, S::AwaitQdesc}, {E::QdescReady, S::Copying},
                                             {E::Copied, S::Issuing}};
  auto path = [&](const char* name, const std::vector<std::pair<E, S>>& tail) {
    return test::Path<S, E>{name, test::joined<S, E>({head, tail})};
  };
  const std::vector<test::Path<S, E>> paths = {
      path("eager", {{E::IssuedEager, S::EagerSent}, {E::QdmaDone, S::Complete}}),
      path("eager, completion reported", {{E::IssuedEagerCq, S::EagerSentCq}, {E::QdmaDone, S::AwaitCqEntry},
                                          {E::CqEntry, S::Complete}}),
      path("rendezvous, read", {{E::IssuedRendezvous, S::AwaitAnswer}, {E::FinAckArrived, S::Complete}}),
      path("rendezvous, write", {{E::IssuedRendezvous, S::AwaitAnswer}, {E::AckArrived, S::Complete}}),
  };
  test::walk(paths);
}

// Configuration: a receive fragment record in IDLE: an eager first fragment, and a rendezvous matched for the read
// scheme and for the write scheme. Expected: IN_FLIGHT -> COMPLETE; IN_FLIGHT -> AWAIT_MATCH -> COMPLETE (read);
// ... -> ISSUING_ACK -> AWAIT_FIN -> COMPLETE (write). How validated: the state after each step.
TEST_CASE("ptl/elan4 receive fragment: eager, read and write sequences", "[unit][protocol][ptl]") {
  using S = RecvState;
  using E = RecvEvent;
  const std::vector<test::Path<S, E>> paths = {
      {"eager", {{E::Issued, S::InFlight}, {E::ArrivedEager, S::Complete}}},
      {"rendezvous, read", {{E::Issued, S::InFlight}, {E::ArrivedRendezvous, S::AwaitMatch},
                            {E::MatchedRead, S::Complete}}},
      {"rendezvous, write",
       {{E::Issued, S::InFlight},
        {E::ArrivedRendezvous, S::AwaitMatch},
        {E::MatchedWrite, S::IssuingAck},
        {E::AckIssued, S::AwaitFin},
        {E::FinArrived, S::Complete}}},
  };
  test::walk(paths);
}

// Configuration: an RDMA operation record in IDLE, with its FIN / FIN_ACK chained to it and sent by the host.
// Expected: AWAIT_PUTGET -> ISSUING -> IN_FLIGHT -> COMPLETE, or ISSUING_CONTROL before COMPLETE.
// How validated: the state after each step.
TEST_CASE("ptl/elan4 rdma operation: chained and host-sent control message", "[unit][protocol][ptl]") {
  using S = RdmaState;
  using E = RdmaEvent;
  const std::vector<test::Path<S, E>> paths = {
      {"chained", {{E::Start, S::AwaitPutget}, {E::PutgetReady, S::Issuing}, {E::Issued, S::InFlight},
                   {E::DoneChained, S::Complete}}},
      {"host control",
       {{E::Start, S::AwaitPutget},
        {E::PutgetReady, S::Issuing},
        {E::Issued, S::InFlight},
        {E::DoneUnchained, S::IssuingControl},
        {E::ControlIssued, S::Complete}}},
  };
  test::walk(paths);
}

// Configuration: records in the state on the left, given the event on the right. Expected: ProtocolError whose text
// names the machine, the state and the event. (An eager fragment is never answered; a fragment that did not report
// its QDMA has no completion entry; a first fragment cannot arrive twice; a receive fragment of the read scheme never
// takes a FIN; an RDMA is not issued before it has a descriptor, and a completed one takes no event.)
// How validated: the error text.
TEST_CASE("ptl/elan4 records: an impossible event names state and event", "[unit][protocol][ptl]") {
  test::check_impossible(std::vector<std::tuple<SendState, SendEvent, const char*>>{
      {SendState::EagerSent, SendEvent::FinAckArrived,
       "ptl/elan4 send frag: event 'FIN_ACK_ARRIVED' is impossible in state 'EAGER_SENT'"},
      {SendState::EagerSent, SendEvent::CqEntry,
       "ptl/elan4 send frag: event 'CQ_ENTRY' is impossible in state 'EAGER_SENT'"},
      {SendState::AwaitQdesc, SendEvent::Copied,
       "ptl/elan4 send frag: event 'COPIED' is impossible in state 'AWAIT_QDESC'"},
      {SendState::AwaitAnswer, SendEvent::QdmaDone,
       "ptl/elan4 send frag: event 'QDMA_DONE' is impossible in state 'AWAIT_ANSWER'"},
  });
  test::check_impossible(std::vector<std::tuple<RecvState, RecvEvent, const char*>>{
      {RecvState::AwaitMatch, RecvEvent::ArrivedRendezvous,
       "ptl/elan4 recv frag: event 'ARRIVED_RENDEZVOUS' is impossible in state 'AWAIT_MATCH'"},
      {RecvState::AwaitMatch, RecvEvent::FinArrived,
       "ptl/elan4 recv frag: event 'FIN_ARRIVED' is impossible in state 'AWAIT_MATCH'"},
      {RecvState::Idle, RecvEvent::MatchedRead,
       "ptl/elan4 recv frag: event 'MATCHED_READ' is impossible in state 'IDLE'"},
  });
  test::check_impossible(std::vector<std::tuple<RdmaState, RdmaEvent, const char*>>{
      {RdmaState::AwaitPutget, RdmaEvent::Issued,
       "ptl/elan4 rdma: event 'ISSUED' is impossible in state 'AWAIT_PUTGET'"},
      {RdmaState::Complete, RdmaEvent::DoneChained,
       "ptl/elan4 rdma: event 'DONE_CHAINED' is impossible in state 'COMPLETE'"},
      {RdmaState::IssuingControl, RdmaEvent::DoneUnchained,
       "ptl/elan4 rdma: event 'DONE_UNCHAINED' is impossible in state 'ISSUING_CONTROL'"},
  });
}

// Configuration: pml/teg over ptl/elan4 on osu-elan4, 2 ranks on two nodes, built directly (the PTL, its Elan4 and the
// PML); for each path a 100 B message (eager) and an 8 KiB one (rendezvous), once with its receive posted and once
// unexpected: RDMA read and write, chained and host-sent control messages, no completion queue, one and two (two
// with ptl_elan4_cq_qdma on: first fragments and host-sent control messages report there too), polling and two
// progress threads. Expected: every request completes, the path's counters count both messages, and no send fragment,
// receive fragment or RDMA record is left. How validated: completions, counters and PtlElan4::records_in_flight().
TEST_CASE("ptl/elan4: every path frees its fragment and RDMA records", "[protocol][ptl]") {
  struct Case {
    const char* name;
    bool write;
    std::vector<std::pair<const char*, const char*>> mca;
  };
  const std::vector<Case> cases = {
      {"read, chained", false, {{"ptl_elan4_rdma", "read"}}},
      {"write, chained", true, {{"ptl_elan4_rdma", "write"}}},
      {"read, host control", false, {{"ptl_elan4_rdma", "read"}, {"ptl_elan4_chained", "off"}}},
      {"write, host control", true, {{"ptl_elan4_rdma", "write"}, {"ptl_elan4_chained", "off"}}},
      {"read, one queue", false, {{"ptl_elan4_completion_queue", "one"}, {"ptl_elan4_progress", "one_thread"}}},
      {"write, two queues, qdma reports, host control", true,
       {{"ptl_elan4_rdma", "write"}, {"ptl_elan4_chained", "off"}, {"ptl_elan4_completion_queue", "two"},
        {"ptl_elan4_progress", "two_threads"}, {"ptl_elan4_cq_qdma", "on"}}},
      {"read, two queues polled, qdma reports", false,
       {{"ptl_elan4_completion_queue", "two"}, {"ptl_elan4_cq_qdma", "on"}}},
  };
  for (const auto& c : cases)
    for (std::uint64_t bytes : {100u, 8192u}) {
      CAPTURE(c.name, bytes);
      auto m = load_machine("osu-elan4");
      test::Job job{*m, make_placement(*m, 2, 1, {}, "test")};
      McaParams mca = machine_mca(*m);
      auto list = param_list(mca);
      for (auto& [k, v] : c.mca) REQUIRE(set_param(list, k, std::string("\"") + v + "\"", "test"));
      PlatformParts parts = job.world->parts();
      qsnet::Elan4 nic(parts.sim, parts.contexts, parts.fabric());
      PtlElan4 ptl(parts, nic, mca.get<PtlElan4Mca>());
      pml::teg::PmlTeg teg(parts.sim, parts.contexts, parts.cpus, ptl, m->software_cost("pml_teg_overhead"), "teg");
      job.seal();
      int done = 0;
      teg.irecv(1, 0, 7, bytes, Buffer{1 << 20, true}, [&] { ++done; });
      teg.isend(0, 1, 7, bytes, Buffer{4096, true}, [&] { ++done; });
      teg.isend(0, 1, 8, bytes, Buffer{4096, true}, [&] { ++done; });
      job.sim.run();  // the tag-8 message is unexpected until its receive is posted
      const bool rendezvous = bytes > ptl.first_frag_size();
      // An unexpected rendezvous holds its send fragment (AWAIT_ANSWER) and receive fragment (AWAIT_MATCH).
      CHECK(ptl.records_in_flight() == (rendezvous ? 2u : 0u));
      teg.irecv(1, 0, 8, bytes, Buffer{1 << 20, true}, [&] { ++done; });
      job.sim.run();
      CHECK(done == 4);
      const bool write = c.write;
      CHECK(ptl.count(rendezvous ? PtlStat::Rendezvous : PtlStat::Eager) == 2);
      CHECK(ptl.count(PtlStat::FinAcks) == (rendezvous && !write ? 2u : 0u));
      CHECK(ptl.count(PtlStat::Fins) == (rendezvous && write ? 2u : 0u));
      CHECK(ptl.count(PtlStat::RdmaCompletions) == (rendezvous ? 2u : 0u));
      CHECK(ptl.records_in_flight() == 0);
    }
}
