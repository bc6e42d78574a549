#include "engine/lmm_engine.hpp"

#include "engine/indexed_heap.hpp"
#include "engine/sharing_engine_defs.hpp"

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
// A resource whose remaining capacity falls below this fraction of its capacity during a solve is saturated
// (SimGrid's maxmin/precision, its default).
constexpr double kMaxminPrecision = 1e-5;
// A stream's size: at any link rate a run ends long before it would (as in the SimGrid engine).
constexpr double kStreamBytes = 1e18;

// A crossing (one hop of one flow) is an index into one pool of crossings; a flow's crossings are contiguous there
// (a flow slot keeps its range for the next flow that takes the slot, and gets a new one when that flow's path is
// longer), and a resource's crossings form a doubly linked list through the pool, newest first (SimGrid's enabled
// element set: push_front on expand, erase on free). A crossing names its flow, so walking a resource's list touches
// one crossing per step.
using Ref = std::uint32_t;
constexpr Ref kNil = ~Ref{0};
struct Hop {
  ResourceId r = 0;
  std::uint32_t flow = 0;
  Ref prev = kNil, next = kNil;
};
// Hot fields first: filling, the modified-set walk and the completion heap read the first cache line.
struct Flow {
  Ref first = 0;                    // its crossings: pool[first], ..., pool[first + hops - 1]
  std::uint32_t hops = 0, room = 0;  // path length; crossings its range holds
  std::uint32_t added = 0;          // hops linked so far (SimGrid expands a route link by link)
  std::uint32_t stamp = 0;          // solve mark
  std::uint32_t visited = 0;        // SimGrid's variable visited counter (modified-set search)
  std::uint32_t heap_pos = kNoPos;  // index in the completion heap, kNoPos when not in it
  bool fixed = false, stream = false, live = false;
  double rate = 0, date = kInf;
  std::uint64_t order = 0;  // when its date was last set: equal dates complete in this order
  double remaining = 0, rate_old = 0, last = 0;  // rate_old: since `last`
  std::uint64_t seq = 0;                         // start order
  Callback done;
};
struct Resource {
  double capacity = 0;
  Ref head = kNil;
  std::uint32_t count = 0;
  // solve scratch
  double rem = 0, share = 0;  // share: rem / unfixed while in the filling heap
  std::uint32_t unfixed = 0, stamp = 0, touched = 0;
  std::uint32_t fill_pos = kNoPos;  // index in the filling heap, kNoPos when not in it
  bool modified = false;  // in the modified list (SimGrid's modified constraint set), at index mod_pos
  std::uint32_t mod_pos = 0;
};
}  // namespace

struct LmmEngineImpl {
  explicit LmmEngineImpl(LmmEngine& engine) : e(engine), now(engine.now_) {}
  LmmEngine& e;
  double& now;  // the engine's clock
  std::uint64_t dated = 0, seq = 0, solves = 0, resolved = 0;
  std::uint32_t epoch = 0, round = 0, visited = 1;
  std::vector<Resource> res;
  std::vector<Flow> flows;
  std::vector<Hop> pool;  // every flow's crossings
  std::vector<std::uint32_t> free_flows;
  std::size_t in_flight = 0;                      // the model's flows (not streams)
  std::vector<ResourceId> modified;               // SimGrid's modified constraint set, in its order (stale entries
                                                  // have Resource::modified false or appear again later)
  bool dirty = false;                             // something was added or freed since the last solve
  std::vector<std::uint32_t> finished;            // flows ended at `now`, not yet freed (SimGrid's done actions)
  std::vector<std::uint32_t> streams_live;
  // solve scratch
  std::vector<ResourceId> comp_res, touched, saturated;
  std::vector<std::uint32_t> comp_flows;

