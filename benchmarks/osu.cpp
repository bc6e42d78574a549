// OSU micro-benchmarks (OMB 5.x) as rank programs. Timing, loop counts, window sizes and what is reported follow the
// OSU sources: osu_latency and osu_multi_lat report the one-way latency (elapsed / 2 / iterations, averaged over the
// pairs); osu_bw and osu_mbw_mr stream `window` non-blocking sends that the receiver acknowledges with a 4-byte
// message; osu_bibw exchanges windows in both directions. osu_multi_lat and osu_mbw_mr pair rank i with i + N/2.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/task.hpp"

#include <algorithm>
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

struct Ctx {
  World& w;
  Stack& s;
  const OsuConfig& c;
  GlobalSync sync;
  std::vector<double> elapsed;  // per size, per rank (time measured by that rank)
  int nranks;
};

// OSU's loop counts for a size, unless the scenario fixes them.
std::pair<long long, long long> loop_for(const OsuConfig& c, std::uint64_t size) {
  long long iters, skip;
  osu_loop(c.name, size, iters, skip);
  if (c.iterations > 0) iters = c.iterations;
  if (c.skip >= 0) skip = c.skip;
  return {iters, skip};
}

Task pingpong_rank(Ctx& x, int me, std::vector<std::vector<double>>& out) {
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
      auto post = [&] { x.s.irecv(me, peer, kTag, size, buf_of(me, 1, x.c.buffer_offset, x.c.buffer), rx.add()); };
      if (!first) post();
      for (long long i = 0; i < iters + skip; ++i) {
        if (i == skip) t0 = x.w.sim().now();
        if (first) post();
        else {
          co_await rx;
          if (i + 1 < iters + skip) post();
        }
        Pending a;
        x.s.isend(me, peer, kTag, size, buf_of(me, 0, x.c.buffer_offset, x.c.buffer), a.add());
        co_await a;
        if (first) co_await rx;
      }
    } else {
      for (long long i = 0; i < iters + skip; ++i) {
        if (i == skip) t0 = x.w.sim().now();
        // The initiator sends then receives (MPI_Send, MPI_Recv); its peer receives then sends.
        for (bool send : {first, !first}) {
          Pending p;
          if (send) x.s.isend(me, peer, kTag, size, buf_of(me, 0, x.c.buffer_offset, x.c.buffer), p.add());
          else x.s.irecv(me, peer, kTag, size, buf_of(me, 1, x.c.buffer_offset, x.c.buffer), p.add());
          co_await p;
        }
      }
    }
    out[k][me] = (x.w.sim().now() - t0) / (2.0 * static_cast<double>(iters));
  }
  co_await x.sync.arrive();
}

// osu_bw / osu_mbw_mr (senders are the first half) and osu_bibw (both directions).
Task stream_rank(Ctx& x, int me, bool bidirectional, std::vector<std::vector<double>>& out) {
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
      if (i == skip) t0 = x.w.sim().now();
      if (bidirectional) {
        Pending p;
        for (long long j = 0; j < window; ++j) x.s.irecv(me, peer, kTag, size, buf_of(me, 1, x.c.buffer_offset, x.c.buffer), p.add());
        for (long long j = 0; j < window; ++j) x.s.isend(me, peer, kTag, size, buf_of(me, 0, x.c.buffer_offset, x.c.buffer), p.add());
        co_await p;
      } else if (sender) {
        Pending p;
        for (long long j = 0; j < window; ++j) x.s.isend(me, peer, kTag, size, buf_of(me, 0, x.c.buffer_offset, x.c.buffer), p.add());
        co_await p;
        Pending a;
        x.s.irecv(me, peer, kAckTag, 4, buf_of(me, 2, 0), a.add());
        co_await a;
      } else {
        Pending p;
        for (long long j = 0; j < window; ++j) x.s.irecv(me, peer, kTag, size, buf_of(me, 1, x.c.buffer_offset, x.c.buffer), p.add());
        co_await p;
        Pending a;
        x.s.isend(me, peer, kAckTag, 4, buf_of(me, 2, 0), a.add());
        co_await a;
      }
    }
    out[k][me] = (x.w.sim().now() - t0) / static_cast<double>(iters);  // time per iteration (one window)
  }
  co_await x.sync.arrive();
}
}  // namespace

