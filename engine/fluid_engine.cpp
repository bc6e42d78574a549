#include "engine/fluid_engine.hpp"

#include "core/progress.hpp"
#include "core/trace.hpp"
#include "engine/event_queue.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ompisim::engine {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNoPos = std::numeric_limits<std::uint32_t>::max();
constexpr ResourceId kNoRes = std::numeric_limits<ResourceId>::max();
// Remaining bytes below this count as zero (SimGrid's work-amount precision
// times its timing precision, as the SimGrid engine configures them: 1e-5 x
// 1e-12).
constexpr double kRemainsPrecision = 1e-17;
// A stream's size: at any link rate a run ends long before it would (as in the
// SimGrid engine).
constexpr double kStreamBytes = 1e18;
// A rate that moved by less than this (relative) in a local solve does not make
// the flows bottlenecked beside it re-solve (the allocation stays max-min
// within this relative error).
constexpr double kRateTolerance = 1e-12;
// Expansion rounds of a local solve before it falls back to the whole connected
// component.
constexpr int kMaxRounds = 6;

// A crossing (one hop of one flow) is named by (flow << 16 | hop); a resource's
// crossings form a doubly linked list.
using Ref = std::uint64_t;
constexpr Ref kNil = ~Ref{0};
constexpr std::size_t kMaxHops = 1u << 16;
struct Hop {
  ResourceId r;
  Ref prev = kNil, next = kNil;
};
struct Flow {
  std::vector<Hop> hops;
  double remaining = 0, rate = 0, last = 0,
         date = kInf;               // remaining bytes at `last`, sent at `rate` since
  double fresh = 0;                 // solve scratch: the rate the solve gives
  std::uint64_t order = 0;          // when its date was last set (heap tie-break; delivery is by seq)
  std::uint64_t seq = 0;            // start order
  std::uint32_t stamp = 0;          // solve mark: in the solved set F
  std::uint32_t heap_pos = kNoPos;  // index in the completion heap, kNoPos when not in it
  ResourceId bn = kNoRes,
             bn_fresh = kNoRes;  // the resource that fixed its rate (its
                                 // bottleneck), and the solve's
  bool fixed = false, stream = false, live = false,
       pending = false;  // pending: started, not solved yet
  Callback done;
};
struct Resource {
  double capacity = 0;
  double load = 0;  // sum of the rates of the flows crossing it (per crossing)
  Ref head = kNil;
  std::uint32_t count = 0;  // crossings
  std::uint32_t nbn = 0;    // flows whose bottleneck it is
  // solve scratch
  double rem = 0, old_f = 0;
  std::uint32_t unfixed = 0, stamp = 0, touched = 0, in_s = 0, f_cross = 0, f_bn = 0;
  std::uint32_t fill_pos = kNoPos;  // index in the filling heap, kNoPos when not in it
  bool fixed_here = false, changed = false;
};
// A resource's share per unfixed crossing in the progressive filling, ordered by (share, resource id).
struct Ratio {
  double ratio;
  ResourceId r;
  bool operator<(const Ratio& o) const { return ratio < o.ratio || (ratio == o.ratio && r < o.r); }
};
}  // namespace

struct FluidEngine::Impl {
  EventQueue q;
  double now = 0;
  bool sealed = false;
  std::uint64_t events_run = 0, dated = 0, seq = 0, solves = 0, resolved = 0, fallbacks = 0;
  std::uint32_t epoch = 0, round = 0;
  // solve window (0: exact): the last solve's date, the first unsolved change since, what waiting cost
  double window = 0, last_solve = -kInf, dirty_since = 0;
  double start_wait_max = 0, start_wait_sum = 0, change_wait_max = 0;
  std::uint64_t starts_waited = 0, starts_solved = 0;
  std::vector<Resource> res;
  std::vector<Flow> flows;
  std::vector<std::uint32_t> free_flows;
  std::size_t in_flight = 0;              // the model's flows (not streams)
  std::vector<std::uint32_t> heap;        // completion heap of flow ids, by (date, order)
  std::vector<ResourceId> seed_res;       // resources whose flows must be re-solved
                                          // (an end freed capacity)
  std::vector<std::uint32_t> seed_flows;  // flows started since the last solve
  bool dirty = false;                     // something was added or freed since the last solve
  std::vector<std::uint32_t> finished;    // flows ended at `now`, not yet freed
  std::vector<std::uint32_t> by_seq;      // scratch: `finished` in start order
  std::vector<std::vector<ResourceId>> stream_paths;
  std::vector<std::uint32_t> streams_live;
  // solve scratch
  std::vector<ResourceId> set_s, set_b, comp_res, touched;
  std::vector<std::uint32_t> comp_flows;
  std::vector<Ratio> ratios;  // the filling heap: one entry per resource with unfixed crossings, indexed (fill_pos)