  Hop& hop(Ref e) { return pool[e]; }
  void link_modified(ResourceId r) {
    res[r].modified = true;
    res[r].mod_pos = static_cast<std::uint32_t>(modified.size());
    modified.push_back(r);
  }
  void touch(ResourceId r) {
    if (res[r].modified) return;
    link_modified(r);
    touch_rec(r);
  }
  void touch_rec(ResourceId r);
  // SharingEngine's hooks: a resource declared, a model flow started (checked by EngineBase)
  void declare(ResourceId, const std::string&, double capacity) { res.emplace_back().capacity = capacity; }
  void start(const std::vector<ResourceId>& path, double bytes, Callback done) {
    add(path, bytes, std::move(done), false);
  }
  std::uint32_t add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream);
  void remove(std::uint32_t id);
  void solve();
  void fill();
  void schedule(std::uint32_t id, bool batch);
  void complete_at(double t);
  void start_streams() {
    for (auto& p : e.stream_paths_) streams_live.push_back(add(p, kStreamBytes, nullptr, true));
  }
  void stop_streams() {
    for (auto id : std::exchange(streams_live, {})) remove(id);
  }
  IndexedHeap<ByDate<std::vector<Flow>>> heap{{&flows}};  // completion heap
  // filling order: the least share per unfixed crossing first, ties to the lower resource id
  struct ByShare {
    LmmEngineImpl* m;
    bool before(ResourceId a, ResourceId b) const {
      const double x = m->res[a].share, y = m->res[b].share;
      return x < y || (x == y && a < b);
    }
    std::uint32_t& pos(ResourceId r) const { return m->res[r].fill_pos; }
  };
  IndexedHeap<ByShare> filling{ByShare{this}};  // each resource with unfixed crossings once
};

// SimGrid's update_modified_cnst_set_rec: a depth-first walk from a touched resource through the flows crossing it
// (newest first) to the other resources they cross, each flow walked once between two solves.
void LmmEngineImpl::touch_rec(ResourceId r) {
  for (Ref e = res[r].head; e != kNil; e = pool[e].next) {
    Flow& f = flows[pool[e].flow];
    for (std::uint32_t i = 0; i < f.added; ++i) {
      if (f.visited == visited) break;
      ResourceId o = pool[f.first + i].r;
      if (o != r && !res[o].modified) {
        link_modified(o);
        touch_rec(o);
      }
    }
    f.visited = visited;
  }
}

// SimGrid's Comm start with CM02: the variable is expanded over the route link by link; each expansion puts the new
// element first in the link's list and marks the link (and the route's first link) modified.
std::uint32_t LmmEngineImpl::add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream) {
  std::uint32_t id;
  if (free_flows.empty()) {
    id = static_cast<std::uint32_t>(flows.size());
    flows.emplace_back();
  } else {
    id = free_flows.back();
    free_flows.pop_back();
  }
  Flow& f = flows[id];
  const auto n = static_cast<std::uint32_t>(path.size());
  if (f.room < n) {
    if (pool.size() + n >= kNil) throw std::length_error("LmmEngine: more than 2^32 - 1 crossings");
    f.first = static_cast<Ref>(pool.size());
    f.room = n;
    pool.resize(pool.size() + n);
  }
  f.hops = n;
  f.added = 0;
  f.remaining = bytes;
  f.rate = 0;
  f.rate_old = 0;
  f.last = now;
  f.date = kInf;
  f.seq = seq++;
  f.fixed = false;
  f.visited = visited - 1;
  f.stream = stream;
  f.live = true;
  f.done = std::move(done);
  for (std::uint32_t i = 0; i < path.size(); ++i) {
    Resource& r = res[path[i]];
    const Ref e = f.first + i;
    Hop& h = pool[e];
    h.r = path[i];
    h.flow = id;
    h.prev = kNil;
    h.next = r.head;
    if (r.head != kNil) hop(r.head).prev = e;
    r.head = e;
    ++r.count;
    ++f.added;
    touch(path[i]);
    if (f.added > 1) touch(pool[f.first].r);
  }
  dirty = true;
  if (!stream) ++in_flight;
  return id;
}

