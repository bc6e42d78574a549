// app_skeleton: communication skeletons of the applications of the seastar-portals paper (§4, Table 1: VH-1, GTC,
// POP, S3D). A skeleton is data (benchmarks/apps/<app>.json): a number of steps, a computation time per step and a
// list of phases that every rank runs in order in each step. Every quantity in the file names its source: "paper
// Table 1 ..." or "guess: <reason>". The skeletons are not the applications: they reproduce Table 1's MPI time share,
// the dominant MPI routines, the short/long split of the messages (32 KiB cut-off) and, for point-to-point halo
// exchanges, the share of long messages that arrive before their receive is posted.
//
// Phases (per rank; u_r is rank r's static imbalance factor 1 + imbalance x u, u in [-1, 1] spread evenly):
//   compute   World::compute for share x compute_per_step x u_r (lengthened by NIC interrupts; no MPI progress).
//   halo      nearest-neighbour exchange on a periodic `dims`-D process grid (MPI_Dims_create shape, row-major
//             ranks): Irecv from the 2 x dims neighbours (or the 2 along `axis` only), Isend `bytes` to them, compute `share` (the interior
//             work that overlaps the exchange), Irecv the late ones, Waitall. A receive is late with probability
//             late_fraction (a fixed hash of rank, step, repetition and direction): its message can arrive while
//             the rank computes, i.e. unexpected ("dropped" by the CM path when long).
//   sendrecv  MPI_Sendrecv ring shift: send to r + stride, receive from r - stride (then the opposite direction if
//             directions = 2), one Sendrecv per entry of `sizes` (e.g. a count, then the data, as GTC's shift does).
//   swap      MPI_Sendrecv of `bytes` with the partner rank XOR `mask` (a binary-swap image-compositing round).
//   loop      `count` copies of its `phases`, in order (e.g. POP's solver iterations: halo, allreduce, compute).
//   allreduce / alltoall / bcast / gather / barrier: the schedules of collectives/ over the world or over a row/column
//             communicator of a (P / group) x group grid, run by ScheduleExec over the stack's point-to-point path.
//             The algorithm is the MPI library's choice when the scenario names its decision table (benchmark
//             "collectives": "tuned-v1.3" = Open MPI 1.3's coll/tuned fixed rules, the paper's "tuned collectives" for
//             CM and OB1; "mpich2-1.0" = MPICH2 1.0's defaults, Cray MPI's base), by communicator size and bytes;
//             without one, the coll/base algorithm per kind (recursive doubling, pairwise, binomial, basic linear,
//             recursive doubling) at every size.
// Measured per rank: compute time (the elapsed time of its compute calls) and end time; MPI time = end - compute
// (what mpiP reports as time inside MPI). Each phase's MPI time (its elapsed time less the compute inside it) is
// charged to one MPI routine, as mpiP's per-callsite times (Table 1's "Top MPI Routines"): halo to Waitall (or the
// phase's "routine": "Wait" for a code that waits on each request) except the post time of its sends (the software
// costs the MPI_Isend calls queue on the rank's core, the stack's own per-call costs), which goes to Isend; sendrecv
// and swap to Sendrecv, a collective to itself; routine_pct is the mean over ranks of that time / end time,
// top_routines the routines by it. A compute phase starts when the MPI costs queued before it are done (they are MPI
// time). A routine of the paper's row that no phase is charged to is listed in table1_lacks with the input the
// skeleton lacks. mpi_time_pct is the mean over ranks of MPI time / end time, as Table 1's
// "Ave MPI Time %"; runtime_s is the last rank's end time. Message counts: every MPI send the skeleton posts
// (collective-internal ones included: the PML's view, where the MTL counts its dropped long messages), short when
// <= 32 KiB (Table 1's cut-off); app_p2p_long_pct: the same share over the application's own sends only (halo,
// sendrecv, swap: what mpiP's per-callsite counts would see); unexpected messages come from the
// stack's counters (mtl_unexpected_long for CM and Cray MPI; ob1_unexpected_long when pml/ob1 provides it).
//
// LIMITATIONS: a few steps instead of a whole run (the counts scale, the ratios are what is compared); no I/O, no
// initialisation; static imbalance only; without a "collectives" library the collectives are one algorithm per kind
// at every size; with fit_compute, the openmpi-cm evaluations use the scenario's library (refit from the openmpi-cm
// scenario); reductions cost no CPU time; the per-rank Table 1 counts cannot be
// matched exactly with a few steps (see each app file).
#include "platform/alloc_mem.hpp"
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/coll_choice.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "collectives/decision.hpp"
#include "collectives/registry.hpp"
#include "benchmarks/task.hpp"
#include "core/params.hpp"
#include "protocols/mtl/portals/mtl_portals.hpp"
#include "protocols/native/mpich_portals.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ompisim::bench {

