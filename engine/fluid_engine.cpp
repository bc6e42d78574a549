#include "engine/fluid_engine.hpp"

#include "engine/indexed_heap.hpp"
#include "engine/sharing_engine_defs.hpp"

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
// Classes the class fast path may give new rates in one solve (the changed class and those whose bottleneck's load
// it moves, in turn) before it leaves the solve to the local solve.
constexpr std::size_t kMaxClassChain = 4;
// Children per node of the filling heap (a d-ary heap: fewer levels for its pops).
constexpr std::size_t kFillArity = 4;

// The solver's variables are paths, not flows: the flows in flight over one
// path (the same resources in the same order; weights are equal) always get
// the same max-min rate, so they form one variable whose multiplicity is their
// count (it uses count x the per-flow rate on each resource it crosses). Each
// flow of a path ends from the path's virtual clock: the bytes each of its
// flows has received since the path variable was created; a flow's finish tag
// is the clock at its start plus its bytes, the path's next completion is its
// smallest tag. A path variable is removed when its last flow leaves.
// A crossing (one hop of one path variable) is named by (variable << 16 |
// hop); a resource keeps its crossings in an array, oldest first (a walk reads
// it from the back: newest first), where a crossing that left is a hole (kNil)
// until the array is compacted, in order.
using Ref = std::uint64_t;
constexpr Ref kNil = ~Ref{0};
constexpr std::size_t kMaxHops = 1u << 16;
struct Hop {
  ResourceId r;
  std::uint32_t slot = 0;    // its index in the resource's crossing array
  std::uint32_t ce = kNoPos;  // its variable's class's entry for r (Class::ents), kNoPos outside a class of a resource
};
struct Tag {
  double tag;         // the clock value at which the flow is done
  std::uint64_t seq;  // the flow's start order
  std::uint32_t flow;
  bool operator>(const Tag& o) const { return tag > o.tag || (tag == o.tag && seq > o.seq); }
};
struct alignas(64) Var {  // two cache lines: the solve's and the completion heap's fields first
  double rate = 0, fresh = 0;       // per-flow rate since `last`; solve scratch: the per-flow rate the solve gives
  double clock = 0, last = 0;       // outside a class: bytes per flow delivered at `last`; in a class, clock is its
                                    // offset: its bytes per flow delivered are the class's clock minus it
  double mkey = kInf;               // in a class: the class clock at which its first flow ends (tag + off)
  std::uint32_t count = 0;          // flows in flight on it
  std::uint32_t stamp = 0;          // solve mark: in the solved set F
  std::uint32_t cls = kNoPos;       // its class (its bottleneck's; with a window its own), kNoPos when none
  std::uint32_t mpos = kNoPos;      // index in its class's member heap, kNoPos when not in it
  ResourceId bn = kNoRes,
             bn_fresh = kNoRes;  // the resource that fixed its rate (its
                                 // bottleneck), and the solve's
  bool fixed : 1 = false, stream : 1 = false, live : 1 = false, shared : 1 = false,
      pending : 1 = false;  // pending: its flow count changed since the last solve (or new)
  std::uint32_t rgen = 0;   // the rate generation of its last rate write (rate_of: a class set later rates it)
  std::vector<Hop> hops;
  std::vector<Tag> tags;  // min-heap of its flows' finish tags
  std::uint64_t hash = 0;  // its path's, for the path table
};
static_assert(sizeof(Var) == 128);
struct Flow {
  Callback done;
  std::uint64_t seq = 0;  // start order
  double start = 0;
  std::uint32_t var = 0;
  bool live = false, stream = false;
};
// A class crossing a resource: the class and the index of its entry for the resource (Class::ents).
struct ClassCross {
  std::uint32_t cls, ent;
};
struct alignas(64) Resource {  // two cache lines: what the solves read and write first
  double capacity = 0;
  double load = 0;  // sum of the rates of the flows crossing it (per crossing)
  // solve scratch
  double rem = 0, old_f = 0;
  std::uint32_t count = 0;  // flow crossings (a variable's crossing counts its flows)
  std::uint32_t nbn = 0;    // path variables whose bottleneck it is
  std::uint32_t stamp = 0, touched = 0, in_s = 0, unfixed = 0;
  std::uint32_t fill_ver = kNoPos;  // the version of its live entry in the filling heap, kNoPos when it has none
  bool rated = false;               // class chain (try_class): queued (touched == round) and its class rated
  bool fixed_here = false, changed = false;
  // its load lags its one class's moves since its entry's base (Class::Ent::defer): settle_deferred brings it up
  bool deferred = false;
  std::vector<Ref> xs;       // its crossings, oldest first; kNil: a hole left by a crossing that left
  std::uint32_t holes = 0;  // kNil entries in xs
  std::uint32_t f_cross = 0, f_bn = 0;
  std::uint32_t cls = kNoPos;  // the class clock of the variables it bottlenecks, kNoPos when none
  std::vector<ClassCross> cx;  // the classes whose members cross it (each once), with their entry for it
};
static_assert(sizeof(Resource) == 128);
// A resource's share per unfixed crossing in the progressive filling, ordered by (share, resource id); `ver`: the
// entry is its resource's live one while it equals the resource's fill_ver.
struct Ratio {
  double ratio;
  ResourceId r;
  std::uint32_t ver = 0;
  bool operator<(const Ratio& o) const { return ratio < o.ratio || (ratio == o.ratio && r < o.r); }
};
// A member of a class clock's heap: ordered by the class clock value at which its first flow ends, then by id.
struct MemberKey {
  double key;
  std::uint64_t seq;
  bool operator<(const MemberKey& o) const { return key < o.key || (key == o.key && seq < o.seq); }
};
struct ByMemberKey {
  std::vector<Var>* vars;
  MemberKey key(std::uint32_t id) const {
    const Var& x = (*vars)[id];
    return {x.mkey, id};
  }
  std::uint32_t& pos(std::uint32_t id) const { return (*vars)[id].mpos; }
};
// A class clock: the variables one resource bottlenecks share one per-flow rate; v is the bytes per flow the class
// has delivered at `last` since it was made (advanced only when its rate moves), each member's own clock is v minus
// its offset, and the class has one entry in the completion heap: the date its clock reaches its first member's key.
// With a solve window each variable is a class of its own (r = kNoRes; see settle).
struct Class {
  explicit Class(std::vector<Var>* vars) : members(ByMemberKey{vars}) {}
  double v = 0, last = 0, rate = 0, date = kInf;
  std::uint64_t order = 0;          // when its date was last set (heap tie-break)
  std::uint32_t heap_pos = kNoPos;  // index in the completion heap
  std::uint32_t size = 0;           // members (in its heap or not: a member whose flows have all ended is not)
  ResourceId r = kNoRes;
  KeyedHeap<ByMemberKey> members;
  // Its members' flow crossings per resource they cross (kept for a class of a resource, not for a variable's own
  // class under a solve window): n flow crossings of r, at index xi of r's class crossings; r = kNoRes: a hole.
  // defer: every flow crossing of r is a member's and r bottlenecks no one (an exclusive resource), so the class
  // fast path moves its load by the class's rate changes without reading it: cap is r's capacity (its check), base
  // the class's dsum at which r's load was last brought up to date (settle_deferred).
  struct Ent {
    ResourceId r;
    std::uint32_t n, xi;
    bool defer = false;
    double cap = 0, base = 0;
  };
  std::vector<Ent> ents;
  std::uint32_t holes = 0;
  // the sum of the rate changes the class fast path gave the class (its deferred entries' loads lag it), and the
  // change of the step under way
  double dsum = 0, fresh_dr = 0;
  // the entries the class fast path reads (neither holes nor deferred), in entry order; defer_max: at least the
  // largest n / cap of the deferred entries (exact after a scan), which gates their capacity check
  std::vector<std::uint32_t> live;
  double defer_max = 0;
  void live_insert(std::uint32_t e) { live.insert(std::lower_bound(live.begin(), live.end(), e), e); }
  void live_erase(std::uint32_t e) {
    auto it = std::lower_bound(live.begin(), live.end(), e);
    if (it != live.end() && *it == e) live.erase(it);
  }
  double fresh = 0;        // the class fast path's new rate, when stamp is its epoch
  std::uint32_t stamp = 0;
  // the rate generation at which the class fast path gave every member the class's rate (0: none since the class
  // was made or a member's rate was written back): a member whose own rate was written before it has the class's
  std::uint32_t rgen = 0;
};
// A free slot of `items` (a freed one first), by index.
template <class T>
std::uint32_t take_slot(std::vector<T>& items, std::vector<std::uint32_t>& free) {
  if (free.empty()) {
    items.emplace_back();
    return static_cast<std::uint32_t>(items.size() - 1);
  }
  const std::uint32_t i = free.back();
  free.pop_back();
  return i;
}
std::uint64_t path_hash(const std::vector<ResourceId>& p) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ p.size();
  for (auto r : p) h = (h ^ r) * 0x100000001B3ull;
  return h ^ (h >> 29);
}
}  // namespace