// SimGrid's variable_free: the first link is marked modified (with the walk), then every element is erased; a link
// left with no element leaves the modified set.
void LmmEngineImpl::remove(std::uint32_t id) {
  Flow& f = flows[id];
  touch(pool[f.first].r);
  for (std::uint32_t i = 0; i < f.hops; ++i) {
    Hop& h = pool[f.first + i];
    Resource& r = res[h.r];
    if (h.prev != kNil) hop(h.prev).next = h.next;
    else r.head = h.next;
    if (h.next != kNil) hop(h.next).prev = h.prev;
    if (--r.count == 0) r.modified = false;
  }
  heap.erase(id);
  f.live = false;
  f.done = nullptr;
  f.hops = 0;
  f.added = 0;
  dirty = true;
  if (!f.stream) --in_flight;
  free_flows.push_back(id);
}

// SimGrid's lmm solve with selective update: max-min over the resources in the modified set (the connected components
// of what was touched since the last solve), then, flow by flow in SimGrid's order (resources in modified-set order,
// each resource's flows newest first), remaining bytes brought up to now at the old rate and a new completion date.
void LmmEngineImpl::solve() {
  ++solves;
  ++epoch;
  comp_res.clear();
  comp_flows.clear();
  for (std::size_t i = 0; i < modified.size(); ++i) {
    const ResourceId r = modified[i];
    Resource& R = res[r];
    if (!R.modified || R.mod_pos != i) continue;  // left the set (no flow left), or linked again later
    R.stamp = epoch;
    comp_res.push_back(r);
    for (Ref e = R.head; e != kNil; e = pool[e].next) {
      const std::uint32_t id = pool[e].flow;
      Flow& f = flows[id];
      if (f.stamp == epoch) continue;
      f.stamp = epoch;
      comp_flows.push_back(id);
    }
  }
  for (auto r : comp_res) res[r].modified = false;
  modified.clear();
  dirty = false;
  ++visited;
  resolved += comp_flows.size();
  fill();
  // most of the heap re-dated: rebuild it once instead of moving each flow (the same completion order: dates and
  // `order` are a strict order)
  const bool batch = 2 * comp_flows.size() > heap.size();
  for (auto id : comp_flows) {
    Flow& f = flows[id];
    if (f.rate_old > 0 && f.remaining > 0) {
      f.remaining -= f.rate_old * (now - f.last);
      if (f.remaining < kRemainsPrecision) f.remaining = 0;
    }
    f.last = now;
    f.rate_old = f.rate;
    schedule(id, batch);
  }
  if (batch) heap.rebuild();
}

// Progressive filling: the resource with the smallest remaining capacity per unfixed crossing saturates first; its
// unfixed flows get that share, which is taken from every other resource they cross; repeat. A flow crossing a
// resource twice counts twice there (as SimGrid's two elements of weight 1).
void LmmEngineImpl::fill() {
  for (auto id : comp_flows) {
    flows[id].fixed = false;
    flows[id].rate = 0;  // SimGrid sets every value to 0 before filling
  }
  for (auto r : comp_res) {
    Resource& R = res[r];
    R.rem = R.capacity;
    R.unfixed = R.count;
    if (R.unfixed == 0) continue;
    R.share = R.rem / R.unfixed;
    filling.set(r);
  }
  while (!filling.empty()) {
    // every resource whose share equals the least exactly saturates in this round, all at that share
    const double v = res[filling.front()].share;
    saturated.clear();
    while (!filling.empty() && res[filling.front()].share == v) {
      saturated.push_back(filling.front());
      filling.erase(filling.front());
    }
    ++round;
    touched.clear();
    for (auto sr : saturated) {
      for (Ref e = res[sr].head; e != kNil; e = pool[e].next) {
        Flow& f = flows[pool[e].flow];
        if (f.fixed) continue;
        f.fixed = true;
        f.rate = v;
        for (Ref k = f.first; k != f.first + f.hops; ++k) {
          const ResourceId hr = pool[k].r;
          Resource& o = res[hr];
          o.rem -= v;  // SimGrid's double_update: below maxmin/precision x capacity counts as saturated
          if (o.rem < o.capacity * kMaxminPrecision) o.rem = 0;
          --o.unfixed;
          if (o.touched != round) {
            o.touched = round;
            touched.push_back(hr);
          }
        }
      }
      res[sr].unfixed = 0;
    }
    for (auto r : touched) {
      Resource& o = res[r];
      if (o.unfixed == 0 || o.rem <= o.capacity * kMaxminPrecision || o.stamp != epoch) {
        filling.erase(r);
        continue;
      }
      o.share = o.rem / o.unfixed;
      filling.set(r);
    }
  }
}