namespace {
constexpr std::uint64_t kTable1Cutoff = 32768;  // paper §4: "short-message protocol used at or below 32K"
constexpr int kHaloTag = 100, kShiftTag = 200, kSwapTag = 300, kAppCollTag = 0x7f00;

std::string apps_dir() { return data_dir() + "/benchmarks/apps"; }

// The collective decision tables a skeleton's "collectives" may name (collectives/decision.hpp decision_file).
const std::vector<std::string>& coll_libraries() {
  static const std::vector<std::string> v{"tuned-v1.3", "mpich2-1.0"};
  return v;
}

// Sets c's collective library (empty: the coll/base algorithm per kind) and loads its decision table.
void set_coll_library(AppConfig& c, const std::string& name) {
  c.coll_library = name;
  c.coll_lib = name.empty() ? Json() : coll::load_library(data_dir(), name);
}
// A block that names no library: the stack preset's (DriverContext::stack_collectives) where a skeleton may name it.
std::string app_default_library(const std::string& stack_lib) {
  return stack_library_or(stack_lib, coll_libraries(), "");
}

const std::vector<std::string>& phase_kinds() {
  static const std::vector<std::string> k{"compute", "halo", "sendrecv", "swap",   "allreduce",
                                          "alltoall", "bcast", "gather",   "barrier", "loop"};
  return k;
}

// The MPI routine each phase kind's MPI time is charged to (mpiP's view); halo may name "Wait" instead.
const std::map<std::string, std::string>& phase_routines() {
  static const std::map<std::string, std::string> r{{"halo", "Waitall"},     {"sendrecv", "Sendrecv"}, {"swap", "Sendrecv"},
                                                    {"allreduce", "Allreduce"}, {"alltoall", "Alltoall"}, {"bcast", "Bcast"},
                                                    {"gather", "Gather"},       {"barrier", "Barrier"}};
  return r;
}

// A value with its provenance: {"value": v, "source": "paper Table 1 ..." | "guess: ..." | "derived ..."}.
const Json& sourced(ObjectReader& r, const std::string& key) {
  const Json& v = r.raw(key);
  ObjectReader o(v, r.file(), r.key_path(key));
  std::string src = o.str("source");
  if (src.empty()) o.fail("source", "every skeleton quantity needs a source ('paper Table 1 ...' or 'guess: ...')");
  (void)o.raw("value");
  o.finish();
  return v.at("value");
}

// The phases of one step once loops are unrolled: bounds a skeleton's memory (nested loops multiply).
constexpr std::size_t kMaxPhasesPerStep = 1000000;

// Appends the phase (or, for a loop, `count` copies of its phases, in order) to `out`.
void load_phase(const Json& j, const std::string& file, const std::string& path, std::vector<AppPhase>& out) {
  ObjectReader r(j, file, path);
  AppPhase p;
  p.kind = r.str("kind");
  const auto& kinds = phase_kinds();
  if (std::find(kinds.begin(), kinds.end(), p.kind) == kinds.end()) {
    std::string hint = did_you_mean(p.kind, kinds);
    r.fail("kind", fmt::format("unknown phase kind '{}'{} (known: {})", p.kind,
                               hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(kinds, ", ")));
  }
  std::string src = r.str("source");
  if (src.empty()) r.fail("source", "every phase needs a source ('paper Table 1 ...' or 'guess: ...')");
  p.count = static_cast<int>(r.opt_integer("count", 1, 100000).value_or(1));
  p.every = static_cast<int>(r.opt_integer("every", 1, 100000).value_or(1));
  std::vector<std::string> allowed{"kind", "source", "count", "every", "note"};
  if (r.has("note")) (void)r.str("note");
  if (p.kind == "loop") {
    const Json& ph = r.raw("phases");
    if (!ph.is_array() || ph.empty()) r.fail("phases", "expected a non-empty list of phases");
    std::vector<AppPhase> body;
    for (std::size_t i = 0; i < ph.size(); ++i)
      load_phase(ph[i], file, r.key_path("phases") + "[" + std::to_string(i) + "]", body);
    for (auto& b : body)
      if (b.every != 1 && p.every != 1) r.fail("every", "a loop with 'every' cannot contain phases with 'every'");
    if (out.size() + body.size() * static_cast<std::size_t>(p.count) > kMaxPhasesPerStep)
      r.fail("count", fmt::format("{} copies of {} phases: a step above {} phases in all (loops multiply)", p.count,
                                  body.size(), kMaxPhasesPerStep));
    for (int k = 0; k < p.count; ++k)
      for (auto b : body) {
        if (p.every != 1) b.every = p.every;
        out.push_back(b);
      }
    allowed.push_back("phases");
    r.finish(allowed);
    return;
  }
  auto bytes = [&] {
    const double x = r.quantity("bytes", Dim::Bytes, 0, 1 << 30);
    if (x != std::floor(x)) r.fail("bytes", fmt::format("a message size is a whole number of bytes, got {} B", x));
    p.bytes = static_cast<std::uint64_t>(x);
  };
  auto comm = [&] {
    p.comm = r.opt_str("comm").value_or("world");
    if (p.comm != "world" && p.comm != "row" && p.comm != "col") r.fail("comm", "expected 'world', 'row' or 'col'");
    if (p.comm != "world") p.group = static_cast<int>(r.integer("group", 1, 1 << 20));
    allowed.insert(allowed.end(), {"comm", "group"});
  };
  if (p.kind == "compute") {
    p.share = r.number("share", 0, 1);
    allowed.push_back("share");
  } else if (p.kind == "halo") {
    bytes();
    p.dims = static_cast<int>(r.integer("dims", 1, 3));
    p.axis = static_cast<int>(r.opt_integer("axis", 0, p.dims - 1).value_or(-1));
    p.late_fraction = r.has("late_fraction") ? r.number("late_fraction", 0, 1) : 0.0;
    p.share = r.has("overlap_share") ? r.number("overlap_share", 0, 1) : 0.0;
    if (r.has("routine")) {
      p.routine = r.str("routine");
      if (p.routine != "Wait" && p.routine != "Waitall") r.fail("routine", "expected 'Wait' or 'Waitall'");
    }
    allowed.insert(allowed.end(), {"bytes", "dims", "axis", "late_fraction", "overlap_share", "routine"});
  } else if (p.kind == "sendrecv") {
    const Json& sv = r.raw("sizes");
    if (!sv.is_array() || sv.empty()) r.fail("sizes", "expected a non-empty list of message sizes");
    for (std::size_t i = 0; i < sv.size(); ++i) {
      const std::string key = r.key_path("sizes") + "[" + std::to_string(i) + "]";
      const double x = json_quantity(sv[i], Dim::Bytes, file, key);
      if (!(x >= 0 && x <= (1 << 30)) || x != std::floor(x))  // as a phase's "bytes"
        throw InputError(file, key, fmt::format("message size must be a whole number of bytes in [0, 1 GiB], got {}",
                                                sv[i].dump()));
      p.sizes.push_back(static_cast<std::uint64_t>(x));
    }
    p.stride = static_cast<int>(r.opt_integer("stride", 1, 1 << 20).value_or(1));
    p.directions = static_cast<int>(r.opt_integer("directions", 1, 2).value_or(2));
    allowed.insert(allowed.end(), {"sizes", "stride", "directions"});
  } else if (p.kind == "swap") {
    bytes();
    p.mask = static_cast<int>(r.integer("mask", 1, 1 << 20));
    allowed.insert(allowed.end(), {"bytes", "mask"});
  } else if (p.kind == "barrier") {
    comm();
  } else {
    bytes();
    comm();
    allowed.push_back("bytes");
    if (p.kind == "bcast" || p.kind == "gather") {
      p.root = static_cast<int>(r.opt_integer("root", 0, 1 << 20).value_or(0));
      allowed.push_back("root");
    }
  }
  r.finish(allowed);
  if (auto it = phase_routines().find(p.kind); p.routine.empty() && it != phase_routines().end()) p.routine = it->second;
  out.push_back(p);
}

// The skeleton's "estimates": each {"value", "source", "status": "estimate", "range": [lo, hi], "range_source"} (the
// machine files' form, read by core/params load_range); a string value is a size (Dim::Bytes), an integer a count.
std::vector<AppEstimate> load_estimates(ObjectReader& r, const std::string& path) {
  std::vector<AppEstimate> out;
  if (!r.has("estimates")) return out;
  const Json& all = r.raw("estimates");
  if (!all.is_object()) r.fail("estimates", "expected an object {name: {value, source, status, range, range_source}}");
  for (auto& [name, j] : all.items()) {
    ObjectReader o(j, path, "estimates." + name);
    AppEstimate e;
    e.name = name;
    const Json& v = o.raw("value");
    e.dim = v.is_number_integer() ? Dim::Count : Dim::Bytes;
    Sourced sv;
    ParamRef ref{ParamInfo{name, e.dim, "skeleton estimate", e.dim == Dim::Count ? 1.0 : 0.0,
                           e.dim == Dim::Count ? 1e5 : static_cast<double>(1 << 30)},
                 &sv};
    sv.value = e.dim == Dim::Count ? v.get<double>() : json_quantity(v, Dim::Bytes, path, o.key_path("value"));
    if (sv.value < ref.info.min || sv.value > ref.info.max)
      o.fail("value", fmt::format("out of [{}, {}]", format_quantity(ref.info.min, e.dim), format_quantity(ref.info.max, e.dim)));
    e.source = o.str("source");
    if (e.source.empty()) o.fail("source", "every skeleton quantity needs a source ('paper Table 1 ...' or 'guess: ...')");
    if (o.str("status") != "estimate") o.fail("status", "a skeleton estimate has status 'estimate'");
    if (!o.has("range")) o.fail("range", "a skeleton estimate needs its range [low, high] and range_source");
    load_range(o, ref, path);
    o.finish();
    e.value = sv.value, e.lo = sv.range_lo, e.hi = sv.range_hi, e.range_source = sv.range_source;
    out.push_back(std::move(e));
  }
  return out;
}

// Sets estimates by name (value as text, in the estimate's dimension); an unknown name names `file` and set_key.name.
void set_estimates(std::vector<AppEstimate>& es, const std::vector<std::pair<std::string, std::string>>& set,
                   const std::string& file, const std::string& set_key) {
  for (auto& [name, text] : set) {
    auto it = std::find_if(es.begin(), es.end(), [&](const AppEstimate& e) { return e.name == name; });
    const std::string key = set_key + "." + name;
    if (it == es.end()) {
      std::vector<std::string> names;
      for (auto& e : es) names.push_back(e.name);
      throw InputError(file, key, fmt::format("the skeleton has no estimate '{}' (known: {})", name, fmt::join(names, ", ")));
    }
    double v = 0;
    try {
      v = it->dim == Dim::Count ? std::stod(text) : parse_quantity(text, Dim::Bytes);
    } catch (const std::exception& e) {
      throw InputError(file, key, fmt::format("'{}' is not a {}: {}", text, to_string(it->dim), e.what()));
    }
    if (!(v >= 1 && v <= (it->dim == Dim::Count ? 1e5 : static_cast<double>(1 << 30))))
      throw InputError(file, key, fmt::format("'{}' is out of the skeleton's limits", text));
    it->value = std::round(v);
  }
}

// Replaces every "$name" string under `j` by its estimate's value (integer bytes or a count); marks the names used.
void substitute_estimates(Json& j, const std::vector<AppEstimate>& es, std::set<std::string>& used,
                          const std::string& file, const std::string& path) {
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) substitute_estimates(v, es, used, file, path + "." + k);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) substitute_estimates(j[i], es, used, file, fmt::format("{}[{}]", path, i));
  } else if (j.is_string() && j.get<std::string>().starts_with("$")) {
    const std::string name = j.get<std::string>().substr(1);
    auto it = std::find_if(es.begin(), es.end(), [&](const AppEstimate& e) { return e.name == name; });
    if (it == es.end()) throw InputError(file, path, fmt::format("'${}' names no entry of \"estimates\"", name));
    used.insert(name);
    j = static_cast<long long>(std::llround(it->value));
  }
}

