// Sandia SMB "mpi_overhead" (Doerfler & Brightwell, EuroPVM/MPI 2006), post-work-wait method, 2 ranks. Rank 0 sends,
// rank 1 receives, `iterations` messages per batch; the measured side (`side`) does, per message: post (MPI_Isend or
// MPI_Irecv), work for W, MPI_Wait; its peer posts and waits. In the receive test the sender sends each message
// once the receiver has posted (a zero-byte "ready" message): SMB measures posted receives. A batch ends with a zero-byte message from the receiver.
// First the batch runs with W = 0 (base time per iteration); then W grows (x1.2 from 5 % of the base) until the
// iteration is `threshold_pct` longer than the base. At that point overhead = iteration - W and availability =
// W / iteration: the share of the iteration the application kept. The work loop is World::compute: it runs on the
// rank's core, is lengthened by interrupts, and MPI makes no progress while it runs (no progress thread).
// LIMITATIONS: the threshold default (10 %) and the growth factor are this driver's choices, not SMB's published
// defaults (not in the sources available).
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/osu_block.hpp"
#include "benchmarks/task.hpp"
#include "core/units.hpp"

#include <fmt/format.h>

namespace ompisim::bench {

namespace {
constexpr int kTag = 7, kAckTag = 8, kGoTag = 9;
constexpr int kMaxTrials = 80;
constexpr std::uint64_t kLargeMessage = 8192;
constexpr long long kItersSmall = 50, kItersLarge = 20;  // messages per batch up to / above 8 KiB (this driver's choice)

struct SmbCtx {
  SmbCtx(World& w_, Stack& s_, const OsuConfig& c_, int measured_)
      : w(w_), s(s_), c(c_), sync(w_.sim(), 2), measured(measured_) {}
  World& w;
  Stack& s;
  const OsuConfig& c;
  GlobalSync sync;
  int measured;
  // decided by the measured rank between batches (driver bookkeeping, zero simulated cost)
  double work = 0, base = 0;
  std::vector<bool> more;  // one decision per batch, in order (each rank reads its own next entry)
  Json points = Json::array();
  std::size_t next[2] = {0, 0};  // each rank's read position in `more`
};

Buffer smb_buf(int rank) { return Buffer{(static_cast<std::uint64_t>(rank) << 36) + (3ull << 32), true}; }

Task smb_rank(SmbCtx& x, int me) {
  int peer = 1 - me;
  bool measured = me == x.measured;
  for (std::uint64_t size : x.c.sizes) {
    long long iters = size > kLargeMessage ? kItersLarge : kItersSmall;
    if (x.c.iterations > 0) iters = x.c.iterations;
    int trial = 0;
    if (measured) x.work = 0;
    while (true) {
      co_await x.sync.arrive();
      double t0 = x.w.sim().now();
      for (long long i = 0; i < iters; ++i) {
        Pending p;
        bool recv_side = x.c.side == "recv";
        if (me == 0) {
          if (recv_side) {  // send only once the receive is posted (the receiver's zero-byte "ready")
            Pending g;
            x.s.irecv(me, peer, kGoTag, 0, smb_buf(me), g.add());
            co_await g;
          }
          x.s.isend(me, peer, kTag, size, smb_buf(me), p.add());
        } else {
          x.s.irecv(me, peer, kTag, size, smb_buf(me), p.add());
          if (recv_side) x.s.isend(me, peer, kGoTag, 0, smb_buf(me), p.add());
        }
        if (measured) co_await Work{x.w, me, x.work};
        co_await p;
      }
      Pending a;
      if (me == 1) x.s.isend(me, peer, kAckTag, 0, smb_buf(me), a.add());
      else x.s.irecv(me, peer, kAckTag, 0, smb_buf(me), a.add());
      co_await a;
      if (measured) {
        double t = (x.w.sim().now() - t0) / static_cast<double>(iters);
        bool more = true;
        if (trial == 0) {
          x.base = t;
          x.work = 0.05 * t;
        } else if (t >= (1 + x.c.threshold_pct / 100) * x.base || trial >= kMaxTrials) {
          x.points.push_back({{"bytes", size},
                              {"side", x.c.side},
                              {"availability_pct", 100.0 * x.work / t},
                              {"overhead_us", (t - x.work) * 1e6},
                              {"work_us", x.work * 1e6},
                              {"iteration_us", t * 1e6},
                              {"base_us", x.base * 1e6}});
          more = false;
        } else {
          x.work *= 1.2;
        }
        ++trial;
        x.more.push_back(more);
      }
      co_await x.sync.arrive();
      if (!x.more[x.next[me]++]) break;
    }
  }
  co_await x.sync.arrive();
}
}  // namespace

Json run_smb(World& w, Stack& s, const OsuConfig& c) {
  SmbCtx x(w, s, c, c.side == "send" ? 0 : 1);
  smb_rank(x, 0);
  smb_rank(x, 1);
  w.sim().run();
  return x.points;
}

namespace {

class SmbDriver final : public ConfiguredDriver<SmbDriver, OsuConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  Json run(World& w, Stack& s, const std::string&) const override { return run_smb(w, s, c_); }
  void check(const DriverContext& ctx) const override { check_pair_ranks(ctx, c_.name, true); }
  std::string label() const override { return c_.name; }
  std::string alloc_mem_key() const override { return c_.alloc_mem ? "benchmark.alloc" : ""; }
  bool narrow_for_calibration(const Json& sel) override { return narrow_osu(c_, sel); }
};

}  // namespace