// A flow's completion date from its remaining bytes and rate (none without a rate), in the completion heap; `batch`:
// unordered, for a heap.rebuild() after the solve.
void LmmEngineImpl::schedule(std::uint32_t id, bool batch) {
  Flow& f = flows[id];
  if (f.stream) return;
  if (f.remaining <= 0) f.date = now;
  else if (f.rate > 0) f.date = now + f.remaining / f.rate;
  else {
    if (batch) heap.remove(id);
    else heap.erase(id);
    return;
  }
  f.order = dated++;
  if (batch) heap.append(id);
  else heap.set(id);
}

// Advances to `t` and ends every flow whose completion date is within kTimingPrecision of it, in completion order;
// they stay on their resources until wake_ended (SimGrid frees them after its timers have run, in
// wake_all_waiting_actors).
void LmmEngineImpl::complete_at(double t) {
  now = t;
  while (!heap.empty() && flows[heap.front()].date - t < LmmEngine::kTimingPrecision) {
    std::uint32_t id = heap.front();
    heap.erase(id);
    finished.push_back(id);
  }
}

template class SharingEngine<LmmEngineImpl>;

LmmEngine::LmmEngine() : SharingEngine("LmmEngine", *this) {}

std::uint64_t LmmEngine::solves() const { return impl_->solves; }
std::uint64_t LmmEngine::flows_resolved() const { return impl_->resolved; }

std::vector<double> LmmEngine::rates() {
  return flow_rates([](const Flow& f) { return f.rate; });
}

// One step of SimGrid's main loop per iteration: solve what changed, advance to the next event or completion
// (exactly to an event's date, by the distance to a completion date otherwise), end the flows due, then run the
// model's events due (SimGrid's timers), free the ended flows and queue their callbacks, and run those too (the
// timer they arm is due at once). With no model flow in flight the run jumps to the next event.
void LmmEngine::run() {
  Impl& m = *impl_;
  if (!sealed_) seal();
  if (!q_.empty()) m.start_streams();
  for (;;) {
    if (m.dirty) m.solve();
    const double tq = next_model_time();
    if (m.in_flight == 0) {
      if (model_idle()) break;
      now_ = std::max(now_, tq);
    } else {
      const double tf = m.heap.empty() ? kInf : m.flows[m.heap.front()].date;
      if (tf == kInf && tq == kInf)
        throw std::logic_error("LmmEngine: " + std::to_string(m.in_flight) + " flows in flight that never end");
      // SimGrid's step (EngineImpl::solve): the distance to the wake-up at the next event, shortened to the distance
      // to the next completion when that is strictly less; the clock moves by that distance (so it can stop one
      // rounding step short of the event's date: the event then waits for the next step)
      double delta = tq - now_;
      if (tq == kInf || tf - now_ < delta) delta = tf - now_;
      m.complete_at(now_ + delta);
    }
    run_due([this, &m] { wake_ended(m.finished, m.flows, [&m](std::uint32_t id) { m.remove(id); }); });
  }
  m.stop_streams();
}

}  // namespace ompisim::engine