struct FluidEngineImpl {
  explicit FluidEngineImpl(FluidEngine& engine) : e(engine), now(engine.now_) {}
  FluidEngine& e;
  double& now;  // the engine's clock
  std::uint64_t dated = 0, seq = 0, solves = 0, resolved = 0, fallbacks = 0, vars_made = 0;
  // the class fast path (try_class): on or off, solves it served, solves whose candidate it refused
  bool class_path = true;
  std::uint64_t class_hits = 0, class_refusals = 0, chain_steps = 0, deferred_skips = 0;
  // why the fast path did not serve a solve (FluidEngine::ClassRefusal), for measurements
  std::uint64_t refused_by[FluidEngine::kClassRefusalKinds] = {};
  void refuse(FluidEngine::ClassRefusal why) { ++refused_by[static_cast<int>(why)]; }
  std::uint32_t epoch = 0, round = 0;
  // solve window (0: exact): the last solve's date, the first unsolved change since, what waiting cost
  double window = 0, last_solve = -kInf, dirty_since = 0;
  double start_wait_max = 0, start_wait_sum = 0, change_wait_max = 0;
  std::uint64_t starts_waited = 0, starts_solved = 0;
  std::vector<Resource> res;
  std::vector<Var> vars;
  std::vector<std::uint32_t> free_vars;
  std::vector<Flow> flows;
  std::vector<std::uint32_t> free_flows;
  // the path table: the shared path variable of each path in flight, by the path's hash (open addressing, linear
  // probing, compared hop by hop with the variable's own path: no copy of the path)
  std::vector<std::uint32_t> slots;
  std::size_t slots_used = 0;
  std::size_t in_flight = 0;              // the model's flows (not streams)
  std::vector<ResourceId> seed_res;       // resources whose flows must be re-solved
                                          // (an end freed capacity)
  std::vector<std::uint32_t> seed_vars;   // variables whose count changed since the last solve
  std::vector<std::uint32_t> started;     // with a window: flows started since the last solve
  bool dirty = false;                     // something was added or freed since the last solve
  std::vector<ResourceId> dropped_bn;     // bottlenecks of the variables removed since the last solve
  std::vector<ResourceId> dropped_q;      // other resources of the removed variables that bottleneck someone
  std::vector<std::uint32_t> finished;    // flows ended at `now`, not yet freed
  std::vector<std::uint32_t> streams_live;
  // solve scratch
  std::vector<ResourceId> set_s, set_b, touched;
  std::vector<std::uint32_t> comp_vars;
  std::vector<ResourceId> class_touched, chain;  // class_touched: try_class's scratch, res.size() long
  std::vector<std::uint32_t> chain_cls, extras, remap;  // try_class: the classes it rated, the variables no class entry
                                                        // counts; compaction of a class's entries
  // The filling heap: each resource with unfixed crossings has one live entry (fill_ver), whose share is at most its
  // current share; stale entries (the resource fixed, or given a lower share) are dropped when they surface.
  std::vector<Ratio> ratios;
  std::vector<double> touched_was;  // fill: the shares of `touched` before the round
  std::size_t fill_live = 0;        // resources with a live entry
  std::uint32_t fill_next_ver = 0;

  Hop& hop(Ref e) { return vars[e >> 16].hops[e & 0xFFFF]; }
  // Calls f(variable) for each crossing of `r`, newest first (a variable crossing r twice comes twice).
  template <class F>
  void each_crossing(ResourceId r, F&& f) const {
    const std::vector<Ref>& xs = res[r].xs;
    for (std::size_t i = xs.size(); i-- > 0;)
      if (xs[i] != kNil) f(static_cast<std::uint32_t>(xs[i] >> 16));
  }
  void unlink(const Hop& h);
  // SharingEngine's hooks: a resource declared, a model flow started (checked by EngineBase)
  void declare(ResourceId, const std::string&, double capacity) { res.emplace_back().capacity = capacity; }
  void start(const std::vector<ResourceId>& path, double bytes, Callback done) {
    add(path, bytes, std::move(done), false);
  }
  std::uint32_t add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream);
  std::uint32_t var_for(const std::vector<ResourceId>& path, bool stream);
  std::uint32_t path_find(const std::vector<ResourceId>& path, std::uint64_t h) const;
  void path_insert(std::uint32_t v);
  void path_erase(std::uint32_t v);
  void remove(std::uint32_t id);
  void drop_var(std::uint32_t v);
  void mark_dirty() {
    if (!dirty) dirty_since = now;
    dirty = true;
  }
  void mark_pending(std::uint32_t v) {
    if (vars[v].pending) return;
    vars[v].pending = true;
    seed_vars.push_back(v);
  }
  bool solve_due() const { return dirty && (window == 0 || now >= last_solve + window); }
  void note_waits();
  void solve();
  ResourceId class_candidate(std::uint32_t& solo) const;
  bool try_class(ResourceId r);
  void chain_queue(ResourceId q);
  void class_extras();
  void class_tally(ResourceId x, std::size_t k, double& n, double& other, double& fastest);
  void class_commit();
  bool try_solo(std::uint32_t v);
  bool solve_round(bool whole);
  void gather(bool whole);
  void fill();
  bool check_boundary();
  void commit();
  void take_bn(Var& u);
  // class clocks
  std::vector<Class> classes;
  std::vector<std::uint32_t> free_classes;
  // A variable's per-flow rate: its own, or its class's when the class fast path rated the class after the variable's
  // own rate was last written (the served solve sets the class's rate once instead of every member's).
  std::uint32_t rgen = 0;
  std::size_t lazy_classes = 0;  // classes whose rgen is not 0 (none: every variable's rate is its own)
  double rate_of(const Var& u) const {
    if (lazy_classes == 0 || u.cls == kNoPos) return u.rate;
    const Class& K = classes[u.cls];
    return K.rgen > u.rgen ? K.rate : u.rate;
  }
  void put_rate(Var& u, double rate) {
    u.rate = rate;
    u.rgen = rgen;
  }
  // Every member of K rated by K's class rate takes it as its own (before K's rate moves otherwise, and before a
  // member leaves the member heap: a member so rated is always in it).
  void cls_unlazy(Class& K) {
    if (K.rgen == 0) return;
    for (std::size_t i = 0; i < K.members.size(); ++i) {
      Var& u = vars[K.members.id_at(i)];
      if (u.rgen < K.rgen) put_rate(u, K.rate);
    }
    cls_lazy(K, 0);
  }
  void cls_lazy(Class& K, std::uint32_t g) {
    lazy_classes += (g != 0) - (K.rgen != 0);
    K.rgen = g;
  }
  void own_rate(Var& u) {
    if (u.cls != kNoPos && classes[u.cls].rgen > u.rgen) put_rate(u, classes[u.cls].rate);
  }
  std::uint32_t next_rgen();
  double cls_clock(const Class& K) const { return K.rate > 0 ? K.v + K.rate * (now - K.last) : K.v; }
  // A variable outside a class: its own clock now; any variable: its bytes per flow delivered now.
  double own_clock(const Var& u) const { return u.rate > 0 ? u.clock + u.rate * (now - u.last) : u.clock; }
  double var_clock(const Var& u) const { return u.cls != kNoPos ? cls_clock(classes[u.cls]) - u.clock : own_clock(u); }
  // A class's clock brought up to now at its old rate, then its new rate (the caller re-dates it).
  void cls_advance(Class& K, double rate) {
    if (rate != K.rate) cls_unlazy(K);
    if (K.rate > 0) K.v += K.rate * (now - K.last);
    K.last = now;
    K.rate = rate;
  }
  void cls_rate(std::uint32_t c, double rate);
  void cls_date(std::uint32_t c);
  void member_key(std::uint32_t v);
  void join(std::uint32_t v, ResourceId r, double clock);
  void ents_in(std::uint32_t v);
  void ents_out(std::uint32_t v);
  void ent_erase(std::uint32_t c, std::uint32_t e);
  void ents_compact(std::uint32_t c);
  // A member's flow count moved by dn: its class's entries follow (a class of a resource only).
  void ents_count(const Var& u, int dn) {
    if (u.cls == kNoPos || classes[u.cls].r == kNoRes) return;
    auto& ents = classes[u.cls].ents;
    for (const Hop& h : u.hops) ents[h.ce].n += dn;  // (add and remove undeferred the hops first)
  }
  // Deferred loads (Class::Ent::defer). settle_deferred: a deferred resource's load brought up to date with its
  // class's moves (it stays deferred). undefer: settled and no longer deferred, its entry live again (called before
  // anything reads or changes the resource's load, flow count, bottleneck count or class entries).
  void settle_deferred(Resource& Q) {
    const ClassCross& x = Q.cx.front();  // a deferred resource has one class
    Class& K = classes[x.cls];
    Class::Ent& E = K.ents[x.ent];
    if (K.dsum != E.base) {
      Q.load += (K.dsum - E.base) * E.n;
      E.base = K.dsum;
    }
  }
  void undefer(ResourceId q) {
    Resource& Q = res[q];
    if (!Q.deferred) return;
    settle_deferred(Q);
    Class& K = classes[Q.cx.front().cls];
    K.ents[Q.cx.front().ent].defer = false;
    K.live_insert(Q.cx.front().ent);
    Q.deferred = false;
  }
  std::vector<std::pair<std::uint32_t, ResourceId>> defer_cand;  // try_class: exclusive entries it visited
  void defer_marks();
  int deferred_over(Class& K, double rate);
  double leave(std::uint32_t v);
  void settle(std::uint32_t v);
  void complete_at(double t);
  void start_streams() {
    for (auto& p : e.stream_paths_) streams_live.push_back(add(p, kStreamBytes, nullptr, true));
  }
  void stop_streams() {
    for (auto id : std::exchange(streams_live, {})) remove(id);
  }
  KeyedHeap<ByDateKey<std::vector<Class>>> heap{{&classes}};  // completion heap of classes, (date, order) in its array
  // filling heap (kFillArity-ary, min by (ratio, r))
  double share(const Resource& R) const { return std::max(R.rem, 0.0) / R.unfixed; }
  void fill_push(ResourceId r, double ratio);
  std::uint32_t take_fill_ver(Resource& R);
  void fill_sift_up(std::size_t i);
  void fill_sift_down(std::size_t i);
  void fill_erase(ResourceId r);
  Ratio fill_pop();
};

