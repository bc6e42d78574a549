#include "engine/simgrid_engine.hpp"

#include <map>
#include <set>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <stdexcept>
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
  std::vector<sg4::Host*> hosts;
  std::set<std::pair<EndpointId, EndpointId>> paths;
  bool sealed = false;
};

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
  impl_->zone = sg4::create_full_zone("ompisim");
  sg4::Activity::on_completion_cb([](sg4::Activity const& a) {
    auto* f = a.get_data<FlowData>();
    if (!f) return;
    // Run the model's callback from a timer, outside SimGrid's completion handling (starting or freeing comms
    // inside it crashes 3.32 when several flows end at the same instant); the timer keeps the Comm alive until then.
    const_cast<sg4::Activity&>(a).set_data(nullptr);
    simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(), [f] {
      Callback cb = std::move(f->done);
      f->self = nullptr;
      delete f;
      cb();
    });
  });
}

SimGridEngine::~SimGridEngine() = default;

double SimGridEngine::now() const { return sg4::Engine::get_clock(); }

void SimGridEngine::at(double t, Callback cb) {
  ++events_scheduled;
  double now = sg4::Engine::get_clock();
  simgrid::kernel::timer::Timer::set(t < now ? now : t, std::move(cb));
}

ResourceId SimGridEngine::add_resource(const std::string& name, double capacity) {
  if (impl_->sealed) throw std::logic_error("SimGridEngine: add_resource after seal");
  auto* l = impl_->zone->create_link(name, capacity)->set_latency(0)->seal();
  impl_->links.push_back(l);
  return static_cast<ResourceId>(impl_->links.size() - 1);
}

EndpointId SimGridEngine::add_endpoint(const std::string& name) {
  if (impl_->sealed) throw std::logic_error("SimGridEngine: add_endpoint after seal");
  impl_->hosts.push_back(impl_->zone->create_host(name, 1e9)->seal());
  return static_cast<EndpointId>(impl_->hosts.size() - 1);
}

void SimGridEngine::add_path(EndpointId src, EndpointId dst, const std::vector<ResourceId>& resources) {
  if (impl_->sealed) throw std::logic_error("SimGridEngine: add_path after seal");
  if (!impl_->paths.insert({src, dst}).second) return;
  std::vector<sg4::LinkInRoute> route;
  for (auto r : resources) route.emplace_back(impl_->links.at(r));
  impl_->zone->add_route(impl_->hosts.at(src)->get_netpoint(), impl_->hosts.at(dst)->get_netpoint(), nullptr, nullptr,
                         route, false);
}

bool SimGridEngine::has_path(EndpointId src, EndpointId dst) const { return impl_->paths.count({src, dst}) != 0; }

void SimGridEngine::seal() {
  impl_->zone->seal();
  impl_->sealed = true;
}

void SimGridEngine::flow(EndpointId src, EndpointId dst, double bytes, Callback done) {
  if (!impl_->paths.count({src, dst})) throw std::logic_error("SimGridEngine: flow on an undeclared path");
  ++flows_started;
  auto* f = new FlowData{std::move(done), nullptr};
  sg4::CommPtr c = sg4::Comm::sendto_init(impl_->hosts[src], impl_->hosts[dst]);
  c->set_payload_size(bytes);
  c->set_data(f);
  f->self = c;
  c->start();
}

void SimGridEngine::run() {
  if (!impl_->sealed) seal();
  impl_->engine->run();
}

}  // namespace ompisim::engine
