// Intel MPI Benchmarks, IMB-MPI1 Reduce (the heterogeneous paper's Fig. 4), as a driver over the collectives registry.
// IMB's own rules (IMB_settings.h, IMB user guide "Actual Benchmarking" and "Reduce"; status V: read from the
// intel/mpi-benchmarks sources and the user guide):
//  * message lengths 0 and 2^k bytes from sizeof(float) = 4 up to 2^MAXMSGLOG = 4 MiB (reductions start at one float);
//    the vector is MPI_FLOAT, the operation MPI_SUM;
//  * repetitions: MSGSPERSAMPLE = 1000 at length 0, else max(1, min(1000, OVERALL_VOL / X)) with OVERALL_VOL = 40 MiB;
//  * the root of iteration i is i % P (changed round robin); there is no barrier between iterations (after N_BARR
//    barriers the loop runs back to back, so iteration i+1 of a rank may start while the root of i still reduces);
//  * each rank times its whole loop, t = (t2 - t1) / repetitions; IMB reports t_min, t_max and t_avg over the ranks.
// IMB 3.2 (2008) added a time limit per length (SECS_PER_SAMPLE) and warm-up calls; the 2006 runs predate it
// (IMB 2.3 / 3.0): "warmup" (default 0) adds untimed calls before the loop, "time_limit" is not modelled.
// The reduction's arithmetic is charged on the processor of the rank that reduces: count x the node type's
// arch.reduce_cost_per_element (machine file). A typed vector received from a rank of another architecture is
// converted by the receiver (pml/ob1, receiver makes right) before it is reduced.
// LIMITATIONS: the barriers before each length are a zero-cost global synchronisation; off-cache mode is not modelled
// (IMB's default reuses the same buffers, as here); MPI_FLOAT only.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/coll_choice.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/osu_block.hpp"
#include "benchmarks/schedule_exec.hpp"
#include "benchmarks/task.hpp"
#include "collectives/registry.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ompisim::bench {

namespace {
constexpr int kImbTag = 0x7d00;
constexpr std::uint64_t kMsgsPerSample = 1000;           // IMB_settings.h MSGSPERSAMPLE
constexpr std::uint64_t kOverallVol = 40ull * 1048576;   // IMB_settings.h OVERALL_VOL
constexpr int kMaxMsgLog = 22;                           // IMB_settings.h MAXMSGLOG

struct ImbConfig {
  CollChoice algo;  // reduce, by an algorithm or a decision table ("tuned-v1.1")
  std::vector<std::uint64_t> sizes;
  long long repetitions = -1;  // -1: IMB's rule
  long long warmup = 0;
};

std::uint64_t imb_repetitions(const ImbConfig& c, std::uint64_t bytes) {
  if (c.repetitions > 0) return static_cast<std::uint64_t>(c.repetitions);
  if (bytes == 0) return kMsgsPerSample;
  return std::max<std::uint64_t>(1, std::min(kMsgsPerSample, kOverallVol / bytes));
}

struct ImbCtx {
  World& w;
  const ImbConfig& c;
  std::vector<coll::Generator> gen;  // per size
  GlobalSync sync;
  ScheduleExec exec;
  int n;
};

Task imb_rank(ImbCtx& x, int me, std::vector<std::vector<double>>& out) {
  for (std::size_t k = 0; k < x.c.sizes.size(); ++k) {
    const std::uint64_t reps = imb_repetitions(x.c, x.c.sizes[k]);
    coll::AlgoParams p;
    p.bytes = static_cast<std::uint32_t>(x.c.sizes[k]);
    p.elem_bytes = sizeof(float);  // MPI_FLOAT: an algorithm that splits the vector splits whole elements
    for (long long i = 0; i < x.c.warmup; ++i) {
      p.root = static_cast<int>(i % x.n);
      Pending done;
      x.exec.start(me, x.gen[k](me, x.n, p), kImbTag, Group{0, 1, x.n}, done.add());
      co_await done;
    }
    co_await x.sync.arrive();  // IMB_do_n_barriers before the timed loop
    const double t1 = x.w.sim().now();
    for (std::uint64_t i = 0; i < reps; ++i) {
      p.root = static_cast<int>(i % static_cast<std::uint64_t>(x.n));  // IMB: root = i % num_procs
      Pending done;
      x.exec.start(me, x.gen[k](me, x.n, p), kImbTag, Group{0, 1, x.n}, done.add());
      co_await done;
    }
    out[k][static_cast<std::size_t>(me)] = (x.w.sim().now() - t1) / static_cast<double>(reps);
  }
}

class ImbReduceDriver final : public ConfiguredDriver<ImbReduceDriver, ImbConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  std::string label() const override { return "IMB Reduce " + c_.algo.algorithm; }
  void check(const DriverContext& ctx) const override {
    for (long long n : ctx.ranks)
      for (auto size : c_.sizes) (void)c_.algo.find(static_cast<int>(n), size, ctx.file);
  }
  bool narrow_for_calibration(const Json& sel) override { return narrow_sizes(c_.sizes, sel); }
  Json run(World& w, Stack& s, const std::string& file) const override {
    const int n = static_cast<int>(w.contexts().ranks());
    std::vector<coll::Generator> gens;
    for (auto size : c_.sizes) gens.push_back(c_.algo.find(n, size, file)->make);
    ImbCtx x{w, c_, gens, GlobalSync(w.sim(), n), ScheduleExec(s, n), n};
    x.exec.datatype = mpi::kFloat;
    x.exec.reduce = reduce_arithmetic(w, static_cast<std::uint32_t>(mpi::kFloat.size), "imb_reduce", file);
    std::vector<std::vector<double>> out(c_.sizes.size(), std::vector<double>(static_cast<std::size_t>(n), 0.0));
    for (int r = 0; r < n; ++r) imb_rank(x, r, out);
    w.sim().run();
    Json pts = Json::array();
    for (std::size_t k = 0; k < c_.sizes.size(); ++k) {
      double sum = 0, lo = 1e300, hi = 0;
      for (double t : out[k]) {
        sum += t;
        lo = std::min(lo, t);
        hi = std::max(hi, t);
      }
      pts.push_back({{"bytes", c_.sizes[k]},
                     {"repetitions", imb_repetitions(c_, c_.sizes[k])},
                     {"t_min_us", lo * 1e6},
                     {"t_max_us", hi * 1e6},
                     {"t_avg_us", sum / n * 1e6},
                     {"latency_us", sum / n * 1e6},
                     {"algorithm", c_.algo.decide(n, c_.sizes[k]).algorithm}});
    }
    return pts;
  }
};