// MPI_Dims_create: the most balanced factorisation of n into d factors, non-increasing.
std::vector<int> dims_create(int n, int d) {
  std::vector<int> primes;
  for (int x = n, f = 2; x > 1;) {
    if (x % f == 0) primes.push_back(f), x /= f;
    else ++f;
  }
  std::sort(primes.rbegin(), primes.rend());
  std::vector<int> dims(static_cast<std::size_t>(d), 1);
  for (int f : primes) *std::min_element(dims.begin(), dims.end()) *= f;
  std::sort(dims.rbegin(), dims.rend());
  return dims;
}

// The neighbour of `r` one step along dimension k (sign +1 or -1), periodic, row-major ranks.
int grid_neighbour(int r, const std::vector<int>& dims, int k, int sign) {
  std::vector<int> c(dims.size());
  int x = r;
  for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) c[i] = x % dims[i], x /= dims[i];
  c[k] = (c[k] + sign + dims[k]) % dims[k];
  int out = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) out = out * dims[i] + c[i];
  return out;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
double unit_hash(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  return static_cast<double>(mix(mix(mix(mix(a) ^ b) ^ c) ^ d) >> 11) / 9007199254740992.0;  // [0, 1)
}

Group comm_group(const AppPhase& p, int rank, int n) {
  if (p.comm == "row") return Group{(rank / p.group) * p.group, 1, p.group};
  if (p.comm == "col") return Group{rank % p.group, p.group, n / p.group};
  return Group{0, 1, n};
}
int local_rank(const AppPhase& p, int rank) {
  if (p.comm == "row") return rank % p.group;
  if (p.comm == "col") return rank / p.group;
  return rank;
}

// The algorithm of a collective phase and its segment size: the skeleton's library's decision (AppConfig::coll_lib) for
// the phase's communicator size and bytes, or, without a library, the coll/base algorithm named per kind below.
coll::Decision coll_decision(const AppConfig& c, const AppPhase& p, int n) {
  // Without a library: the algorithm coll/tuned's fixed rules pick at small communicator and message sizes.
  static const std::map<std::string, std::string> algo{
      {"allreduce", "recursive_doubling"}, {"alltoall", "pairwise"}, {"bcast", "binomial"},
      {"gather", "basic_linear"},          {"barrier", "recursive_doubling"}};
  if (c.coll_lib.is_null()) return {algo.at(p.kind), 0};
  const bool barrier = p.kind == "barrier";
  coll::Decision d = coll::decide(c.coll_lib, p.kind, coll::CommShape{comm_group(p, 0, n).size, false},
                                  barrier ? 0 : p.bytes);
  if (barrier) d.segsize = 0;
  return d;
}

// A composition's stages (coll/tuned's nonoverlapping allreduce: the library's reduce, then its bcast), as the
// skeleton's library chooses them for the phase; the communicators here are not node-aware and take no tunables.
coll::StageChooser coll_stages(const AppConfig& c, const AppPhase& p) {
  static const coll::Tunables kUpstream;
  return coll::library_stages(c.coll_lib, p.kind, p.bytes, kUpstream, 1, coll::default_registry());
}