// The path variable a flow over `path` joins: the path's shared one when the
// path is in flight, else a new one whose crossings are linked (newest first
// in each resource's list). Streams and, with a solve window, every flow get a
// variable of their own (a started flow then has no rate until its solve).
std::uint32_t FluidEngineImpl::var_for(const std::vector<ResourceId>& path, bool stream) {
  const bool share = !stream && window == 0;
  const std::uint64_t hash = share ? path_hash(path) : 0;
  if (share) {
    const std::uint32_t found = path_find(path, hash);
    if (found != kNoPos) return found;
  }
  const std::uint32_t v = take_slot(vars, free_vars);
  ++vars_made;
  Var& V = vars[v];
  V.hops.assign(path.size(), Hop{});
  V.tags.clear();
  V.clock = 0;
  put_rate(V, 0);
  V.last = now;
  V.cls = kNoPos;
  V.mpos = kNoPos;
  V.count = 0;
  V.bn = kNoRes;
  V.fixed = false;
  V.stream = stream;
  V.shared = share;
  V.hash = hash;
  V.live = true;
  V.pending = false;
  for (std::uint32_t i = 0; i < path.size(); ++i) {
    Resource& r = res[path[i]];
    const Ref e = (Ref{v} << 16) | i;
    Hop& h = V.hops[i];
    h.r = path[i];
    h.slot = static_cast<std::uint32_t>(r.xs.size());
    r.xs.push_back(e);
  }
  if (share) path_insert(v);
  return v;
}

std::uint32_t FluidEngineImpl::path_find(const std::vector<ResourceId>& path, std::uint64_t h) const {
  if (slots.empty()) return kNoPos;
  const std::size_t mask = slots.size() - 1;
  for (std::size_t i = h & mask; slots[i] != kNoPos; i = (i + 1) & mask) {
    const Var& V = vars[slots[i]];
    if (V.hash != h || V.hops.size() != path.size()) continue;
    std::size_t k = 0;
    while (k < path.size() && V.hops[k].r == path[k]) ++k;
    if (k == path.size()) return slots[i];
  }
  return kNoPos;
}

void FluidEngineImpl::path_insert(std::uint32_t v) {
  if (2 * (slots_used + 1) > slots.size()) {  // grow to keep the table at most half full
    std::vector<std::uint32_t> old(std::max<std::size_t>(64, 2 * slots.size()), kNoPos);
    old.swap(slots);
    const std::size_t mask = slots.size() - 1;
    for (auto u : old)
      if (u != kNoPos) {
        std::size_t i = vars[u].hash & mask;
        while (slots[i] != kNoPos) i = (i + 1) & mask;
        slots[i] = u;
      }
  }
  const std::size_t mask = slots.size() - 1;
  std::size_t i = vars[v].hash & mask;
  while (slots[i] != kNoPos) i = (i + 1) & mask;
  slots[i] = v;
  ++slots_used;
}

// Linear probing's deletion: the entries after the hole that may not sit before their home slot move back into it.
void FluidEngineImpl::path_erase(std::uint32_t v) {
  const std::size_t mask = slots.size() - 1;
  std::size_t i = vars[v].hash & mask;
  while (slots[i] != v) i = (i + 1) & mask;
  for (std::size_t j = (i + 1) & mask; slots[j] != kNoPos; j = (j + 1) & mask) {
    const std::size_t home = vars[slots[j]].hash & mask;
    // the entry at j may fill the hole at i unless its home lies cyclically in (i, j]
    const bool home_after_hole = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (home_after_hole) continue;
    slots[i] = slots[j];
    i = j;
  }
  slots[i] = kNoPos;
  --slots_used;
}

// A flow start joins its path variable with the tag clock-now + bytes (the
// flow runs at the variable's rate until the next solve, which comes before
// time advances) and waits for the next solve, which gives the variable its
// new rate.
std::uint32_t FluidEngineImpl::add(const std::vector<ResourceId>& path, double bytes, Callback done, bool stream) {
  if (path.size() > kMaxHops) throw std::logic_error("FluidEngine: a path of more than 65,536 resources");
  const std::uint32_t id = take_slot(flows, free_flows);
  const std::uint32_t v = var_for(path, stream);
  Flow& f = flows[id];
  f.seq = seq++;
  f.start = now;
  f.var = v;
  f.stream = stream;
  f.live = true;
  f.done = std::move(done);
  Var& V = vars[v];
  const double clock = var_clock(V);
  V.tags.push_back({clock + bytes, f.seq, id});
  std::push_heap(V.tags.begin(), V.tags.end(), std::greater<>());
  if (V.cls != kNoPos && !stream) {
    member_key(v);
    cls_date(V.cls);
  }
  ++V.count;
  const double rate = rate_of(V);
  for (const Hop& h : V.hops) {
    undefer(h.r);
    Resource& r = res[h.r];
    ++r.count;
    r.load += rate;
  }
  ents_count(V, 1);
  mark_pending(v);
  if (window > 0 && !stream) started.push_back(id);
  mark_dirty();
  if (!stream) ++in_flight;
  return id;
}

