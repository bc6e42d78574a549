// OSU micro-benchmarks (OMB 5.x) as rank programs. Timing, loop counts, window sizes and what is reported follow the
// OSU sources: osu_latency and osu_multi_lat report the one-way latency (elapsed / 2 / iterations, averaged over the
// pairs); osu_bw and osu_mbw_mr stream `window` non-blocking sends that the receiver acknowledges with a 4-byte
// message; osu_bibw exchanges windows in both directions. osu_multi_lat and osu_mbw_mr pair rank i with i + N/2.
#include "platform/alloc_mem.hpp"
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/osu_block.hpp"
#include "benchmarks/task.hpp"
#include "core/limits.hpp"
#include "protocols/register.hpp"

#include <algorithm>
#include <set>
#include <fmt/format.h>

namespace ompisim::bench {

namespace {
constexpr std::uint64_t kLargeMessage = 8192;  // OSU LARGE_MESSAGE_SIZE
constexpr int kTag = 1, kAckTag = 2;

Buffer buf_of(int rank, int which, std::uint64_t offset, MemKind kind = MemKind::Host) {
  // Distinct page-aligned buffers per rank (send / receive), as OSU allocates them once per run; in host memory or
  // in the rank's GPU (index -1: the platform resolves it to the GPU the rank uses).
  return Buffer{(static_cast<std::uint64_t>(rank) << 36) + (static_cast<std::uint64_t>(which) << 32) + offset, true,
                MemSpace{kind, -1}};
}

// A data buffer (send 0, receive 1) as the block allocates it ("buffer_offset", "buffer", "alloc").
Buffer data_buf(const OsuConfig& c, int rank, int which) {
  return alloc_mem(buf_of(rank, which, c.buffer_offset, c.buffer), c.alloc_mem);
}

struct OsuCtx {
  World& w;
  Stack& s;
  const OsuConfig& c;
  GlobalSync sync;
  GlobalSync skip_sync;  // osu_mbw_mr's barrier before its timer (apart from `sync`, whose releases count the sizes)
  std::vector<double> elapsed;  // per size, per rank (time measured by that rank)
  int nranks;
};

// The data messages: `size` bytes as elements of the configured datatype (MPI_BYTE unless the block says otherwise).
// `blocking`: MPI_Send (osu_latency, osu_multi_lat; NetPIPE's MPI module), else MPI_Isend (the windows of osu_bw,
// osu_bibw, osu_mbw_mr).
void send_data(OsuCtx& x, int me, int peer, std::uint64_t size, Buffer b, Completion done, bool blocking = false) {
  const mpi::Datatype& t = x.c.datatype;
  x.s.start_send(mpi::P2P{me, peer, kTag, size / t.size, t, mpi::kCommWorld, b, nullptr, blocking}, std::move(done));
}
void recv_data(OsuCtx& x, int me, int peer, std::uint64_t size, Buffer b, Completion done) {
  const mpi::Datatype& t = x.c.datatype;
  x.s.start_recv(mpi::P2P{me, peer, kTag, size / t.size, t, mpi::kCommWorld, b, nullptr}, std::move(done));
}

// OSU's loop counts for a size, unless the scenario fixes them.
std::pair<long long, long long> loop_for(const OsuConfig& c, std::uint64_t size) {
  long long iters, skip;
  osu_loop(osu_kind(c.name), size, iters, skip);
  if (c.iterations > 0) iters = c.iterations;
  if (c.skip >= 0) skip = c.skip;
  return {iters, skip};
}

Task pingpong_rank(OsuCtx& x, int me, std::vector<std::vector<double>>& out) {
  int half = x.nranks / 2;
  int peer = me < half ? me + half : me - half;
  bool first = me < half;
  for (std::size_t k = 0; k < x.c.sizes.size(); ++k) {
    std::uint64_t size = x.c.sizes[k];
    auto [iters, skip] = loop_for(x.c, size);
    co_await x.sync.arrive();
    double t0 = x.w.sim().now();
    if (x.c.prepost) {
      // Both sides keep the receive for the next message posted before they send (NetPIPE-style pre-posting), so
      // every message finds its receive already posted.
      // Each receive is awaited before the next is posted, so one Pending serves them all.
      Pending rx;
      auto post = [&] { recv_data(x, me, peer, size, data_buf(x.c, me, 1), rx.add()); };
      if (!first) post();
      for (long long i = 0; i < iters + skip; ++i) {
        if (i == skip) t0 = x.w.sim().now();
        if (first) post();
        else {
          co_await rx;
          if (i + 1 < iters + skip) post();
        }
        Pending a;
        send_data(x, me, peer, size, data_buf(x.c, me, 0), a.add(), true);
        co_await a;
        if (first) co_await rx;
      }
    } else {
      for (long long i = 0; i < iters + skip; ++i) {
        if (i == skip) t0 = x.w.sim().now();
        // The initiator sends then receives (MPI_Send, MPI_Recv); its peer receives then sends.
        for (bool send : {first, !first}) {
          Pending p;
          if (send) send_data(x, me, peer, size, data_buf(x.c, me, 0), p.add(), true);
          else recv_data(x, me, peer, size, data_buf(x.c, me, 1), p.add());
          co_await p;
        }
      }
    }
    out[k][me] = (x.w.sim().now() - t0) / (2.0 * static_cast<double>(iters));
  }
  co_await x.sync.arrive();
}

// osu_bw / osu_mbw_mr (senders are the first half) and osu_bibw (both directions).
// `barrier_at_skip`: every rank waits for all at the first timed iteration, and the timer starts there (osu_mbw_mr.c
// calc_bw calls MPI_Barrier at i == skip on senders and receivers): the pairs' timed windows start together.
Task stream_rank(OsuCtx& x, int me, bool bidirectional, bool barrier_at_skip, std::vector<std::vector<double>>& out) {
  int half = x.nranks / 2;
  int peer = me < half ? me + half : me - half;
  bool sender = me < half;
  long long window = x.c.window;
  for (std::size_t k = 0; k < x.c.sizes.size(); ++k) {
    std::uint64_t size = x.c.sizes[k];
    auto [iters, skip] = loop_for(x.c, size);
    co_await x.sync.arrive();
    double t0 = x.w.sim().now();
    for (long long i = 0; i < iters + skip; ++i) {
      if (i == skip) {
        if (barrier_at_skip) co_await x.skip_sync.arrive();
        t0 = x.w.sim().now();
      }
      if (bidirectional) {
        Pending p;
        for (long long j = 0; j < window; ++j) recv_data(x, me, peer, size, data_buf(x.c, me, 1), p.add());
        for (long long j = 0; j < window; ++j) send_data(x, me, peer, size, data_buf(x.c, me, 0), p.add());
        co_await p;
      } else if (sender) {
        Pending p;
        for (long long j = 0; j < window; ++j) send_data(x, me, peer, size, data_buf(x.c, me, 0), p.add());
        co_await p;
        Pending a;
        x.s.irecv(me, peer, kAckTag, 4, buf_of(me, 2, 0), a.add());
        co_await a;
      } else {
        Pending p;
        for (long long j = 0; j < window; ++j) recv_data(x, me, peer, size, data_buf(x.c, me, 1), p.add());
        co_await p;
        Pending a;
        // The receiver's acknowledgement: MPI_Send of 4 bytes (osu_bw.c, osu_mbw_mr.c).
        x.s.start_send(mpi::P2P{me, peer, kAckTag, 4, mpi::kByte, mpi::kCommWorld, buf_of(me, 2, 0), nullptr, true},
                       a.add());
        co_await a;
      }
    }
    out[k][me] = (x.w.sim().now() - t0) / static_cast<double>(iters);  // time per iteration (one window)
  }
  co_await x.sync.arrive();
}
}  // namespace

namespace {
std::vector<std::uint64_t> osu_sizes_from(std::uint64_t first) {  // [0,] 1 B .. 4 MiB, powers of two
  std::vector<std::uint64_t> s;
  if (first == 0) s.push_back(0);
  for (std::uint64_t b = 1; b <= (4u << 20); b *= 2) s.push_back(b);
  return s;
}
std::vector<std::uint64_t> osu_latency_sizes() { return osu_sizes_from(0); }
std::vector<std::uint64_t> osu_stream_sizes() { return osu_sizes_from(1); }
std::vector<std::uint64_t> netpipe_sizes() {  // NetPIPE: 0, then each power of two with its +-3 byte perturbations, up to 8 MiB
  std::vector<std::uint64_t> s{0};
  for (std::uint64_t b = 1; b <= (8u << 20); b *= 2) {
    if (b > 4 && b - 3 > s.back()) s.push_back(b - 3);
    if (b > s.back()) s.push_back(b);
    if (b >= 4) s.push_back(b + 3);
  }
  return s;
}
}  // namespace

const std::vector<OsuKind>& osu_kinds() {
  using P = OsuKind::Pattern;
  // OSU's loop counts (osu_util.h: LAT_LOOP_SMALL 10000 / LARGE 1000, skip 100 / 10; BW_LOOP_SMALL 100 / LARGE 20,
  // skip 10 / 2). NetPIPE sizes its repeat count to a time budget; a fixed count per size here.
  static const std::vector<OsuKind> k{
      {"osu_latency", P::PingPong, true, osu_latency_sizes, 10000, 1000, 100, 10, false, false, false,
       "OSU one-way latency: ping-pong between 2 ranks (MPI_Send then MPI_Recv)", "OSU MPI Latency Test"},
      {"osu_multi_lat", P::PingPong, false, osu_latency_sizes, 10000, 1000, 100, 10, false, false, false,
       "OSU latency between N/2 pairs at once (rank i with i + N/2), averaged", "OSU MPI Multi Latency Test"},
      {"osu_bw", P::Stream, true, osu_stream_sizes, 100, 20, 10, 2, false, false, false,
       "OSU bandwidth: a window of non-blocking sends, acknowledged by a 4-byte message", "OSU MPI Bandwidth Test"},
      {"osu_bibw", P::BiStream, true, osu_stream_sizes, 100, 20, 10, 2, false, false, false,
       "OSU bidirectional bandwidth: windows in both directions at once", "OSU MPI Bi-Directional Bandwidth Test"},
      {"osu_mbw_mr", P::Stream, false, osu_stream_sizes, 100, 20, 10, 2, false, true, true,
       "OSU aggregate bandwidth and message rate of N/2 streaming pairs",
       "OSU MPI Multiple Bandwidth / Message Rate Test"},
      {"netpipe", P::PingPong, true, netpipe_sizes, 200, 50, 10, 2, true, false, false,
       "NetPIPE ping-pong: latency and bandwidth over sizes around each power of two", ""},
  };
  return k;
}

const OsuKind& osu_kind(const std::string& name) {
  for (const auto& k : osu_kinds())
    if (k.name == name) return k;
  throw std::invalid_argument("osu_kind: '" + name + "' is not an OSU-style point-to-point benchmark");
}

void osu_loop(const OsuKind& k, std::uint64_t size, long long& iters, long long& skip) {
  const bool large = size > kLargeMessage;
  iters = large ? k.iters_large : k.iters_small;
  skip = large ? k.skip_large : k.skip_small;
}

// The counters that moved between two snapshots (name -> count), those that did not left out, and so are the levels
// (requests live, buffers held at the end: StatisticInfo::level), which are no count of what happened between them.
static Json counters_moved(const std::map<std::string, std::uint64_t>& before,
                           const std::map<std::string, std::uint64_t>& after) {
  static const std::set<std::string> levels = [] {
    std::set<std::string> names;
    for (const ComponentInfo& c : component_registry().all())
      for (const StatisticInfo& st : c.statistics)
        if (st.level) names.insert(st.name);
    return names;
  }();
  Json moved = Json::object();
  for (const auto& [name, v] : after) {
    if (levels.count(name)) continue;
    const auto it = before.find(name);
    const std::uint64_t was = it == before.end() ? 0 : it->second;
    if (v > was) moved[name] = v - was;
  }
  return moved;
}

Json run_osu(World& w, Stack& s, const OsuConfig& c) {
  int n = static_cast<int>(w.contexts().ranks());
  OsuCtx x{w, s, c, GlobalSync(w.sim(), n), GlobalSync(w.sim(), n), {}, n};
  // The stack's counters as every rank passes from one size to the next (before the first, after the last): what each
  // size's messages did, its warm-up included (which protocol each size took: an eager get, an RGET, a PUT fallback).
  std::vector<std::map<std::string, std::uint64_t>> at_sync;
  x.sync.on_release = [&] { at_sync.push_back(s.stats().counters); };
  std::vector<std::vector<double>> out(c.sizes.size(), std::vector<double>(static_cast<std::size_t>(n), 0.0));
  const OsuKind& kind = osu_kind(c.name);
  const bool lat = kind.pattern == OsuKind::Pattern::PingPong;
  for (int r = 0; r < n; ++r) {
    if (lat) pingpong_rank(x, r, out);
    else stream_rank(x, r, kind.pattern == OsuKind::Pattern::BiStream, kind.barrier_at_skip, out);
  }
  w.sim().run();
  Json points = Json::array();
  int pairs = n / 2;
  for (std::size_t k = 0; k < c.sizes.size(); ++k) {
    std::uint64_t size = c.sizes[k];
    if (lat) {
      double sum = 0;
      for (int r = 0; r < pairs; ++r) sum += out[k][static_cast<std::size_t>(r)];
      double lat_s = sum / pairs;
      Json p{{"bytes", size}, {"latency_us", lat_s * 1e6}};
      if (kind.latency_and_bandwidth) p["bandwidth_GBps"] = lat_s > 0 ? static_cast<double>(size) / lat_s / 1e9 : 0.0;
      if (k + 1 < at_sync.size()) p["counters"] = counters_moved(at_sync[k], at_sync[k + 1]);
      points.push_back(p);
    } else {
      // Aggregate bandwidth over the pairs, from the senders' average time per window (as osu_mbw_mr reports it).
      double t = 0;
      for (int r = 0; r < pairs; ++r) t += out[k][static_cast<std::size_t>(r)];
      t /= pairs;
      double dirs = kind.pattern == OsuKind::Pattern::BiStream ? 2.0 : 1.0;
      double bytes = static_cast<double>(size) * static_cast<double>(c.window) * dirs * pairs;
      double bw = bytes / t;
      Json p{{"bytes", size}, {"bandwidth_GBps", bw / 1e9}};
      if (kind.message_rate) p["messages_per_s"] = size ? bw / static_cast<double>(size) : 0.0;
      if (k + 1 < at_sync.size()) p["counters"] = counters_moved(at_sync[k], at_sync[k + 1]);
      points.push_back(p);
    }
  }
  return points;
}

// ---- The drivers: the OSU point-to-point set and NetPIPE (smb.cpp reuses the block reader) ----

std::vector<std::uint64_t> read_sizes(ObjectReader& b, const std::vector<std::uint64_t>& defaults) {
  std::vector<std::uint64_t> sizes;
  const std::string& file = b.file();
  if (b.has("sizes")) {
    auto& sv = b.raw("sizes");
    if (!sv.is_array() || sv.empty()) b.fail("sizes", "expected a non-empty list of message sizes in bytes");
    if (sv.size() > limits::kMaxSizes)
      b.fail("sizes", fmt::format("{} message sizes, above the limit of {} (each size is a full benchmark loop)",
                                  sv.size(), limits::kMaxSizes));
    for (std::size_t i = 0; i < sv.size(); ++i) {
      double x = json_quantity(sv[i], Dim::Bytes, file, b.key_path("sizes") + "[" + std::to_string(i) + "]");
      if (x < 0 || x > 1e12 || x != static_cast<double>(static_cast<long long>(x)))
        throw InputError(file, b.key_path("sizes") + "[" + std::to_string(i) + "]",
                         fmt::format("message size must be a whole number of bytes in [0, 1e12], got {}", sv[i].dump()));
      // one point per size: a size given twice would be two rows of the same point in the result
      const auto size = static_cast<std::uint64_t>(x);
      if (auto seen = std::find(sizes.begin(), sizes.end(), size); seen != sizes.end())
        throw InputError(file, b.key_path("sizes") + "[" + std::to_string(i) + "]",
                         fmt::format("{} B is sizes[{}] again ({}): give each size once", size, seen - sizes.begin(),
                                     sv[seen - sizes.begin()].dump()));
      sizes.push_back(size);
    }
  } else {
    sizes = defaults;
  }
  return sizes;
}

OsuConfig read_osu_block(ObjectReader& b, const OsuKind& kind, const std::vector<DriverParam>& declared) {
  const std::string& name = kind.name;
  const bool pingpong = kind.pattern == OsuKind::Pattern::PingPong;
  OsuConfig c;
  c.name = name;
  c.sizes = read_sizes(b, kind.default_sizes());
  const std::vector<DriverParam> keys = osu_params(kind, true);
  c.iterations = read_integer(b, keys, "iterations").value_or(-1);  // -1: OSU's rule per size
  c.skip = read_integer(b, keys, "skip").value_or(-1);
  if (b.has("window") && pingpong)
    b.fail("window", fmt::format("{} is a ping-pong; only the streaming benchmarks (osu_bw, osu_bibw, osu_mbw_mr) "
                                 "take a window", name));
  c.window = *read_integer(b, keys, "window");
  c.buffer_offset = static_cast<std::uint64_t>(*read_integer(b, keys, "buffer_offset"));
  const std::string buffer = read_text(b, declared, "buffer");
  if (buffer != "host" && buffer != "device")
    b.fail("buffer", "expected 'host' or 'device' (where the benchmark's buffers live)");
  c.buffer = buffer == "device" ? MemKind::Device : MemKind::Host;
  const std::string alloc = read_text(b, declared, "alloc");
  if (alloc != "malloc" && alloc != "mpi_alloc_mem")
    b.fail("alloc", "expected 'malloc' or 'mpi_alloc_mem' (how the benchmark allocates its data buffers)");
  c.alloc_mem = alloc == "mpi_alloc_mem";
  if (b.has("prepost") && !pingpong)
    b.fail("prepost", "only the ping-pong benchmarks (osu_latency, osu_multi_lat, netpipe) take this key");
  if (pingpong) c.prepost = read_boolean(b, declared, "prepost");
  {
    const std::string d = read_text(b, declared, "datatype");
    const mpi::Datatype* t = mpi::find_datatype(d);
    if (!t) b.fail("datatype", fmt::format("unknown datatype '{}' (known: MPI_BYTE, MPI_PACKED, MPI_CHAR, MPI_INT, "
                                           "MPI_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_CXX_BOOL)", d));
    c.datatype = *t;
    for (std::size_t i = 0; i < c.sizes.size(); ++i)
      if (c.sizes[i] % t->size)
        b.fail(b.has("sizes") ? "sizes[" + std::to_string(i) + "]" : "datatype",
               fmt::format("{} bytes is not a whole number of {} ({} bytes each){}", c.sizes[i], d, t->size,
                           b.has("sizes") ? "" : " (give sizes that are)"));
  }
  for (const char* k : {"side", "threshold_pct"})
    if (b.has(k)) b.fail(k, "only smb_overhead takes this key");
  return c;
}

void check_pair_ranks(const DriverContext& ctx, const std::string& name, bool two_ranks) {
  for (long long n : ctx.ranks) {
    if (two_ranks && n != 2)  // one message for every wrong count: not "even", which invites a 4
      throw InputError(ctx.file, "ranks",
                       fmt::format("{} runs on exactly 2 ranks, got {} (use osu_multi_lat / osu_mbw_mr)", name, n));
    if (n < 2 || n % 2)
      throw InputError(ctx.file, "ranks", fmt::format("{} needs an even number of ranks >= 2, got {}", name, n));
  }
}

bool narrow_sizes(std::vector<std::uint64_t>& sizes, const Json& sel) {
  if (!sel.contains("bytes")) return false;
  const std::vector<std::uint64_t> one{sel["bytes"].get<std::uint64_t>()};
  if (sizes == one) return false;
  sizes = one;
  return true;
}

bool narrow_osu(OsuConfig& c, const Json& sel) {
  const auto sizes = c.sizes;
  const auto iterations = c.iterations, skip = c.skip;
  // Only the sizes a calibration point needs and fewer iterations (the simulation is deterministic, so steady-state
  // iterations are identical; the warm-up is still skipped).
  if (sel.contains("bytes")) c.sizes = {sel["bytes"].get<std::uint64_t>()};
  else {
    c.sizes.clear();
    for (std::uint64_t b = 4096; b <= (4u << 20); b *= 2) c.sizes.push_back(b);
    c.sizes.push_back(102400);
    std::sort(c.sizes.begin(), c.sizes.end());
  }
  c.iterations = 30;
  c.skip = 3;
  return c.sizes != sizes || c.iterations != iterations || c.skip != skip;
}

MessageBound osu_largest_message(const OsuConfig& c) {
  return {*std::max_element(c.sizes.begin(), c.sizes.end()), "benchmark.sizes"};
}

namespace {

class OsuDriver final : public ConfiguredDriver<OsuDriver, OsuConfig> {
public:
  OsuDriver(OsuConfig c, bool two_ranks) : ConfiguredDriver(std::move(c)), two_ranks_(two_ranks) {}
  Json run(World& w, Stack& s, const std::string& file) const override {
    if (c_.buffer == MemKind::Device)
      for (long long node : w.contexts().placement().nodes)
        if (w.machine().node_type(node).gpus().empty())
          throw InputError(file, "benchmark.buffer",
                           fmt::format("device buffers need a GPU, but a {} node has none (machine file {})",
                                       w.machine().name, repo_relative(w.machine().file)));
    return run_osu(w, s, c_);
  }
  std::string alloc_mem_key() const override { return c_.alloc_mem ? "benchmark.alloc" : ""; }
  void check(const DriverContext& ctx) const override { check_pair_ranks(ctx, c_.name, two_ranks_); }
  std::string label() const override { return c_.name; }
  bool narrow_for_calibration(const Json& sel) override { return narrow_osu(c_, sel); }
  std::optional<MessageBound> largest_message() const override { return osu_largest_message(c_); }
  std::optional<CallCount> calls_over_sizes(double cutoff) const override {
    if (c_.sizes.empty()) return std::nullopt;
    double calls = 0;
    std::set<std::pair<long long, long long>> loops;
    for (std::uint64_t size : c_.sizes) {
      const auto [iters, skip] = loop_for(c_, size);
      calls += std::min(cutoff, static_cast<double>(iters + skip));
      loops.insert({iters, skip});
    }
    if (loops.size() == 1) {  // one loop for every size: the keys' (iterations x sizes), or a default's, said
      if (c_.iterations >= 0 && c_.skip >= 0) return std::nullopt;
      const auto [iters, skip] = *loops.begin();
      return CallCount{calls, fmt::format("{} + {} calls each", iters, skip)};
    }
    const auto [small_iters, small_skip] = loop_for(c_, kLargeMessage);
    const auto [large_iters, large_skip] = loop_for(c_, kLargeMessage + 1);
    return CallCount{calls, fmt::format("{} + {} calls up to 8 KiB, {} + {} above", small_iters, small_skip,
                                        large_iters, large_skip)};
  }
  // A window streams `window` messages a pair and call, with one acknowledgement (osu_bw, osu_mbw_mr) or in both
  // directions (osu_bibw): per rank (window + 1) / 2 or window sends, where a ping-pong has 1 (counted 2).
  std::optional<MessagesPerCall> messages_per_call() const override {
    const auto w = static_cast<double>(c_.window);
    switch (osu_kind(c_.name).pattern) {
      case OsuKind::Pattern::PingPong: return std::nullopt;
      case OsuKind::Pattern::Stream: return MessagesPerCall{w + 1, fmt::format("window {} + acknowledgement", c_.window)};
      case OsuKind::Pattern::BiStream: return MessagesPerCall{2 * w, fmt::format("window {} each way", c_.window)};
    }
    return std::nullopt;
  }

private:
  bool two_ranks_;
};

// OSU micro-benchmarks' own output (OMB 5.x, osu_util.h: "%-*s%*s" with FIELD_WIDTH 18, FLOAT_PRECISION 2, MB = 1e6
// bytes), so a simulated table can be diffed against a measured one.
std::string osu_table(const OsuKind& k, const Json& pts) {
  std::string out = fmt::format("# {} v5.x\n", k.title);
  if (k.pattern == OsuKind::Pattern::PingPong) {
    out += fmt::format("{:<10}{:>18}\n", "# Size", "Latency (us)");
    for (auto& p : pts) out += fmt::format("{:<10}{:>18.2f}\n", p["bytes"].get<long long>(), p["latency_us"].get<double>());
  } else if (k.message_rate) {
    out += fmt::format("{:<10}{:>18}{:>18}\n", "# Size", "MB/s", "Messages/s");
    for (auto& p : pts)
      out += fmt::format("{:<10}{:>18.2f}{:>18.2f}\n", p["bytes"].get<long long>(), p["bandwidth_GBps"].get<double>() * 1e3,
                         p["messages_per_s"].get<double>());
  } else {
    out += fmt::format("{:<10}{:>18}\n", "# Size", "Bandwidth (MB/s)");
    for (auto& p : pts)
      out += fmt::format("{:<10}{:>18.2f}\n", p["bytes"].get<long long>(), p["bandwidth_GBps"].get<double>() * 1e3);
  }
  return out;
}

std::string netpipe_table(const Json& pts) {
  std::string out = fmt::format("# {:<10}{:>16}{:>18}\n", "Size", "Latency (us)", "Bandwidth (GB/s)");
  for (auto& p : pts)
    out += fmt::format("{:<12}{:>16.2f}{:>18.4f}\n", p["bytes"].get<long long>(), p["latency_us"].get<double>(),
                       p["bandwidth_GBps"].get<double>());
  return out;
}

}  // namespace

std::vector<DriverParam> osu_params(const OsuKind& k, bool with_window) {
  const bool pingpong = k.pattern == OsuKind::Pattern::PingPong;
  const auto sizes = k.default_sizes();
  std::string sizes_doc = fmt::format("{} sizes, {} B .. {} B{}", sizes.size(), sizes.front(), sizes.back(),
                                      k.latency_and_bandwidth ? " (0, then each power of two and its -3 / +3 B neighbours)"
                                      : sizes.front() == 0    ? " (0, then powers of two)"
                                                              : " (powers of two)");
  std::string iters = fmt::format("{} up to 8 KiB, {} above", k.iters_small, k.iters_large);
  std::string skip = fmt::format("{} up to 8 KiB, {} above", k.skip_small, k.skip_large);
  std::vector<DriverParam> p{
      {"sizes", "list of sizes (bytes or \"8 KiB\")", sizes_doc, "message sizes, each a full benchmark loop"},
      integer_key("iterations", 1, 100000000, std::nullopt, "timed iterations per size", iters),
      integer_key("skip", 0, 100000000, std::nullopt, "warm-up iterations per size, not timed", skip)};
  if (with_window) p.push_back(integer_key("window", 1, 100000, 64, "non-blocking sends in flight per iteration"));
  p.push_back(integer_key("buffer_offset", 0, 4095, 0, "bytes added to the page-aligned buffer addresses"));
  p.push_back(text_key("buffer", "host | device", "host",
                       "where the buffers live (OSU's -d rocm D D: the GPU each rank uses, nearest its core)"));
  p.push_back(text_key("alloc", "malloc | mpi_alloc_mem", "malloc",
                       "how the data buffers are allocated (mpi_alloc_mem: registered with every BTL's memory pool; "
                       "Open MPI 1.1's ob1 then takes its registered RDMA path, malloc'ed ones its RNDV/FRAG/PUT path "
                       "unless mpi_leave_pinned)"));
  p.push_back(text_key("datatype", "MPI datatype name", "MPI_BYTE",
                       "datatype of the data messages (MPI_INT: converted by the receiver between unlike architectures)"));
  if (pingpong)
    p.push_back(text_key("prepost", "boolean", "false",
                         "post the receive for the reply before sending (a what-if: replies then never arrive unexpected)"));
  return p;
}

void register_osu_drivers(DriverRegistry& reg) {
  for (const auto& k : osu_kinds()) {
    DriverInfo d;
    d.name = k.name;
    d.family = k.title.empty() ? "NetPIPE" : "OSU point-to-point";
    d.description = k.description;
    d.params = osu_params(k, k.pattern != OsuKind::Pattern::PingPong);
    d.messages = {2, 0, 0};  // a message each way between two ranks, counted as for a ping-pong
    d.parse = [k](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
      return std::make_unique<OsuDriver>(read_osu_block(b, k, block_keys(ctx)), k.two_ranks);
    };
    if (k.latency_and_bandwidth) d.table = [](const Json& res) { return netpipe_table(res["points"]); };
    else d.table = [&k](const Json& res) { return osu_table(k, res["points"]); };
    reg.add(std::move(d));
  }
}

}  // namespace ompisim::bench
