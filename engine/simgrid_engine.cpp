#include "engine/simgrid_engine.hpp"

#include "engine/event_queue.hpp"

#include <limits>
#include <map>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <utility>
#include <xbt/log.h>

namespace sg4 = simgrid::s4u;

namespace ompisim::engine {

namespace {
struct FlowData {
  Callback done;
  sg4::CommPtr self;
};
}  // namespace

struct SimGridEngine::Impl {
  std::unique_ptr<sg4::Engine> engine;
  sg4::NetZone* zone = nullptr;
  std::vector<sg4::Link*> links;
  std::vector<std::string> endpoints;                               // names only: endpoints are not SimGrid hosts
  std::map<std::pair<EndpointId, EndpointId>, sg4::Host*> paths;  // one source host per declared path
  sg4::Host* sink = nullptr;                                        // the common destination of every path
  bool sealed = false;
  // Model events live in our own queue; SimGrid sees one wake-up timer at a time (see pump()).
  EventQueue q;
  double now = 0;  // model time: SimGrid's clock, or ahead of it while no flow is in flight
  double armed = std::numeric_limits<double>::infinity();  // earliest wake-up set in SimGrid and not yet fired
  bool pumping = false;
  std::size_t in_flight = 0;
  struct Deferred {
    sg4::Host* from;
    double bytes;
    Callback done;
  };
  std::vector<Deferred> deferred;  // flows asked for at `now` while SimGrid's clock was behind it
  void arm(double t) {
    if (t >= armed) return;
    armed = t;
    simgrid::kernel::timer::Timer::set(t, [this] { pump(); });
  }
  void start(sg4::Host* from, double bytes, Callback done) {
    ++in_flight;
    auto* f = new FlowData{std::move(done), nullptr};
    sg4::CommPtr c = sg4::Comm::sendto_init(from, sink);
    c->set_payload_size(bytes);
    c->set_data(f);
    f->self = c;
    c->start();
  }
  void pump();
};

// Runs the model's events. SimGrid's clock only has to be right when a flow starts or ends, so while no flow is in
// flight the queue runs ahead of it without SimGrid (a barrier never enters SimGrid at all); while flows are in flight
// SimGrid is woken at the next event's date and advances the flows up to it. A flow asked for while the clock is
// behind waits (deferred) for a wake-up at the date it was asked for. Stale wake-ups (earlier than the model time)
// do nothing.
void SimGridEngine::Impl::pump() {
  double clock = sg4::Engine::get_clock();
  if (clock >= armed) armed = std::numeric_limits<double>::infinity();
  if (clock < now) return;
  now = clock;
  pumping = true;
  for (auto& d : std::exchange(deferred, {})) start(d.from, d.bytes, std::move(d.done));
  while (!q.empty()) {
    double t = q.top_time();
    if (t > now) {
      if (in_flight > 0 || !deferred.empty()) break;
      now = t;  // nothing in SimGrid can happen before t
    }
    auto ev = q.pop();
    ev.second();
  }
  pumping = false;
  if (!deferred.empty()) arm(now);
  else if (!q.empty()) arm(q.top_time());
}

SimGridEngine::SimGridEngine() : impl_(std::make_unique<Impl>()) {
  static int argc = 1;
  static char arg0[] = "ompisim";
  static char* argv[] = {arg0, nullptr};
  impl_->engine = std::make_unique<sg4::Engine>(&argc, argv);
  xbt_log_control_set("root.thresh:warning");
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
  sg4::Engine::set_config("surf/precision:1e-12");
  sg4::Engine::set_config("network/maxmin-selective-update:yes");
  // A StarZone routes src -> dst as src's "up" links followed by dst's "down" links. Each declared path gets its own
  // source host whose up links are the path, and every flow goes to one sink with no down links. Memory is O(paths x
  // path length); a FullZone would hold a hosts x hosts routing table (2.7 GB for the 18k endpoints of 16k ranks).
  impl_->zone = sg4::create_star_zone("ompisim");
  sg4::Activity::on_completion_cb([this](sg4::Activity const& a) {
    auto* f = a.get_data<FlowData>();
    if (!f) return;
    // Run the model's callback from our queue, outside SimGrid's completion handling (starting or freeing comms
    // inside it crashes 3.32 when several flows end at the same instant); the queued callback keeps the Comm alive
    // (FlowData::self) until then. The handler is static and reaches this engine: one engine per process.
    const_cast<sg4::Activity&>(a).set_data(nullptr);
    Impl& me = *impl_;
    --me.in_flight;
    double clock = sg4::Engine::get_clock();
    me.q.push(std::max(clock, me.now), [f] {
      Callback cb = std::move(f->done);
      f->self = nullptr;
      delete f;
      cb();
    });
    me.arm(clock);
  });
}

SimGridEngine::~SimGridEngine() = default;

double SimGridEngine::now() const { return impl_->now; }

void SimGridEngine::at(double t, Callback cb) {
  ++events_scheduled;
  t = std::max(t, impl_->now);
  impl_->q.push(t, std::move(cb));
  if (!impl_->pumping) impl_->arm(t);
}

ResourceId SimGridEngine::add_resource(const std::string& name, double capacity) {
  if (impl_->sealed) throw std::logic_error("SimGridEngine: add_resource after seal");
  auto* l = impl_->zone->create_link(name, capacity)->set_latency(0)->seal();
  impl_->links.push_back(l);
  return static_cast<ResourceId>(impl_->links.size() - 1);
}

EndpointId SimGridEngine::add_endpoint(const std::string& name) {
  if (impl_->sealed) throw std::logic_error("SimGridEngine: add_endpoint after seal");
  impl_->endpoints.push_back(name);
  return static_cast<EndpointId>(impl_->endpoints.size() - 1);
}

void SimGridEngine::add_path(EndpointId src, EndpointId dst, const std::vector<ResourceId>& resources) {
  if (impl_->sealed) throw std::logic_error("SimGridEngine: add_path after seal");
  if (impl_->paths.count({src, dst})) return;
  if (!impl_->sink) {
    impl_->sink = impl_->zone->create_host("sink", 1e9)->seal();
    impl_->zone->add_route(nullptr, impl_->sink->get_netpoint(), nullptr, nullptr, {}, false);
  }
  std::vector<sg4::LinkInRoute> route;
  for (auto r : resources) route.emplace_back(impl_->links.at(r));
  auto* h = impl_->zone->create_host(impl_->endpoints.at(src) + "->" + impl_->endpoints.at(dst), 1e9)->seal();
  impl_->zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, route, false);
  impl_->paths.emplace(std::make_pair(src, dst), h);
}