// A flow end frees its rate on every resource it crosses and leaves its path
// variable, which is re-solved (a resource still some variable's bottleneck is
// where the freed capacity can go) or removed when it was the last flow.
void FluidEngineImpl::remove(std::uint32_t id) {
  Flow& f = flows[id];
  const std::uint32_t v = f.var;
  Var& V = vars[v];
  --V.count;
  const double rate = rate_of(V);
  for (const Hop& h : V.hops) {
    undefer(h.r);
    Resource& r = res[h.r];
    r.load -= rate;
    if (--r.count == 0) r.load = 0;
  }
  ents_count(V, -1);
  if (V.count == 0)
    drop_var(v);
  else
    mark_pending(v);
  f.live = false;
  f.done = nullptr;
  mark_dirty();
  if (!f.stream) --in_flight;
  free_flows.push_back(id);
}

// An empty path variable leaves its resources' lists and the path table; its
// resources that still bottleneck some variable are where the next solve
// starts.
void FluidEngineImpl::drop_var(std::uint32_t v) {
  Var& V = vars[v];
  if (V.bn != kNoRes) {
    --res[V.bn].nbn;
    dropped_bn.push_back(V.bn);
  }
  for (Hop& h : V.hops) {
    Resource& r = res[h.r];
    if (V.bn != kNoRes && h.r != V.bn && r.nbn > 0) dropped_q.push_back(h.r);
    unlink(h);
    if (r.count > 0 && r.nbn > 0) seed_res.push_back(h.r);
  }
  if (V.shared) path_erase(v);
  if (V.cls != kNoPos) leave(v);
  V.live = false;
  V.hops.clear();
  V.tags.clear();
  free_vars.push_back(v);
}

// A crossing leaves its resource's array as a hole; the array is compacted (in order, the slots of the crossings
// that move follow) when its holes outnumber its crossings.
void FluidEngineImpl::unlink(const Hop& h) {
  Resource& r = res[h.r];
  r.xs[h.slot] = kNil;
  if (h.slot + 1 == r.xs.size()) {
    r.xs.pop_back();
    while (!r.xs.empty() && r.xs.back() == kNil) {
      r.xs.pop_back();
      --r.holes;
    }
    return;
  }
  if (++r.holes <= r.xs.size() / 2) return;
  std::size_t k = 0;
  for (std::size_t i = 0; i < r.xs.size(); ++i)
    if (r.xs[i] != kNil) {
      r.xs[k] = r.xs[i];
      hop(r.xs[k]).slot = static_cast<std::uint32_t>(k);
      ++k;
    }
  r.xs.resize(k);
  r.holes = 0;
}

// Max-min again after the starts and ends of one date, locally: the solved set
// F is the path variables whose count changed and the variables crossing the
// seed resources S (where an end freed capacity under some variable's
// bottleneck); the resources F crosses outside S (the boundary B) keep the
// rates of the variables outside F and offer F only the rest. The result is
// the global max-min allocation unless a boundary resource with variables
// outside F fixed a variable of F (it saturates: its other variables may have
// to slow down) or changed under variables outside F that it bottlenecks (they
// may have to speed up or slow down); those resources join S and the round
// starts again. After kMaxRounds rounds the whole connected component is
// solved.
void FluidEngineImpl::solve() {
  ++solves;
  if (window > 0) note_waits();
  last_solve = now;
  std::uint32_t solo = kNoPos;
  const ResourceId r = class_path && window == 0 ? class_candidate(solo) : kNoRes;
  if (r != kNoRes ? try_class(r) : solo != kNoPos && try_solo(solo)) {
    ++class_hits;
  } else {
    if (r != kNoRes || solo != kNoPos)
      ++class_refusals;
    else if (class_path && window == 0)
      refuse(FluidEngine::ClassRefusal::no_candidate);
    bool ok = false;
    for (int i = 0; i < kMaxRounds && !ok; ++i) ok = solve_round(false);
    if (!ok) {
      ++fallbacks;
      solve_round(true);
    }
  }
  for (auto v : seed_vars) vars[v].pending = false;
  seed_res.clear();
  seed_vars.clear();
  dropped_bn.clear();
  dropped_q.clear();
  started.clear();
  dirty = false;
}

// The resource whose class (the variables it bottlenecks) every change since the last solve belongs to, or kNoRes:
// each variable removed or whose flow count changed had it as its bottleneck; when only new variables changed, the
// one resource of the first new variable's path that bottlenecks some variable. The guard (try_class) decides.
// `solo`: the new variable when it is the only change and no resource of its path bottlenecks anyone (try_solo).
ResourceId FluidEngineImpl::class_candidate(std::uint32_t& solo) const {
  solo = kNoPos;
  ResourceId r = kNoRes;
  auto join = [&r](ResourceId b) {
    if (r == kNoRes) r = b;
    return r == b;
  };
  for (auto b : dropped_bn)
    if (!join(b)) return kNoRes;
  std::uint32_t fresh = kNoPos;
  bool alone = dropped_bn.empty();
  for (auto v : seed_vars) {
    const Var& V = vars[v];
    if (!V.live || !V.pending) continue;
    if (fresh != kNoPos && v != fresh) alone = false;
    if (V.bn == kNoRes) {
      if (fresh == kNoPos) fresh = v;
    } else if (!join(V.bn)) {
      return kNoRes;
    }
  }
  if (r != kNoRes || fresh == kNoPos) return r;
  for (const Hop& h : vars[fresh].hops)
    if (res[h.r].nbn > 0) {
      if (r != kNoRes && r != h.r) return kNoRes;
      r = h.r;
    }
  if (r == kNoRes && alone) solo = fresh;
  return r;
}

// The one new variable v of a solve, no resource of whose path bottlenecks any variable: v takes the least room its
// path leaves, x = min over its resources Q of (capacity - load) / (v's flow crossings of Q), and the resource Q* that
// gives it becomes v's bottleneck. Max-min (Bertsekas & Gallager 6.5.2) holds without touching any other variable
// when x > 0 and no variable crossing Q* is faster than x: every resource stays within its capacity, Q* is saturated
// with v fastest there, and the other variables' bottlenecks carry the loads they had (v crosses none of them).
// Returns false, having changed nothing, otherwise.
bool FluidEngineImpl::try_solo(std::uint32_t v) {
  Var& V = vars[v];
  ++epoch;
  for (const Hop& h : V.hops) {  // v's flow crossings of each resource (a resource twice on the path counts twice)
    undefer(h.r);
    Resource& Q = res[h.r];
    if (Q.stamp != epoch) {
      Q.stamp = epoch;
      Q.rem = 0;
    }
    Q.rem += V.count;
  }
  double rate = kInf;
  ResourceId best = kNoRes;
  for (const Hop& h : V.hops) {
    const Resource& Q = res[h.r];
    const double x = (Q.capacity - Q.load) / Q.rem;
    if (x < rate || (x == rate && h.r < best)) {
      rate = x;
      best = h.r;
    }
  }
  if (!(rate > 0)) {
    refuse(FluidEngine::ClassRefusal::solo_no_room);
    return false;
  }
  bool faster = false;
  each_crossing(best, [&](std::uint32_t u) { faster = faster || (u != v && rate_of(vars[u]) > rate * (1 + kRateTolerance)); });
  if (faster) {
    refuse(FluidEngine::ClassRefusal::solo_faster);
    return false;
  }
  const double was = rate_of(V);
  for (const Hop& h : V.hops) res[h.r].load += (rate - was) * V.count;
  V.fresh = rate;
  V.bn_fresh = best;
  settle(v);
  return true;
}