  void check_path(const std::vector<ResourceId>& path, const char* what) const {
    if (path.empty()) throw std::logic_error(std::string("FluidEngine: ") + what + " on an empty path");
    for (auto r : path)
      if (r >= res.size()) throw std::logic_error(std::string("FluidEngine: ") + what + " over an undeclared resource");
  }
  Hop& hop(Ref e) { return flows[e >> 16].hops[e & 0xFFFF]; }
  std::uint32_t add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream);
  void remove(std::uint32_t id);
  void wake_all();
  void mark_dirty() {
    if (!dirty) dirty_since = now;
    dirty = true;
  }
  bool solve_due() const { return dirty && (window == 0 || now >= last_solve + window); }
  void note_waits();
  void solve();
  bool solve_round(bool whole);
  void gather(bool whole);
  void fill();
  bool check_boundary();
  void commit();
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
    return x.date < y.date || (x.date == y.date && x.order < y.order);
  }
  void place(std::size_t i, std::uint32_t id) {
    heap[i] = id;
    flows[id].heap_pos = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i);
  void sift_down(std::size_t i);
  void heap_set(std::uint32_t id);  // insert or reposition after a date change
  void heap_erase(std::uint32_t id);
  // filling heap (binary, min by (ratio, r), positions kept in the resources)
  void fill_place(std::size_t i, const Ratio& x) {
    ratios[i] = x;
    res[x.r].fill_pos = static_cast<std::uint32_t>(i);
  }
  void fill_sift_up(std::size_t i);
  void fill_sift_down(std::size_t i);
  void fill_update(ResourceId r, double ratio);  // insert, or move after its ratio changed
  void fill_erase(ResourceId r);
  Ratio fill_pop();
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

// A flow start links its crossings (newest first in each resource's list) and
// waits for the next solve, which gives it a rate.
std::uint32_t FluidEngine::Impl::add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream) {
  if (path.size() > kMaxHops) throw std::logic_error("FluidEngine: a path of more than 65,536 resources");
  std::uint32_t id;
  if (free_flows.empty()) {
    id = static_cast<std::uint32_t>(flows.size());
    flows.emplace_back();
  } else {
    id = free_flows.back();
    free_flows.pop_back();
  }
  Flow& f = flows[id];
  f.hops.assign(path.size(), Hop{});
  f.remaining = bytes;
  f.rate = 0;
  f.last = now;
  f.date = kInf;
  f.seq = seq++;
  f.fixed = false;
  f.bn = kNoRes;
  f.stream = stream;
  f.live = true;
  f.pending = true;
  f.done = std::move(done);
  for (std::uint32_t i = 0; i < path.size(); ++i) {
    Resource& r = res[path[i]];
    const Ref e = (Ref{id} << 16) | i;
    Hop& h = f.hops[i];
    h.r = path[i];
    h.next = r.head;
    if (r.head != kNil) hop(r.head).prev = e;
    r.head = e;
    ++r.count;
  }
  seed_flows.push_back(id);
  mark_dirty();
  if (!stream) ++in_flight;
  return id;
}

// A flow end frees its rate on every resource it crosses; a resource that is
// still some flow's bottleneck is where the freed capacity can go, so the next
// solve starts there.
void FluidEngine::Impl::remove(std::uint32_t id) {
  Flow& f = flows[id];
  if (f.bn != kNoRes) --res[f.bn].nbn;
  for (Hop& h : f.hops) {
    Resource& r = res[h.r];
    if (h.prev != kNil)
      hop(h.prev).next = h.next;
    else
      r.head = h.next;
    if (h.next != kNil) hop(h.next).prev = h.prev;
    r.load -= f.rate;
    if (--r.count == 0)
      r.load = 0;
    else if (r.nbn > 0)
      seed_res.push_back(h.r);
  }
  heap_erase(id);
  f.live = false;
  f.done = nullptr;
  f.hops.clear();
  mark_dirty();
  if (!f.stream) --in_flight;
  free_flows.push_back(id);
}

// The flows that ended are freed; their callbacks are queued at the current
// date in start order (the canonical order at equal dates, as in the SimGrid
// engine).
void FluidEngine::Impl::wake_all() {
  if (finished.empty()) return;
  by_seq.assign(finished.begin(), finished.end());
  std::sort(by_seq.begin(), by_seq.end(),
            [this](std::uint32_t a, std::uint32_t b) { return flows[a].seq < flows[b].seq; });
  for (auto id : by_seq) q.push(now, std::move(flows[id].done));
  for (auto id : finished) remove(id);
  finished.clear();
}