std::vector<std::uint64_t> imb_reduce_default_sizes() {
  std::vector<std::uint64_t> s{0};
  for (std::uint64_t b = sizeof(float); b <= (1ull << kMaxMsgLog); b *= 2) s.push_back(b);
  return s;
}
}  // namespace

void register_imb_drivers(DriverRegistry& reg) {
  auto algos = [] { return coll::default_registry().names("reduce"); };
  std::vector<DriverParam> params{
      {"sizes", "list of sizes (bytes, multiples of 4)", "0, then powers of two 4 B .. 4 MiB (IMB: MPI_FLOAT, MAXMSGLOG 22)",
       "message lengths"},
      integer_key("repetitions", 1, 100000000, std::nullopt, "timed calls per length",
                  "IMB: 1000 at 0 B, else max(1, min(1000, 40 MiB / length))"),
      integer_key("warmup", 0, 100000000, 0, "untimed calls before each length's loop (0: IMB before 3.2)"),
      text_key("algorithm", "name | tuned-v1.1", "tuned-v1.1",
       "the reduce algorithm; tuned-v1.1: Open MPI 1.1's coll/tuned fixed decision "
       "(collectives/decision/ompi_v1_1_tuned.json)",
       [algos] {  // the registered algorithms and the decision table the parser also accepts
         auto v = algos();
         v.push_back("tuned-v1.1");
         return v;
       })};
  reg.add({"imb_reduce", "imb",
           "IMB-MPI1 Reduce (MPI_FLOAT, MPI_SUM, root i % P; t_min / t_max / t_avg over ranks)", params,
           [params](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
             ImbConfig c;
             c.sizes = read_sizes(b, imb_reduce_default_sizes());
             for (std::size_t i = 0; i < c.sizes.size(); ++i) {
               if (c.sizes[i] % sizeof(float) != 0)
                 b.fail(b.has("sizes") ? "sizes[" + std::to_string(i) + "]" : "sizes",
                        fmt::format("{} B is not a whole number of MPI_FLOAT elements (4 B)", c.sizes[i]));
               if (c.sizes[i] > 0xffffffffull) b.fail("sizes", "a reduction vector above 4 GiB is not supported");
             }
             c.repetitions = read_integer(b, params, "repetitions").value_or(-1);  // -1: IMB's rule per length
             c.warmup = *read_integer(b, params, "warmup");
             c.algo = CollChoice::read(b, "reduce", declared_default(block_keys(ctx), "algorithm"), {"tuned-v1.1"});
             return std::make_unique<ImbReduceDriver>(c);
           },
           [](const Json& res) {
             std::string out = fmt::format("{:>12}{:>14}{:>14}{:>14}{:>14}\n", "#bytes", "#repetitions",
                                           "t_min[usec]", "t_max[usec]", "t_avg[usec]");
             for (auto& p : res["points"])
               out += fmt::format("{:>12}{:>14}{:>14.2f}{:>14.2f}{:>14.2f}\n", p["bytes"].get<long long>(),
                                  p["repetitions"].get<long long>(), p["t_min_us"].get<double>(),
                                  p["t_max_us"].get<double>(), p["t_avg_us"].get<double>());
             return out;
           }});
}

}  // namespace ompisim::bench