void register_smb_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "smb_overhead";
  d.family = "Sandia SMB";
  d.description = "Sandia SMB mpi_overhead (post-work-wait): CPU availability and overhead of a send or a receive, "
                  "2 ranks";
  d.params = {
      {"sizes", "list of sizes (bytes or \"8 KiB\")", "powers of two 1 B .. 1 MiB", "message sizes, one search each"},
      integer_key("iterations", 1, 100000000, std::nullopt, "messages per batch", "50 up to 8 KiB, 20 above"),
      text_key("side", "\"send\" | \"recv\"", "recv", "whose CPU availability is measured",
               [] { return std::vector<std::string>{"send", "recv"}; }),
      text_key("threshold_pct", "percentage in (0, 1000]", "10",
               "the work grows until an iteration is this much longer than without work")};
  d.parse = [keys = d.params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    OsuConfig c;
    c.name = "smb_overhead";
    std::vector<std::uint64_t> sizes;  // powers of two 1 B .. 1 MiB
    for (std::uint64_t s = 1; s <= (1u << 20); s *= 2) sizes.push_back(s);
    c.sizes = read_sizes(b, sizes);
    c.iterations = read_integer(b, keys, "iterations").value_or(-1);  // -1: the per-size rule
    if (b.has("prepost")) b.fail("prepost", "only the ping-pong benchmarks (osu_latency, osu_multi_lat, netpipe) take this key");
    c.side = read_text(b, block_keys(ctx), "side");
    if (c.side != "send" && c.side != "recv") b.fail("side", "expected 'send' or 'recv'");
    double t = b.has("threshold_pct")
                   ? json_quantity(b.raw("threshold_pct"), Dim::Ratio, b.file(), b.key_path("threshold_pct"))
                   : parse_quantity(declared_default(block_keys(ctx), "threshold_pct"), Dim::Ratio);
    if (!(t > 0 && t <= 1000)) b.fail("threshold_pct", "expected a percentage in (0, 1000]");
    c.threshold_pct = t;
    return std::make_unique<SmbDriver>(std::move(c));
  };
  d.table = [](const Json& res) {
    std::string out = fmt::format("# {:<10}{:>16}{:>16}\n", "Size", "Availability %", "Overhead (us)");
    for (auto& p : res["points"])
      out += fmt::format("{:<12}{:>16.1f}{:>16.2f}\n", p["bytes"].get<long long>(), p["availability_pct"].get<double>(),
                         p["overhead_us"].get<double>());
    return out;
  };
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