// Max-min again after the starts and ends of one date, locally: the solved set
// F is the flows started and the flows crossing the seed resources S (where an
// end freed capacity under some flow's bottleneck); the resources F crosses
// outside S (the boundary B) keep the rates of the flows outside F and offer F
// only the rest. The result is the global max-min allocation unless a boundary
// resource with flows outside F fixed a flow of F (it saturates: its other
// flows may have to slow down) or changed under flows outside F that it
// bottlenecks (they may have to speed up or slow down); those resources join S
// and the round starts again. After kMaxRounds rounds the whole connected
// component is solved.
void FluidEngine::Impl::solve() {
  ++solves;
  if (window > 0) note_waits();
  last_solve = now;
  bool ok = false;
  for (int i = 0; i < kMaxRounds && !ok; ++i) ok = solve_round(false);
  if (!ok) {
    ++fallbacks;
    solve_round(true);
  }
  seed_res.clear();
  seed_flows.clear();
  dirty = false;
}

// With a window: how long the changes solved now waited (the starts, each from its start date; any change, from
// the first one after the previous solve).
void FluidEngine::Impl::note_waits() {
  change_wait_max = std::max(change_wait_max, now - dirty_since);
  for (auto id : seed_flows) {
    const Flow& f = flows[id];
    if (!f.live || !f.pending || f.stream) continue;
    const double w = now - f.last;
    ++starts_solved;
    if (w > 0) ++starts_waited;
    start_wait_sum += w;
    start_wait_max = std::max(start_wait_max, w);
  }
}

bool FluidEngine::Impl::solve_round(bool whole) {
  gather(whole);
  resolved += comp_flows.size();
  fill();
  if (!whole && !check_boundary()) return false;
  commit();
  return true;
}

// Builds S (set_s), F (comp_flows) and B (set_b), and each resource's capacity
// offered to F. `whole`: S is closed over the connected component (every
// resource of every flow of F), so B is empty.
void FluidEngine::Impl::gather(bool whole) {
  ++epoch;
  set_s.clear();
  set_b.clear();
  comp_flows.clear();
  auto add_s = [this](ResourceId r) {
    if (res[r].in_s == epoch) return;
    res[r].in_s = epoch;
    set_s.push_back(r);
  };
  auto add_f = [this](std::uint32_t id) {
    Flow& f = flows[id];
    if (!f.live || f.stamp == epoch) return;
    f.stamp = epoch;
    comp_flows.push_back(id);
  };
  for (auto r : seed_res) add_s(r);
  for (auto id : seed_flows) {
    add_f(id);
    // a started flow takes capacity from the flows bottlenecked on its path:
    // solve them at once
    if (flows[id].live)
      for (const Hop& h : flows[id].hops)
        if (res[h.r].nbn > 0) add_s(h.r);
  }
  std::size_t si = 0, fi = 0;
  do {
    for (; si < set_s.size(); ++si)
      for (Ref e = res[set_s[si]].head; e != kNil; e = hop(e).next) add_f(static_cast<std::uint32_t>(e >> 16));
    if (whole)
      for (; fi < comp_flows.size(); ++fi)
        for (const Hop& h : flows[comp_flows[fi]].hops) add_s(h.r);
  } while (whole && si < set_s.size());
  for (auto r : set_s) {
    Resource& R = res[r];
    R.stamp = epoch;
    R.rem = R.capacity;
    R.unfixed = R.count;
  }
  for (auto id : comp_flows) {
    const Flow& f = flows[id];
    for (const Hop& h : f.hops) {
      Resource& R = res[h.r];
      if (R.in_s == epoch) continue;
      if (R.stamp != epoch) {
        R.stamp = epoch;
        R.old_f = 0;
        R.f_cross = R.f_bn = 0;
        R.changed = false;
        set_b.push_back(h.r);
      }
      R.old_f += f.rate;
      ++R.f_cross;
    }
    if (f.bn != kNoRes && res[f.bn].in_s != epoch) ++res[f.bn].f_bn;  // once per flow, even if it crosses bn twice
  }
  for (auto r : set_b) {
    Resource& R = res[r];
    R.rem = R.f_cross == R.count ? R.capacity : std::max(R.capacity - (R.load - R.old_f), 0.0);
    R.unfixed = R.f_cross;
  }
}