bool SimGridEngine::has_path(EndpointId src, EndpointId dst) const { return impl_->paths.count({src, dst}) != 0; }

void SimGridEngine::seal() {
  impl_->zone->seal();
  impl_->sealed = true;
}

void SimGridEngine::flow(EndpointId src, EndpointId dst, double bytes, Callback done) {
  auto it = impl_->paths.find({src, dst});
  if (it == impl_->paths.end()) throw std::logic_error("SimGridEngine: flow on an undeclared path");
  ++flows_started;
  if (sg4::Engine::get_clock() < impl_->now) impl_->deferred.push_back({it->second, bytes, std::move(done)});
  else impl_->start(it->second, bytes, std::move(done));
}

void SimGridEngine::run() {
  if (!impl_->sealed) seal();
  if (!impl_->q.empty()) impl_->arm(impl_->q.top_time());
  impl_->engine->run();
  // SimGrid returns when it has nothing left to do; a wake-up the pump failed to set would lose model events silently.
  if (!impl_->q.empty() || !impl_->deferred.empty() || impl_->in_flight != 0)
    throw std::logic_error("SimGridEngine: the run ended with events or flows left (" + std::to_string(impl_->q.size()) +
                           " events, " + std::to_string(impl_->deferred.size()) + " deferred flows, " +
                           std::to_string(impl_->in_flight) + " in flight)");
}

}  // namespace ompisim::engine
