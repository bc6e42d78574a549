// An unexpected-message storm (OSU-style, this project's own driver; no OSU benchmark makes one): every rank but
// rank 0 sends `messages` messages of `size` bytes to rank 0 at once (MPI_Isend, then MPI_Waitall); rank 0 works for
// `delay` (World::compute: no MPI progress) and only then posts its receives (one per sender and message, in each
// sender's order, MPI_Irecv then MPI_Waitall). Until it posts, every message arrives unexpected: on a NIC with hardware
// matching it is kept in the receiver's overflow buffers, and when they run out the NIC drops messages and the provider
// recovers (flow control: onload, re-post, re-send). One storm per size, separated by a driver barrier (zero cost).
// Reported per size: the time from the storm's start until rank 0 has received everything (recv_us) and until the last
// sender's send has completed (send_us), and the messages received; the stack's counters (e.g. cxi_fc_recoveries)
// are in the result's stats. Every receive is checked: each (sender, message) arrives once, with its size.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/osu_block.hpp"
#include "benchmarks/task.hpp"
#include "core/units.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::bench {

namespace {
constexpr int kStormTag = 11;

struct StormConfig {
  std::vector<std::uint64_t> sizes;
  long long messages = 8;
  double delay = 0;
};

Buffer storm_buf(int rank, std::uint64_t k) {
  return Buffer{(static_cast<std::uint64_t>(rank) << 36) + (k << 12), true, MemSpace{MemKind::Host, -1}};
}

struct StormCtx {
  World& w;
  Stack& s;
  const StormConfig& c;
  GlobalSync sync;
  int n;
  double t0 = 0;
  std::vector<double> recv_done, send_done;   // per size
  std::vector<long long> received;            // per size
};

Task storm_rank(StormCtx& x, int me) {
  for (std::size_t k = 0; k < x.c.sizes.size(); ++k) {
    const std::uint64_t size = x.c.sizes[k];
    co_await x.sync.arrive();
    if (me == 0) x.t0 = x.w.sim().now();
    if (me == 0) {
      if (x.c.delay > 0) {
        Pending d;
        x.w.cpus().compute(0, x.c.delay, d.add());
        co_await d;
      }
      Pending p;
      // One receive per (sender, message); each checks that it got its own message, once.
      std::vector<int> got(static_cast<std::size_t>(x.n) * static_cast<std::size_t>(x.c.messages), 0);
      for (int src = 1; src < x.n; ++src)
        for (long long i = 0; i < x.c.messages; ++i) {
          auto slot = static_cast<std::size_t>(src) * static_cast<std::size_t>(x.c.messages) + static_cast<std::size_t>(i);
          auto c = p.add();
          x.s.irecv(0, src, kStormTag, size, storm_buf(0, slot), [&x, &got, slot, k, c] {
            if (++got[slot] != 1) throw std::logic_error("unexpected_storm: a receive completed twice");
            ++x.received[k];
            c();
          });
        }
      co_await p;
      x.recv_done[k] = x.w.sim().now() - x.t0;
    } else {
      Pending p;
      for (long long i = 0; i < x.c.messages; ++i) x.s.isend(me, 0, kStormTag, size, storm_buf(me, static_cast<std::uint64_t>(i)), p.add());
      co_await p;
      x.send_done[k] = std::max(x.send_done[k], x.w.sim().now() - x.t0);
    }
  }
  co_await x.sync.arrive();
}

class StormDriver final : public ConfiguredDriver<StormDriver, StormConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  Json run(World& w, Stack& s, const std::string&) const override {
    const int n = static_cast<int>(w.contexts().ranks());
    StormCtx x{w, s, c_, GlobalSync(w.sim(), n), n, 0, std::vector<double>(c_.sizes.size(), 0.0),
               std::vector<double>(c_.sizes.size(), 0.0), std::vector<long long>(c_.sizes.size(), 0)};
    for (int r = 0; r < n; ++r) storm_rank(x, r);
    w.sim().run();
    Json points = Json::array();
    const long long expect = static_cast<long long>(n - 1) * c_.messages;
    for (std::size_t k = 0; k < c_.sizes.size(); ++k) {
      if (x.received[k] != expect)
        throw std::logic_error(fmt::format("unexpected_storm: {} of {} messages received at {} B", x.received[k],
                                           expect, c_.sizes[k]));
      points.push_back(Json{{"bytes", c_.sizes[k]},
                            {"recv_us", x.recv_done[k] * 1e6},
                            {"send_us", x.send_done[k] * 1e6},
                            {"messages", x.received[k]},
                            {"storm_bytes", static_cast<double>(expect) * static_cast<double>(c_.sizes[k])}});
    }
    return points;
  }
  void check(const DriverContext& ctx) const override {
    for (long long n : ctx.ranks)
      if (n < 2) throw InputError(ctx.file, "ranks", fmt::format("unexpected_storm needs 2 ranks or more, got {}", n));
  }
  std::string label() const override { return "unexpected_storm"; }
};

std::string storm_table(const Json& res) {
  std::string out = fmt::format("# unexpected storm: N-1 senders to rank 0\n{:<10}{:>14}{:>14}{:>12}\n", "# Size",
                                "Recv (us)", "Send (us)", "Messages");
  for (auto& p : res["points"])
    out += fmt::format("{:<10}{:>14.2f}{:>14.2f}{:>12}\n", p["bytes"].get<long long>(), p["recv_us"].get<double>(),
                       p["send_us"].get<double>(), p["messages"].get<long long>());
  return out;
}
}  // namespace

void register_storm_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "unexpected_storm";
  d.family = "message storm";
  d.description = "every rank but 0 sends `messages` messages to rank 0, which posts its receives only after `delay`";
  d.params = {{"sizes", "list of sizes (bytes or \"8 KiB\")", "1 KiB, 4 KiB", "message sizes, one storm each"},
              integer_key("messages", 1, 100000, 8, "messages per sender and storm"),
              text_key("delay", "time (\"100 us\")", "0 us", "rank 0 works this long before posting its receives")};
  d.parse = [keys = d.params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    StormConfig c;
    c.sizes = read_sizes(b, {1024, 4096});
    c.messages = *read_integer(b, keys, "messages");
    c.delay = b.opt_quantity("delay", Dim::Time, 0, 1).value_or(
        parse_quantity(declared_default(block_keys(ctx), "delay"), Dim::Time));
    return std::make_unique<StormDriver>(std::move(c));
  };
  d.table = storm_table;
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
