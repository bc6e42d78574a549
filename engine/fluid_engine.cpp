#include "engine/fluid_engine.hpp"

#include "core/progress.hpp"
#include "core/trace.hpp"
#include "engine/event_queue.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ompisim::engine {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNoPos = std::numeric_limits<std::uint32_t>::max();
// Remaining bytes below this count as zero (SimGrid's work-amount precision times its timing precision, as the
// SimGrid engine configures them: 1e-5 x 1e-12).
constexpr double kRemainsPrecision = 1e-17;
// A stream's size: at any link rate a run ends long before it would (as in the SimGrid engine).
constexpr double kStreamBytes = 1e18;

struct Hop {
  ResourceId r;
  std::uint32_t pos;  // index of this crossing in the resource's crossing list
};
struct Flow {
  std::vector<Hop> hops;
  double remaining = 0, rate = 0, last = 0, date = kInf;
  std::uint64_t seq = 0;            // start order: equal completion dates complete in this order
  std::uint32_t stamp = 0;          // component search mark
  std::uint32_t heap_pos = kNoPos;  // index in the completion heap, kNoPos when not in it
  bool fixed = false, stream = false, live = false;
  Callback done;
};
struct Crossing {
  std::uint32_t flow, hop;  // which flow, and which of its hops
};
struct Resource {
  double capacity = 0;
  std::vector<Crossing> crossing;
  // solve scratch
  double rem = 0;
  std::uint32_t unfixed = 0, stamp = 0, version = 0, touched = 0;
  bool dirty = false;
};
struct Ratio {
  double ratio;
  ResourceId r;
  std::uint32_t version;
  bool operator>(const Ratio& o) const { return ratio > o.ratio || (ratio == o.ratio && r > o.r); }
};
}  // namespace

struct FluidEngine::Impl {
  EventQueue q;
  double now = 0;
  bool sealed = false;
  std::uint64_t events_run = 0, seq = 0, solves = 0, resolved = 0;
  std::uint32_t epoch = 0, round = 0;
  std::vector<Resource> res;
  std::vector<Flow> flows;
  std::vector<std::uint32_t> free_flows;
  std::size_t in_flight = 0;                      // the model's flows (not streams)
  std::vector<std::uint32_t> heap;                // completion heap of flow ids, by (date, seq)
  std::vector<ResourceId> dirty;                  // resources whose crossing changed since the last solve
  std::vector<Callback> finished;                 // completions at `now` whose callbacks have not been queued yet
  std::vector<std::vector<ResourceId>> stream_paths;
  std::vector<std::uint32_t> streams_live;
  // solve scratch
  std::vector<ResourceId> comp_res, touched;
  std::vector<std::uint32_t> comp_flows;
  std::vector<Ratio> ratios;

  void check_path(const std::vector<ResourceId>& path, const char* what) const {
    if (path.empty()) throw std::logic_error(std::string("FluidEngine: ") + what + " on an empty path");
    for (auto r : path)
      if (r >= res.size()) throw std::logic_error(std::string("FluidEngine: ") + what + " over an undeclared resource");
  }
  void mark(ResourceId r) {
    if (!res[r].dirty) {
      res[r].dirty = true;
      dirty.push_back(r);
    }
  }
  std::uint32_t add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream);
  void remove(std::uint32_t id);
  void solve();
  void fill();
  void schedule(std::uint32_t id);
  void complete_at(double t);
  void start_streams() {
    for (auto& p : stream_paths) streams_live.push_back(add(p, kStreamBytes, nullptr, true));
  }
  void stop_streams() {
    for (auto id : streams_live) remove(id);
    streams_live.clear();
  }
  // completion heap (binary, positions kept in the flows)
  bool before(std::uint32_t a, std::uint32_t b) const {
    const Flow &x = flows[a], &y = flows[b];
    return x.date < y.date || (x.date == y.date && x.seq < y.seq);
  }
  void place(std::size_t i, std::uint32_t id) {
    heap[i] = id;
    flows[id].heap_pos = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i);
  void sift_down(std::size_t i);
  void heap_set(std::uint32_t id);  // insert or reposition after a date change
  void heap_erase(std::uint32_t id);
};

void FluidEngine::Impl::sift_up(std::size_t i) {
  const std::uint32_t id = heap[i];
  while (i > 0) {
    std::size_t p = (i - 1) / 2;
    if (!before(id, heap[p])) break;
    place(i, heap[p]);
    i = p;
  }
  place(i, id);
}

void FluidEngine::Impl::sift_down(std::size_t i) {
  const std::uint32_t id = heap[i];
  const std::size_t n = heap.size();
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(heap[c + 1], heap[c])) ++c;
    if (!before(heap[c], id)) break;
    place(i, heap[c]);
    i = c;
  }
  place(i, id);
}