const std::vector<std::string>& benchmark_names() {
  static const std::vector<std::string> n{"osu_latency", "osu_multi_lat", "osu_bw",       "osu_bibw",
                                          "osu_mbw_mr",  "netpipe",       "smb_overhead", "barrier_loop",
                                          "app_skeleton"};
  return n;
}

bool is_latency_benchmark(const std::string& n) { return n == "osu_latency" || n == "osu_multi_lat" || n == "netpipe"; }

std::vector<std::uint64_t> osu_default_sizes(const std::string& name) {
  std::vector<std::uint64_t> s;
  if (name == "netpipe") {  // NetPIPE: 0, then each power of two with its +-3 byte perturbations, up to 8 MiB
    s.push_back(0);
    for (std::uint64_t b = 1; b <= (8u << 20); b *= 2) {
      if (b > 4 && b - 3 > s.back()) s.push_back(b - 3);
      if (b > s.back()) s.push_back(b);
      if (b >= 4) s.push_back(b + 3);
    }
    return s;
  }
  if (name == "smb_overhead") {
    for (std::uint64_t b = 1; b <= (1u << 20); b *= 2) s.push_back(b);
    return s;
  }
  if (is_latency_benchmark(name)) s.push_back(0);
  for (std::uint64_t b = 1; b <= (4u << 20); b *= 2) s.push_back(b);
  return s;
}

void osu_loop(const std::string& name, std::uint64_t size, long long& iters, long long& skip) {
  bool large = size > kLargeMessage;
  if (name == "netpipe") {  // NetPIPE sizes its repeat count to a time budget; a fixed count per size here
    iters = large ? 50 : 200;
    skip = large ? 2 : 10;
    return;
  }
  if (name == "smb_overhead") {
    iters = large ? 20 : 50;
    skip = 0;
    return;
  }
  if (is_latency_benchmark(name)) {
    iters = large ? 1000 : 10000;
    skip = large ? 10 : 100;
  } else {
    iters = large ? 20 : 100;
    skip = large ? 2 : 10;
  }
}

Json run_osu(World& w, Stack& s, const OsuConfig& c) {
  int n = static_cast<int>(w.ranks());
  Ctx x{w, s, c, GlobalSync(w.sim(), n), {}, n};
  std::vector<std::vector<double>> out(c.sizes.size(), std::vector<double>(static_cast<std::size_t>(n), 0.0));
  bool lat = is_latency_benchmark(c.name);
  for (int r = 0; r < n; ++r) {
    if (lat) pingpong_rank(x, r, out);
    else stream_rank(x, r, c.name == "osu_bibw", out);
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
      if (c.name == "netpipe") p["bandwidth_GBps"] = lat_s > 0 ? static_cast<double>(size) / lat_s / 1e9 : 0.0;
      points.push_back(p);
    } else {
      // Aggregate bandwidth over the pairs, from the senders' average time per window (as osu_mbw_mr reports it).
      double t = 0;
      for (int r = 0; r < pairs; ++r) t += out[k][static_cast<std::size_t>(r)];
      t /= pairs;
      double dirs = c.name == "osu_bibw" ? 2.0 : 1.0;
      double bytes = static_cast<double>(size) * static_cast<double>(c.window) * dirs * pairs;
      double bw = bytes / t;
      Json p{{"bytes", size}, {"bandwidth_GBps", bw / 1e9}};
      if (c.name == "osu_mbw_mr") p["messages_per_s"] = size ? bw / static_cast<double>(size) : 0.0;
      points.push_back(p);
    }
  }
  return points;
}

}  // namespace ompisim::bench