// Progressive filling over S and B for the flows of F: the resource with the
// smallest remaining capacity per unfixed crossing saturates first; its unfixed
// flows get that share, which is taken from every other resource they cross;
// repeat. A flow crossing a resource twice counts twice there (as SimGrid's two
// elements of weight 1).
void FluidEngine::Impl::fill() {
  ratios.clear();
  for (auto id : comp_flows) flows[id].fixed = false;
  for (auto* set : {&set_s, &set_b})
    for (auto r : *set) {
      Resource& R = res[r];
      R.fixed_here = false;
      R.fill_pos = kNoPos;
      if (R.unfixed > 0) {
        R.fill_pos = static_cast<std::uint32_t>(ratios.size());
        ratios.push_back({R.rem / R.unfixed, r});
      }
    }
  for (std::size_t i = ratios.size() / 2; i-- > 0;) fill_sift_down(i);
  while (!ratios.empty()) {
    const Ratio top = fill_pop();
    Resource& R = res[top.r];
    const double v = top.ratio;
    ++round;
    touched.clear();
    R.fixed_here = true;
    for (Ref e = R.head; e != kNil; e = hop(e).next) {
      Flow& f = flows[e >> 16];
      if (f.fixed || f.stamp != epoch) continue;
      f.fixed = true;
      f.fresh = v;
      f.bn_fresh = top.r;
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
      if (r == top.r) continue;
      if (o.unfixed == 0)
        fill_erase(r);
      else
        fill_update(r, std::max(o.rem, 0.0) / o.unfixed);
    }
  }
}

// The filling heap holds each resource of S and B that has unfixed crossings once, with its current share: the
// resource that saturates next is at its top, in the order (share, id), as a lazy heap of stale entries would give.
void FluidEngine::Impl::fill_sift_up(std::size_t i) {
  const Ratio x = ratios[i];
  while (i > 0) {
    std::size_t p = (i - 1) / 2;
    if (!(x < ratios[p])) break;
    fill_place(i, ratios[p]);
    i = p;
  }
  fill_place(i, x);
}

void FluidEngine::Impl::fill_sift_down(std::size_t i) {
  const Ratio x = ratios[i];
  const std::size_t n = ratios.size();
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && ratios[c + 1] < ratios[c]) ++c;
    if (!(ratios[c] < x)) break;
    fill_place(i, ratios[c]);
    i = c;
  }
  fill_place(i, x);
}

void FluidEngine::Impl::fill_update(ResourceId r, double ratio) {
  const std::uint32_t pos = res[r].fill_pos;
  if (pos == kNoPos) {
    ratios.push_back({ratio, r});
    fill_sift_up(ratios.size() - 1);
    return;
  }
  const double old = ratios[pos].ratio;
  ratios[pos].ratio = ratio;
  if (ratio < old)
    fill_sift_up(pos);
  else
    fill_sift_down(pos);
}

void FluidEngine::Impl::fill_erase(ResourceId r) {
  const std::uint32_t pos = res[r].fill_pos;
  if (pos == kNoPos) return;
  res[r].fill_pos = kNoPos;
  const Ratio last = ratios.back();
  ratios.pop_back();
  if (last.r == r) return;
  ratios[pos] = last;
  res[last.r].fill_pos = pos;
  fill_sift_up(pos);
  fill_sift_down(res[last.r].fill_pos);
}

Ratio FluidEngine::Impl::fill_pop() {
  const Ratio top = ratios.front();
  fill_erase(top.r);
  return top;
}

// The boundary test (see solve): false, with the resources to add to S appended
// to seed_res, when the local result is not the global allocation.
bool FluidEngine::Impl::check_boundary() {
  for (auto id : comp_flows) {
    const Flow& f = flows[id];
    if (!f.pending && std::abs(f.fresh - f.rate) <= kRateTolerance * std::max(f.fresh, f.rate)) continue;
    for (const Hop& h : f.hops)
      if (res[h.r].in_s != epoch) res[h.r].changed = true;
  }
  bool ok = true;
  for (auto r : set_b) {
    const Resource& R = res[r];
    if (R.count == R.f_cross) continue;  // every flow there is in F: solved exactly
    if (R.fixed_here || (R.changed && R.nbn > R.f_bn)) {
      seed_res.push_back(r);
      ok = false;
    }
  }
  return ok;
}