void FluidEngine::Impl::heap_set(std::uint32_t id) {
  std::uint32_t pos = flows[id].heap_pos;
  if (pos == kNoPos) {
    heap.push_back(id);
    sift_up(heap.size() - 1);
    return;
  }
  sift_up(pos);
  sift_down(flows[id].heap_pos);
}

void FluidEngine::Impl::heap_erase(std::uint32_t id) {
  std::uint32_t pos = flows[id].heap_pos;
  if (pos == kNoPos) return;
  flows[id].heap_pos = kNoPos;
  std::uint32_t last = heap.back();
  heap.pop_back();
  if (last == id) return;
  place(pos, last);
  sift_up(pos);
  sift_down(flows[last].heap_pos);
}

std::uint32_t FluidEngine::Impl::add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream) {
  std::uint32_t id;
  if (free_flows.empty()) {
    id = static_cast<std::uint32_t>(flows.size());
    flows.emplace_back();
  } else {
    id = free_flows.back();
    free_flows.pop_back();
  }
  Flow& f = flows[id];
  f.hops.clear();
  for (std::uint32_t i = 0; i < path.size(); ++i) {
    Resource& r = res[path[i]];
    f.hops.push_back({path[i], static_cast<std::uint32_t>(r.crossing.size())});
    r.crossing.push_back({id, i});
    mark(path[i]);
  }
  f.remaining = bytes;
  f.rate = 0;
  f.last = now;
  f.date = kInf;
  f.seq = seq++;
  f.stream = stream;
  f.live = true;
  f.done = std::move(done);
  if (!stream) ++in_flight;
  return id;
}

void FluidEngine::Impl::remove(std::uint32_t id) {
  Flow& f = flows[id];
  for (const Hop& h : f.hops) {
    Resource& r = res[h.r];
    Crossing last = r.crossing.back();
    r.crossing[h.pos] = last;
    flows[last.flow].hops[last.hop].pos = h.pos;
    r.crossing.pop_back();
    mark(h.r);
  }
  heap_erase(id);
  f.live = false;
  f.done = nullptr;
  if (!f.stream) --in_flight;
  free_flows.push_back(id);
}

// Max-min over the connected component of the resources touched since the last solve: brings the component's flows'
// remaining bytes up to now at their old rates, fills progressively (fill), and sets their completion dates.
void FluidEngine::Impl::solve() {
  ++solves;
  ++epoch;
  comp_res.clear();
  comp_flows.clear();
  for (auto r : dirty) {
    res[r].dirty = false;
    if (res[r].stamp != epoch) {
      res[r].stamp = epoch;
      comp_res.push_back(r);
    }
  }
  dirty.clear();
  for (std::size_t i = 0; i < comp_res.size(); ++i) {
    for (const Crossing& c : res[comp_res[i]].crossing) {
      Flow& f = flows[c.flow];
      if (f.stamp == epoch) continue;
      f.stamp = epoch;
      comp_flows.push_back(c.flow);
      for (const Hop& h : f.hops)
        if (res[h.r].stamp != epoch) {
          res[h.r].stamp = epoch;
          comp_res.push_back(h.r);
        }
    }
  }
  resolved += comp_flows.size();
  for (auto id : comp_flows) {
    Flow& f = flows[id];
    if (f.rate > 0 && f.remaining > 0) {
      f.remaining -= f.rate * (now - f.last);
      if (f.remaining < kRemainsPrecision) f.remaining = 0;
    }
    f.last = now;
    f.fixed = false;
  }
  fill();
  for (auto id : comp_flows) schedule(id);
}

// Progressive filling: the resource with the smallest remaining capacity per unfixed crossing saturates first; its
// unfixed flows get that share, which is taken from every other resource they cross; repeat. A flow crossing a
// resource twice counts twice there (as SimGrid's two elements of weight 1).
void FluidEngine::Impl::fill() {
  ratios.clear();
  for (auto r : comp_res) {
    Resource& R = res[r];
    R.rem = R.capacity;
    R.unfixed = static_cast<std::uint32_t>(R.crossing.size());
    ++R.version;
    if (R.unfixed > 0) ratios.push_back({R.rem / R.unfixed, r, R.version});
  }
  std::make_heap(ratios.begin(), ratios.end(), std::greater<>());
  while (!ratios.empty()) {
    std::pop_heap(ratios.begin(), ratios.end(), std::greater<>());
    Ratio top = ratios.back();
    ratios.pop_back();
    Resource& R = res[top.r];
    if (top.version != R.version || R.unfixed == 0) continue;
    const double v = top.ratio;
    ++round;
    touched.clear();
    for (const Crossing& c : R.crossing) {
      Flow& f = flows[c.flow];
      if (f.fixed) continue;
      f.fixed = true;
      f.rate = v;
      for (const Hop& h : f.hops) {
        Resource& o = res[h.r];
        o.rem -= v;
        --o.unfixed;
        if (o.touched != round) {
          o.touched = round;
          touched.push_back(h.r);
        }
      }
    }
    R.unfixed = 0;
    for (auto r : touched) {
      Resource& o = res[r];
      if (r == top.r || o.unfixed == 0) continue;
      ++o.version;
      ratios.push_back({std::max(o.rem, 0.0) / o.unfixed, r, o.version});
      std::push_heap(ratios.begin(), ratios.end(), std::greater<>());
    }
  }
}