coll::Schedule coll_schedule(const AppConfig& c, const AppPhase& p, int rank, int n) {
  Group g = comm_group(p, rank, n);
  int me = local_rank(p, rank);
  const coll::Decision d = coll_decision(c, p, n);
  coll::AlgoParams ap;
  ap.bytes = static_cast<std::uint32_t>(p.bytes);
  ap.root = p.root;
  ap.segsize = d.segsize;  // the library's segment size for the phase (0: one segment)
  const coll::AlgoInfo* info = coll::default_registry().find(p.kind, d.algorithm);
  coll::StageChooser stages;
  if (info->composition) stages = coll_stages(c, p), ap.stages = &stages;
  return info->make(me, g.size, ap);
}
int comm_tag(const AppPhase& p) { return kAppCollTag + (p.comm == "row" ? 1 : p.comm == "col" ? 2 : 0); }

void check_fits(const AppConfig& c, int n, const std::string& file) {
  for (std::size_t i = 0; i < c.phases.size(); ++i) {
    const AppPhase& p = c.phases[i];
    std::string where = fmt::format("{} phases[{}]", c.file, i);
    if (p.comm != "world" && (p.group > n || n % p.group != 0))
      throw InputError(file, "ranks", fmt::format("{} ranks do not form a grid with rows of {} ({})", n, p.group, where));
    if ((p.kind == "bcast" || p.kind == "gather") && p.root >= comm_group(p, 0, n).size)
      throw InputError(file, "ranks", fmt::format("{} root {} outside the communicator ({})", p.kind, p.root, where));
    if (p.kind == "swap" && (n % (2 * p.mask) != 0))
      throw InputError(file, "ranks", fmt::format("{} ranks cannot pair rank r with r XOR {} ({})", n, p.mask, where));
    if (coll::default_registry().names(p.kind).empty()) continue;  // not a collective
    const int size = comm_group(p, 0, n).size;
    try {
      const std::string a = coll_decision(c, p, n).algorithm;
      const coll::AlgoInfo* info = coll::default_registry().find(p.kind, a);
      if (!info)
        throw InputError(file, "benchmark.collectives",
                         fmt::format("'{}' chooses {} '{}' for {} B at {} ranks, which is not implemented here ({})",
                                     c.coll_library, p.kind, a, p.bytes, size, where));
      if (info->composition) {  // its stages' choices, each implemented as a flat algorithm
        const std::vector<coll::Stage> stages = coll::stage_list(c.coll_lib, p.kind);
        if (stages.empty()) throw std::invalid_argument(p.kind + " '" + a + "' is a composition whose stages the library "
                                                        "does not name");
        const coll::StageChooser choose = coll_stages(c, p);
        for (coll::Stage st : stages) (void)choose(st, size);
      }
    } catch (const std::invalid_argument& e) {
      throw InputError(file, "benchmark.collectives", fmt::format("'{}': {} ({})", c.coll_library, e.what(), where));
    }
  }
}

struct AppCtx {
  World& w;
  Stack& s;
  const AppConfig& c;
  int n;
  ScheduleExec exec;
  std::vector<double> compute_time, end_time;
  std::uint64_t short_msgs = 0, long_msgs = 0;
  std::uint64_t p2p_short = 0, p2p_long = 0;  // the application's own sends (halo, sendrecv, swap): what mpiP counts
  std::map<std::string, std::vector<double>> routine_time{};  // per MPI routine, per rank: seconds inside it
  void count(std::uint64_t bytes, bool p2p = true) {
    ++(bytes > kTable1Cutoff ? long_msgs : short_msgs);
    if (p2p) ++(bytes > kTable1Cutoff ? p2p_long : p2p_short);
  }
};

double imbalance_factor(const AppConfig& c, int rank, int n) {
  if (n <= 1 || c.imbalance == 0) return 1.0;
  // Ranks spread evenly over [-1, 1] in a scrambled order (golden-ratio sequence), fixed for the run.
  double u = std::fmod(static_cast<double>(rank) * 0.6180339887498949, 1.0);
  return 1.0 + c.imbalance * (2.0 * u - 1.0);
}

Task app_rank(AppCtx& x, int me) {
  const AppConfig& c = x.c;
  const double cstep = c.compute_per_step * imbalance_factor(c, me, x.n);
  double& comp = x.compute_time[static_cast<std::size_t>(me)];
  const Buffer buf = alloc_mem(Buffer{static_cast<std::uint64_t>(me) << 36, true}, c.alloc_mem);
  const std::string* last_routine = nullptr;
  for (int step = 0; step < c.steps; ++step) {
    for (std::size_t pi = 0; pi < c.phases.size(); ++pi) {
      const AppPhase& p = c.phases[pi];
      if ((step + 1) % p.every != 0) continue;
      for (int rep = 0; rep < p.count; ++rep) {
        const double t0 = x.w.sim().now(), comp0 = comp;
        double posted = 0;  // of the phase's MPI time, charged to MPI_Isend
        if (p.kind == "compute") {
          co_await Work{x.w, me, p.share * cstep, &comp};
        } else if (p.kind == "halo") {
          const std::vector<int> dims = dims_create(x.n, p.dims);
          Pending all;
          std::vector<std::pair<int, int>> late;  // (source, tag)
          for (int k = 0; k < p.dims; ++k)
            for (int sign : {+1, -1}) {
              if (dims[k] == 1 || (p.axis >= 0 && k != p.axis)) continue;
              int dir = 2 * k + (sign > 0 ? 0 : 1);
              int from = grid_neighbour(me, dims, k, -sign);  // the message travelling in direction `dir`
              bool is_late = unit_hash(static_cast<std::uint64_t>(me), static_cast<std::uint64_t>(step),
                                       (pi << 20) + static_cast<std::uint64_t>(rep), static_cast<std::uint64_t>(dir)) <
                             p.late_fraction;
              if (is_late) late.emplace_back(from, kHaloTag + dir);
              else x.s.irecv(me, from, kHaloTag + dir, p.bytes, buf, all.add());
            }
          // The isends' post time: the software costs their calls queue on the rank's core (MPI_Isend in mpiP's view).
          const double sends_from = std::max(x.w.sim().now(), x.w.cpus().cpu_free_at(me));
          for (int k = 0; k < p.dims; ++k)
            for (int sign : {+1, -1}) {
              if (dims[k] == 1 || (p.axis >= 0 && k != p.axis)) continue;
              int dir = 2 * k + (sign > 0 ? 0 : 1);
              x.count(p.bytes);
              x.s.isend(me, grid_neighbour(me, dims, k, sign), kHaloTag + dir, p.bytes, buf, all.add());
            }
          posted = std::max(0.0, x.w.cpus().cpu_free_at(me) - sends_from);
          x.routine_time["Isend"][static_cast<std::size_t>(me)] += posted;
          co_await Work{x.w, me, p.share * cstep, &comp};
          for (auto& [from, tag] : late) x.s.irecv(me, from, tag, p.bytes, buf, all.add());
          co_await all;
        } else if (p.kind == "swap") {
          // MPI_Sendrecv with the partner rank XOR mask (a binary-swap compositing round).
          const int partner = me ^ p.mask;
          Pending sr;
          x.s.irecv(me, partner, kSwapTag + p.mask, p.bytes, buf, sr.add());
          x.count(p.bytes);
          x.s.isend(me, partner, kSwapTag + p.mask, p.bytes, buf, sr.add());
          co_await sr;
        } else if (p.kind == "sendrecv") {
          for (int d = 0; d < p.directions; ++d) {
            int shift = d == 0 ? p.stride : -p.stride;
            int to = ((me + shift) % x.n + x.n) % x.n, from = ((me - shift) % x.n + x.n) % x.n;
            if (to == me) continue;
            for (std::size_t k = 0; k < p.sizes.size(); ++k) {
              Pending sr;
              int tag = kShiftTag + 2 * static_cast<int>(k) + d;
              x.s.irecv(me, from, tag, p.sizes[k], buf, sr.add());
              x.count(p.sizes[k]);
              x.s.isend(me, to, tag, p.sizes[k], buf, sr.add());
              co_await sr;
            }
          }
        } else {
          coll::Schedule sched = coll_schedule(x.c, p, me, x.n);
          co_await CollAwait{&x.exec, me, &sched, comm_tag(p), comm_group(p, me, x.n)};
        }
        // A compute phase's MPI time is the costs the previous MPI call left queued on the core: that call's.
        if (!p.routine.empty()) last_routine = &p.routine;
        if (last_routine)
          x.routine_time[*last_routine][static_cast<std::size_t>(me)] += x.w.sim().now() - t0 - (comp - comp0) - posted;
      }
    }
  }
  x.end_time[static_cast<std::size_t>(me)] = x.w.sim().now();
}