// The class fast path: the changes since the last solve all lie in the class C of resource R (the variables
// bottlenecked at R, which share one per-flow rate, and the new variables, which join it). R's class takes what the
// other variables crossing R leave: r' = (capacity - their load) / (C's flow crossings of R). The result, every
// other variable unchanged, is the max-min allocation (every flow crosses a saturated resource where no flow is
// faster, and no resource is over its capacity; Bertsekas & Gallager 6.5.2) when
//  (1) r' > 0 and no variable crossing R outside C is faster than r' (R stays C's bottleneck: it is saturated by
//      construction);
//  (2) no resource Q != R whose load moves (a variable of C whose rate or flow count moves, or a removed variable,
//      crosses it) bottlenecks any variable: such a Q would no longer be saturated (its variables could speed up) or
//      would be over its capacity; the variables outside C then keep valid bottlenecks, since only R and those Q
//      changed load;
//  (3) every other resource Q that C crosses stays within its capacity: load + sum over C's crossings of Q of
//      count x (r' - rate) <= capacity (relative slack kRateTolerance, as the local solve's boundary test).
// Returns false, having changed nothing, when one fails; otherwise commits as commit() does.
bool FluidEngineImpl::try_class(ResourceId r) {
  using W = FluidEngine::ClassRefusal;
  ++epoch;
  ++round;  // a resource is in the chain when its `touched` is this round (the filling's rounds are later ones)
  comp_vars.clear();  // the variables outside the classes' entries that take a rate: new variables, streams
  // the resources outside the chain whose loads the walk moves (each once an epoch: at most every resource), written
  // through a local count so that the walk's appends stay in registers
  if (class_touched.size() < res.size()) class_touched.resize(res.size());
  ResourceId* const ct = class_touched.data();
  std::size_t nct = 0;
  chain.clear();
  chain_cls.clear();
  defer_cand.clear();
  int over_deferred = 0;  // deferred entries over their capacity at their class's new rate (condition 3)
  class_extras();
  chain_queue(r);
  for (auto q : dropped_q)
    if (res[q].nbn > 0) chain_queue(q);
  auto refused = [this, ct, &nct](W why) {
    refuse(why);
    for (auto q : chain) res[q].rated = false;
    for (std::size_t i = 0; i < nct; ++i) res[ct[i]].load = res[ct[i]].old_f;  // the loads they had
    return false;
  };
  // A resource q whose load a class's rate change moves by du: false when a class already rated there would move
  // again (condition 4); a resource that bottlenecks someone joins the chain when the change is more than the
  // tolerance (condition 2); any other takes the change at once (rem: its moves summed; old_f: its load before them;
  // load: old_f + rem, the sum the check compares) and `over` counts the resources whose load so moved is over their
  // capacity (condition 3, decided when the chain is through: a later move may bring a load back, and a resource that
  // joins the chain leaves the count). What it compares against stays in registers (no store of its can change them).
  Resource* const rs = res.data();
  const std::uint32_t rnd = round, ep = epoch;
  int over = 0;
  auto over_cap = [](const Resource& Q) { return Q.load > Q.capacity * (1 + kRateTolerance); };
  auto visit = [&](ResourceId q, double du, bool moved) {
    Resource& Q = rs[q];
    if (Q.deferred) settle_deferred(Q);  // (not met in the walks; kept exact if it were)
    if (Q.touched == rnd) return !Q.rated;  // a class in the chain takes its rate from the loads its step sees
    if (moved && Q.nbn > 0) {
      if (Q.stamp == ep) over -= over_cap(Q);
      chain_queue(q);
      return true;
    }
    if (Q.stamp != ep) {
      Q.stamp = ep;
      Q.rem = 0;
      Q.old_f = Q.load;
      ct[nct++] = q;
    } else {
      over -= over_cap(Q);
    }
    Q.rem += du;
    Q.load = Q.old_f + Q.rem;
    over += over_cap(Q);
    return true;
  };
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (k == kMaxClassChain) return refused(W::chain_too_long);
    const ResourceId x = chain[k];
    Resource& X = res[x];
    const std::size_t first = comp_vars.size();
    double n = 0, other = 0, fastest = 0;
    class_tally(x, k, n, other, fastest);
    if (k == 0)
      for (auto v : seed_vars) {  // every changed variable must be in C (a new one must cross R)
        const Var& u = vars[v];
        if (u.live && u.pending && u.bn != x && u.stamp != epoch) return refused(W::outside_class);
      }
    X.rated = true;
    X.rem = n == 0 ? (k == 0 ? X.load : other) : 0;  // its load after the step (the root's is up to date)
    if (n == 0) continue;        // no class: freed capacity no one is bottlenecked at
    const double rate = (X.capacity - other) / n;
    if (!(rate > 0) || fastest > rate * (1 + kRateTolerance)) return refused(W::faster_on_r);  // (1)
    X.rem = other + rate * n;
    if (X.cls != kNoPos) {  // X's class: its loads move by its rate change times its entries' flow crossings
      Class& K = classes[X.cls];
      if (K.members.size() != K.size) return refused(W::outside_class);  // a member with no flow left (not seen)
      K.stamp = epoch;
      K.fresh = rate;
      chain_cls.push_back(X.cls);
      const double dr = rate - K.rate;
      K.fresh_dr = dr;
      const bool moved = std::abs(dr) > kRateTolerance * std::max(rate, K.rate);
      if (dr != 0) {
        for (const std::uint32_t e : K.live) {
          const Class::Ent& E = K.ents[e];
          if (E.r == x) continue;
          if (!visit(E.r, dr * E.n, moved)) return refused(W::chain_loop);  // (4)
          const Resource& Q = rs[E.r];
          if (Q.count == E.n && Q.nbn == 0) defer_cand.emplace_back(X.cls, E.r);  // exclusive: deferred at commit
        }
        over_deferred += deferred_over(K, rate);
      }
      if (k == 0)
        for (auto v : seed_vars) {  // a member whose flow count changed moved its load at its old rate
          const Var& u = vars[v];
          if (!u.live || !u.pending || u.bn != x || u.stream) continue;
          for (const Hop& h : u.hops)
            if (h.r != x && !K.ents[h.ce].defer && !visit(h.r, 0, true)) return refused(W::chain_loop);
        }
    }
    for (std::size_t i = first; i < comp_vars.size(); ++i) {
      Var& u = vars[comp_vars[i]];
      u.fresh = rate;
      const double was = rate_of(u);
      const double dr = rate - was;
      if (dr == 0 && !u.pending) continue;
      const bool moved = u.pending || std::abs(dr) > kRateTolerance * std::max(rate, was);
      const double du = dr * u.count;  // what u's load moves by on each resource it crosses
      for (const Hop& h : u.hops)
        if (h.r != x && !visit(h.r, du, moved)) return refused(W::chain_loop);
    }
  }
  if (over + over_deferred > 0) return refused(W::over_capacity);  // (3)
  class_commit();
  return true;
}

// The variables no class entry counts: the new ones (no bottleneck yet) and the streams (in no class).
void FluidEngineImpl::class_extras() {
  extras.clear();
  for (auto v : seed_vars) {
    const Var& u = vars[v];
    if (u.live && u.pending && u.bn == kNoRes && !u.stream) extras.push_back(v);
  }
  for (auto id : streams_live) extras.push_back(flows[id].var);
}

// The deferred entries of K at K's new rate: their loads move by the rate change x n at the commit (dsum), unread;
// their capacities are checked one by one (how many would be over) only when the largest n / cap could pass one.
int FluidEngineImpl::deferred_over(Class& K, double rate) {
  deferred_skips += K.ents.size() - K.holes - K.live.size();
  if (!(rate * K.defer_max > (1 + kRateTolerance) * (1 - 1e-9))) return 0;
  int over = 0;
  K.defer_max = 0;
  for (const Class::Ent& E : K.ents)
    if (E.r != kNoRes && E.defer) {
      over += rate * E.n > E.cap * (1 + kRateTolerance);
      K.defer_max = std::max(K.defer_max, E.n / E.cap);
    }
  return over;
}

void FluidEngineImpl::chain_queue(ResourceId q) {
  if (res[q].touched == round) return;
  res[q].touched = round;
  res[q].rated = false;
  chain.push_back(q);
}