void FluidEngine::Impl::schedule(std::uint32_t id) {
  Flow& f = flows[id];
  if (f.stream) return;
  if (f.remaining <= 0) f.date = now;
  else if (f.rate > 0) f.date = now + f.remaining / f.rate;
  else {
    heap_erase(id);
    return;
  }
  heap_set(id);
}

// Advances to `t` and ends every flow whose completion date is within kTimingPrecision of it; their callbacks wait in
// `finished` until the model's events at `t` have run.
void FluidEngine::Impl::complete_at(double t) {
  now = t;
  while (!heap.empty() && flows[heap.front()].date < t + kTimingPrecision) {
    std::uint32_t id = heap.front();
    finished.push_back(std::move(flows[id].done));
    remove(id);
  }
}

FluidEngine::FluidEngine() : impl_(std::make_unique<Impl>()) {}
FluidEngine::~FluidEngine() = default;

double FluidEngine::now() const { return impl_->now; }

void FluidEngine::at(double t, Callback cb) {
  ++events_scheduled;
  impl_->q.push(std::max(t, impl_->now), std::move(cb));
}

ResourceId FluidEngine::add_resource(const std::string& name, double capacity) {
  if (impl_->sealed) throw std::logic_error("FluidEngine: add_resource '" + name + "' after seal");
  if (!(capacity > 0)) throw std::invalid_argument("FluidEngine: resource '" + name + "' needs a capacity > 0");
  impl_->res.emplace_back();
  impl_->res.back().capacity = capacity;
  auto id = static_cast<ResourceId>(impl_->res.size() - 1);
  if (trace) trace->resource(id, name);
  return id;
}

void FluidEngine::seal() { impl_->sealed = true; }

void FluidEngine::flow(const std::vector<ResourceId>& path, double bytes, Callback done) {
  if (!impl_->sealed) throw std::logic_error("FluidEngine: flow before seal");
  impl_->check_path(path, "flow");
  ++flows_started;
  if (trace) done = traced_flow(*this, path, bytes, std::move(done));
  impl_->add(path, bytes, std::move(done), false);
}

void FluidEngine::stream(const std::vector<ResourceId>& path) {
  impl_->check_path(path, "stream");
  ++streams;
  impl_->stream_paths.push_back(path);
}

std::uint64_t FluidEngine::solves() const { return impl_->solves; }
std::uint64_t FluidEngine::flows_resolved() const { return impl_->resolved; }

std::vector<double> FluidEngine::rates() {
  Impl& m = *impl_;
  if (!m.dirty.empty()) m.solve();
  std::vector<std::pair<std::uint64_t, double>> live;
  for (const Flow& f : m.flows)
    if (f.live && !f.stream) live.emplace_back(f.seq, f.rate);
  std::sort(live.begin(), live.end());
  std::vector<double> out;
  for (auto& [s, r] : live) out.push_back(r);
  return out;
}

// The model's events at the current date run first, then the callbacks of the flows that ended at it (SimGrid runs
// its timers before it hands out completions), then the flows are solved once for the date and the run advances to
// the next event or completion, whichever is earlier.
void FluidEngine::run() {
  Impl& m = *impl_;
  if (!m.sealed) seal();
  if (!m.q.empty()) m.start_streams();
  for (;;) {
    while (!m.q.empty() && m.q.top_time() <= m.now) {
      m.q.run_top();
      if ((++m.events_run & 0xFFFF) == 0 && progress::enabled()) progress::sim_tick(m.now, m.events_run);
    }
    if (!m.finished.empty()) {
      for (auto& cb : m.finished) m.q.push(m.now, std::move(cb));
      m.finished.clear();
      continue;
    }
    const double tq = m.q.empty() ? kInf : m.q.top_time();
    if (m.in_flight == 0) {
      if (m.q.empty()) break;
      m.now = tq;  // no flow in flight: nothing can end before the next event
      continue;
    }
    if (!m.dirty.empty()) m.solve();
    const double tf = m.heap.empty() ? kInf : m.flows[m.heap.front()].date;
    if (tf == kInf && tq == kInf)
      throw std::logic_error("FluidEngine: " + std::to_string(m.in_flight) + " flows in flight that never end");
    // As SimGrid's clock moves: by the distance to the next completion date (or exactly to the next event's date).
    m.complete_at(tq <= tf ? tq : m.now + (tf - m.now));
  }
  m.stop_streams();
}

}  // namespace ompisim::engine