// Table 1's "Top MPI Routines" as the skeleton charges them: {"routine_pct": {name: mean over ranks of % of its run
// time}, "top_routines": names by share, "table1_lacks": [{"quantity", "lacks"}] for the paper's routines no phase is
// charged to}.
Json routine_report(const AppCtx& x, const AppConfig& c) {
  Json pct = Json::object();
  std::vector<std::pair<double, std::string>> order;
  for (auto& [name, per_rank] : x.routine_time) {
    double sum = 0;
    for (int r = 0; r < x.n; ++r) {
      double end = x.end_time[static_cast<std::size_t>(r)];
      sum += end > 0 ? 100.0 * per_rank[static_cast<std::size_t>(r)] / end : 0.0;
    }
    pct[name] = sum / x.n;
    order.emplace_back(-sum, name);
  }
  std::sort(order.begin(), order.end());
  Json top = Json::array(), lacks = Json::array();
  for (auto& o : order) top.push_back(o.second);
  if (!c.table1.is_null() && c.table1.contains("top_routines_pct"))
    for (auto& [name, v] : c.table1["top_routines_pct"].items())
      if (!x.routine_time.count(name))
        lacks.push_back({{"quantity", "routine " + name},
                         {"lacks", fmt::format("no phase of the skeleton is charged to MPI_{} (a phase's MPI time goes to "
                                               "its one routine: {})",
                                               name, "halo to Wait/Waitall and its sends' post time to Isend, "
                                                     "sendrecv/swap to Sendrecv, a collective to itself")}});
  return Json{{"routine_pct", pct}, {"top_routines", top}, {"table1_lacks", lacks}};
}

// The stack's long-protocol sends and unexpected arrivals, read by the declarations of the component that counts
// them: mtl/portals (pml/cm), Cray MPI over Portals (the same table under its own names) or pml/ob1. null where the
// stack does not count one.
struct ProtocolCounts {
  Json unexpected_long = nullptr, unexpected_short = nullptr, long_protocol = nullptr;
};
ProtocolCounts protocol_counts(const StackStats& st) {
  using mtl::portals::MtlPortalsStat;
  using pml::ob1::Ob1Stat;
  // mtl/portals' table, or Cray MPI's names for it (entry by entry)
  const auto& table = st.find(statistic(native::kCrayMpiStatistics, MtlPortalsStat::ShortBlocksPosted))
                          ? native::kCrayMpiStatistics
                          : mtl::portals::kMtlPortalsStatistics;
  auto mtl_stat = [&table](MtlPortalsStat id) -> const StatisticInfo& { return statistic(table, id); };
  auto ob1_stat = [](Ob1Stat id) -> const StatisticInfo& { return statistic(pml::ob1::kOb1Statistics, id); };
  ProtocolCounts c;
  if (st.find(mtl_stat(MtlPortalsStat::ShortBlocksPosted))) {  // pml/cm + mtl/portals, Cray MPI over Portals
    c.unexpected_long = st.value(mtl_stat(MtlPortalsStat::UnexpectedLong));
    c.unexpected_short = st.value(mtl_stat(MtlPortalsStat::UnexpectedShort));
    c.long_protocol = st.value(mtl_stat(MtlPortalsStat::LongSends));
  } else {  // pml/ob1: RNDV/RGET headers are its long protocol
    c.long_protocol = st.value(ob1_stat(Ob1Stat::HdrRndv)) + st.value(ob1_stat(Ob1Stat::HdrRget));
    if (auto v = st.find(ob1_stat(Ob1Stat::UnexpectedLong))) c.unexpected_long = *v;
    if (auto v = st.find(ob1_stat(Ob1Stat::UnexpectedShort))) c.unexpected_short = *v;
  }
  return c;
}
}  // namespace

std::vector<std::string> app_names() {
  std::vector<std::string> out;
  if (!std::filesystem::exists(apps_dir())) return out;
  std::vector<std::string> files;
  for (auto& e : std::filesystem::directory_iterator(apps_dir()))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (auto& f : files) {
    Json j = load_json_file(f);
    if (j.contains("app") && j["app"].is_string()) out.push_back(j["app"].get<std::string>());
  }
  return out;
}

