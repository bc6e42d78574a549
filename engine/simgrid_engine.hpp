// The only code that includes SimGrid. Binds the Simulator interface to SimGrid 3.32:
//  - at()   -> the shared event queue (EngineBase); SimGrid sees one kernel timer at a time, set at the next
//              event's date while flows are in flight (no actors, so memory does not grow with ranks);
//  - flow() -> s4u::Comm::sendto_init between the two hosts of a routing zone of our own (a NetZoneImpl subclass)
//              whose get_local_route returns the path of the flow being started: the path is handed to the zone just
//              before Comm::start() and SimGrid asks for the route synchronously, once, inside start() (checked on
//              every flow). Completion through Activity::on_completion_cb. Network model CM02 with crosstraffic off
//              and TCP-gamma 0: a flow alone on its path takes exactly bytes / min(capacity), as in the DES engine.
//  - stream() -> a comm of 1e18 bytes over its path (never completes in a run), started when run() begins with work
//              and canceled by the pump once the model has neither events nor flows left, so SimGrid's run returns;
//  - add_resource() -> a SimGrid link (latency 0), created when a flow first crosses the resource, in a link-holding
//              zone outside the zone tree (so never sealed); a resource no flow uses costs SimGrid nothing.
// LIMITATIONS: resources must be declared before seal(); SimGrid 3.32 keeps in-flight comms in a list
// (O(in-flight) per completion), so the callers bound concurrency by sending only bulk data as flows.
// One engine per process (SimGrid's Engine is a singleton).
#pragma once
#include "engine/sharing_engine.hpp"


namespace ompisim::engine {

struct SimGridEngineImpl;  // its state and flow arithmetic (simgrid_engine.cpp)

class SimGridEngine final : public SharingEngine<SimGridEngineImpl> {
public:
  SimGridEngine();
  void at(double t, Callback cb) override;  // also sets SimGrid's wake-up (outside the pump)
  void seal() override;
  void run() override;
  std::string name() const override { return "simgrid"; }
  // For tests: how many times SimGrid asked the zone for a route, and how many resources have a SimGrid link.
  std::uint64_t route_queries() const;
  std::size_t links_created() const;
};

}  // namespace ompisim::engine
