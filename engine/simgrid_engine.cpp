#include "engine/simgrid_engine.hpp"

#include "engine/sharing_engine_defs.hpp"

#include <algorithm>
#include <limits>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <utility>
#include <xbt/log.h>

namespace sg4 = simgrid::s4u;
namespace sgr = simgrid::kernel::routing;

namespace ompisim::engine {

namespace {
struct FlowData {
  Callback done;
  sg4::CommPtr self;
  std::uint64_t seq = 0;  // start order (Simulator::flow calls): completions of one date are delivered in this order
};

// The zone every flow crosses: a source host and a sink host, and the route between them is whatever path the flow
// being started was given. SimGrid keeps no route cache: it calls get_local_route when a comm starts (inside
// Comm::start() for a host-to-host comm started from maestro; once per comm with network/crosstraffic:0, plus a
// back route with crosstraffic on). The engine sets `route` just before start() and clears it just after, and checks
// on every flow that the zone was asked exactly once meanwhile, so a SimGrid that asked later would fail loudly
// instead of routing a flow over another flow's path.
class FlowZone final : public sgr::NetZoneImpl {
public:
  explicit FlowZone(const std::string& name) : NetZoneImpl(name) {}
  const std::vector<simgrid::kernel::resource::StandardLinkImpl*>* route = nullptr;
  std::uint64_t queries = 0;
  void get_local_route(const sgr::NetPoint*, const sgr::NetPoint*, sgr::Route* into, double* /*latency*/) override {
    if (!route) throw std::logic_error("SimGridEngine: SimGrid asked for a route outside a flow start");
    ++queries;
    into->link_list_.insert(into->link_list_.end(), route->begin(), route->end());
    // `latency` is a running total across zones: every link of ours has latency 0 (SimGridEngineImpl::link), so
    // nothing is added.
  }
};

// Holds the links. It has no parent, so it is outside the zone tree that Engine::run seals, and never sealed itself:
// links can be created in it at any time, also during the run (SimGrid 3.32 refuses links in a sealed zone, and a
// sealed zone takes no new child). Routes refer to links by pointer, so where a link lives does not matter to them.
// It has the root's network model; it is deleted before the SimGrid engine (it owns and destroys its links).
class LinkStore final : public sgr::NetZoneImpl {
public:
  explicit LinkStore(const std::string& name) : NetZoneImpl(name) {}
  ~LinkStore() override = default;
  void get_local_route(const sgr::NetPoint*, const sgr::NetPoint*, sgr::Route*, double*) override {
    throw std::logic_error("SimGridEngine: the link store routes nothing");
  }
};
}  // namespace

struct SimGridEngineImpl {
  explicit SimGridEngineImpl(SimGridEngine& owner) : e(owner), q(owner.q_), now(owner.now_) {}
  SimGridEngine& e;
  std::unique_ptr<sg4::Engine> engine;
  FlowZone* zone = nullptr;       // the root zone; the SimGrid engine deletes it
  LinkStore* store = nullptr;     // deleted by ~SimGridEngineImpl, before the SimGrid engine
  sg4::Host* source = nullptr;    // every flow goes source -> sink
  sg4::Host* sink = nullptr;
  // Declared resources: capacity, name (one buffer, end offsets), and the SimGrid link once a flow has crossed it.
  std::vector<double> capacity;
  std::string names;
  std::vector<std::uint32_t> name_end;
  std::vector<sg4::Link*> links;
  std::vector<simgrid::kernel::resource::StandardLinkImpl*> link_impls;  // links[r]->get_impl(), once created
  std::size_t links_created = 0;
  std::vector<simgrid::kernel::resource::StandardLinkImpl*> route;  // the path of the flow being started
  // Model events live in the engine's queue; SimGrid sees one wake-up timer at a time (see pump()).
  EventQueue& q;
  double& now;  // model time: SimGrid's clock, or ahead of it while no flow is in flight
  double armed = std::numeric_limits<double>::infinity();  // earliest wake-up set in SimGrid and not yet fired
  bool pumping = false;
  std::size_t in_flight = 0;
  std::uint64_t seq = 0;  // flows asked for so far (FlowData::seq)
  // Flows SimGrid reported complete and whose callbacks are not queued yet: the pump queues them first thing, sorted
  // by start order, so that flows ending together reach the model in an order that does not depend on SimGrid's heap.
  std::vector<FlowData*> ended;
  struct Deferred {
    std::vector<ResourceId> path;
    double bytes;
    Callback done;
    std::uint64_t seq;
  };
  std::vector<Deferred> deferred;  // flows asked for at `now` while SimGrid's clock was behind it
  // Another job's endless flows (Simulator::stream): their comms while a run() has work.
  std::vector<sg4::CommPtr> streams_live;
  std::vector<sg4::CommPtr> streams_canceled;  // kept alive until SimGrid has handled their end (freed after its run)
  ~SimGridEngineImpl() {
    // Before the SimGrid engine (the first member, destroyed last). Links still carrying comms (a run that failed)
    // are left alone rather than freed under them.
    if (in_flight == 0) delete store;
  }
  void arm(double t) {
    if (t >= armed) return;
    armed = t;
    simgrid::kernel::timer::Timer::set(t, [this] { pump(); });
  }
  sg4::Link* link(ResourceId r) {
    sg4::Link*& l = links[r];
    if (!l) {
      std::uint32_t begin = r == 0 ? 0 : name_end[r - 1];
      std::string name = names.substr(begin, name_end[r] - begin);
      l = store->get_iface()->create_link(name, capacity[r])->set_latency(0)->seal();
      link_impls[r] = l->get_impl();
      ++links_created;
    }
    return l;
  }
  simgrid::kernel::resource::StandardLinkImpl* link_impl(ResourceId r) {
    if (!link_impls[r]) link(r);
    return link_impls[r];
  }
  // SharingEngine's hooks: a resource declared (its SimGrid link is made when a flow first crosses it), a model flow
  // started (checked by EngineBase): now, or when SimGrid's clock has caught up with the model's (deferred)
  void declare(ResourceId, const std::string& name, double capacity) {
    if (names.size() + name.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("SimGridEngine: resource names exceed 4 GB");
    this->capacity.push_back(capacity);
    names += name;
    name_end.push_back(static_cast<std::uint32_t>(names.size()));
    links.push_back(nullptr);
    link_impls.push_back(nullptr);
  }
  void start(const std::vector<ResourceId>& path, double bytes, Callback done) {
    const std::uint64_t s = seq++;
    if (sg4::Engine::get_clock() < now) deferred.push_back({path, bytes, std::move(done), s});
    else start_now(path, bytes, std::move(done), s);
  }
  void start_now(const std::vector<ResourceId>& path, double bytes, Callback done, std::uint64_t seq) {
    ++in_flight;
    auto* f = new FlowData{std::move(done), nullptr, seq};
    f->self = launch(path, bytes, f);
  }
  // Starts a comm of `bytes` over `path` now; `f` (null for a stream) is what its completion runs.
  sg4::CommPtr launch(const std::vector<ResourceId>& path, double bytes, FlowData* f) {
    route.clear();
    for (auto r : path) route.push_back(link_impl(r));
    sg4::CommPtr c = sg4::Comm::sendto_init(source, sink);
    c->set_payload_size(bytes);
    c->set_data(f);
    const std::uint64_t asked = zone->queries;
    zone->route = &route;
    c->start();
    zone->route = nullptr;
    if (zone->queries != asked + 1)
      throw std::logic_error("SimGridEngine: SimGrid asked for the route " + std::to_string(zone->queries - asked) +
                             " times while starting a flow (expected once, inside Comm::start)");
    return c;
  }
  // A stream carries 1e18 bytes: at any link rate a run ends long before it would.
  void start_streams() {
    for (auto& p : e.stream_paths_) streams_live.push_back(launch(p, 1e18, nullptr));
  }
  void stop_streams() {
    for (auto& c : streams_live) c->cancel();
    streams_canceled.insert(streams_canceled.end(), streams_live.begin(), streams_live.end());
    streams_live.clear();
  }
  void pump();
  void queue_ended(double clock);
};

// Queues the callbacks of the flows SimGrid reported complete since the last pump, in start order (the canonical
// order at equal dates, shared with the fluid engine). SimGrid reports one clock value's completions together
// (wake_all_waiting_actors) and then fires the wake-up armed at that clock, so a batch never spans two dates.
void SimGridEngineImpl::queue_ended(double clock) {
  if (ended.empty()) return;
  std::sort(ended.begin(), ended.end(), [](const FlowData* a, const FlowData* b) { return a->seq < b->seq; });
  for (FlowData* f : ended) {
    Callback run = [f] {
      Callback cb = std::move(f->done);
      f->self = nullptr;
      delete f;
      cb();
    };
    e.complete(clock, f->seq, std::move(run));
  }
  ended.clear();
}

// Runs the model's events. SimGrid's clock only has to be right when a flow starts or ends, so while no flow is in
// flight the queue runs ahead of it without SimGrid (a barrier never enters SimGrid at all); while flows are in flight
// SimGrid is woken at the next event's date and advances the flows up to it. A flow asked for while the clock is
// behind waits (deferred) for a wake-up at the date it was asked for. Stale wake-ups (earlier than the model time)
// do nothing.
void SimGridEngineImpl::pump() {
  double clock = sg4::Engine::get_clock();
  if (clock >= armed) armed = std::numeric_limits<double>::infinity();
  queue_ended(clock);
  if (clock < now) return;
  now = clock;
  pumping = true;
  for (auto& d : std::exchange(deferred, {})) start_now(d.path, d.bytes, std::move(d.done), d.seq);
  // The model's events of a date run before the callbacks delivered at that date (completion grid), as in the lmm
  // and fluid engines.
  while (!e.model_idle()) {
    const double t = e.next_model_time();
    if (t > now) {
      if (in_flight > 0 || !deferred.empty()) break;
      now = t;  // nothing in SimGrid can happen before t
    }
    if (!q.empty() && q.top_time() <= now) {
      q.run_top();
      e.ran_event();
    } else {
      e.deliver_due();
    }
  }
  pumping = false;
  if (!deferred.empty()) arm(now);
  else if (!e.model_idle()) arm(e.next_model_time());
  else if (in_flight == 0) stop_streams();  // the model's work is done: another job's traffic must not keep SimGrid going
}

template class SharingEngine<SimGridEngineImpl>;

SimGridEngine::SimGridEngine() : SharingEngine("SimGridEngine", *this) {
  static int argc = 1;
  static char arg0[] = "ompisim";
  static char* argv[] = {arg0, nullptr};
  impl_->engine = std::make_unique<sg4::Engine>(&argc, argv);
  xbt_log_control_set("root.thresh:warning");
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
  sg4::Engine::set_config("surf/precision", kTimingPrecision);
  sg4::Engine::set_config("network/maxmin-selective-update:yes");
  // The flow zone is the first zone, so it becomes the root and gets the models; the link store borrows its network
  // model. Two hosts: every flow goes from `source` to `sink`, over the route the flow was given (FlowZone).
  impl_->zone = new FlowZone("ompisim");
  impl_->store = new LinkStore("ompisim-links");
  impl_->store->set_network_model(impl_->zone->get_network_model());
  impl_->source = impl_->zone->get_iface()->create_host("source", 1e9)->seal();
  impl_->sink = impl_->zone->get_iface()->create_host("sink", 1e9)->seal();
  sg4::Activity::on_completion_cb([this](sg4::Activity const& a) {
    auto* f = a.get_data<FlowData>();
    if (!f) return;
    // Run the model's callback from our queue, outside SimGrid's completion handling (starting or freeing comms
    // inside it crashes 3.32 when several flows end at the same instant); the pump queues it (queue_ended), and the
    // queued callback keeps the Comm alive (FlowData::self) until then. The handler is static and reaches this
    // engine: one engine per process.
    const_cast<sg4::Activity&>(a).set_data(nullptr);
    Impl& me = *impl_;
    --me.in_flight;
    me.ended.push_back(f);
    me.arm(sg4::Engine::get_clock());
  });
}

void SimGridEngine::at(double t, Callback cb) {
  EngineBase::at(t, std::move(cb));
  if (!impl_->pumping) impl_->arm(std::max(t, now_));
}

void SimGridEngine::seal() {
  if (sealed_) return;
  impl_->zone->seal();
  sealed_ = true;
}

std::uint64_t SimGridEngine::route_queries() const { return impl_->zone->queries; }
std::size_t SimGridEngine::links_created() const { return impl_->links_created; }

void SimGridEngine::run() {
  if (!sealed_) seal();
  if (!q_.empty()) {
    impl_->start_streams();  // another job's traffic flows while this run has work (stopped by the pump)
    impl_->arm(q_.top_time());
  }
  impl_->engine->run();
  impl_->streams_canceled.clear();
  // SimGrid returns when it has nothing left to do; a wake-up the pump failed to set would lose model events silently.
  if (!model_idle() || !impl_->deferred.empty() || impl_->in_flight != 0 || !impl_->streams_live.empty() ||
      !impl_->ended.empty())
    throw std::logic_error("SimGridEngine: the run ended with events or flows left (" + std::to_string(q_.size()) +
                           " events, " + std::to_string(impl_->deferred.size()) + " deferred flows, " +
                           std::to_string(impl_->in_flight) + " in flight)");
}

}  // namespace ompisim::engine