AppConfig load_app(const std::string& app, const std::string& file, const std::string& key,
                   const std::vector<std::pair<std::string, std::string>>& set, const std::string& set_key) {
  std::string path;
  if (std::filesystem::exists(apps_dir()))
    for (auto& e : std::filesystem::directory_iterator(apps_dir())) {
      if (e.path().extension() != ".json") continue;
      Json j = load_json_file(e.path().string());
      if (j.value("app", "") == app) path = e.path().string();
    }
  if (path.empty()) {
    auto names = app_names();
    std::string hint = did_you_mean(app, names);
    throw InputError(file, key, fmt::format("unknown application skeleton '{}'{} (known: {})", app,
                                            hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
  }
  Json j = load_json_file(path);
  ObjectReader r(j, path, "");
  AppConfig c;
  c.file = std::filesystem::relative(path, data_dir()).string();
  c.app = r.str("app");
  (void)r.opt_str("description");
  (void)r.opt_str("paper");
  (void)r.opt_str("calibration");
  if (r.has("table1")) {
    c.table1 = r.raw("table1");
    ObjectReader t(c.table1, path, "table1");
    c.paper_ranks = t.integer("ranks", 1, 1 << 24);
    c.target_mpi_pct = t.number("mpi_time_pct", 0.01, 99.99);
    for (auto k : {"mpi_time_pct_min", "mpi_time_pct_max", "short_msgs", "long_msgs", "long_dropped"}) (void)t.number(k, 0, 1e12);
    (void)t.raw("top_routines_pct");
    (void)t.str("relative_runtime");
    (void)t.str("source");
    t.finish();
  }
  {
    const Json& v = sourced(r, "steps");
    if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 100000)
      throw InputError(path, "steps.value", "expected an integer in [1, 100000]");
    c.steps = v.get<int>();
  }
  {
    ObjectReader cp = r.object("compute_per_step");
    c.compute_initial = cp.quantity("initial", Dim::Time, 1e-9, 1e4);
    c.compute_per_step = cp.quantity("value", Dim::Time, 1e-9, 1e4);
    (void)cp.str("fit");
    cp.finish();
  }
  {
    const Json& v = sourced(r, "imbalance");
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() >= 1)
      throw InputError(path, "imbalance.value", "expected a number in [0, 1)");
    c.imbalance = v.get<double>();
  }
  if (r.has("alloc")) {
    const Json& v = sourced(r, "alloc");
    if (!v.is_string() || (v.get<std::string>() != "malloc" && v.get<std::string>() != "mpi_alloc_mem"))
      throw InputError(path, "alloc.value", "expected 'malloc' or 'mpi_alloc_mem' (how the application allocates its "
                                            "message buffers)");
    c.alloc_mem = v.get<std::string>() == "mpi_alloc_mem";
  }
  c.estimates = load_estimates(r, path);
  set_estimates(c.estimates, set, file, set_key);
  Json ph = r.raw("phases");
  if (!ph.is_array() || ph.empty()) r.fail("phases", "expected a non-empty list of phases");
  std::set<std::string> used;
  substitute_estimates(ph, c.estimates, used, path, "phases");
  for (auto& e : c.estimates)
    if (!used.count(e.name)) throw InputError(path, "estimates." + e.name, "no phase uses it (\"$" + e.name + "\")");
  for (std::size_t i = 0; i < ph.size(); ++i) load_phase(ph[i], path, "phases[" + std::to_string(i) + "]", c.phases);
  double shares = 0;
  for (auto& p : c.phases)
    if (p.kind == "compute" || p.kind == "halo") shares += p.share * p.count / p.every;
  if (std::fabs(shares - 1.0) > 1e-6)
    r.fail("phases", fmt::format("the compute shares (compute.share and halo.overlap_share, x count / every) add up to "
                                 "{:.6g}, not 1", shares));
  r.finish();
  return c;
}

Json run_app(World& w, Stack& s, const AppConfig& c, const std::string& file) {
  int n = static_cast<int>(w.contexts().ranks());
  check_fits(c, n, file);
  if (c.compute_per_step <= 0) throw std::logic_error("run_app: compute_per_step not set (fit it first)");
  AppCtx x{w, s, c, n, ScheduleExec(s, n), std::vector<double>(static_cast<std::size_t>(n), 0.0),
        std::vector<double>(static_cast<std::size_t>(n), -1.0)};
  x.exec.on_send = [&x](int, int, std::uint64_t bytes) { x.count(bytes, false); };
  x.exec.registered = c.alloc_mem;
  // The allreduces' arithmetic on MPI_DOUBLE elements, where the machine gives a cost per element.
  x.exec.reduce = reduce_arithmetic(w, static_cast<std::uint32_t>(mpi::kDouble.size));
  for (auto& p : c.phases) {
    if (!p.routine.empty()) x.routine_time.emplace(p.routine, std::vector<double>(static_cast<std::size_t>(n), 0.0));
    if (p.kind == "halo") x.routine_time.emplace("Isend", std::vector<double>(static_cast<std::size_t>(n), 0.0));
  }
  for (int r = 0; r < n; ++r) app_rank(x, r);
  w.sim().run();
  double runtime = 0, pct_sum = 0, pct_min = 100, pct_max = 0;
  for (int r = 0; r < n; ++r) {
    double end = x.end_time[static_cast<std::size_t>(r)];
    if (end < 0) throw std::runtime_error(fmt::format("app_skeleton {}: rank {} never finished (deadlock)", c.app, r));
    runtime = std::max(runtime, end);
    double pct = end > 0 ? 100.0 * (end - x.compute_time[static_cast<std::size_t>(r)]) / end : 0.0;
    pct_sum += pct, pct_min = std::min(pct_min, pct), pct_max = std::max(pct_max, pct);
  }
  StackStats st = s.stats();
  const ProtocolCounts pc = protocol_counts(st);
  const Json &unexpected_long = pc.unexpected_long, &unexpected_short = pc.unexpected_short,
             &long_protocol = pc.long_protocol;
  const Json& t = c.table1;
  Json out{{"app", c.app},
              {"stack", s.name()},
              {"ranks", n},
              {"runtime_s", runtime},
              {"mpi_time_pct", pct_sum / n},
              {"mpi_time_pct_min", pct_min},
              {"mpi_time_pct_max", pct_max},
              {"steps", c.steps},
              {"compute_per_step_s", c.compute_per_step},
              {"short_msgs", x.short_msgs},
              {"long_msgs", x.long_msgs},
              {"long_pct", x.short_msgs + x.long_msgs ? 100.0 * static_cast<double>(x.long_msgs) / static_cast<double>(x.short_msgs + x.long_msgs) : 0.0},
              {"app_p2p_long_pct", x.p2p_short + x.p2p_long ? Json(100.0 * static_cast<double>(x.p2p_long) / static_cast<double>(x.p2p_short + x.p2p_long)) : Json()},
              {"long_protocol_sends", long_protocol},
              {"unexpected_long", unexpected_long},
              {"unexpected_short", unexpected_short},
              {"unexpected_long_pct_of_long", unexpected_long.is_null() || x.long_msgs == 0 ? Json(nullptr)
                                                  : Json(100.0 * unexpected_long.get<double>() / static_cast<double>(x.long_msgs))}};
  out.update(routine_report(x, c));
  if (unexpected_long.is_null())
    out["table1_lacks"].push_back({{"quantity", "unexpected_long_pct_of_long"},
                                   {"lacks", fmt::format("stack {} counts no unexpected long message (Table 1's long "
                                                         "messages dropped)", s.name())}});
  if (t.is_null()) return out;
  out["paper_mpi_time_pct"] = t.at("mpi_time_pct");
  out["paper_long_pct"] = 100.0 * t.at("long_msgs").get<double>() / (t.at("long_msgs").get<double>() + t.at("short_msgs").get<double>());
  out["paper_dropped_pct_of_long"] = 100.0 * t.at("long_dropped").get<double>() / t.at("long_msgs").get<double>();
  return out;
}