// Applies the solve: every flow of F whose rate moved has its remaining bytes
// brought up to now at its old rate and a new completion date; loads and
// bottleneck counts follow.
void FluidEngine::Impl::commit() {
  for (auto id : comp_flows) {
    Flow& f = flows[id];
    if (f.bn != f.bn_fresh) {
      if (f.bn != kNoRes) --res[f.bn].nbn;
      ++res[f.bn_fresh].nbn;
      f.bn = f.bn_fresh;
    }
    if (!f.pending && f.fresh == f.rate) continue;
    if (!f.pending && f.rate > 0 && f.remaining > 0) {
      f.remaining -= f.rate * (now - f.last);
      if (f.remaining < kRemainsPrecision) f.remaining = 0;
    }
    for (const Hop& h : f.hops)
      if (res[h.r].in_s != epoch) res[h.r].load += f.fresh - f.rate;
    f.last = now;
    f.rate = f.fresh;
    f.pending = false;
    schedule(id);
  }
  for (auto r : set_s) {
    Resource& R = res[r];
    R.load = 0;
    for (Ref e = R.head; e != kNil; e = hop(e).next) R.load += flows[e >> 16].rate;
  }
}

void FluidEngine::Impl::schedule(std::uint32_t id) {
  Flow& f = flows[id];
  if (f.stream) return;
  if (f.remaining <= 0)
    f.date = now;
  else if (f.rate > 0)
    f.date = now + f.remaining / f.rate;
  else {
    heap_erase(id);
    return;
  }
  f.order = dated++;
  heap_set(id);
}

// Advances to `t` and ends every flow whose completion date is within
// kTimingPrecision of it, in completion order; they stay on their resources
// until wake_all (SimGrid frees them after its timers have run).
void FluidEngine::Impl::complete_at(double t) {
  now = t;
  while (!heap.empty() && flows[heap.front()].date < t + kTimingPrecision) {
    std::uint32_t id = heap.front();
    heap_erase(id);
    finished.push_back(id);
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
std::uint64_t FluidEngine::fallbacks() const { return impl_->fallbacks; }

void FluidEngine::set_window(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    throw std::invalid_argument("FluidEngine: a solve window must be a finite time >= 0");
  impl_->window = seconds;
}

std::vector<std::pair<std::string, double>> FluidEngine::window_figures() const {
  const Impl& m = *impl_;
  if (m.window == 0) return {};
  return {{"window_s", m.window},
          {"solves", static_cast<double>(m.solves)},
          {"flow_starts_solved", static_cast<double>(m.starts_solved)},
          {"flow_starts_delayed", static_cast<double>(m.starts_waited)},
          {"flow_start_delay_mean_s", m.starts_solved ? m.start_wait_sum / static_cast<double>(m.starts_solved) : 0.0},
          {"flow_start_delay_max_s", m.start_wait_max},
          {"change_delay_max_s", m.change_wait_max}};
}

std::vector<double> FluidEngine::rates() {
  Impl& m = *impl_;
  if (m.dirty) m.solve();
  std::vector<std::pair<std::uint64_t, double>> live;
  for (const Flow& f : m.flows)
    if (f.live && !f.stream) live.emplace_back(f.seq, f.rate);
  std::sort(live.begin(), live.end());
  std::vector<double> out;
  for (auto& [s, r] : live) out.push_back(r);
  return out;
}

// One step of SimGrid's main loop per iteration: solve what changed, advance to
// the next event or completion (exactly to an event's date, by the distance to
// a completion date otherwise), end the flows due, then run the model's events
// due (SimGrid's timers), free the ended flows and queue their callbacks, and
// run those too (the timer they arm is due at once). With no model flow in
// flight the run jumps to the next event.
void FluidEngine::run() {
  Impl& m = *impl_;
  if (!m.sealed) seal();
  if (!m.q.empty()) m.start_streams();
  for (;;) {
    if (m.solve_due()) m.solve();
    const double tq = m.q.empty() ? kInf : m.q.top_time();
    if (m.in_flight == 0) {
      if (m.dirty) m.solve();  // (a window's deferred solve: no model flow waits for it)
      if (m.q.empty()) break;
      m.now = std::max(m.now, tq);
    } else {
      const double tf = m.heap.empty() ? kInf : m.flows[m.heap.front()].date;
      // a deferred solve (window) is a date to stop at, like an event's
      const double te = m.dirty ? std::min(tq, m.last_solve + m.window) : tq;
      if (tf == kInf && te == kInf)
        throw std::logic_error("FluidEngine: " + std::to_string(m.in_flight) + " flows in flight that never end");
      m.complete_at(te <= tf ? te : m.now + (tf - m.now));
    }
    bool again;
    do {
      again = !m.q.empty() && m.q.top_time() <= m.now;
      while (!m.q.empty() && m.q.top_time() <= m.now) {
        m.q.run_top();
        if ((++m.events_run & 0xFFFF) == 0 && progress::enabled()) progress::sim_tick(m.now, m.events_run);
      }
      m.wake_all();
    } while (again);
  }
  m.stop_streams();
}

}  // namespace ompisim::engine