// Step k of the chain at x: n, x's class's flow crossings of x (with, at the first step, the new variables crossing
// it, which join the class); other and fastest, the load and the fastest per-flow rate there of every other class and
// variable, at the rates the earlier steps gave. The classes come from x's list with their entries; the variables no
// entry counts (new ones, streams) one by one, those of x's class queued in comp_vars.
void FluidEngineImpl::class_tally(ResourceId x, std::size_t k, double& n, double& other, double& fastest) {
  const Resource& X = res[x];
  for (const ClassCross& q : X.cx) {
    const Class& K = classes[q.cls];
    const double m = K.ents[q.ent].n;
    if (q.cls == X.cls) {
      n += m;
    } else {
      const double c = K.stamp == epoch ? K.fresh : K.rate;
      other += c * m;
      fastest = std::max(fastest, c);
    }
  }
  for (auto v : extras) {
    Var& u = vars[v];
    std::uint32_t m = 0;
    for (const Hop& h : u.hops) m += h.r == x;
    if (m == 0) continue;
    if (u.bn == x || (k == 0 && u.pending && u.bn == kNoRes)) {
      n += static_cast<double>(m) * u.count;
      if (u.stamp != epoch) {
        u.stamp = epoch;
        u.bn_fresh = x;
        comp_vars.push_back(v);
      }
    } else {
      const double c = u.stamp == epoch ? u.fresh : rate_of(u);
      other += c * static_cast<double>(m) * u.count;
      fastest = std::max(fastest, c);
    }
  }
}

// A new rate generation; before the counter wraps, every class's members take their rates as their own and the
// generations start again.
std::uint32_t FluidEngineImpl::next_rgen() {
  if (rgen == std::numeric_limits<std::uint32_t>::max()) {
    for (Class& K : classes) cls_unlazy(K);
    for (Var& u : vars) u.rgen = 0;
    rgen = 0;
  }
  return ++rgen;
}

// A served class solve takes effect: the variables outside the entries settle, the chain's classes' members take
// their class's new rate (from its member heap) and the class is re-dated, and the chain's loads move (the other
// resources' loads moved in try_class's capacity check).
void FluidEngineImpl::class_commit() {
  for (auto c : chain_cls) classes[c].dsum += classes[c].fresh_dr;  // the deferred entries' loads move with it
  for (auto c : chain_cls) cls_lazy(classes[c], 0);  // every member takes the class's new rate below
  for (auto v : comp_vars) settle(v);
  for (auto c : chain_cls) {
    cls_rate(c, classes[c].fresh);
    cls_lazy(classes[c], next_rgen());  // every member (all are in its member heap) has the class's rate
  }
  for (auto q : chain) {
    res[q].load = res[q].rem;
    res[q].rated = false;
  }
  chain_steps += chain.size();
  defer_marks();
}

// The exclusive entries the served solve read (their loads now up to date) are deferred from here on, if they still
// are exclusive once its variables settled: every flow crossing of the resource is the class's, and it bottlenecks
// no one.
void FluidEngineImpl::defer_marks() {
  for (auto [c, q] : defer_cand) {
    Resource& Q = res[q];
    if (Q.deferred || Q.nbn != 0 || Q.cx.size() != 1 || Q.cx.front().cls != c) continue;
    Class& K = classes[c];
    Class::Ent& E = K.ents[Q.cx.front().ent];
    if (E.n != Q.count || K.r == kNoRes) continue;
    E.defer = true;
    E.cap = Q.capacity;
    E.base = K.dsum;
    Q.deferred = true;
    K.live_erase(Q.cx.front().ent);
    K.defer_max = std::max(K.defer_max, E.n / E.cap);
  }
  defer_cand.clear();
}

// With a window: how long the changes solved now waited (the starts, each from its start date; any change, from
// the first one after the previous solve).
void FluidEngineImpl::note_waits() {
  change_wait_max = std::max(change_wait_max, now - dirty_since);
  for (auto id : started) {
    const Flow& f = flows[id];
    if (!f.live) continue;
    const double w = now - f.start;
    ++starts_solved;
    if (w > 0) ++starts_waited;
    start_wait_sum += w;
    start_wait_max = std::max(start_wait_max, w);
  }
}

bool FluidEngineImpl::solve_round(bool whole) {
  gather(whole);
  resolved += comp_vars.size();
  fill();
  if (!whole && !check_boundary()) return false;
  commit();
  return true;
}

// Builds S (set_s), F (comp_vars) and B (set_b), and each resource's capacity
// offered to F. `whole`: S is closed over the connected component (every
// resource of every variable of F), so B is empty.
void FluidEngineImpl::gather(bool whole) {
  ++epoch;
  set_s.clear();
  set_b.clear();
  comp_vars.clear();
  auto add_s = [this](ResourceId r) {
    if (res[r].in_s == epoch) return;
    res[r].in_s = epoch;
    set_s.push_back(r);
  };
  auto add_f = [this](std::uint32_t v) {
    Var& V = vars[v];
    if (!V.live || V.stamp == epoch) return;
    V.stamp = epoch;
    comp_vars.push_back(v);
  };
  for (auto r : seed_res) add_s(r);
  for (auto v : seed_vars) {
    add_f(v);
    // a variable whose count changed takes or gives capacity on its path:
    // solve the variables bottlenecked there at once
    if (vars[v].live)
      for (const Hop& h : vars[v].hops)
        if (res[h.r].nbn > 0) add_s(h.r);
  }
  std::size_t si = 0, fi = 0;
  do {
    for (; si < set_s.size(); ++si)
      each_crossing(set_s[si], add_f);
    if (whole)
      for (; fi < comp_vars.size(); ++fi)
        for (const Hop& h : vars[comp_vars[fi]].hops) add_s(h.r);
  } while (whole && si < set_s.size());
  for (auto r : set_s) {
    undefer(r);  // its load is summed again at the commit
    Resource& R = res[r];
    R.stamp = epoch;
    R.rem = R.capacity;
    R.unfixed = R.count;
  }
  for (auto v : comp_vars) {
    const Var& V = vars[v];
    for (const Hop& h : V.hops) {
      Resource& R = res[h.r];
      if (R.in_s == epoch) continue;
      if (R.stamp != epoch) {
        undefer(h.r);  // its load is read below and moved at the commit
        R.stamp = epoch;
        R.old_f = 0;
        R.f_cross = R.f_bn = 0;
        R.changed = false;
        set_b.push_back(h.r);
      }
      R.old_f += rate_of(V) * V.count;
      R.f_cross += V.count;
    }
    if (V.bn != kNoRes && res[V.bn].in_s != epoch) ++res[V.bn].f_bn;  // once per variable, even if it crosses bn twice
  }
  for (auto r : set_b) {
    Resource& R = res[r];
    R.rem = R.f_cross == R.count ? R.capacity : std::max(R.capacity - (R.load - R.old_f), 0.0);
    R.unfixed = R.f_cross;
  }
}

// Progressive filling over S and B for the variables of F: the resource with
// the smallest remaining capacity per unfixed flow crossing saturates first;
// its unfixed variables get that share per flow, which is taken count times
// from every other resource they cross; repeat. A flow crossing a resource
// twice counts twice there (as SimGrid's two elements of weight 1).
void FluidEngineImpl::fill() {
  ratios.clear();
  fill_live = 0;
  for (auto v : comp_vars) vars[v].fixed = false;
  for (auto* set : {&set_s, &set_b})
    for (auto r : *set) {
      Resource& R = res[r];
      R.fixed_here = false;
      R.fill_ver = kNoPos;
      if (R.unfixed > 0) {
        ratios.push_back({R.rem / R.unfixed, r, take_fill_ver(R)});
        ++fill_live;
      }
    }
  for (std::size_t i = (ratios.size() + kFillArity - 2) / kFillArity; i-- > 0;) fill_sift_down(i);
  while (fill_live > 0) {
    const Ratio top = fill_pop();
    Resource& R = res[top.r];
    const double v = top.ratio;
    ++round;
    touched.clear();
    touched_was.clear();
    R.fixed_here = true;
    each_crossing(top.r, [&](std::uint32_t u) {
      Var& f = vars[u];
      if (f.fixed || f.stamp != epoch) return;
      f.fixed = true;
      f.fresh = v;
      f.bn_fresh = top.r;
      const double used = v * f.count;
      for (const Hop& h : f.hops) {
        Resource& o = res[h.r];
        if (o.touched != round) {
          o.touched = round;
          touched.push_back(h.r);
          touched_was.push_back(o.unfixed > 0 ? share(o) : 0.0);
        }
        o.rem -= used;
        o.unfixed -= f.count;
      }
    });
    R.unfixed = 0;
    for (std::size_t i = 0; i < touched.size(); ++i) {
      const ResourceId r = touched[i];
      Resource& o = res[r];
      if (r == top.r) continue;
      if (o.unfixed == 0) {
        fill_erase(r);
        continue;
      }
      // A share that grew keeps its entry, which is then below it (fill_pop raises it when it surfaces); one that
      // fell (rounding: a fixed share is the smallest, so the others only grow) gets a new entry.
      const double now_share = share(o);
      if (now_share < touched_was[i]) fill_push(r, now_share);
    }
  }
}