Json fit_app_compute(const AppConfig& c, const std::function<Json(double)>& eval) {
  // MPI share f(c) = M / (M + C) falls as the compute per step c grows. First step: the fixed point
  // c' = c f (1 - t) / ((1 - f) t), exact if the MPI time M did not depend on c; M does grow with c (waiting for the
  // slowest rank under imbalance), so later steps are secant steps on f against log c. Stops when |f - t| <= 0.25
  // percentage points, after at most 10 evaluations.
  const double t = c.target_mpi_pct / 100.0;
  double cc = c.compute_initial;
  Json its = Json::array(), last, best;
  double best_err = 1e300, prev_c = 0, prev_f = 0;
  for (int i = 0; i < 10; ++i) {
    last = eval(cc);
    double f = last.at("mpi_time_pct").get<double>() / 100.0;
    its.push_back({{"compute_per_step_s", cc}, {"mpi_time_pct", 100.0 * f}});
    if (std::fabs(f - t) < best_err) best_err = std::fabs(f - t), best = last;
    if (std::fabs(f - t) * 100.0 <= 0.25) break;
    double next;
    if (i == 0 || f == prev_f) {
      double fc = std::clamp(f, 1e-4, 1 - 1e-4);
      next = cc * std::clamp(fc * (1 - t) / ((1 - fc) * t), 0.05, 20.0);
    } else {
      double lc = std::log(cc), lp = std::log(prev_c);
      double ln = lc + (t - f) * (lc - lp) / (f - prev_f);
      next = std::exp(std::clamp(ln, lc - 3.0, lc + 3.0));
    }
    prev_c = cc, prev_f = f, cc = next;
  }
  return Json{{"compute_per_step_s", best.at("compute_per_step_s")},
              {"target_mpi_time_pct", c.target_mpi_pct},
              {"method", "openmpi-cm MPI time share (Table 1 'Ave MPI Time %'): one fixed-point step, then secant steps "
                         "on log(compute); tolerance 0.25 points; the best evaluation is kept"},
              {"iterations", its},
              {"point", best}};
}

namespace {

class AppDriver final : public ConfiguredDriver<AppDriver, AppConfig> {
public:
  AppDriver(AppConfig c, std::string stack, std::string file, EstimateSet block_set)
      : ConfiguredDriver(std::move(c)), stack_(std::move(stack)), file_(std::move(file)), block_set_(std::move(block_set)) {}
  const AppConfig& config() const { return c_; }
  std::vector<DriverEstimate> estimates() const override {
    std::vector<DriverEstimate> out;
    for (auto& e : c_.estimates)
      out.push_back({c_.app + "." + e.name, e.dim, e.value, e.lo, e.hi, e.source, e.range_source});
    return out;
  }
  // The skeleton read again with the block's own "estimates" and then `set`'s (those named "<app>.<name>"); the
  // block's other keys (steps, compute_per_step, collectives) kept.
  std::unique_ptr<Driver> with_estimates(const EstimateSet& set) const override {
    EstimateSet mine = block_set_;
    const std::string prefix = c_.app + ".";
    for (auto& [k, v] : set)
      if (k.starts_with(prefix)) mine.emplace_back(k.substr(prefix.size()), v);
    auto d = std::make_unique<AppDriver>(*this);
    AppConfig c = load_app(c_.app, file_, "benchmark.estimates", mine);
    c.steps = c_.steps, c.compute_per_step = c_.compute_per_step;
    c.coll_library = c_.coll_library, c.coll_lib = c_.coll_lib, c.coll_named = c_.coll_named;
    d->c_ = std::move(c);
    return d;
  }
  std::unique_ptr<Driver> with_stack_collectives(const std::string& lib) const override {
    if (c_.coll_named || app_default_library(lib) == c_.coll_library) return nullptr;
    auto d = std::make_unique<AppDriver>(*this);
    set_coll_library(d->c_, app_default_library(lib));
    return d;
  }
  Json run(World& w, Stack& s, const std::string& file) const override { return Json::array({run_app(w, s, c_, file)}); }
  void check(const DriverContext& ctx) const override {
    if (ctx.ranks.size() != 1) throw InputError(ctx.file, "ranks", "app_skeleton runs one rank count (not a sweep)");
  }
  std::string label() const override { return "app_skeleton"; }
  std::string alloc_mem_key() const override { return c_.alloc_mem ? c_.file + " alloc" : ""; }
  // "fit_compute": fit compute_per_step with openmpi-cm (fit_app_compute, each evaluation in its own process), then
  // run the scenario's stack with the fitted value; the fit is logged in provenance.derived.
  std::optional<Json> run_derived(const Rerun& rerun) const override {
    if (c_.compute_per_step > 0) return std::nullopt;
    AppDriver cm = *this;
    std::map<double, Json> runs;
    Json fit = fit_app_compute(c_, [&](double c) {
      cm.c_.compute_per_step = c;
      Json r = rerun(cm, kFitStack);
      runs[c] = r;
      return r["points"][0];
    });
    Json res = runs.at(fit["compute_per_step_s"].get<double>());  // the CM scenario's result is the fit's best run
    if (stack_ != kFitStack) {
      AppDriver fin = *this;
      fin.c_.compute_per_step = fit["compute_per_step_s"].get<double>();
      res = rerun(fin, "");
    }
    fit.erase("point");
    res["provenance"]["derived"] = {{"compute_per_step (fitted)", fit}};
    return res;
  }

private:
  static constexpr const char* kFitStack = "openmpi-cm";  // the paper's Table 1 was measured with it
  std::string stack_;     // the scenario's stack
  std::string file_;      // the scenario file (errors name it)
  EstimateSet block_set_;  // the block's "estimates"
};

std::string app_table(const Json& res) {
  auto num = [](const Json& v) { return v.is_null() ? std::string("n/a") : fmt::format("{}", v.get<long long>()); };
  std::string out;
  if (!res["points"].empty() && res["points"][0].contains("paper_mpi_time_pct"))
    out += "# Table 1 %: the paper's MPI time share, measured with Open MPI's CM at Table 1's process count (the same "
           "reference whatever this run's stack and ranks)\n";
  out += fmt::format("# {:<6}{:>12}{:>10}{:>10}{:>12}{:>12}{:>16}  {}\n", "App", "Runtime (s)", "MPI %", "Table 1 %",
                     "Short", "Long", "Unexpected long", "Top MPI routines (% of run time)");
  for (auto& p : res["points"]) {
    std::string top;
    for (auto& r : p.value("top_routines", Json::array()))
      top += fmt::format("{}{} {:.2f}", top.empty() ? "" : ", ", r.get<std::string>(),
                         p["routine_pct"][r.get<std::string>()].get<double>());
    out += fmt::format("{:<8}{:>12.6f}{:>10.2f}{:>10.1f}{:>12}{:>12}{:>16}  {}\n", p["app"].get<std::string>(),
                       p["runtime_s"].get<double>(), p["mpi_time_pct"].get<double>(),
                       p.value("paper_mpi_time_pct", std::nan("")), num(p["short_msgs"]), num(p["long_msgs"]),
                       num(p["unexpected_long"]), top);
    for (auto& l : p.value("table1_lacks", Json::array()))
      out += fmt::format("#   Table 1 {}: untested, {}\n", l["quantity"].get<std::string>(), l["lacks"].get<std::string>());
  }
  return out;
}

}  // namespace

