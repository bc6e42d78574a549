// btl/ugni's send fragment and RDMA operation state machines (ugni_frag.hpp), driven without the engine.
#include "protocols/btl/ugni/btl_ugni.hpp"
#include "protocols/btl/ugni/ugni_frag.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"
#include "models/gemini/gni.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ompisim;
using namespace ompisim::btl::ugni;

namespace {
template <class State, class Event>
struct Path {
  const char* name;
  std::vector<std::pair<Event, State>> steps;  // each event and the state it must lead to, from IDLE
};

// One SECTION per path: from IDLE, each event must lead to the state written beside it.
template <class State, class Event>
void walk(const std::vector<Path<State, Event>>& paths) {
  for (const auto& p : paths) {
    SECTION(p.name) {
      State s = State::Idle;
      for (const auto& [e, to] : p.steps) {
        s = step(s, e);
        CHECK(std::string(to_string(s)) == to_string(to));
      }
    }
  }
}
}  // namespace

// Configuration: a fragment record in IDLE, then the events of the short and of the eager-get protocol in order.
// Expected: the states of the header's message sequence, ending COMPLETE. How validated: the state after each step.
TEST_CASE("btl/ugni send fragment: short and eager-get sequences", "[unit][protocol][ugni]") {
  using S = FragState;
  using E = FragEvent;
  const std::vector<Path<S, E>> paths = {
      {"short", {{E::StartShort, S::Copying}, {E::Copied, S::SmsgSent}, {E::SendArrived, S::Complete}}},
      {"eager get",
       {{E::StartEager, S::AwaitSendBuffer},
        {E::BufferReady, S::EagerCopying},
        {E::Copied, S::InitGetSent},
        {E::InitGetArrived, S::AwaitRecvBuffer},
        {E::BufferReady, S::Pulling},
        {E::GetDone, S::RdmaCompleteSent},
        {E::RdmaCompleteArrived, S::Complete}}},
  };
  walk(paths);
}

// Configuration: a record in the state on the left, given the event on the right. Expected: ProtocolError whose text
// names the machine, the state and the event. How validated: the error text. (A short fragment never waits for an
// eager buffer; an INIT_GET is not a TAG_SEND; a completed fragment takes no event; a GET done before it was posted.)
TEST_CASE("btl/ugni send fragment: an impossible event names state and event", "[unit][protocol][ugni]") {
  using S = FragState;
  using E = FragEvent;
  const std::vector<std::tuple<S, E, const char*>> bad = {
      {S::Copying, E::BufferReady, "btl/ugni frag: event 'BUFFER_READY' is impossible in state 'COPYING'"},
      {S::InitGetSent, E::SendArrived, "btl/ugni frag: event 'SEND_ARRIVED' is impossible in state 'INIT_GET_SENT'"},
      {S::Complete, E::RdmaCompleteArrived,
       "btl/ugni frag: event 'RDMA_COMPLETE_ARRIVED' is impossible in state 'COMPLETE'"},
      {S::AwaitRecvBuffer, E::GetDone, "btl/ugni frag: event 'GET_DONE' is impossible in state 'AWAIT_RECV_BUFFER'"},
      {S::Idle, E::Copied, "btl/ugni frag: event 'COPIED' is impossible in state 'IDLE'"},
  };
  for (const auto& [s, e, text] : bad) {
    INFO(to_string(s) << " + " << to_string(e));
    REQUIRE_THROWS_WITH(step(s, e), text);
  }
}

// Configuration: an RDMA record in IDLE, then a direct GET and the PUT fallback. Expected: GET_POSTED -> COMPLETE and
// PUT_INIT_SENT -> PUTTING -> RDMA_COMPLETE_SENT -> COMPLETE; a PUT_INIT for a direct GET and a second RDMA_DONE are
// errors naming state and event. How validated: the states and the error text.
TEST_CASE("btl/ugni rdma operation: GET and its PUT fallback", "[unit][protocol][ugni]") {
  using S = RdmaState;
  using E = RdmaEvent;
  const std::vector<Path<S, E>> paths = {
      {"get", {{E::StartGet, S::GetPosted}, {E::RdmaDone, S::Complete}}},
      {"put fallback",
       {{E::StartPutFallback, S::PutInitSent},
        {E::PutInitArrived, S::Putting},
        {E::RdmaDone, S::RdmaCompleteSent},
        {E::RdmaCompleteArrived, S::Complete}}},
  };
  walk(paths);
  REQUIRE_THROWS_WITH(step(S::GetPosted, E::PutInitArrived),
                      "btl/ugni rdma: event 'PUT_INIT_ARRIVED' is impossible in state 'GET_POSTED'");
  REQUIRE_THROWS_WITH(step(S::RdmaCompleteSent, E::RdmaDone),
                      "btl/ugni rdma: event 'RDMA_DONE' is impossible in state 'RDMA_COMPLETE_SENT'");
}

// Configuration: openmpi on 2 Cielo nodes (automatic SMSG limit, 1024 B at 2 ranks); one message of each btl/ugni path,
// once with its receive posted and once unexpected: 64 B (short), 4 KiB (eager get), 64 KiB from a 4-byte aligned
// buffer (ob1 RGET: a GET) and from a misaligned one (the PUT fallback). Expected: every request completes, the path's
// counter counts both messages, and no send fragment or RDMA record is left. How validated: completions, counters and
// BtlUgni::frags_in_flight().
TEST_CASE("btl/ugni: every path frees its fragment and RDMA records", "[protocol][ugni]") {
  struct Case {
    const char* name;
    std::uint64_t bytes, addr;
    const char* counter;
  };
  const std::vector<Case> cases = {{"short", 64, 4096, "ugni_short_sends"},
                                   {"eager get", 4096, 4096, "ugni_eager_gets"},
                                   {"long get", 65536, 4096, "ugni_long_gets"},
                                   {"put fallback", 65536, 4097, "ugni_put_fallbacks"}};
  for (const auto& c : cases) {
    INFO(c.name);
    test::Fixture f("cielo", 2, 1);
    btl::self::BtlSelf self(f.world->cpus());
    auto& gni = gemini::Gni::of(f.world->nic_services(), f.sim, f.world->contexts(), f.world->cpus(), f.world->fabric());
    btl::ugni::BtlUgni ugni(f.world->contexts(), f.world->cpus(), gni, f.mca_.get<btl::ugni::UgniMca>());
    pml::ob1::Ob1 ob1(f.world->contexts(), f.world->cpus(), 1e-7, {&self, &ugni});
    int done = 0;
    ob1.irecv(1, 0, 7, c.bytes, Buffer{1 << 20, true}, [&] { ++done; });
    ob1.isend(0, 1, 7, c.bytes, Buffer{c.addr, true}, [&] { ++done; });
    ob1.isend(0, 1, 8, c.bytes, Buffer{c.addr, true}, [&] { ++done; });
    f.sim.run();  // the tag-8 message is unexpected until its receive is posted
    ob1.irecv(1, 0, 8, c.bytes, Buffer{1 << 20, true}, [&] { ++done; });
    f.sim.run();
    CHECK(done == 4);
    std::map<std::string, std::uint64_t> counters;
    ugni.add_counters(counters);
    CHECK(counters[c.counter] == 2);
    CHECK(ugni.frags_in_flight() == 0);
  }
}