// The next version of the filling heap's entries (kNoPos is none), made R's live one.
std::uint32_t FluidEngineImpl::take_fill_ver(Resource& R) {
  if (++fill_next_ver == kNoPos) fill_next_ver = 0;
  return R.fill_ver = fill_next_ver;
}

// The filling heap pops the resources in the order (share, id) of their current shares: a live entry's share is at
// most its resource's, so the first live entry that is current when it surfaces is the smallest current share.
void FluidEngineImpl::fill_push(ResourceId r, double ratio) {
  Resource& R = res[r];
  if (R.fill_ver == kNoPos) ++fill_live;
  ratios.push_back({ratio, r, take_fill_ver(R)});
  fill_sift_up(ratios.size() - 1);
}

void FluidEngineImpl::fill_sift_up(std::size_t i) {
  const Ratio x = ratios[i];
  while (i > 0) {
    std::size_t p = (i - 1) / kFillArity;
    if (!(x < ratios[p])) break;
    ratios[i] = ratios[p];
    i = p;
  }
  ratios[i] = x;
}

void FluidEngineImpl::fill_sift_down(std::size_t i) {
  const Ratio x = ratios[i];
  const std::size_t n = ratios.size();
  for (;;) {
    const std::size_t first = kFillArity * i + 1;
    if (first >= n) break;
    std::size_t c = first;
    for (std::size_t k = first + 1; k < std::min(first + kFillArity, n); ++k)
      if (ratios[k] < ratios[c]) c = k;
    if (!(ratios[c] < x)) break;
    ratios[i] = ratios[c];
    i = c;
  }
  ratios[i] = x;
}

// Its live entry goes stale (dropped when it surfaces).
void FluidEngineImpl::fill_erase(ResourceId r) {
  Resource& R = res[r];
  if (R.fill_ver == kNoPos) return;
  R.fill_ver = kNoPos;
  --fill_live;
}

// The resource with the smallest current share, taken out of the heap (fill_live > 0).
Ratio FluidEngineImpl::fill_pop() {
  for (;;) {
    Ratio& top = ratios.front();
    Resource& R = res[top.r];
    if (top.ver == R.fill_ver) {
      const double cur = share(R);
      if (!(top.ratio < cur)) {  // current: the smallest
        const Ratio out{cur, top.r, top.ver};
        fill_erase(top.r);
        ratios.front() = ratios.back();
        ratios.pop_back();
        if (!ratios.empty()) fill_sift_down(0);
        return out;
      }
      top.ratio = cur;  // its share grew since the entry was made
      fill_sift_down(0);
      continue;
    }
    ratios.front() = ratios.back();  // stale
    ratios.pop_back();
    if (!ratios.empty()) fill_sift_down(0);
  }
}