// The run's messages for the estimate (MessageCount::from_input): every rank's sends over the skeleton's steps, from
// its phases: a halo two per dimension exchanged, a sendrecv one per message and direction, a swap one, an alltoall
// P_c - 1 and the other collectives 1 + ceil(log2 P_c) on their communicator of P_c ranks (world, or a row or column
// of the process grid), each phase's count on the steps it runs. With fit_compute the openmpi-cm fit's runs come on
// top (its evaluations are runs of their own).
std::optional<InputMessages> skeleton_messages(const Driver& parsed, double ranks) {
  const auto* a = dynamic_cast<const AppDriver*>(&parsed);
  if (!a) return std::nullopt;
  const AppConfig& c = a->config();
  const MessageCount tree{}, all_pairs{0, 0, 1};
  double per_rank = 0;
  for (const AppPhase& p : c.phases) {
    const double comm = p.comm == "row" && p.group > 0   ? p.group
                        : p.comm == "col" && p.group > 0 ? std::max(1.0, ranks / p.group)
                                                         : ranks;
    double m = 0;
    if (p.kind == "halo") m = p.axis >= 0 ? 2 : 2.0 * std::max(p.dims, 1);
    else if (p.kind == "sendrecv") m = static_cast<double>(p.sizes.size()) * p.directions;
    else if (p.kind == "swap") m = 1;
    else if (p.kind == "alltoall") m = all_pairs.at(comm);
    else if (p.kind != "compute") m = tree.at(comm);
    const double runs = std::floor(static_cast<double>(c.steps) / std::max(p.every, 1));
    per_rank += m * p.count * runs;
  }
  return InputMessages{per_rank * ranks, fmt::format("{:.3g} messages from the skeleton's {} steps ({:.3g} per rank)",
                                                     per_rank * ranks, c.steps, per_rank)};
}

void register_app_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "app_skeleton";
  d.family = "application skeleton";
  d.description = "an application's communication skeleton (seastar-portals paper §4, Table 1) defined as data in "
                  "benchmarks/apps/*.json; one rank count";
  d.params = {
      {"app", "name", "(required)", "the skeleton (benchmarks/apps/*.json)", app_names},
      integer_key("steps", 1, 100000, std::nullopt, "time steps simulated", "the skeleton's steps"),
      {"compute_per_step", "time (\"2.5 ms\")", "the skeleton's stored fit", "computation per step, mean over ranks"},
      {"estimates", "object {estimate: value}", "the skeleton's values",
       "values of the skeleton's estimates (its \"estimates\" block: guessed message sizes with their ranges), e.g. "
       "{\"halo_bytes\": \"128 KiB\"}: a what-if within or beyond the range validate samples"},
      text_key("fit_compute", "boolean", "false",
               "fit compute_per_step now with openmpi-cm to the paper's MPI time share, then run the scenario's stack"),
      {"collectives", "tuned-v1.3 | mpich2-1.0",
       "the stack preset's collective library where it is one of these (`ompisim list` names each preset's), else "
       "none: one coll/base algorithm per collective at every size",
       "the MPI library's collective decision (collectives/decision/*.json): Open MPI 1.3's coll/tuned or MPICH2 "
       "1.0's defaults (Cray MPI), each collective phase's algorithm chosen by its communicator size and bytes",
       [] { return coll_libraries(); }}};
  d.parse = [keys = d.params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    std::string app = b.str("app");
    EstimateSet block_set;
    if (b.has("estimates")) {
      const Json& e = b.raw("estimates");
      if (!e.is_object()) b.fail("estimates", "expected an object {name: value}, e.g. {\"halo_bytes\": \"128 KiB\"}");
      for (auto& [k, v] : e.items()) {
        if (!v.is_string() && !v.is_number_integer())
          b.fail("estimates." + k, "expected a size with its unit (\"128 KiB\") or an integer");
        block_set.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
      }
    }
    AppConfig c = load_app(app, ctx.file, b.key_path("app"), block_set, b.key_path("estimates"));
    if (auto steps = read_integer(b, keys, "steps")) c.steps = static_cast<int>(*steps);
    if (b.has("compute_per_step")) c.compute_per_step = b.quantity("compute_per_step", Dim::Time, 1e-9, 1e4);
    c.coll_named = b.has("collectives");
    if (c.coll_named) {
      const std::string name = b.str("collectives");
      const auto& libs = coll_libraries();
      if (std::find(libs.begin(), libs.end(), name) == libs.end())
        b.fail("collectives", fmt::format("unknown collective library '{}' (known: {})", name, fmt::join(libs, ", ")));
      set_coll_library(c, name);
    } else {
      set_coll_library(c, app_default_library(ctx.stack_collectives));
    }
    if (read_boolean(b, block_keys(ctx), "fit_compute")) {  // refit (ignores the stored value)
      if (b.has("compute_per_step")) b.fail("fit_compute", "cannot be combined with compute_per_step");
      if (c.table1.is_null())
        b.fail("fit_compute", fmt::format("skeleton '{}' has no Table 1 MPI time share to fit to (see its compute_per_step.fit)", app));
      c.compute_per_step = 0;
    }
    return std::make_unique<AppDriver>(std::move(c), ctx.stack, ctx.file, std::move(block_set));
  };
  d.table = app_table;
  d.curve = false;
  d.messages.from_input = skeleton_messages;
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