// The boundary test (see solve): false, with the resources to add to S appended
// to seed_res, when the local result is not the global allocation.
bool FluidEngineImpl::check_boundary() {
  for (auto v : comp_vars) {
    const Var& f = vars[v];
    const double was = rate_of(f);
    if (!f.pending && std::abs(f.fresh - was) <= kRateTolerance * std::max(f.fresh, was)) continue;
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

// A variable takes its fresh bottleneck (the resources' bottleneck counts follow).
void FluidEngineImpl::take_bn(Var& u) {
  if (u.bn == u.bn_fresh) return;
  if (u.bn != kNoRes) --res[u.bn].nbn;
  undefer(u.bn_fresh);  // it bottlenecks someone now
  ++res[u.bn_fresh].nbn;
  u.bn = u.bn_fresh;
}

// A variable takes its fresh rate and bottleneck: it stays in its bottleneck's class (whose rate becomes its rate) or
// moves there, its clock carried over from the class it leaves. With a solve window every variable is a class of its
// own (made with the variable's clock, offset 0, r = kNoRes), so its clock and dates are a clock per variable's,
// operation for operation: the class clock does not enter the windowed engine's arithmetic.
void FluidEngineImpl::settle(std::uint32_t v) {
  Var& u = vars[v];
  take_bn(u);
  if (u.stream) {
    put_rate(u, u.fresh);
    return;
  }
  const bool own = window > 0;
  const std::uint32_t want = !own ? res[u.bn].cls : u.cls != kNoPos && classes[u.cls].r == kNoRes ? u.cls : kNoPos;
  if (u.cls != kNoPos && u.cls == want) {
    put_rate(u, u.fresh);
    cls_rate(u.cls, u.rate);
    return;
  }
  const double clock = u.cls != kNoPos ? leave(v) : own_clock(u);
  put_rate(u, u.fresh);
  join(v, own ? kNoRes : u.bn, clock);
}

void FluidEngineImpl::cls_rate(std::uint32_t c, double rate) {
  Class& K = classes[c];
  if (K.rate == rate) return;
  cls_advance(K, rate);
  cls_date(c);
}

// A class's next completion: when its clock reaches its first member's key at its rate.
void FluidEngineImpl::cls_date(std::uint32_t c) {
  Class& K = classes[c];
  if (K.members.empty() || !(K.rate > 0)) {
    heap.erase(c);
    K.date = kInf;
    return;
  }
  double rem = K.members.front_key().key - K.v;
  if (rem < kRemainsPrecision) rem = 0;
  K.date = rem <= 0 ? K.last : K.last + rem / K.rate;
  K.order = dated++;
  heap.set(c);
}

// A member's key from its first flow's tag (it leaves the member heap when its flows have all ended).
void FluidEngineImpl::member_key(std::uint32_t v) {
  Var& u = vars[v];
  Class& K = classes[u.cls];
  if (u.tags.empty()) {
    own_rate(u);
    K.members.erase(v);
    return;
  }
  u.mkey = u.tags.front().tag + u.clock;
  K.members.set(v);
}

// v joins the class of r (made when r has none) with its clock `clock`; its rate becomes the class's. r = kNoRes: a
// class of its own, whose clock starts at `clock` (v's offset is then 0).
void FluidEngineImpl::join(std::uint32_t v, ResourceId r, double clock) {
  std::uint32_t c = r != kNoRes ? res[r].cls : kNoPos;
  if (c == kNoPos) {
    if (free_classes.empty()) {
      classes.emplace_back(&vars);
      c = static_cast<std::uint32_t>(classes.size() - 1);
    } else {
      c = free_classes.back();
      free_classes.pop_back();
    }
    Class& K = classes[c];
    K.v = r != kNoRes ? 0 : clock;
    K.last = now;
    K.rate = 0;
    K.size = 0;
    K.r = r;
    K.dsum = 0;
    if (r != kNoRes) res[r].cls = c;
  }
  Class& K = classes[c];
  ++K.size;
  Var& u = vars[v];
  u.cls = c;
  if (r != kNoRes) ents_in(v);
  u.clock = cls_clock(K) - clock;
  if (K.rate != u.rate) cls_advance(K, u.rate);
  member_key(v);
  cls_date(c);
}

// v's flow crossings join its class's entries (an entry is made for a resource no member crossed).
void FluidEngineImpl::ents_in(std::uint32_t v) {
  Var& u = vars[v];
  const std::uint32_t c = u.cls;
  Class& K = classes[c];
  for (Hop& h : u.hops) {
    undefer(h.r);
    Resource& Q = res[h.r];
    std::uint32_t e = kNoPos;
    for (const ClassCross& x : Q.cx)
      if (x.cls == c) {
        e = x.ent;
        break;
      }
    if (e == kNoPos) {
      e = static_cast<std::uint32_t>(K.ents.size());
      K.ents.push_back({h.r, 0, static_cast<std::uint32_t>(Q.cx.size())});
      K.live.push_back(e);  // the largest index: the list stays in entry order
      Q.cx.push_back({c, e});
    }
    K.ents[e].n += u.count;
    h.ce = e;
  }
}

// v's flow crossings leave its class's entries (v has left its member heap); an entry left at 0 becomes a hole, and
// the entries are compacted (in order) when holes are more than 4 and an eighth of them and every member can be found
// (all are in the member heap): the class fast path walks the holes too.
void FluidEngineImpl::ents_out(std::uint32_t v) {
  Var& u = vars[v];
  const std::uint32_t c = u.cls;
  Class& K = classes[c];
  for (Hop& h : u.hops) {
    undefer(h.r);
    Class::Ent& E = K.ents[h.ce];
    if (E.r != kNoRes) {
      E.n -= u.count;
      if (E.n == 0) ent_erase(c, h.ce);
    }
    h.ce = kNoPos;
  }
  while (!K.ents.empty() && K.ents.back().r == kNoRes) {
    K.ents.pop_back();
    --K.holes;
  }
  if (K.holes > 4 && 8 * K.holes > K.ents.size() && K.members.size() + 1 == K.size) ents_compact(c);
}

void FluidEngineImpl::ent_erase(std::uint32_t c, std::uint32_t e) {
  Class& K = classes[c];
  Class::Ent& E = K.ents[e];
  Resource& Q = res[E.r];
  const ClassCross last = Q.cx.back();
  Q.cx[E.xi] = last;
  classes[last.cls].ents[last.ent].xi = E.xi;
  Q.cx.pop_back();
  E.r = kNoRes;
  E.n = 0;
  K.live_erase(e);  // (not deferred: ents_out undeferred it)
  ++K.holes;
}

// A class's entries without holes, in order; its members' hops and the resources' class crossings follow.
void FluidEngineImpl::ents_compact(std::uint32_t c) {
  Class& K = classes[c];
  remap.assign(K.ents.size(), kNoPos);
  std::size_t k = 0;
  for (std::size_t i = 0; i < K.ents.size(); ++i) {
    if (K.ents[i].r == kNoRes) continue;
    K.ents[k] = K.ents[i];
    res[K.ents[k].r].cx[K.ents[k].xi].ent = static_cast<std::uint32_t>(k);
    remap[i] = static_cast<std::uint32_t>(k);
    ++k;
  }
  K.ents.resize(k);
  K.live.clear();
  for (std::uint32_t e = 0; e < K.ents.size(); ++e)
    if (!K.ents[e].defer) K.live.push_back(e);
  K.holes = 0;
  for (std::size_t i = 0; i < K.members.size(); ++i)
    for (Hop& h : vars[K.members.id_at(i)].hops) h.ce = remap[h.ce];
}

// v leaves its class; returns its clock. A class left empty is freed.
double FluidEngineImpl::leave(std::uint32_t v) {
  Var& u = vars[v];
  const std::uint32_t c = u.cls;
  Class& K = classes[c];
  const double clock = var_clock(u);
  own_rate(u);
  K.members.erase(v);
  if (K.r != kNoRes) ents_out(v);
  u.cls = kNoPos;
  u.clock = clock;
  u.last = now;
  if (--K.size == 0) {
    cls_lazy(K, 0);
    heap.erase(c);
    K.date = kInf;
    if (K.r != kNoRes) res[K.r].cls = kNoPos;
    K.ents.clear();
    K.live.clear();
    K.defer_max = 0;
    K.holes = 0;
    free_classes.push_back(c);
  } else {
    cls_date(c);
  }
  return clock;
}

// Applies the solve: every variable of F takes its new rate and bottleneck (settle: its class's clock is brought up
// to now at the old rate and the class re-dated when the rate moved, or it moves to its new bottleneck's class);
// loads and bottleneck counts follow.
void FluidEngineImpl::commit() {
  for (auto v : comp_vars) {
    Var& f = vars[v];
    const double was = rate_of(f);
    if (f.pending || was != f.fresh)
      for (const Hop& h : f.hops)
        if (res[h.r].in_s != epoch) res[h.r].load += (f.fresh - was) * f.count;
    settle(v);
  }
  for (auto r : set_s) {
    Resource& R = res[r];
    R.load = 0;
    each_crossing(r, [&](std::uint32_t v) { R.load += rate_of(vars[v]) * vars[v].count; });
  }
}

// Advances to `t` and ends every flow whose completion date is within
// kTimingPrecision of it, in completion order; they stay on their resources
// and in their path variable's count until wake_ended (SimGrid frees them after
// its timers have run). The date is compared as date - t, as the lmm engine
// does: from t = 2^14 s on, t + kTimingPrecision rounds to t itself (a double's
// step there is 3.6e-12 s), and a flow due at t was never ended (the run
// looped at that date without end).
void FluidEngineImpl::complete_at(double t) {
  now = t;
  while (!heap.empty() && heap.front_key().date - t < FluidEngine::kTimingPrecision) {
    const std::uint32_t c = heap.front();
    const std::uint32_t v = classes[c].members.front();
    Var& V = vars[v];
    std::pop_heap(V.tags.begin(), V.tags.end(), std::greater<>());
    finished.push_back(V.tags.back().flow);
    V.tags.pop_back();
    member_key(v);
    cls_date(c);  // its date only grew: it sinks from the top
  }
}

template class SharingEngine<FluidEngineImpl>;

FluidEngine::FluidEngine() : SharingEngine("FluidEngine", *this) {}

std::uint64_t FluidEngine::solves() const { return impl_->solves; }
std::uint64_t FluidEngine::flows_resolved() const { return impl_->resolved; }
std::uint64_t FluidEngine::fallbacks() const { return impl_->fallbacks; }
std::uint64_t FluidEngine::class_hits() const { return impl_->class_hits; }
std::uint64_t FluidEngine::deferred_skips() const { return impl_->deferred_skips; }
std::uint64_t FluidEngine::class_refusals() const { return impl_->class_refusals; }
std::uint64_t FluidEngine::class_refusals(ClassRefusal why) const {
  return impl_->refused_by[static_cast<int>(why)];
}
void FluidEngine::set_class_path(bool on) { impl_->class_path = on; }
std::uint64_t FluidEngine::path_variables() const { return impl_->vars_made; }

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
  return flow_rates([this](const Flow& f) { return impl_->rate_of(impl_->vars[f.var]); });
}

// One step of SimGrid's main loop per iteration: solve what changed, advance to
// the next event or completion (exactly to an event's date, by the distance to
// a completion date otherwise), end the flows due, then run the model's events
// due (SimGrid's timers), free the ended flows and queue their callbacks, and
// run those too (the timer they arm is due at once). With no model flow in
// flight the run jumps to the next event.
void FluidEngine::run() {
  Impl& m = *impl_;
  if (!sealed_) seal();
  if (!q_.empty()) m.start_streams();
  for (;;) {
    if (m.solve_due()) m.solve();
    const double tq = next_model_time();
    if (m.in_flight == 0) {
      if (m.dirty) m.solve();  // (a window's deferred solve: no model flow waits for it)
      if (model_idle()) break;
      now_ = std::max(now_, tq);
    } else {
      const double tf = m.heap.empty() ? kInf : m.heap.front_key().date;
      // a deferred solve (window) is a date to stop at, like an event's
      const double te = m.dirty ? std::min(tq, m.last_solve + m.window) : tq;
      if (tf == kInf && te == kInf)
        throw std::logic_error("FluidEngine: " + std::to_string(m.in_flight) + " flows in flight that never end");
      m.complete_at(te <= tf ? te : now_ + (tf - now_));
    }
    run_due([this, &m] { wake_ended(m.finished, m.flows, [&m](std::uint32_t id) { m.remove(id); }); });
  }
  m.stop_streams();
}

}  // namespace ompisim::engine
